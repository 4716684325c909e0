"""Exit statuses, the one-line error format, and text rendering of results."""

from typing import Any, Dict, List

from ..errors import WebSearchError

__all__ = ["EXIT_OK", "EXIT_INVALID", "EXIT_BLOCKED", "EXIT_NETWORK", "EXIT_OTHER", "exit_status", "error_line", "format_text"]

EXIT_OK = 0
EXIT_INVALID = 2
EXIT_BLOCKED = 3
EXIT_NETWORK = 4
EXIT_OTHER = 5

_EXIT_BY_CODE = {
    "InvalidInput": EXIT_INVALID,
    "WebBlocked": EXIT_BLOCKED,
    "AuthError": EXIT_BLOCKED,
    "Timeout": EXIT_NETWORK,
    "NetworkError": EXIT_NETWORK,
}


def exit_status(error: WebSearchError) -> int:
    """The process exit status for an error (see the package docstring)."""
    return _EXIT_BY_CODE.get(error.code, EXIT_OTHER)


def error_line(error: WebSearchError) -> str:
    """``error: <Code>[/<detail_code>]: <message>``."""
    code = error.code + ("/" + error.detail_code if error.detail_code else "")
    return "error: %s: %s" % (code, error.message)


def format_text(response: Dict[str, Any]) -> str:
    """Numbered plain-text listing of a search response."""
    items = response.get("items") or []
    if not items:
        return "No results."
    lines: List[str] = []
    for item in items:
        lines.append("%d. %s" % (item["rank"], item["title"] or "(no title)"))
        lines.append("   %s" % item["url"])
        if item.get("snippet"):
            lines.append("   %s" % item["snippet"])
        lines.append("")
    return "\n".join(lines).rstrip()

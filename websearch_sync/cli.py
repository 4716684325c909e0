"""The ``websearch-sync`` command line.

Exit statuses: 0 success, 2 invalid input (also bad command-line usage),
3 blocked or refused credentials (WebBlocked, AuthError), 4 timeout or network
failure (Timeout, NetworkError), 5 any other failure (BadGateway, WebParseError,
WebProviderError, ToolNotFound).
"""

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Sequence, TextIO

from . import __version__
from .api import search
from .errors import WebSearchError

__all__ = ["main", "exit_status", "EXIT_OK", "EXIT_INVALID", "EXIT_BLOCKED", "EXIT_NETWORK", "EXIT_OTHER"]

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
    """The process exit status for an error (see the module docstring)."""
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


def _positive_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected an integer, got %r" % text) from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``websearch-sync``."""
    parser = argparse.ArgumentParser(
        prog="websearch-sync",
        description="Search the web from the command line, with one result shape and clear errors.",
        epilog='example: websearch-sync search "python requests timeout" -n 3',
    )
    parser.add_argument("--version", action="version", version="websearch-sync " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    search_cmd = commands.add_parser("search", help="search the web and print the results")
    search_cmd.add_argument("query", help="the search terms")
    search_cmd.add_argument("-b", "--backend", help="backend name (default: WEB_SEARCH_BACKEND, else stub)")
    search_cmd.add_argument("-n", "--max-results", type=_positive_int, help="number of results, 1..10 (default 5)")
    search_cmd.add_argument("--timeout-ms", type=_positive_int, help="deadline for the whole call in milliseconds")
    search_cmd.add_argument("--json", action="store_true", help="print the canonical JSON response")
    return parser


def _run_search(args: argparse.Namespace, out: TextIO) -> int:
    response = search(args.query, backend=args.backend, max_results=args.max_results, timeout_ms=args.timeout_ms)
    if args.json:
        out.write(json.dumps(response, ensure_ascii=False, indent=2) + "\n")
    else:
        out.write(format_text(response) + "\n")
    return EXIT_OK


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help/--version (0) or usage error (2)
        return int(exc.code or 0)
    try:
        return _run_search(args, sys.stdout)
    except WebSearchError as error:
        sys.stderr.write(error_line(error) + "\n")
        return exit_status(error)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130

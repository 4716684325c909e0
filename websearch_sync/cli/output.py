"""Exit statuses, the one-line error format, and argument types shared by the sub-commands."""

import argparse

from ..errors import WebSearchError

__all__ = ["EXIT_OK", "EXIT_INVALID", "EXIT_BLOCKED", "EXIT_NETWORK", "EXIT_OTHER", "exit_status", "error_line", "int_arg"]

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


def int_arg(text: str) -> int:
    """An argparse type: an integer (range checks are the library's, so errors read the same)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected an integer, got %r" % text) from None

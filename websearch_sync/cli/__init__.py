"""The ``websearch-sync`` command line (``python -m websearch_sync`` is the same).

Exit statuses: 0 success, 2 invalid input (also bad command-line usage),
3 blocked or refused credentials (WebBlocked, AuthError), 4 timeout or network
failure (Timeout, NetworkError), 5 any other failure (BadGateway, WebParseError,
WebProviderError, ToolNotFound), 130 interrupted.

Each sub-command lives in its own module with ``add_parser(subparsers)``; the
parser it adds carries the function to run (``set_defaults(run=...)``).
"""

import argparse
import sys
from typing import Optional, Sequence

from ..config import VERSION as __version__
from ..errors import WebSearchError
from . import backends_cmd, contract_cmd, fetch_cmd, mcp_cmd, search_cmd
from .output import EXIT_BLOCKED, EXIT_INVALID, EXIT_NETWORK, EXIT_OK, EXIT_OTHER, error_line, exit_status

__all__ = ["main", "build_parser", "exit_status", "EXIT_OK", "EXIT_INVALID", "EXIT_BLOCKED", "EXIT_NETWORK", "EXIT_OTHER"]

COMMANDS = (search_cmd, fetch_cmd, backends_cmd, contract_cmd, mcp_cmd)

EPILOG = """examples:
  websearch-sync search "python requests timeout" -n 3
  WEB_SEARCH_BACKEND=ddg_html websearch-sync search "rust async" --json
  websearch-sync search --queries-file queries.txt -b brave,ddg_html > results.jsonl
  websearch-sync fetch https://example.com/article --mode text
  websearch-sync backends

exit statuses: 0 ok, 1 verify/check-live/record found a problem, 2 invalid input,
3 blocked/auth, 4 timeout/network, 5 other failure"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``websearch-sync``."""
    parser = argparse.ArgumentParser(
        prog="websearch-sync",
        description="Search the web and read pages from the command line, with one result shape and clear errors.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version="websearch-sync " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help/--version (0) or usage error (2)
        return int(exc.code or 0)
    try:
        return args.run(args)
    except WebSearchError as error:
        sys.stderr.write(error_line(error) + "\n")
        return exit_status(error)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130

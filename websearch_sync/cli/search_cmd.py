"""``websearch-sync search``."""

import argparse
import json
import sys

from ..api import search
from .output import EXIT_OK, format_text

__all__ = ["add_parser", "run"]


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected an integer, got %r" % text) from None


def add_parser(commands: "argparse._SubParsersAction") -> None:
    """Add the ``search`` sub-command."""
    parser = commands.add_parser("search", help="search the web and print the results")
    parser.add_argument("query", help="the search terms")
    parser.add_argument("-b", "--backend", help="backend name (default: WEB_SEARCH_BACKEND, else stub)")
    parser.add_argument("-n", "--max-results", type=_int, help="number of results, 1..10 (default 5)")
    parser.add_argument("--timeout-ms", type=_int, help="deadline for the whole call in milliseconds")
    parser.add_argument("--json", action="store_true", help="print the canonical JSON response")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run one search and print it."""
    response = search(args.query, backend=args.backend, max_results=args.max_results, timeout_ms=args.timeout_ms)
    if args.json:
        sys.stdout.write(json.dumps(response, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(format_text(response) + "\n")
    return EXIT_OK

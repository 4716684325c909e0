"""``websearch-sync state clear [--backend B]``: lift cool-downs an operator knows are over.

Cool-downs live in each process (and end with it) unless a shared state is configured
(``WEB_SEARCH_STATE_URL`` or ``--state-url``): then they live in Redis, where every worker
obeys them, and this command deletes them there.
"""

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator

from .output import EXIT_OK

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

EPILOG = """examples:
  WEB_SEARCH_STATE_URL=redis://localhost:6379/0 websearch-sync state clear
  websearch-sync state clear --backend ddg_html --state-url redis://localhost:6379/0"""


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``state`` sub-command (``state clear``)."""
    parser = commands.add_parser(
        "state",
        help="manage the shared state: clear cool-downs",
        description="Manage what the processes of a shared state (Redis) keep for one another.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    clear = actions.add_parser(
        "clear",
        help="lift cool-downs (every backend's, or one's)",
        description="Lift the cool-downs every worker obeys after a block (a captcha, HTTP 429/403), for every "
        "backend or one. Without a shared state there is nothing to clear: a process's cool-downs end with it.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    clear.add_argument("--backend", "-b", metavar="NAME", help="only this backend (its parts too)")
    clear.add_argument(
        "--state-url",
        metavar="URL",
        help="redis://host:port/db holding the shared state (default: WEB_SEARCH_STATE_URL)",
    )
    clear.set_defaults(run=run_clear)


def run_clear(args: argparse.Namespace) -> int:
    """Clear the cool-downs; print what was lifted."""
    from ..client.search_client import SearchClient
    from ..engine import registry

    with _without_outage_warning(), SearchClient("stub", state_url=args.state_url, cache_ttl_s=0) as client:
        if args.backend is not None:  # a misspelt name is refused with a shared state or without one
            registry.backend_class(args.backend)
        if not (args.state_url or client.settings.state_url):
            sys.stderr.write(
                "no shared state configured (WEB_SEARCH_STATE_URL or --state-url): cool-downs live in each "
                "process and end with it; nothing to clear\n"
            )
            return EXIT_OK
        lifted = client.clear_cooldowns(args.backend)
    sys.stdout.write(
        "cleared %d cool-down%s%s\n"
        % (len(lifted), "" if len(lifted) == 1 else "s", ": " + ", ".join(lifted) if lifted else "")
    )
    return EXIT_OK


@contextlib.contextmanager
def _without_outage_warning() -> Iterator[None]:
    """Leave out the library's warning that the shared state is down and what calls do meanwhile:
    this command's own error (``state_unavailable``: nothing was cleared) says it for a one-shot run."""
    from ..client.state.server import OUTAGE_RECORD

    def keep(record: logging.LogRecord) -> bool:
        return not getattr(record, OUTAGE_RECORD, False)

    library = logging.getLogger("websearch_sync")
    library.addFilter(keep)
    try:
        yield
    finally:
        library.removeFilter(keep)

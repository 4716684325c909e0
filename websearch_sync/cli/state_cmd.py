"""``websearch-sync state show``: what the shared state holds now; ``state clear [--backend B]``:
lift cool-downs an operator knows are over.

Cool-downs and paces live in each process (and end with it) unless a shared state is configured
(``WEB_SEARCH_STATE_URL`` or ``--state-url``): then they live in Redis, where every worker
obeys them, and these commands read and delete them there.
"""

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Optional

from ..engine.stdout_claim import owner_stdout
from ..errors import counted
from .output import EXIT_OK, json_text, terminal_text

if TYPE_CHECKING:
    from ..client.state.server import SharedState
    from ..config import Settings

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

EPILOG = """examples:
  WEB_SEARCH_STATE_URL=redis://localhost:6379/0 websearch-sync state clear
  websearch-sync state clear --backend ddg_html --state-url redis://localhost:6379/0"""
SHOW_EPILOG = """examples:
  WEB_SEARCH_STATE_URL=redis://localhost:6379/0 websearch-sync state show
  websearch-sync state show --json --state-url redis://localhost:6379/0"""
#: Said when there is no shared state to read or clear.
NO_STATE = "no shared state configured (WEB_SEARCH_STATE_URL or --state-url): cool-downs and paces live in each process and end with it; nothing to %s\n"


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``state`` sub-command (``state clear``)."""
    parser = commands.add_parser(
        "state",
        help="manage the shared state: show it, clear cool-downs",
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
        "--cache",
        action="store_true",
        help="delete the cached answers instead (every one: answers are not kept by backend)",
    )
    show = actions.add_parser(
        "show",
        help="list the shared cool-downs and paces, count questions in flight and cached answers",
        description="List what every worker of a shared state obeys now: the cool-downs (and the seconds they have "
        "left), the paces (the processes sharing each, and when its next slot is free), and count the questions in "
        "flight and the answers cached.",
        epilog=SHOW_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for command in (clear, show):
        command.add_argument(
            "--state-url",
            metavar="URL",
            help="redis://host:port/db holding the shared state (default: WEB_SEARCH_STATE_URL)",
        )
    show.add_argument("--json", action="store_true", help="print what was found as JSON (for a monitor)")
    clear.set_defaults(run=run_clear)
    show.set_defaults(run=run_show)


def run_clear(args: argparse.Namespace) -> int:
    """Clear the cool-downs (or, with ``--cache``, the cached answers); print what was lifted."""
    from ..client.search_client import SearchClient
    from ..engine import registry

    if args.cache:
        return _clear_answers(args)
    if args.backend is None:
        lifted = _clear_every_cooldown(args)
        if lifted is None:
            return EXIT_OK
    else:  # the backend's endpoints are read from its settings: a client's, which loads the plugins
        with _without_outage_warning(), SearchClient("stub", state_url=args.state_url, cache_ttl_s=0) as client:
            registry.backend_class(args.backend)  # a misspelt name is refused with a shared state or without one
            if not (args.state_url or client.settings.state_url):
                sys.stderr.write(NO_STATE % "clear")
                return EXIT_OK
            lifted = client.clear_cooldowns(args.backend)
            _note_hosts_not_lifted(args.backend, lifted, client.settings)
    owner_stdout().write(
        "cleared %d cool-down%s%s\n"
        % (len(lifted), "" if len(lifted) == 1 else "s", ": " + ", ".join(lifted) if lifted else "")
    )
    return EXIT_OK


def _note_hosts_not_lifted(backend: str, lifted: "list[str]", settings: "Settings") -> None:
    """Say on stderr when ``backend``'s cool-downs were lifted by its instances' names
    (``searxng@<host:port>``) while its endpoint is not configured in this shell: the cool-down its
    block put on that endpoint's host, for fetches (``host:<host>``), cannot be found from here
    (the instance's key does not spell the host's) and stays until it ends."""
    from ..client.hostgate import backend_hosts

    if backend_hosts(backend, settings) or not any(name.startswith(backend + "@") for name in lifted):
        return
    sys.stderr.write(
        "note: %s's endpoint is not configured in this shell, so the cool-down its block put on the endpoint's"
        " host (for fetches; `websearch-sync state show` lists it as host:...) is not lifted: run this with the"
        " workers' settings for %s, or `websearch-sync state clear` to lift every cool-down\n" % (backend, backend)
    )


def _clear_every_cooldown(args: argparse.Namespace) -> "Optional[list[str]]":
    """``state clear`` without ``--backend``: lift every cool-down of the shared state; the names
    lifted, sorted (``None``, said on stderr, without a shared state). No backend's settings are read, so
    no plugin is imported (as for ``state show``): a fresh process holds no cool-down of its own."""
    from ..client.state.cooldowns import SharedCooldowns

    with _without_outage_warning():
        state = _operator_state(args, "clear")
        return None if state is None else sorted(set(SharedCooldowns(state).clear()))  # as a client's lift: sorted


def _clear_answers(args: argparse.Namespace) -> int:
    """``state clear --cache``: delete the shared cache's answers; print how many."""
    from ..client.state.results import RedisCache
    from ..errors import BAD_ARGUMENTS, InvalidInput

    if args.backend is not None:
        raise InvalidInput(
            "state clear --cache deletes every cached answer: answers are kept by a hash of the call, not by"
            " backend (leave out --backend)",
            detail_code=BAD_ARGUMENTS,
        )
    with _without_outage_warning():
        state = _operator_state(args, "clear")
        if state is None:
            return EXIT_OK
        deleted = RedisCache(state, []).clear()
    owner_stdout().write("deleted %d cached answer%s\n" % (deleted, "" if deleted == 1 else "s"))
    return EXIT_OK


def _operator_state(args: argparse.Namespace, action: str) -> "Optional[SharedState]":
    """The shared state of ``--state-url`` (else the environment's); ``None``, said on stderr, without one."""
    from ..client.clock import SYSTEM_CLOCK
    from ..client.state import shared_state
    from ..config import shared_from_env

    settings = shared_from_env()  # no backend's variables: the plugins are not imported for this
    state = shared_state(settings, args.state_url, SYSTEM_CLOCK, settings.timeout_ms)
    if state is None:
        sys.stderr.write(NO_STATE % action)
    return state


def run_show(args: argparse.Namespace) -> int:
    """Print what the shared state holds: cool-downs, paces, questions in flight, cached answers."""
    from ..client.state.server import NAMESPACE
    from ..client.state.survey import survey

    with _without_outage_warning():
        state = _operator_state(args, "show")
        if state is None:
            return EXIT_OK
        found = survey(state)
    if args.json:
        report = {
            "state": state.server.shown,
            "namespace": state.namespace,
            "cooldowns": [cooldown._asdict() for cooldown in found.cooldowns],
            "paces": [pace._asdict() for pace in found.paces],
            "flights": found.flights,
            "answers": found.answers,
            "other_namespaces": found.other_namespaces,
        }
        out = owner_stdout()
        out.write(json_text(report, out, indent=2) + "\n")
        return EXIT_OK
    lines = [
        "shared state %s%s"
        % (state.server.shown, " (keys %s*)" % state.namespace if state.namespace != NAMESPACE else "")
    ]
    lines.append("cool-downs: %d" % len(found.cooldowns))
    lines += [
        "  %s  %s  %.0f s left"
        % (_shown(cooldown.name), _shown(cooldown.detail_code or "(unreadable record)"), cooldown.left_s)
        for cooldown in found.cooldowns
    ]
    lines.append("paces: %d" % len(found.paces))
    lines += [
        "  %s  %s lately%s, next slot %s"
        % (
            pace.upstream,
            counted(pace.processes, "process", "processes"),
            _foreign(pace.foreign),
            "in %.1f s" % pace.next_slot_s if pace.next_slot_s else "free",
        )
        for pace in found.paces
    ]
    lines += ["questions in flight: %d" % found.flights, "cached answers: %d" % found.answers]
    if found.other_namespaces:  # a worker given another prefix (or none) keeps a state of its own
        lines.append("other namespaces here: %s" % ", ".join(_shown(name) for name in found.other_namespaces))
    owner_stdout().write("\n".join(lines) + "\n")
    return EXIT_OK


def _foreign(members: int) -> str:
    """What ``state show`` says of a fleet's members of another format (planted, or a bug's)."""
    if not members:
        return ""
    return " (and %s of another format, counted for none: the next booking drops them)" % counted(members, "member")


def _shown(name: str) -> str:
    """A key's name on one line of a terminal: anyone who can write to the Redis chose it."""
    return terminal_text(name).replace("\n", " ").replace("\t", " ")


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

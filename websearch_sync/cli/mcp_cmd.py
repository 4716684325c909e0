"""``websearch-sync mcp``: serve ``web_search`` and ``web_fetch`` to an MCP client over stdio.

Needs the ``mcp`` extra; without it the command exits 2 with one line saying how
to install it. Configuration comes from the environment as everywhere, plus the
flags below. Logging goes to stderr: stdout carries the protocol only.
"""

import argparse
import logging
import sys
from typing import TYPE_CHECKING, Any, Optional

from ..config import Settings, check_backend_names
from ..engine.stdout_claim import owner_stdout
from ..errors import BAD_ARGUMENTS, InvalidInput
from ..mcp import DEFAULT_MAX_CONCURRENT, DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S
from ..models import STRATEGIES
from .output import CACHE_MAX_ANSWERS_HELP, EXIT_OK, cache_file_options, choice_flag, int_arg

if TYPE_CHECKING:
    from ..client.search_client import SearchClient

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Flags handed to ``SearchClient`` as keyword arguments when given:
#: ``(flag, SearchClient keyword, argparse options)``. A new client option is one line here.
CLIENT_FLAGS = (
    (
        "--backend",
        "backend",
        {"help": "backend name, comma-separated list, or auto (default: WEB_SEARCH_BACKEND, else stub)"},
    ),
    (
        "--strategy",
        "strategy",
        {**choice_flag("strategy", STRATEGIES), "help": "with several backends: fallback (default) or merge"},
    ),
    ("--cache-path", "cache_path", {"metavar": "PATH", "help": "SQLite file caching answers across server runs"}),
    (
        "--cache-max-answers",
        "cache_max_answers",
        {"type": int_arg, "metavar": "N", "help": CACHE_MAX_ANSWERS_HELP},
    ),
    (
        "--state-url",
        "state_url",
        {
            "metavar": "URL",
            "help": "redis://host:port/db: share cache, rate limits and cool-downs with other processes (default: WEB_SEARCH_STATE_URL)",
        },
    ),
)

LOG_LEVELS = ("debug", "info", "warning", "error")

EPILOG = """examples:
  websearch-sync mcp
  WEB_SEARCH_BACKEND=brave BRAVE_API_KEY=... websearch-sync mcp --cache-path ~/.cache/websearch.sqlite
  websearch-sync mcp --backend auto --strategy merge

MCP client configuration (command, args, env): see mcp.md in the documentation (websearch-sync --help says where)."""


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``mcp`` sub-command."""
    parser = commands.add_parser(
        "mcp",
        help="serve web_search and web_fetch to an MCP client over stdio",
        description="Run an MCP server on stdin/stdout offering web_search and web_fetch (needs the mcp extra: "
        "without it the command says what to install). It runs until the client closes stdin (answering the "
        "requests read before it first) or stdout.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for flag, keyword, options in CLIENT_FLAGS:
        parser.add_argument(flag, dest=keyword, **options)
    parser.add_argument(
        "--allow-private",
        action="store_true",
        help="let web_fetch read loopback/private addresses (trusted local use only)",
    )
    parser.add_argument(
        "--max-concurrent",
        type=int_arg,
        default=DEFAULT_MAX_CONCURRENT,
        help="tool calls running at once (default %d)" % DEFAULT_MAX_CONCURRENT,
    )
    parser.add_argument(
        "--max-repeats",
        type=int_arg,
        default=DEFAULT_MAX_REPEATS,
        help="times one query or URL is looked up within --repeat-window; a repeat past that gets the answer "
        "already given (default %d)" % DEFAULT_MAX_REPEATS,
    )
    parser.add_argument(
        "--repeat-window",
        type=float,  # seconds, as --cache-ttl: 1.5 is a window (range checks are the library's)
        default=DEFAULT_REPEAT_WINDOW_S,
        metavar="SECONDS",
        help="seconds within which lookups of one query or URL count as repeats (default %g; 0: no guard)"
        % DEFAULT_REPEAT_WINDOW_S,
    )
    parser.add_argument(
        "--no-images",
        dest="images",
        action="store_false",
        help="web_fetch refuses images instead of returning them as image blocks (a host whose model reads text only)",
    )
    parser.add_argument(
        "--log-level",
        **choice_flag("log_level", LOG_LEVELS),
        default="warning",
        help="logging on stderr (default warning)",
    )
    parser.set_defaults(run=run, protocol_on_stdout=True)


def _client_options(args: argparse.Namespace) -> dict[str, Any]:
    options = {keyword: getattr(args, keyword) for _, keyword, _ in CLIENT_FLAGS if getattr(args, keyword) is not None}
    options.update(cache_file_options(args.cache_path, args.cache_max_answers))
    overrides: dict[str, Any] = {}
    if args.backend is not None:
        check_backend_names(args.backend, "--backend")
        overrides["backend"] = args.backend  # the settings decide which tools are offered
    if args.allow_private:
        overrides["allow_private"] = True
    options["settings"] = Settings.from_env(**overrides)
    return options


def offline_default(settings: Settings) -> list[str]:
    """The offline backends (the stub) among the backends ``settings`` search with."""
    from ..client.selection import default_backends
    from ..engine import registry

    names = [name for name in default_backends(settings) if name != "auto"]
    return [name for name in names if registry.backend_class(name).kind == "offline"]


def offline_line(client: "SearchClient") -> Optional[str]:
    """The start-up line on stderr of a server whose searches the offline stub answers (made-up
    results must not pass for real ones): a warning with how to search the web when the stub is the
    default, a note without it when ``-b stub`` or ``WEB_SEARCH_BACKEND=stub`` named it
    (:meth:`~websearch_sync.client.search_client.SearchClient.names_backends`, as the stub's snippets);
    ``None`` for a server of real engines."""
    from ..backends.stub import OFFLINE_FACT, OFFLINE_WARNING

    offline = offline_default(client.settings)
    if not offline:
        return None
    said = ("note", OFFLINE_FACT) if client.names_backends() else ("warning", OFFLINE_WARNING)
    return "websearch-sync mcp: %s: %s (backend: %s)" % (said + (", ".join(offline),))


def run(args: argparse.Namespace) -> int:
    """Serve until the MCP client closes stdin."""
    from ..mcp import check_max_concurrent

    # a usage error comes alone, before the stub's warning, and before the SDK's import (a second of CPU)
    check_max_concurrent(args.max_concurrent)
    streams = (("stdin", sys.stdin), ("stdout", owner_stdout()))  # sys.stdout is stderr's stand-in meanwhile
    missing = [name for name, stream in streams if stream is None]  # started with <&- or >&-
    if missing:
        raise InvalidInput(
            "the MCP server talks to its client over stdin and stdout; it was started without %s"
            % " and ".join(missing),
            detail_code=BAD_ARGUMENTS,
        )
    from ..client.search_client import SearchClient
    from ..mcp import CancellableClock, McpTools, require_mcp, serve_stdio

    require_mcp()
    logging.basicConfig(
        stream=sys.stderr,
        level=args.log_level.upper(),
        format="websearch-sync mcp: %(levelname)s %(name)s: %(message)s",
    )
    clock = CancellableClock()  # a cancelled call stops at its next wait instead of reaching the upstream
    with SearchClient(clock=clock, **_client_options(args)) as client:
        tools = McpTools(
            client, max_repeats=args.max_repeats, repeat_window_s=args.repeat_window, clock=clock, images=args.images
        )
        offline = offline_line(client)
        if offline and sys.stderr is not None:  # made-up results must not pass for real ones: the log says so at once
            sys.stderr.write(offline + "\n")
            sys.stderr.flush()
        serve_stdio(tools, max_concurrent=args.max_concurrent)
    return EXIT_OK

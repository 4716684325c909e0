"""``websearch-sync search``: one query, or a batch from a file (JSONL out)."""

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Optional

from ..client.clock import CancellableClock
from ..config import YES_NO_WORDS, Settings, check_backend_names, yes_no
from ..engine.stdout_claim import owner_stdout
from ..errors import BAD_ARGUMENTS, BAD_INCLUDE_CONTENT, BAD_OPTION, InvalidInput, WebSearchError
from ..models import MEDIA_FILTERS, SAFE_SEARCH_LEVELS, STRATEGIES, TIME_RANGES, VERTICALS, SearchResponse
from ..validate import COMMON_OPTIONS, check_number, option_hint
from ..vocabulary.ddgs import DDGS_ARGUMENTS, ddgs_argument_as_flag, ddgs_keyword
from ..vocabulary.synonyms import OPTION_SYNONYMS
from .batch import PROGRESS_EVERY_S, SkippingDone, done_queries, end_cut_line, refuse_overwriting_resume, run_batch
from .output import (
    CACHE_MAX_ANSWERS_HELP,
    EXIT_OK,
    add_impersonate,
    cache_file_options,
    choice_flag,
    empty_notice,
    int_arg,
    json_text,
    offline_notice,
    refuse_missing_output,
    retry_lines,
)
from .queries import Queries, read_queries

if TYPE_CHECKING:
    from ..client.search_client import SearchClient

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

FORMATS = ("text", "json", "jsonl", "markdown")
#: search()'s keywords this command sets by a flag of its own, each ``--`` and its name but these.
_FLAG_SPELLINGS = {"max_results": "-n", "site_filter": "--site", "backend": "-b"}
_SET_BY_FLAG = ("strategy", "locale", "time_range", "safe_search", "site_filter", "vertical", *MEDIA_FILTERS)
#: Most threads a batch may use.
MAX_WORKERS = 64


def add_parser(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add the ``search`` sub-command."""
    parser = commands.add_parser(
        "search",
        help="search the web and print the results",
        description="Search the web. Give a QUERY, or --queries-file with one query per line (JSONL output).",
        epilog='examples:\n  websearch-sync search "python requests timeout" -n 3\n'
        '  websearch-sync search "rust async" -b brave,ddg_html --format json\n'
        '  websearch-sync search "sqlite wal" --site sqlite.org --time-range year --safe-search strict\n'
        '  websearch-sync search "llama" -b searxng --option engines=google,bing --option pageno=2\n'
        '  websearch-sync search "rust async" -b yahoo_html -n 20 --option max_pages=2\n'
        "  websearch-sync search --queries-file queries.txt -b auto > results.jsonl\n"
        "  websearch-sync search --queries-file queries.txt -b brave --workers 4 --stop-after-failures 5 > out.jsonl\n"
        "  websearch-sync search --queries-file queries.txt -b brave --skip-done out.jsonl >> out.jsonl   # resume",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("query", nargs="?", metavar="QUERY", help="the search terms")
    parser.add_argument(
        "-b", "--backend", help="backend name, comma-separated list, or auto (default: WEB_SEARCH_BACKEND, else stub)"
    )
    parser.add_argument(
        "--strategy",
        **choice_flag("strategy", STRATEGIES),
        help="with several backends: fallback (default) or merge",
    )
    parser.add_argument(
        "-n",
        "--max-results",
        type=int_arg,
        help="number of results, 1..50, images 1..100, videos 1..60 (default 5; more than a page reads the next pages)",
    )
    parser.add_argument(
        "--vertical",
        **choice_flag("vertical", VERTICALS),
        help="what to look for: web (default), news, images or videos (see websearch-sync backends)",
    )
    parser.add_argument(
        "--timeout-ms", type=int_arg, help="deadline of the whole call in milliseconds (retries and fallbacks included)"
    )
    parser.add_argument("--locale", help="language/region of the results, e.g. en-US")
    parser.add_argument(
        "--time-range",
        **choice_flag("time_range", TIME_RANGES),
        help="only results from the last day/week/month/year",
    )
    parser.add_argument(
        "--safe-search",
        **choice_flag("safe_search", SAFE_SEARCH_LEVELS),
        help="filter adult content: off, moderate or strict",
    )
    parser.add_argument(
        "--site",
        dest="site_filter",
        metavar="DOMAIN",
        help="only results from this site (site_filter), e.g. docs.python.org",
    )
    for name, (vertical, values) in MEDIA_FILTERS.items():  # no argparse choices: the library names the closest
        parser.add_argument(
            "--" + name.replace("_", "-"),
            metavar="|".join(values) if len(values) <= 5 else name.partition("_")[2].upper(),
            help="with --vertical %s: %s" % (vertical, ", ".join(values)),
        )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a backend option, repeatable: --option engines=google,bing --option pageno=2 "
        "(VALUE is read as the option's declared kind: true/false, a number, names, text; "
        "websearch-sync backends --json lists each backend's options)",
    )
    parser.add_argument("--include-content", action="store_true", help="also read each result page (slower)")
    parser.add_argument(
        "--format",
        **choice_flag("format", FORMATS),
        default=None,
        help="output format (default text; batches are always jsonl)",
    )
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.add_argument(
        "--queries-file", metavar="FILE", help="run every non-blank line of FILE as a query ('-' = stdin)"
    )
    parser.add_argument("--cache-path", metavar="PATH", help="SQLite file caching answers across runs")
    parser.add_argument("--cache-max-answers", type=int_arg, metavar="N", help=CACHE_MAX_ANSWERS_HELP)
    parser.add_argument(
        "--state-url",
        metavar="URL",
        help="Redis URL sharing cache, rate limits and cool-downs with other processes (default: WEB_SEARCH_STATE_URL)",
    )
    parser.add_argument(
        "--workers",
        type=int_arg,
        metavar="N",
        help="batch: run N queries at a time in threads sharing one client (default 1)",
    )
    parser.add_argument(
        "--stop-after-failures", type=int_arg, metavar="K", help="batch: stop after K consecutive failed queries"
    )
    parser.add_argument(
        "--skip-done",
        metavar="FILE",
        help="batch: skip the queries that succeeded in FILE, an earlier run's JSONL output "
        "(resume with: --skip-done out.jsonl >> out.jsonl)",
    )
    parser.add_argument(
        "--progress-every",
        type=float,
        metavar="SECONDS",
        help="batch: seconds between progress lines on stderr when it is not a terminal (default %g; 0: every query)"
        % PROGRESS_EVERY_S,
    )
    parser.add_argument(
        "--retries", type=int_arg, metavar="N", help="retries per backend of a retryable failure, 0..10 (default 2)"
    )
    parser.add_argument(
        "--cache-ttl",
        type=float,
        metavar="SECONDS",
        help="seconds an answer is reused within this run, and across runs with --cache-path (default 300; 0: no cache)",
    )
    add_impersonate(parser)
    parser.set_defaults(run=run)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {"max_results": args.max_results, "timeout_ms": args.timeout_ms}
    for name in _SET_BY_FLAG:
        if getattr(args, name) is not None:
            options[name] = getattr(args, name)
    if args.include_content:
        options["include_content"] = True
    for key, value in backend_options(args.option).items():
        if key in options:  # a flag and --option setting one input: neither may silently win
            raise InvalidInput(
                "--option %s and %s both set %s: give one of them" % (key, _flag(key), key), detail_code=BAD_ARGUMENTS
            )
        options[key] = value
    return options


def _flag(keyword: str) -> str:
    """This command's flag for search() keyword ``keyword`` (``site_filter``: ``--site``)."""
    return _FLAG_SPELLINGS.get(keyword, "--" + keyword.replace("_", "-"))


def _unknown_option_hint(key: str, known: set[str]) -> str:
    """What the refusal of ``--option KEY`` adds: the flag of this command it means, for ours or another API's
    name of a keyword set by one (``count``, ``n``, ``max_results``: ``-n``; ``site``: ``--site``, not the
    ``site_filter`` option search() takes; ddgs's ``timelimit``: ``--time-range``, with ddgs's values), else
    :func:`~..validate.option_hint`."""
    ours = OPTION_SYNONYMS.get(key) or ddgs_keyword(key) or key
    flag = _flag(ours) if ours in _FLAG_SPELLINGS or ours in _SET_BY_FLAG else None
    if key in DDGS_ARGUMENTS:
        return ddgs_argument_as_flag(key, flag) or option_hint(key, known)
    return " (did you mean %s?)" % flag if flag else option_hint(key, known)


def backend_options(pairs: list[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` pairs as search() keywords; ``InvalidInput(bad_arguments)`` for a
    pair without ``=``, a key no backend (nor the common options) knows, or a key given twice
    (the last would silently win)."""
    if not pairs:
        return {}  # what the engines take is read only to check a pair: loading them all costs every search
    from ..engine import registry

    known = set(COMMON_OPTIONS) | set(registry.backend_options())
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InvalidInput("--option takes KEY=VALUE, got %r" % pair, detail_code=BAD_ARGUMENTS)
        if key not in known:
            raise InvalidInput(
                "--option %s: no backend knows this option%s; known: %s"
                % (key, _unknown_option_hint(key, known), ", ".join(sorted(known))),
                detail_code=BAD_ARGUMENTS,
            )
        if key in options:
            raise InvalidInput(
                "--option %s is given twice: give it once (the last would silently win)" % key,
                detail_code=BAD_ARGUMENTS,
            )
        options[key] = _option_value(key, text.strip(), registry.option_kinds(key) or _COMMON_KINDS.get(key, set()))
    return options


#: The kinds of the common options (:data:`~..validate.COMMON_OPTIONS`) no engine declares, whose text
#: is read as that kind: ``include_content=yes`` as a yes/no option's.
_COMMON_KINDS = {"include_content": {"bool"}}
#: The detail codes search() refuses those common options with.
_COMMON_DETAILS = {"include_content": BAD_INCLUDE_CONTENT}


def _not_yes_no(key: str, text: str) -> InvalidInput:
    """The refusal of ``--option KEY=TEXT`` for a yes/no option given a word that is no yes/no word: the
    words it takes (search()'s own check would say ``true or false``, Python's spelling, not the command
    line's), with the detail code search() refuses the option with."""
    from ..engine import registry

    details = registry.option_details(key) or {_COMMON_DETAILS.get(key, BAD_OPTION)}
    return InvalidInput(
        "--option %s=%s: %s is a yes/no option: use %s, in any case" % (key, text, key, YES_NO_WORDS),
        detail_code=next(iter(details)) if len(details) == 1 else BAD_OPTION,
    )


def _option_value(key: str, text: str, kinds: set[str]) -> Any:
    """The text of ``--option KEY=VALUE`` as the option's declared kind reads it: a yes/no word as a
    yes/no variable's (:func:`~..config.yes_no`: ``1``, ``yes``, ``on``, ``false``, ...) for a ``bool``, a number for an ``int``, the text itself for a name list, a choice or a code
    (a JSON list too for a name list); an option declared otherwise (or not by one kind) as the
    text's own look: a number, ``true``/``false`` or a flat JSON list as such, anything else as
    the text. Another word for a ``bool`` is refused here, naming the words taken, with the option's
    detail code; what another kind refuses is refused by the backend's own check, with its detail code.
    A nested list (however deep) is ``InvalidInput(bad_arguments)``: no option takes one."""
    kind = next(iter(kinds)) if len(kinds) == 1 else "any"
    if kind == "bool":  # the words a yes/no variable takes: 1, yes, on, ...
        said = yes_no(text)
        if said is None:
            raise _not_yes_no(key, text)
        return said
    if _as_text(kind, text):
        return text
    if text in ("true", "false") or text[:1] in "[-0123456789" and text:
        try:
            value = json.loads(text)
        except ValueError:
            return text
        except RecursionError:
            value = [[]]  # nested too deeply for the parser: refused below like any nested list
        if isinstance(value, list) and any(isinstance(item, (list, dict)) for item in value):
            raise InvalidInput(
                "--option %s takes a number, true/false, text or a flat JSON list, not a nested list" % key,
                detail_code=BAD_ARGUMENTS,
            )
        return value
    return text


def _as_text(kind: str, text: str) -> bool:
    """Whether an option of ``kind`` takes ``text`` as it is: a choice, a code, a name list not
    written as JSON, and what a yes/no or count option would refuse (its own check names what
    it takes)."""
    if kind in ("choice", "code") or (kind == "names" and not text.startswith("[")):
        return True
    return kind == "int" and not text.lstrip("-").isdigit()


def _render(response: SearchResponse, fmt: str) -> str:
    if fmt == "json":
        return json_text(response, owner_stdout(), indent=2)
    if fmt == "jsonl":
        return json_text(response, owner_stdout())
    from ..tool import format_results

    # the offline note goes to stderr (offline_notice), once: stdout carries the results only
    return format_results(
        response, "markdown" if fmt == "markdown" else "text", untrusted_notice=False, offline_note=False
    )


def _count(option: str, value: Optional[int], maximum: int) -> Optional[int]:
    """An optional count option checked to be in 1..``maximum`` (``InvalidInput(bad_arguments)``)."""
    return check_number(option, value, maximum=maximum, detail=BAD_ARGUMENTS) if value is not None else None


def run(args: argparse.Namespace) -> int:
    """Run one search (or a batch) and print it."""
    from ..client.search_client import SearchClient

    fmt = _output_format(args)
    if (args.query is None) == (args.queries_file is None):
        raise InvalidInput("give either a QUERY or --queries-file, not both or neither", detail_code=BAD_ARGUMENTS)
    _refuse_batch_flags_without_batch(args)
    workers = _count("--workers", args.workers, MAX_WORKERS)
    stop_after = _count("--stop-after-failures", args.stop_after_failures, 1_000_000)
    progress_every_s = PROGRESS_EVERY_S if args.progress_every is None else args.progress_every
    check_number("--progress-every", progress_every_s, minimum=0, integer=False, detail=BAD_ARGUMENTS)
    queries: Queries = _batch_queries(args) if args.queries_file is not None else []
    check_backend_names(args.backend, "--backend")
    overrides = {name: value for name, value in (("backend", args.backend), ("impersonate", args.impersonate)) if value}
    settings = Settings.from_env(**overrides)
    # before a request is spent on an answer no one can read; after the arguments, whose mistake is the one to say
    refuse_missing_output(owner_stdout())
    clock = CancellableClock()  # a batch cancels the query still running when it stops: no request after it ended
    with SearchClient(args.backend, settings=settings, clock=clock, **_client_options(args)) as client, retry_lines():
        if args.queries_file is not None:
            _check_shared_inputs(client, _options(args))
            if args.skip_done is not None:
                end_cut_line(args.skip_done, owner_stdout())
            return run_batch(
                client,
                queries,
                _options(args),
                owner_stdout(),
                workers=workers or 1,
                stop_after=stop_after,
                progress_every_s=progress_every_s,
                clock=clock,
            )
        response = client.search(args.query, **_options(args))
    owner_stdout().write(_render(response, fmt) + "\n")
    for notice in (offline_notice(response), empty_notice(response) if fmt not in ("json", "jsonl") else None):
        if notice:
            sys.stderr.write(notice + "\n")
    return EXIT_OK


#: The query a batch's shared inputs are checked with: any query the check takes (it reads no query's words).
_PROBE_QUERY = "q"


def _check_shared_inputs(client: "SearchClient", options: dict[str, Any]) -> None:
    """The inputs every query of a batch shares (``--locale``, ``-n``, filters, options), checked once
    before any query runs, as for one QUERY: a refusal is the command's (one line, exit 2, under its
    flag), not each query's alike. Only ``InvalidInput``: another failure of the check (a backend's
    missing key) is each query's, as a fallback chain may answer without that backend."""
    try:
        client.search_bound_ms(_PROBE_QUERY, **options)  # validates the call: no request is sent
    except InvalidInput:
        raise
    except WebSearchError:
        return


#: The flags only a batch reads (``--queries-file``), by their ``argparse`` destination.
BATCH_FLAGS = {
    "workers": "--workers",
    "stop_after_failures": "--stop-after-failures",
    "skip_done": "--skip-done",
    "progress_every": "--progress-every",
}


def _output_format(args: argparse.Namespace) -> str:
    """The output format ``--json``/``--format`` ask for; ``InvalidInput(bad_arguments)`` when they
    disagree, or for a text format with a batch (one JSON line per query): a flag silently
    overridden reads as if it had worked."""
    if args.json and args.format not in (None, "json"):
        raise InvalidInput(
            "--json is --format json: give one of them, not --format %s as well" % args.format,
            detail_code=BAD_ARGUMENTS,
        )
    if args.queries_file is not None and args.format in ("text", "markdown"):
        raise InvalidInput(
            "--format %s does not apply to a batch (--queries-file): it writes one JSON line per query" % args.format,
            detail_code=BAD_ARGUMENTS,
        )
    return "json" if args.json else (args.format or "text")


def _refuse_batch_flags_without_batch(args: argparse.Namespace) -> None:
    """``InvalidInput(bad_arguments)`` for a batch-only flag given with a single QUERY: it would
    change nothing, and a flag silently ignored reads as if it had worked."""
    if args.queries_file is not None:
        return
    given = [flag for name, flag in BATCH_FLAGS.items() if getattr(args, name) is not None]
    if given:
        raise InvalidInput(
            "%s only appl%s to a batch (--queries-file FILE), not to a single QUERY"
            % (", ".join(given), "ies" if len(given) == 1 else "y"),
            detail_code=BAD_ARGUMENTS,
        )


def _client_options(args: argparse.Namespace) -> dict[str, Any]:
    """The client's own arguments the command line sets (the client's defaults for the rest)."""
    options = cache_file_options(args.cache_path, args.cache_max_answers)
    options["state_url"] = args.state_url
    if args.retries is not None:
        options["retries"] = args.retries
    if args.cache_ttl is not None:
        options["cache_ttl_s"] = args.cache_ttl
    return options


def _batch_queries(args: argparse.Namespace) -> Queries:
    """The queries of ``--queries-file``, less those ``--skip-done`` names as done (said on stderr;
    from a pipe, as they arrive, how many is not known before they do)."""
    queries = read_queries(args.queries_file)
    if args.skip_done is None:
        return queries
    refuse_overwriting_resume(args.skip_done, owner_stdout())
    done = done_queries(args.skip_done)
    if not isinstance(queries, list):
        sys.stderr.write(
            "skipping the %d quer%s done in %s as they arrive\n"
            % (len(done), "y" if len(done) == 1 else "ies", args.skip_done)
        )
        return SkippingDone(queries, done)
    remaining = [query for query in queries if query not in done]
    skipped = len(queries) - len(remaining)
    sys.stderr.write("skipping %d quer%s done in %s\n" % (skipped, "y" if skipped == 1 else "ies", args.skip_done))
    return remaining

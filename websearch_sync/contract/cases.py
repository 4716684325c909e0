"""The contract-suite engine: discover fixture cases, replay them offline through
the real request path, compare with goldens, check the contract's invariants.

A case is ``fixtures/<backend>/<case>.meta.json`` (what to send, what the service
answered, where the recording comes from), an optional body file
``<case>.html`` / ``<case>.json`` and the golden ``<case>.expected.json``.
Replaying gives the library's own transport the replay wire (:mod:`.replay`), on
each wire kind (the ``requests`` wire's request, and the browser wire's request
building in front of the replay): URL, method, query parameters, form/JSON body and
headers our backend sends are checked against the meta file. No test extra is needed.

Used by ``contract_tests/``, by ``websearch-sync verify`` and ``record``.

Recorded secrets: a request value stored as ``<redacted>`` matches any non-empty
value in its place when replaying, so a case recorded with a real API key replays
without it.
"""

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional, Union
from urllib.parse import urlsplit

from ..backends.searxng_config import fresh_configs
from ..client.clock import Clock, SkippedTime
from ..client.search_client import SearchClient
from ..config import Settings, command_line_terms
from ..engine import registry
from ..engine.identity import IDENTITY_FIELD
from ..engine.option import MAX_PAGES_OPTION
from ..errors import CONNECTION_ERROR, NO_CASES, InvalidInput, WebSearchError, cut_end
from ..models import SearchParams, StrPath
from ..shellwords import shell_quote
from ..validate import IMPERSONATE_PROFILES as PROFILES
from ..validate import MAX_PAGES, describe_sent
from .replay import ReplayMismatch, ReplayWire, known_exception, recorded_status

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The wire kinds every case is replayed on: the ``requests`` wire (``impersonate="off"``) and
#: each browser profile's request building and header merge (in front of the replay: no socket).
WIRE_KINDS: tuple[str, ...] = ("off",) + PROFILES

#: The verdicts of :func:`run_case`, best first.
STATUSES = ("PASS", "NEW", "DRIFT", "ERROR")

#: Where a case's answer comes from (``provenance.status`` of its meta file):
#: ``recorded`` from a live service (``capture_date`` and a source: the repository and path
#: it was copied from, a ``url``, or ``recorded_by`` for ``websearch-sync record``; ``form``
#: says whether it is complete, truncated, transcribed...), ``provider-docs`` an example
#: response the provider publishes in its documentation (its ``url`` or repository and
#: path), ``synthetic`` written by hand (``why`` no recording covers it).
PROVENANCES = ("recorded", "provider-docs", "synthetic")
#: What :func:`provenance_of` calls a case whose meta file states none of :data:`PROVENANCES`.
UNSTATED = "unstated"

_BODY_SUFFIXES = (".html", ".json", ".txt", ".bin")
_VOLATILE_META = ("latency_ms", "wait_ms")
_SHOWN_CHARS = 160


@dataclass
class Case:
    """One recorded exchange (or chain of exchanges) and its golden."""

    backend: str
    name: str
    meta_path: Path
    meta: dict[str, Any]
    problem: Optional[str] = None  #: why the meta file could not be read, if it could not

    @property
    def case_id(self) -> str:
        """``<backend>/<case>``."""
        return "%s/%s" % (self.backend, self.name)

    @property
    def folder(self) -> Path:
        """The folder holding the case's files."""
        return self.meta_path.parent

    @property
    def expected_path(self) -> Path:
        """Where the golden lives."""
        return self.folder / (self.name + ".expected.json")

    def exchanges(self) -> list[dict[str, Any]]:
        """The request/response pairs to replay, in order (may be empty for offline backends).

        Only for a case without ``problem`` (:func:`load_case` checks the shapes)."""
        if "exchanges" in self.meta:
            return list(self.meta["exchanges"])
        if "response" in self.meta:
            return [{"request": self.meta.get("request") or {}, "response": self.meta["response"]}]
        return []

    def body_path(self, response: dict[str, Any]) -> Optional[Path]:
        """The file a response's ``body`` names, inside the case's folder; ``None`` when the
        body is inline. ``OSError`` for a name that leads out of the folder (an absolute
        path, ``..``, a symbolic link to elsewhere): a meta file is data, never a licence to
        read any file."""
        name = response.get("body")
        if not name:
            return None
        folder = self.folder.resolve()
        path = (self.folder / str(name)).resolve()
        if path.parent != folder:
            raise OSError("the body %r is not a file of the case's folder %s" % (name, self.folder))
        return path

    def body_bytes(self, response: dict[str, Any]) -> bytes:
        """The recorded body of one response (file named by ``body``, else inline ``body_text``)."""
        path = self.body_path(response)
        if path is not None:
            return path.read_bytes()
        return (response.get("body_text") or "").encode("utf-8")


def discover(fixtures_dir: StrPath, backend: Optional[str] = None) -> list[Case]:
    """Every case under ``fixtures_dir`` (optionally one backend's: the backend its meta file names,
    else its folder's, as a replay and ``verify`` of every case read it), sorted by id.

    A meta file that is not valid JSON still yields a case (with ``problem`` set),
    so that it is reported instead of silently skipped.
    """
    root = Path(fixtures_dir)
    cases = [load_case(meta_path) for meta_path in sorted(root.glob("*/*.meta.json"))]
    return [case for case in cases if backend is None or case.backend == backend]


def load_case(meta_path: StrPath) -> Case:
    """The case described by one ``<case>.meta.json`` file."""
    path = Path(meta_path)
    folder_backend = path.parent.name
    name = path.name[: -len(".meta.json")]
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return Case(
            backend=folder_backend, name=name, meta_path=path, meta={}, problem="unreadable meta file: %s" % exc
        )
    if not isinstance(meta, dict):
        return Case(
            backend=folder_backend, name=name, meta_path=path, meta={}, problem="the meta file is not a JSON object"
        )
    backend = meta.get("backend", folder_backend)
    return Case(
        backend=backend if isinstance(backend, str) else folder_backend,
        name=name,
        meta_path=path,
        meta=meta,
        problem=meta_problem(meta, backend if isinstance(backend, str) else folder_backend),
    )


#: The JSON type each top-level meta field must have when present.
_META_TYPES: dict[str, tuple[type, ...]] = {
    "backend": (str,),
    "query": (str,),
    "max_results": (int, type(None)),
    "vertical": (str,),
    "retries": (int,),
    "options": (dict, type(None)),
    "recorded_pages": (int,),
    "settings": (dict, type(None)),
    "request": (dict,),
    "response": (dict,),
    "exchanges": (list,),
    "provenance": (dict,),
}
_JSON_NAMES = {str: "a string", int: "an integer", dict: "an object", list: "a list", type(None): "null"}


def meta_problem(meta: dict[str, Any], backend: Optional[str] = None) -> Optional[str]:
    """What makes a meta file's shape unusable (a field of the wrong JSON type, an exchange
    that is not ``{"request": {...}, "response": {...}}``, a ``recorded_pages`` out of 1..8 or on
    an engine of ``backend``, the case's, that reads one page), or ``None``."""
    for key, types in _META_TYPES.items():
        if key in meta and (not isinstance(meta[key], types) or isinstance(meta[key], bool)):
            return "malformed meta file: %r must be %s, not %s" % (
                key,
                " or ".join(_JSON_NAMES[t] for t in types),
                type(meta[key]).__name__,
            )
    problem = _recorded_pages_problem(meta, backend or meta.get("backend"))
    if problem is not None:
        return problem
    for position, exchange in enumerate(meta.get("exchanges") or []):
        if (
            not isinstance(exchange, dict)
            or not isinstance(exchange.get("response"), dict)
            or not isinstance(exchange.get("request", {}), dict)
        ):
            return (
                'malformed meta file: exchanges[%d] must be an object with a "response" object (and a "request" object)'
                % position
            )
    return _exchange_problem(meta)


#: The JSON type of each recorded request's and response's fields, when present (``json`` is any).
_REQUEST_TYPES: dict[str, tuple[type, ...]] = {
    "method": (str,),
    "query_params": (dict,),
    "form": (dict,),
    "headers": (dict,),
}
#: A response's ``headers``, ``body`` and ``body_text`` may be ``null``, read as none (no headers,
#: the body inline, an empty one). Its ``status`` is checked by :func:`recorded_status`.
_RESPONSE_TYPES: dict[str, tuple[type, ...]] = {
    "headers": (dict, type(None)),
    "body": (str, type(None)),
    "body_text": (str, type(None)),
    "exception": (str,),
}


def _exchange_problem(meta: dict[str, Any]) -> Optional[str]:
    """What makes a recorded exchange unusable: a replay compares each request sent with its
    ``url`` (and ``method``, query, form, headers), so a response recorded without them could
    answer nothing; a field of another JSON type, a status outside 100..599 or an ``exception``
    that names no ``requests.exceptions`` class would fail mid-search as the backend's fault."""
    if "exchanges" in meta:
        pairs = [("exchanges[%d]." % i, e.get("request"), e["response"]) for i, e in enumerate(meta["exchanges"])]
    elif "response" in meta:
        pairs = [("", meta.get("request"), meta["response"])]
    elif "request" in meta:
        return 'malformed meta file: a "request" without the "response" recorded for it'
    else:
        return None
    for where, request, response in pairs:
        if not isinstance(request, dict) or not isinstance(request.get("url"), str) or not request["url"]:
            return 'malformed meta file: %srequest must be an object with the URL requested ("url")' % where
        try:
            urlsplit(request["url"])  # the replay reads its address (an unclosed "[": no URL)
        except ValueError as exc:
            return "malformed meta file: %srequest.url %r is no URL (%s)" % (where, cut_end(request["url"], 200), exc)
        problem = _field_problem(request, _REQUEST_TYPES, where + "request") or _field_problem(
            response, _RESPONSE_TYPES, where + "response"
        )
        problem = problem or _response_problem(response, where)
        if problem:
            return problem
    return None


def _response_problem(response: dict[str, Any], where: str) -> Optional[str]:
    """A recorded response's ``status`` that is no HTTP status, ``exception`` that names no
    ``requests.exceptions`` class, or a header whose value is no string."""
    if "status" in response:
        status = recorded_status(response["status"])
        if status is None:
            return "malformed meta file: %sresponse.status must be an integer (or its digits), not %r" % (
                where,
                response["status"],
            )
        if not 100 <= status <= 599:
            return "malformed meta file: %sresponse.status must be in 100..599, not %d" % (where, status)
    if "exception" in response and not known_exception(response["exception"]):
        return "malformed meta file: %sresponse.exception %r names no requests.exceptions class" % (
            where,
            response["exception"],
        )
    return _header_problem(response.get("headers") or {}, where)


def _header_problem(headers: dict[str, Any], where: str) -> Optional[str]:
    """A recorded response header whose value is no string (``"Content-Length": 5``: a ``TypeError`` in the
    replay's answer, a traceback and an ``internal_error`` verdict); ``null`` is read as no header."""
    for name, value in headers.items():
        if value is not None and not isinstance(value, str):
            return "malformed meta file: %sresponse.headers.%s must be a string, not %s" % (
                where,
                name,
                type(value).__name__,
            )
    return None


def _field_problem(part: dict[str, Any], types: dict[str, tuple[type, ...]], where: str) -> Optional[str]:
    """The first field of ``part`` (a recorded request or response) of another JSON type than ``types`` says."""
    for key, wanted in types.items():
        if key in part and (not isinstance(part[key], wanted) or isinstance(part[key], bool)):
            return "malformed meta file: %s.%s must be %s, not %s" % (
                where,
                key,
                " or ".join(_JSON_NAMES[t] for t in wanted),
                type(part[key]).__name__,
            )
    return None


def _recorded_pages_problem(meta: dict[str, Any], backend: Optional[str]) -> Optional[str]:
    """What is wrong with the meta file's ``recorded_pages`` (its type checked): given beside the
    call's ``max_pages``, a count out of
    ``max_pages``' range (the replay passes it as that option, which would refuse it), or one given
    for an engine that reads one page (it takes no ``max_pages``). An unknown backend is left to the run."""
    recorded = meta.get("recorded_pages")
    if recorded is None:
        return None
    if MAX_PAGES_OPTION.name in (meta.get("options") or {}):
        return "malformed meta file: recorded_pages is the call's max_pages: give it, not both"
    if not 1 <= recorded <= MAX_PAGES:
        return "malformed meta file: recorded_pages must be in 1..%d (the pages the recording holds), not %d" % (
            MAX_PAGES,
            recorded,
        )
    vertical = meta.get("vertical") or "web"
    try:
        cls = registry.backend_class(backend or "", vertical)
    except InvalidInput:  # an unknown backend, or one not serving the vertical: the run says so
        return None
    if cls.results_per_page is None:
        return "malformed meta file: recorded_pages is for an engine reading next pages; %s (%s) reads one" % (
            cls.name,
            vertical,
        )
    return None


def provenance_of(case: Case) -> str:
    """The case's provenance, one of :data:`PROVENANCES`, else :data:`UNSTATED`."""
    provenance = case.meta.get("provenance")
    status = provenance.get("status") if isinstance(provenance, dict) else None
    return status if status in PROVENANCES else UNSTATED


def provenance_problems(case: Case) -> list[str]:
    """What the case's provenance lacks (empty when it says honestly what the case is)."""
    kind = provenance_of(case)
    if kind == UNSTATED:
        return ["provenance.status is not one of %s" % ", ".join(PROVENANCES)]
    provenance = case.meta["provenance"]
    has_source = bool(
        provenance.get("url")
        or provenance.get("recorded_by")
        or (provenance.get("repository") and provenance.get("path"))
    )
    problems = []
    if kind == "synthetic" and not provenance.get("why"):
        problems.append("a synthetic case must say why no recording covers it (provenance.why)")
    if kind != "synthetic" and not has_source:
        problems.append("a %s case must name its source (provenance.url, repository and path, or recorded_by)" % kind)
    if kind == "recorded" and not provenance.get("capture_date"):
        problems.append("a recorded case must give its capture_date")
    if kind != "synthetic" and not case.exchanges():
        problems.append("a %s case must hold the recorded exchange" % kind)
    return problems


def count_provenances(cases: list[Case]) -> dict[str, int]:
    """``{"recorded": n, "provider-docs": n, "synthetic": n}``, plus ``"unstated"`` when some say none."""
    counts = dict.fromkeys(PROVENANCES, 0)
    for case in cases:
        kind = provenance_of(case)
        counts[kind] = counts.get(kind, 0) + 1
    return counts


#: Names Windows keeps for devices (any letter case; ``COM\u00b9``, superscript digits, too), whatever
#: follows their first dot (``con.json`` too) and with spaces or dots before it (``con .json``): a
#: file named so cannot be written there, so a checkout of the fixtures fails on that file.
_WINDOWS_DEVICES = frozenset(
    ["con", "prn", "aux", "nul", "conin$", "conout$", "clock$"]
    + [port + digit for port in ("com", "lpt") for digit in "0123456789\u00b9\u00b2\u00b3"]
)


def unportable_name(name: str) -> Optional[str]:
    """Why a case named ``name`` cannot be checked out on Windows (its files' names begin with a
    device name: ``con``, ``nul``, ``com1``...), or ``None``."""
    stem = name.split(".", 1)[0].rstrip(" ")
    if stem.lower() in _WINDOWS_DEVICES:
        return "%s is a device name on Windows, where its files cannot be written" % stem.upper()
    return None


def name_clashes(cases: Sequence[Case]) -> list[tuple[Case, Case]]:
    """Pairs of cases of one folder whose names differ only in letter case: one file on a file
    system that ignores it (Windows, macOS), where a checkout keeps one of the two."""
    seen: dict[tuple[Path, str], Case] = {}
    clashes = []
    for case in cases:
        key = (case.folder, case.name.lower())
        if key in seen:
            clashes.append((seen[key], case))
        else:
            seen[key] = case
    return clashes


def orphan_files(fixtures_dir: StrPath) -> list[Path]:
    """Body files that no case's meta refers to, and goldens without a meta."""
    root = Path(fixtures_dir)
    referenced = set()
    for case in discover(root):
        referenced.add(case.meta_path)
        referenced.add(case.expected_path)
        if case.problem is not None:  # an unreadable meta: its body files are still the case's, not strays
            referenced.update(path for path in case.folder.glob("*") if _file_of_case(path.name, case.name))
        for exchange in case.exchanges() if case.problem is None else []:
            try:
                body = case.body_path(exchange["response"])
            except OSError:  # a body outside the folder: reported as the case's ERROR
                continue
            if body is not None:
                referenced.add(body)
    orphans = []
    for path in sorted(root.glob("*/*")):
        if path.is_file() and path.name != "README.md" and path.resolve() not in referenced and path not in referenced:
            orphans.append(path)
    return orphans


def _file_of_case(file_name: str, case_name: str) -> bool:
    """Whether ``file_name`` is named as a body of case ``case_name`` is: ``<case>.<ext>`` or
    ``<case>.<n>.<ext>`` (an exchange's)."""
    if not file_name.startswith(case_name + "."):
        return False
    parts = file_name[len(case_name) + 1 :].split(".")
    return len(parts) == 1 or (len(parts) == 2 and parts[0].isdigit())


#: Settings a replay never takes from a meta file: it is offline, so it reaches no shared
#: state (Redis) and no proxy, whatever the recording was made with.
_NOT_REPLAYED = ("proxy", "state_url", "state_prefix", "state_required")


def _settings_for(case: Case) -> Settings:
    values = {key: value for key, value in (case.meta.get("settings") or {}).items() if key not in _NOT_REPLAYED}
    return Settings(**values)


class ReplayClock(Clock):
    """Real time, except that a wait takes none: the clock jumps ahead by it instead.

    A replay's answers come from files, so the backend's pace between the pages of a
    multi-page case, or a ``Retry-After``, protects no server (``verify`` slept ~14 s over
    the project's cases for ~1 s of work); time still moves on by each wait, so deadlines
    and slots see the same order of events as a live search."""

    def __init__(self) -> None:
        self.skipped = SkippedTime()


def replay(case: Case, impersonate: str = "off") -> dict[str, Any]:
    """Run the case's search through a :class:`SearchClient` whose HTTP is replayed
    from the recording (:class:`~.replay.ReplayWire`); return its outcome (see :func:`replayed`)."""
    return replayed(case, impersonate)[0]


def replayed(case: Case, impersonate: str = "off") -> tuple[dict[str, Any], Optional[str]]:
    """Run the case's search through a :class:`SearchClient` whose HTTP is replayed
    from the recording (:class:`~.replay.ReplayWire`); return its outcome and, when the
    search failed, the error's message (goldens leave messages out; a verdict shows it).

    ``impersonate`` picks the wire kind: ``"off"`` the ``requests`` wire's request, a
    browser profile (``"chrome"``) the browser wire's request building and header merge
    in front of the replay (no ``curl_cffi`` needed, no socket).
    Retries are off (``retries`` in the meta file turns them on), so that one
    recorded exchange answers one request; waits take no real time (:class:`ReplayClock`).
    A case whose recording holds fewer result pages than its call would read says how many
    (``recorded_pages``): the call is bounded to them by the search's own ``max_pages``.
    Raises :class:`ReplayMismatch` when the backend sent a request the recording does
    not describe, or another number of requests.
    """
    meta = case.meta
    options = bounded_options(case, meta.get("options") or {})
    exchanges = case.exchanges()
    bodies = {
        id(e["response"]): case.body_bytes(e["response"]) for e in exchanges if not e["response"].get("exception")
    }  # OSError now, not mid-search
    wire = ReplayWire(exchanges, lambda response: bodies[id(response)])
    settings = _settings_for(case).replace(impersonate=impersonate)
    try:
        client = SearchClient(settings=settings, wire=wire, cache_ttl_s=0, state_url="", clock=ReplayClock())
        with fresh_configs(), client:
            result: Any = client.search(
                meta["query"],
                backend=case.backend,
                max_results=meta.get("max_results"),
                retries=meta.get("retries", 0),  # one recorded answer per exchange: no retries unless the case says so
                vertical=meta.get("vertical"),  # news, images, videos: the case of a vertical engine
                **options,
            )
    except WebSearchError as error:
        result = error
    try:
        wire.check_complete()
    except ReplayMismatch as mismatch:
        if not isinstance(result, WebSearchError) or _refused_by_replay(result, wire):
            raise
        raise ReplayMismatch(  # e.g. a build_request that failed: fewer requests sent, and why
            "%s\nthe search failed first: %s/%s: %s" % (mismatch, result.code, result.detail_code, result.message),
            mismatch.past_end,
        ) from None
    return outcome_of(result), result.message if isinstance(result, WebSearchError) else None


def _refused_by_replay(error: WebSearchError, wire: ReplayWire) -> bool:
    """Whether the search failed on the replay's own refusal of a request (the mismatch itself,
    which the verdict already says), not on something that happened before it."""
    return bool(wire.mismatches) and error.code == "NetworkError" and error.detail_code == CONNECTION_ERROR


def bounded_options(case: Case, options: Mapping[str, Any]) -> dict[str, Any]:
    """A call's ``options`` reading no more result pages than ``case`` says its recording holds
    (``recorded_pages``: ``max_pages`` at most that), the rule of both replays (the contract's call,
    :func:`recorded_bound`); as they are without it, or when they ask fewer pages or a value the
    search refuses (``bad_max_pages``)."""
    recorded = case.meta.get("recorded_pages")
    given = options.get(MAX_PAGES_OPTION.name)
    if type(recorded) is not int or not (given is None or (type(given) is int and given > recorded)):
        return dict(options)
    return dict(options, **{MAX_PAGES_OPTION.name: recorded})


def recorded_bound(case: Case, params: SearchParams) -> SearchParams:
    """``params`` with :func:`bounded_options` (``testing.replay_fixtures``: a call answered from ``case``)."""
    options = bounded_options(case, params.options)
    return params if options == params.options else replace(params, options=options)


def outcome_of(result: Any) -> dict[str, Any]:
    """The comparable part of a search result or error (no latency, no messages)."""
    if isinstance(result, WebSearchError):
        error: dict[str, Any] = {"type": result.code, "detail_code": result.detail_code, "retryable": result.retryable}
        if result.status is not None:
            error["status"] = result.status
        return {"error": error}
    outcome: dict[str, Any] = {"items": result["items"]}
    if result.get("errors"):
        outcome["errors"] = [{k: v for k, v in e.items() if k != "message"} for e in result["errors"]]
    meta = result.get("provider_meta") or {}
    if meta.get("request_id"):
        outcome["request_id"] = meta["request_id"]
    if meta.get("pages") is not None:  # a paging case pins how many pages were read
        outcome["pages"] = meta["pages"]
    return outcome


def contract_violations(
    outcome: dict[str, Any], *, max_results: int, provider: Optional[str] = None, vertical: str = "web"
) -> list[str]:
    """What in a success outcome breaks the canonical contract (empty when it holds); items of
    another ``vertical`` than the web are checked by its item shape (models.NewsItem ...)."""
    items = outcome.get("items")
    if not isinstance(items, list):
        return ["items is not a list"]
    problems = []
    if len(items) > max_results:
        problems.append("%d items > max_results %d" % (len(items), max_results))
    for position, item in enumerate(items, 1):
        problems.extend(
            "item %d: %s" % (position, p) if isinstance(item, dict) else "item %d is not a dict" % position
            for p in (_item_violations(item, position, provider, vertical) if isinstance(item, dict) else [None])
        )
    urls = [item.get(IDENTITY_FIELD.get(vertical, "url")) for item in items if isinstance(item, dict)]
    if len(set(map(str, urls))) != len(urls):
        problems.append("duplicate URLs")
    return problems


def _collapsed(text: Any) -> bool:
    """True unless ``text`` is a string with outer, doubled or line-break whitespace."""
    return not isinstance(text, str) or (text == text.strip() and "\n" not in text and "  " not in text)


#: The fields of a vertical's items and their JSON types (models.NewsItem, ImageItem, VideoItem).
VERTICAL_TYPES: dict[str, dict[str, type]] = {
    "news": {"snippet": str, "source": str, "published_at": str, "image_url": str},
    "images": {"image_url": str, "thumbnail_url": str, "width": int, "height": int, "source": str},
    "videos": {
        "snippet": str,
        "published_at": str,
        "duration": int,
        "publisher": str,
        "thumbnail_url": str,
        "view_count": int,
        "embed_url": str,
        "uploader": str,
    },
}


def _vertical_violations(item: dict[str, Any], vertical: str) -> list[str]:
    """What in an item of ``vertical`` breaks its shape: a field of the wrong type, a link that is not http(s)."""
    problems = []
    for key, kind in VERTICAL_TYPES.get(vertical, {}).items():
        value = item.get(key)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            problems.append("%s is not a %s" % (key, kind.__name__))
        elif isinstance(value, str) and key.endswith("_url") and not value.startswith(("http://", "https://")):
            problems.append("%s %r is not http(s)" % (key, value))
    if vertical == "images" and not isinstance(item.get("image_url"), str):
        problems.append("an image item without image_url")
    return problems


def _item_violations(item: dict[str, Any], rank: int, provider: Optional[str], vertical: str = "web") -> list[str]:
    """What in one item breaks the contract: string fields, its rank, an http(s) URL, collapsed text, its
    provider; for a vertical, its own fields' types and http(s) image links."""
    required = ("title", "url", "snippet", "provider") if vertical == "web" else ("title", "url", "provider")
    problems = ["%s is not a string" % key for key in required if not isinstance(item.get(key), str)]
    problems.extend(_vertical_violations(item, vertical))
    if item.get("rank") != rank:
        problems.append("rank is %r" % (item.get("rank"),))
    url = item.get("url") or ""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        problems.append("url %r is not http(s)" % (url,))
    problems.extend(
        "%s is not whitespace-collapsed" % key for key in ("title", "snippet") if not _collapsed(item.get(key) or "")
    )
    if provider is not None and item.get("provider") != provider and provider not in (item.get("providers") or []):
        problems.append("provider %r, expected %r" % (item.get("provider"), provider))
    return problems


#: What an unreadable golden's verdict says to do (``--update`` rewrites DRIFT and NEW goldens only).
REWRITE = (
    "remove it and run `websearch-sync verify --update` to write it from the replay (goldens are never edited by hand)"
)


def load_golden(case: Case) -> Optional[dict[str, Any]]:
    """The case's golden, or ``None`` when it has none yet; ``ValueError`` for one that is a
    link to a file outside the case's folder (it is not read)."""
    if not case.expected_path.exists():
        return None
    if case.expected_path.resolve().parent != case.folder.resolve():
        raise ValueError("it is a link to a file outside the case's folder")
    golden = json.loads(case.expected_path.read_text(encoding="utf-8"))
    problem = _golden_shape_problem(golden)
    if problem:
        raise ValueError(problem)
    result: dict[str, Any] = golden
    return result


def _golden_shape_problem(golden: Any) -> Optional[str]:
    """What makes ``golden`` no outcome :func:`write_golden` writes (``None``: nothing): not a JSON
    object, ``items`` not a list of objects, ``error`` not an object. The diff reads those shapes:
    another (a hand-edited or truncated golden) was an ``AttributeError`` traceback out of ``verify``."""
    if not isinstance(golden, dict):
        return "it is %s, not a JSON object" % ("null" if golden is None else describe_sent(golden))
    items = golden.get("items")
    if "items" in golden and not isinstance(items, list):
        return "its items is %s, not a list" % describe_sent(items)
    for index, item in enumerate(items or []):
        if not isinstance(item, dict):
            return "its item %d is %s, not a JSON object" % (index + 1, describe_sent(item))
    if "error" in golden and not isinstance(golden["error"], dict):
        return "its error is %s, not a JSON object" % describe_sent(golden["error"])
    return None


def write_golden(case: Case, outcome: dict[str, Any]) -> None:
    """(Re)write the case's golden from an outcome."""
    write_case_file(case.expected_path, (json.dumps(outcome, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))


def write_case_file(path: Path, data: bytes) -> None:
    """Write ``data`` as the file ``path`` without following a symbolic link there: a new file
    is written beside it and renamed over it, so a link planted in a fixture folder is
    replaced, never written through."""
    handle, temporary = tempfile.mkstemp(dir=str(path.parent), prefix="." + path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, str(path))
    finally:
        if os.path.lexists(temporary):  # the write failed: leave no stray file
            os.unlink(temporary)


# -- the readable diff --------------------------------------------------------------------------


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return cut_end(text, _SHOWN_CHARS)


def describe(outcome: dict[str, Any]) -> str:
    """One line summing up an outcome: ``3 items`` or ``error WebBlocked/captcha_required (HTTP 200)``."""
    error = outcome.get("error")
    if error:
        text = "error %s%s" % (error.get("type"), "/" + error["detail_code"] if error.get("detail_code") else "")
        return text + (" (HTTP %s)" % error["status"] if error.get("status") is not None else "")
    items = outcome.get("items") or []
    return "%d item%s" % (len(items), "" if len(items) == 1 else "s")


def compare(expected: Any, actual: Any) -> list[str]:
    """A readable diff between two outcomes (empty when they are equal).

    Lines start with ``-`` (an item the golden has and the replay lost), ``+``
    (an item the replay found that the golden lacks), ``~`` (a field that changed,
    an item that moved). Items are matched by URL.
    """
    if expected == actual:
        return []
    if "error" in expected or "error" in actual:
        return _error_diff(expected, actual)
    lines = _items_diff(expected.get("items") or [], actual.get("items") or [])
    for key in sorted((set(expected) | set(actual)) - {"items"}):
        if expected.get(key) != actual.get(key):
            lines.append("~ %s: %s -> %s" % (key, _shown(expected.get(key)), _shown(actual.get(key))))
    return lines


def _items_diff(old_list: list[dict[str, Any]], new_list: list[dict[str, Any]]) -> list[str]:
    """The item lines of :func:`compare`: a count line, then removed, added and changed items."""
    old_items = {item.get("url"): item for item in old_list}
    new_items = {item.get("url"): item for item in new_list}
    removed = [u for u in old_items if u not in new_items]
    added = [u for u in new_items if u not in old_items]
    changed = [u for u in old_items if u in new_items and old_items[u] != new_items[u]]
    lines = [
        "items: %d -> %d (%d removed, %d added, %d changed)"
        % (len(old_list), len(new_list), len(removed), len(added), len(changed))
    ]
    lines.extend(
        "- removed #%s %s  %s" % (old_items[u].get("rank"), u, _shown(old_items[u].get("title"))) for u in removed
    )
    lines.extend(
        "+ added   #%s %s  %s" % (new_items[u].get("rank"), u, _shown(new_items[u].get("title"))) for u in added
    )
    for url in changed:
        lines.extend(_item_diff(url, old_items[url], new_items[url]))
    return lines


def _error_diff(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """The diff when either side is an error: both summaries, and both errors when both are errors."""
    lines = ["- expected %s" % describe(expected), "+ got      %s" % describe(actual)]
    if "error" in expected and "error" in actual:
        lines.extend(
            "%s %s" % (side, _shown(outcome["error"]))
            for side, outcome in (("-", expected), ("+", actual))
            if outcome.get("error")
        )
    return lines


def _item_diff(url: Optional[str], before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """How one item (matched by URL) moved and which of its fields changed."""
    lines = []
    if before.get("rank") != after.get("rank"):
        lines.append("~ moved   %s  #%s -> #%s" % (url, before.get("rank"), after.get("rank")))
    for key in sorted((set(before) | set(after)) - {"rank"}):
        if before.get(key) != after.get(key):
            lines.append("~ changed %s %s:" % (url, key))
            lines.append("      was %s" % ("(absent)" if key not in before else _shown(before[key])))
            lines.append("      now %s" % ("(absent)" if key not in after else _shown(after[key])))
    return lines


# -- verdicts -----------------------------------------------------------------------------------


@dataclass
class CaseResult:
    """The verdict on one case: ``PASS``, ``DRIFT`` (differs from the golden),
    ``NEW`` (no golden yet) or ``ERROR`` (could not replay / broke the contract)."""

    case: Case
    status: str
    diff: list[str] = field(default_factory=list)
    outcome: Optional[dict[str, Any]] = None
    golden: Optional[dict[str, Any]] = None


def run_case(case: Case, wires: Sequence[str] = WIRE_KINDS) -> CaseResult:
    """Replay one case on each wire kind of ``wires`` (see :data:`WIRE_KINDS`) and judge it
    against its golden and the contract.

    Every problem of the case itself (a backend not registered too) is an ``ERROR`` verdict, and so is a recording that
    one wire kind reads differently from another (or sends a request it does not describe).
    """
    problem = _unreplayable(case)
    if problem:
        return CaseResult(case, "ERROR", [problem])
    answer = _replay_on_each(case, wires)
    if isinstance(answer, CaseResult):
        return answer
    outcome, message = answer
    if "items" in outcome:
        problems = contract_violations(
            outcome,
            max_results=case.meta.get("max_results") or 5,
            provider=case.backend,
            vertical=case.meta.get("vertical") or "web",
        )
        if problems:
            return CaseResult(case, "ERROR", ["contract violated: " + p for p in problems], outcome)
    return _against_golden(case, outcome, message)


def _against_golden(case: Case, outcome: dict[str, Any], message: Optional[str]) -> CaseResult:
    """The verdict on a replayed ``outcome`` against the case's golden: ``PASS``, ``DRIFT``
    (ending with the error's ``message`` when the replay failed: what the failure says, such as
    what is wrong with a plugin's parse result), ``NEW`` without one, ``ERROR`` for one unreadable."""
    try:
        golden = load_golden(case)
    except ValueError as exc:  # json's JSONDecodeError too
        return CaseResult(
            case, "ERROR", ["unreadable golden %s: %s" % (case.expected_path.name, exc), REWRITE], outcome
        )
    if golden is None:
        return CaseResult(case, "NEW", ["no golden: %s" % case.expected_path.name], outcome)
    diff = compare(golden, outcome)
    if diff and message is not None:
        diff.append("+ message: %s" % message)
    return CaseResult(case, "DRIFT" if diff else "PASS", diff, outcome, golden)


def _unreplayable(case: Case) -> Optional[str]:
    """Why ``case`` cannot be replayed at all (``None``: it can): a broken meta file (settings
    ``Settings`` refuses too: the whole run stopped on them, ``error: InvalidInput/bad_setting``
    naming no case), or a backend not registered (a plugin that failed to load: said so, not "the
    backend sent 0 requests")."""
    if case.problem:
        return case.problem
    if "query" not in case.meta:
        return "the meta file has no query"
    try:
        registry.backend_class(case.backend, case.meta.get("vertical") or "web")
    except InvalidInput as error:
        return error.message
    try:
        with command_line_terms(False):  # the meta file holds the Settings form, not the variables
            _settings_for(case)
    except (InvalidInput, TypeError) as error:  # TypeError: a key Settings() does not take
        return "malformed meta file: its settings are refused: %s" % error
    return None


def _replay_on_each(case: Case, wires: Sequence[str]) -> Union[tuple[dict[str, Any], Optional[str]], CaseResult]:
    """The case's outcome and its error's message, the same on every wire kind of ``wires``;
    else the ``ERROR`` verdict of the first wire kind that fails or reads it differently."""
    outcomes: list[tuple[str, dict[str, Any], Optional[str]]] = []
    for kind in wires:
        answer = _replay_on(case, kind)
        if isinstance(answer, CaseResult):
            return answer
        outcomes.append((kind, *answer))
    (first, outcome, message), *others = outcomes
    for kind, other, _ in others:
        differ = compare(outcome, other)
        if differ:
            where = "the %s wire reads the recording differently from the %s wire" % (
                _wire_name(kind),
                _wire_name(first),
            )
            return CaseResult(case, "ERROR", [where] + differ, outcome)
    return outcome, message


def _wire_name(kind: str) -> str:
    return "requests" if kind == "off" else "%s browser" % kind


def _replay_on(case: Case, kind: str) -> Union[tuple[dict[str, Any], Optional[str]], CaseResult]:
    """The case's outcome on one wire kind and its error's message, or its ``ERROR`` verdict."""
    try:
        return replayed(case, kind)
    except ReplayMismatch as exc:
        lines = str(exc).strip().splitlines()
        hint = [_PAGES_HINT] if exc.past_end and _reads_pages(case) else []
        return CaseResult(
            case, "ERROR", ["request mismatch: %s (%s wire)" % (lines[0], _wire_name(kind))] + hint + lines[1:8]
        )
    except OSError as exc:  # a body file named in the meta is missing or unreadable
        return CaseResult(case, "ERROR", ["cannot read the recording: %s" % exc])
    except (KeyError, TypeError, AttributeError) as exc:
        return CaseResult(case, "ERROR", ["malformed meta file: %s: %s" % (type(exc).__name__, exc)])


#: What a request past the recording of an engine that reads next pages may mean, and what to do.
_PAGES_HINT = (
    "the recording may hold fewer result pages than the call reads: record them, or say how many it holds "
    'in the meta file ("recorded_pages": 1; the replay passes it as max_pages, docs/contract.md)'
)


def _reads_pages(case: Case) -> bool:
    """True when the case's engine reads next pages and the case does not bound them already."""
    if "recorded_pages" in case.meta or MAX_PAGES_OPTION.name in (case.meta.get("options") or {}):
        return False
    cls = registry.backend_class(case.backend, case.meta.get("vertical") or "web")
    return cls.results_per_page is not None


def run_cases(fixtures_dir: StrPath, backend: Optional[str] = None) -> list[CaseResult]:
    """Replay every case under ``fixtures_dir`` (optionally one backend's).

    Raises ``InvalidInput(no_cases)`` when there is nothing to replay (a CI job
    pointed at the wrong folder must not pass).
    """
    root = Path(fixtures_dir)
    if root.exists() and not root.is_dir():
        raise InvalidInput(file_not_folder(root), detail_code=NO_CASES)
    if not root.is_dir():
        raise InvalidInput(
            "fixture folder %s does not exist; %s" % (root, record_hint(root, backend)), detail_code=NO_CASES
        )
    cases = discover(root, backend)
    if not cases:
        of = " of backend %s" % backend if backend else ""
        raise InvalidInput(
            "no fixture cases%s (*/<case>.meta.json) under %s; %s"
            % (of, root, misplaced_folder(root) or without_meta(root, backend) or record_hint(root, backend)),
            detail_code=NO_CASES,
        )
    return [run_case(case) for case in cases]


def without_meta(fixtures_dir: StrPath, backend: Optional[str]) -> Optional[str]:
    """What to say of case files found without the meta file a case is read from (a body or golden whose
    ``<case>.meta.json`` was deleted or renamed): "no fixture cases" alone left the files there unexplained."""
    root = Path(fixtures_dir)
    strays = [path for path in orphan_files(root) if backend is None or path.parent.name == backend]
    if not strays:
        return None
    shown = ", ".join(path.relative_to(root).as_posix() for path in strays[:4])
    more = " and %d more" % (len(strays) - 4) if len(strays) > 4 else ""
    return (
        "found %s%s, with no <case>.meta.json beside them: a case is read from its meta file (the request and "
        "answer recorded); put it back, or %s" % (shown, more, record_hint(root, backend))
    )


def record_hint(
    fixtures_dir: StrPath, backend: Optional[str] = None, query: Optional[str] = None, vertical: str = "web"
) -> str:
    """What to run to record a case into ``fixtures_dir``: a folder without cases is what a
    newcomer (or a plugin's first test) meets before anything was recorded. A query starting
    with ``-`` comes last, after ``--``: argparse would read it as a flag. Each word is quoted for the
    shell as the command line's own hints quote it (:func:`~websearch_sync.shellwords.shell_quote`)."""
    flags = "--fixtures %s%s" % (
        shell_quote(os.fspath(fixtures_dir)),
        "" if vertical == "web" else " --vertical %s" % vertical,
    )
    words = shell_quote(query) if query else "QUERY"
    arguments = "%s -- %s" % (flags, words) if query and query.startswith("-") else "%s %s" % (words, flags)
    return "record one with `websearch-sync record %s %s`" % (shell_quote(backend) if backend else "BACKEND", arguments)


def file_not_folder(fixtures_dir: StrPath) -> str:
    """What is said of a fixture folder given as a file: one of a case's files (``tests/fixtures/demo/q.meta.json``)
    names the folder meant, two up; another file, the layout the folder has."""
    root = Path(fixtures_dir)
    meant = root.parent.parent if next(root.parent.glob("*.meta.json"), None) is not None else None
    return (
        "fixture folder %s is a file, not a folder: give %s (cases are read as <fixtures>/<backend>/<case>.meta.json)"
        % (
            root,
            "the fixture folder it belongs to, %s" % meant if meant is not None else "the folder of the cases",
        )
    )


def misplaced_folder(fixtures_dir: StrPath) -> str:
    """What to give instead when ``fixtures_dir`` is a backend's folder (its case files right in it,
    ``tests/fixtures/demo``), not the folder of backends' folders above it: recording there would
    write ``demo/demo/``, and the cases it holds were not looked for; ``""`` otherwise."""
    root = Path(fixtures_dir)
    if not root.is_dir() or next(root.glob("*.meta.json"), None) is None:
        return ""
    return (
        "%s holds case files itself, as a backend's folder does: give the folder above it, %s"
        " (cases are read as <fixtures>/<backend>/<case>.meta.json)" % (root, root.parent)
    )


def count_statuses(results: list[CaseResult]) -> dict[str, int]:
    """``{"PASS": n, "NEW": n, "DRIFT": n, "ERROR": n}``."""
    counts = dict.fromkeys(STATUSES, 0)
    for result in results:
        counts[result.status] = counts.get(result.status, 0) + 1
    return counts

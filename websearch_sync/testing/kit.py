"""What :mod:`websearch_sync.testing` exports, imported the first time one of its names is read
(the package itself, which pytest loads as a plugin in every session, imports nothing heavy)."""

import contextlib
import copy
import ipaddress
import os
import socket
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union

from ..backends.searxng_config import forget_configs, fresh_configs
from ..client.clock import forget_skipped_time, waits_skipped
from ..client.default_client import close_default_client
from ..client.processwide import forget_process_parts
from ..client.search_client import open_clients_learn_afresh
from ..client.state.server import forget_outages
from ..config import Settings
from ..contract.cases import (
    VERTICAL_TYPES,
    Case,
    contract_violations,
    discover,
    file_not_folder,
    misplaced_folder,
    record_hint,
    recorded_bound,
    without_meta,
)
from ..contract.conformance import ConformanceCheck
from ..contract.conformance import conformance_checks as _conformance_checks
from ..contract.replay import ReplayWire
from ..engine import registry
from ..engine.base import Backend
from ..engine.normalize import LINE_TEXT_FIELDS, URL_FIELDS
from ..engine.option import PAGENO
from ..errors import (
    BAD_PARSE_RESULT,
    BAD_SETTING,
    NETWORK_BLOCKED,
    NO_RECORDED_CASE,
    InvalidInput,
    NetworkError,
    WebProviderError,
    WebSearchError,
    cut_end,
)
from ..forks import module_lock
from ..models import ParseResult, SearchParams, StrPath
from ..net.deadline import Deadline
from ..net.environment import forget_answers as forget_environment_answers
from ..net.transport import HttpTransport
from ..net.wire import CONNECTION_CHECKS
from ..once import forget_sayings
from ..shellwords import shell_quote
from ..validate import most_results

__all__: list[str] = []  # websearch_sync.testing exports these names


class NetworkAccessBlocked(NetworkError, RuntimeError):
    """A test tried to open a connection to (or resolve) a non-loopback address.

    A typed ``NetworkError(network_blocked)``, not retried: a search that tries it ends with
    this error and its message (which host; how to replay instead), where a bare exception
    would have been the search's ``internal_error`` with a traceback in the log."""

    def __init__(self, message: str) -> None:
        super().__init__(
            message,
            detail_code=NETWORK_BLOCKED,
            hint="no_network blocks it: replay the backend (replay_fixtures, fake_results) or serve on 127.0.0.1",
        )


def _is_loopback(address: Any) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    if not isinstance(host, str):
        return True  # abstract unix addresses (bytes) and the like
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return host in ("localhost",)


_BLOCK_LOCK = module_lock(__name__, "_BLOCK_LOCK")
_block_depth = 0
_real_socket_calls: dict[str, Any] = {}


def _local(sock: socket.socket, address: Any) -> bool:
    """True for a loopback address, and for any unix socket (a path: it never leaves the machine)."""
    return sock.family == getattr(socket, "AF_UNIX", None) or _is_loopback(address)


def _blocked_connect(self: socket.socket, address: Any) -> None:
    if not _local(self, address):
        raise NetworkAccessBlocked("test tried to connect to %r" % (address,))
    return _real_socket_calls["connect"](self, address)  # type: ignore[no-any-return]


def _blocked_connect_ex(self: socket.socket, address: Any) -> int:
    if not _local(self, address):
        raise NetworkAccessBlocked("test tried to connect to %r" % (address,))
    return _real_socket_calls["connect_ex"](self, address)  # type: ignore[no-any-return]


def _blocked_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host is not None and not _is_loopback(host) and host not in ("localhost", "127.0.0.1", "::1"):
        raise NetworkAccessBlocked("test tried to resolve %r" % (host,))
    return _real_socket_calls["getaddrinfo"](host, *args, **kwargs)


def _blocked_wire(host: str) -> None:  # the browser wire (libcurl) opens its sockets itself
    if not _is_loopback(host) and host not in ("localhost", "127.0.0.1", "::1"):
        raise NetworkAccessBlocked("test tried to connect to %r" % (host,))


@contextlib.contextmanager
def no_network() -> Iterator[None]:
    """Within the block, connecting a socket anywhere but loopback (or a unix socket) raises
    :class:`NetworkAccessBlocked` (name resolution of other hosts too).

    Blocks may nest and overlap across threads: the first one in patches the socket
    functions, the last one out restores the real ones (patching per block and restoring
    out of order would leave wrappers wrapping wrappers). A blocking function found in place
    on entry (a test's monkeypatch restored it after its block ended) is never taken for the
    real one."""
    global _block_depth
    with _BLOCK_LOCK:
        if _block_depth == 0:
            current = {
                "connect": socket.socket.connect,
                "connect_ex": socket.socket.connect_ex,
                "getaddrinfo": socket.getaddrinfo,
            }
            for name, function in current.items():
                # one of ours left behind (a monkeypatch undone after the block ended): keep the real one
                if function not in (_blocked_connect, _blocked_connect_ex, _blocked_getaddrinfo):
                    _real_socket_calls[name] = function
            socket.socket.connect = _blocked_connect  # type: ignore[method-assign,assignment]  # a deliberate patch of the class
            socket.socket.connect_ex = _blocked_connect_ex  # type: ignore[method-assign,assignment]
            socket.getaddrinfo = _blocked_getaddrinfo
            CONNECTION_CHECKS.append(_blocked_wire)
        _block_depth += 1
    try:
        yield
    finally:
        with _BLOCK_LOCK:
            _block_depth -= 1
            if _block_depth == 0:
                socket.socket.connect = _real_socket_calls["connect"]  # type: ignore[method-assign]
                socket.socket.connect_ex = _real_socket_calls["connect_ex"]  # type: ignore[method-assign]
                socket.getaddrinfo = _real_socket_calls["getaddrinfo"]
                CONNECTION_CHECKS.remove(_blocked_wire)


# -- swapping backends for the duration of a block ------------------------------------------------


@dataclass
class SearchCall:
    """One search a swapped backend answered."""

    backend: str
    query: str
    max_results: int
    options: dict[str, Any]
    case: Optional[str] = None  #: the ``<backend>/<case>`` that answered (replay only)


def _call_options(params: SearchParams) -> dict[str, Any]:
    """The options of a call as ``search()`` keywords (what a case's ``options`` records)."""
    options = {
        k: getattr(params, k)
        for k in ("locale", "time_range", "site_filter", "safe_search")
        if getattr(params, k) is not None
    }
    if params.include_content:
        options["include_content"] = True
    options.update(params.options)
    return options


Answer = Callable[[Backend, SearchParams, HttpTransport, Deadline], ParseResult]


@contextlib.contextmanager
def _swapped_backends(
    answers: Mapping[str, Answer], block_network: bool, check: Callable[[Backend, SearchParams], None]
) -> Iterator[None]:
    """Register, under each name and for each vertical it serves (web, news, images, videos), a
    subclass of the registered backend whose ``search`` is the answer and whose ``check`` is ``check``;
    the clients' waits take no real time meanwhile (:func:`~websearch_sync.client.clock.waits_skipped`:
    a recorded or given 429's ``Retry-After``, and the retries after it, protect no server)."""
    saved: list[type[Backend]] = []
    try:
        for name, answer in answers.items():
            for vertical in registry.verticals_of(name):
                saved.append(_swap(registry.backend_class(name, vertical), answer, check))
        with no_network() if block_network else contextlib.nullcontext(), waits_skipped():
            yield
    finally:
        for original in saved:
            registry.register_checked(original)  # as it was: checked when first registered


def _swap(original: type[Backend], answer: Answer, check: Callable[[Backend, SearchParams], None]) -> type[Backend]:
    """Register a subclass of ``original`` whose ``search`` is ``answer`` and ``check`` is ``check``; ``original``."""

    def search(self: Backend, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        return answer(self, params, transport, deadline)

    swapped = type(
        original.__name__,
        (original,),
        {
            "__module__": __name__,
            "__doc__": "%s answering offline (websearch_sync.testing)." % original.__name__,
            "search": search,
            "check": check,  # a fake needs no key: its configuration is not checked
            "required": (),
            "min_interval_s": 0.0,
        },
    )
    registry.register_checked(swapped)  # the original's declarations, checked when it was registered, and the kit's
    return original


def _check_params_only(self: Backend, params: SearchParams) -> None:
    """A fake or replaying backend's :meth:`Backend.check`: the parameters as the real backend checks
    them before any request (a query too long, an option's bad value: :meth:`Backend.check_params`),
    not its configuration (a fake needs no key nor endpoint; a replay's is its recorded case's). It runs
    before a replay looks for the recorded case: a bad input is its own refusal, not ``no_recorded_case``."""
    self.check_params(params)


def _no_answer(name: str, why: str) -> WebProviderError:
    return WebProviderError(why, provider=name, detail_code=NO_RECORDED_CASE)


# -- replaying recorded cases ---------------------------------------------------------------------


def _replay_transport(case: Case, impersonate: Optional[str]) -> HttpTransport:
    """A transport answering one attempt with the case's recorded responses, in order, below
    the wire kind ``impersonate`` picks (the searching client's: browser requests pass through
    the browser wire's request building, as in production)."""

    def body_of(response: dict[str, Any]) -> bytes:
        try:
            return case.body_bytes(response)
        except OSError as error:  # a body file the meta names, missing or unreadable: the case's fault
            why = "case %s cannot answer: its recorded body cannot be read (%s: %s)"
            raise _no_answer(case.backend, why % (case.case_id, type(error).__name__, error)) from None

    wire = ReplayWire(
        case.exchanges(),
        body_of,
        check_requests=False,
        refuse=lambda why: _no_answer(case.backend, "case %s: %s" % (case.case_id, why)),
    )
    return HttpTransport(wire=wire, impersonate=impersonate)


def _first_page(options: Mapping[str, Any]) -> Any:
    """The first result page a call or a case's recorded call asks for: its ``pageno`` option, 1 when
    unset (as given in a case's meta file: a value the search would refuse stays as it is, matching no call)."""
    page = options.get(PAGENO.name)
    if page is None:
        return 1
    return int(page) if isinstance(page, str) and page.isascii() and page.isdigit() else page


def _vertical(case: Case) -> str:
    """The vertical a case was recorded for (``web`` when its meta file names none)."""
    return str(case.meta.get("vertical") or "web")


def _collapsed(text: Any) -> str:
    return " ".join(str(text).split())


@dataclass
class FixtureReplay:
    """What :func:`replay_fixtures` yields: the cases it answers from and the calls it answered."""

    cases: list[Case]
    calls: list[SearchCall] = field(default_factory=list)
    fixtures_dir: StrPath = ""  #: where the cases were read: a search no case answers says how to record one there

    def find(self, backend: str, params: SearchParams) -> Case:
        """The case answering a search (see the module docstring for the rule)."""
        query = _collapsed(params.query)
        candidates = [
            c
            for c in self.cases
            if c.backend == backend
            and not c.problem
            and _collapsed(c.meta.get("query", "")) == query
            and _vertical(c) == params.vertical  # a news case never answers a web search
        ]
        if not candidates:
            raise _no_answer(
                backend,
                "no recorded case of %s for query %r (%s)" % (backend, params.query, self._why_none(backend, params)),
            )
        page = _first_page(params.options)
        of_page = [c for c in candidates if _first_page(c.meta.get("options") or {}) == page]
        if not of_page:  # a recording of another page holds no answer to this page's request
            held = ", ".join(
                "%s (page %s)" % (c.case_id, _first_page(c.meta.get("options") or {}))
                for c in sorted(candidates, key=lambda c: c.name)
            )
            raise _no_answer(
                backend,
                "no recorded case of %s for query %r page %d (recorded: %s); %s"
                % (
                    backend,
                    params.query,
                    page,
                    held,
                    record_hint(self.fixtures_dir, backend, params.query, params.vertical),
                ),
            )
        candidates = of_page
        options = _call_options(params)

        def score(case: Case) -> int:
            same_options = {k: v for k, v in (case.meta.get("options") or {}).items() if v is not None} == options
            return 2 * same_options + (case.meta.get("max_results") == params.max_results)

        return max(sorted(candidates, key=lambda c: c.name), key=score)  # max() keeps the first of equal scores

    def _why_none(self, backend: str, params: SearchParams) -> str:
        """Why no case answers a search: a case of its query that cannot answer (its meta file
        broken), else the queries recorded and how to record this one."""
        query = _collapsed(params.query)
        for case in self.cases:
            if case.backend == backend and case.problem and _collapsed(case.meta.get("query", "")) == query:
                return "case %s cannot answer: %s" % (case.case_id, case.problem)
        ours = [c for c in self.cases if c.backend == backend]
        record = record_hint(self.fixtures_dir, backend, params.query, params.vertical)
        if ours:
            return _recorded(ours, query, params.vertical) + record
        return (
            misplaced_folder(self.fixtures_dir)
            or without_meta(self.fixtures_dir, backend)
            or "no case of this backend is recorded: %s" % record
        )


def _recorded(cases: list[Case], query: str, vertical: str) -> str:
    """What a backend's ``cases`` hold, for a call of ``query`` (whitespace collapsed) in ``vertical`` no
    case answers, before the command recording it: the queries recorded for that vertical, and the
    other verticals the query was recorded for (it was listed among "recorded queries" of the error
    saying it was not recorded, a web case for a news search)."""
    elsewhere = sorted({_vertical(c) for c in cases if _collapsed(c.meta.get("query", "")) == query} - {vertical})
    known = sorted({repr(c.meta.get("query")) for c in cases if _vertical(c) == vertical})
    other = "recorded for %s search, not %s; " % (" and ".join(elsewhere), vertical) if elsewhere else ""
    if not known:
        return "%sno %s case of this backend is recorded: " % (other, vertical)
    kind = "" if vertical == "web" and not elsewhere else " (%s)" % vertical
    return "%srecorded queries%s: %s; or " % (other, kind, ", ".join(known[:8]))


def _check_replay_arguments(fixtures_dir: object, backends: object) -> None:
    """``TypeError`` saying what :func:`replay_fixtures` takes: ``replay_fixtures(None)`` was ``stat: path
    should be string, bytes, os.PathLike or integer, not NoneType`` and ``backends=5`` ``'int' object is not
    iterable``, from inside."""
    if not isinstance(fixtures_dir, (str, os.PathLike)):
        raise TypeError(
            "replay_fixtures takes the fixture folder's path (a str or a pathlib.Path), got %s"
            % type(fixtures_dir).__name__
        )
    if backends is not None and not isinstance(backends, (str, Iterable)):
        raise TypeError(
            "backends must be a backend's name or names in a list (backends=['demo']), got %s" % type(backends).__name__
        )


@contextlib.contextmanager
def replay_fixtures(
    fixtures_dir: StrPath,
    *,
    backends: Union[str, Iterable[str], None] = None,
    block_network: bool = True,
) -> Iterator[FixtureReplay]:
    """Within the block, backends answer from the recorded cases under ``fixtures_dir``.

    Every registered backend except offline ones (``stub``) is swapped, or only
    ``backends`` when given (a list of names, or one name; a name no backend is registered
    under is ``InvalidInput(unknown_backend)``). The backend's own request builder, HTTP layer,
    classifier and parser run on the recorded answer, so results (and errors:
    a recorded captcha page is ``WebBlocked``) are what production would return
    for that recording. Works with ``websearch_sync.search`` and with any
    ``SearchClient``, created before or inside the block. It uses the same replay
    engine as the contract suite (:mod:`websearch_sync.contract.replay`). With ``block_network`` (default) no socket may reach
    a non-loopback address meanwhile.

    A call's inputs are checked first, as a live search checks them (a bad option value is its own
    ``InvalidInput``, not ``no_recorded_case``). Yields a :class:`FixtureReplay` whose ``calls``
    lists the searches answered.
    """
    _check_replay_arguments(fixtures_dir, backends)
    if os.path.exists(fixtures_dir) and not os.path.isdir(fixtures_dir):
        raise NotADirectoryError(file_not_folder(fixtures_dir))  # it said the file "does not exist"
    if not os.path.isdir(fixtures_dir):
        where = "" if os.path.isabs(fixtures_dir) else " (relative to the current directory %s)" % os.getcwd()
        raise FileNotFoundError(  # docs/contract.md's first example reads the reader's own recordings, not made yet
            "fixture folder %s does not exist%s; record a case into it: websearch-sync record BACKEND QUERY --fixtures %s"
            % (os.fspath(fixtures_dir), where, shell_quote(os.fspath(fixtures_dir)))
        )
    replay = FixtureReplay(cases=discover(fixtures_dir), fixtures_dir=fixtures_dir)
    if backends is None:
        names = [n for n in registry.backend_names() if registry.backend_class(n).kind != "offline"]
    else:
        names = [backends] if isinstance(backends, str) else list(backends)  # one name, as backend="ddg_html" is
        for name in names:
            registry.backend_class(name)  # unknown names: InvalidInput(unknown_backend), not a block replaying nothing

    def answer_for(name: str) -> Answer:
        originals = {vertical: registry.backend_class(name, vertical) for vertical in registry.verticals_of(name)}

        def answer(backend: Backend, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
            case = replay.find(name, params)
            replay.calls.append(SearchCall(name, params.query, params.max_results, _call_options(params), case.case_id))
            recorded = originals[params.vertical](_case_settings(case))
            replayed = _replay_transport(case, transport.profile or "off")  # builds no browser wire
            with fresh_configs():  # what the case recorded, not what the process knows of the instance
                return recorded.search(recorded_bound(case, params), replayed, deadline)

        return answer

    with _swapped_backends({name: answer_for(name) for name in names}, block_network, _check_params_only):
        yield replay


def _case_settings(case: Case) -> Settings:
    """The settings ``case`` was recorded with, or ``InvalidInput`` naming its meta file when ``Settings``
    refuses them: the refusal alone (``Settings.providers['demo']['api_key'] ... must be a string``) named
    settings the search's caller never gave."""
    try:
        return Settings(**(case.meta.get("settings") or {}))
    except (InvalidInput, TypeError) as error:  # TypeError: a key Settings() does not take
        detail = error.detail_code if isinstance(error, InvalidInput) else None
        raise InvalidInput(
            "case %s (%s) holds settings that are refused: %s" % (case.case_id, case.meta_path, error),
            detail_code=detail or BAD_SETTING,
        ) from None


# -- given items ----------------------------------------------------------------------------------

FakeAnswer = Union[Sequence[Mapping[str, Any]], WebSearchError, Callable[[SearchParams], Sequence[Mapping[str, Any]]]]


@dataclass
class FakeResults:
    """What :func:`fake_results` yields: the calls the fake backends answered."""

    calls: list[SearchCall] = field(default_factory=list)


def _fake_items(name: str, value: Any, params: SearchParams) -> ParseResult:
    if isinstance(value, WebSearchError):
        error = copy.copy(value)
        error.errors = []
        if error.provider is None:
            error.provider = name
        raise error
    if callable(value):
        value = value(params)
        if isinstance(value, Iterator):  # a generator: read once, for the check and the items alike
            value = list(value)
        problem = _answer_problem(name, value)
        if problem is not None:  # the shape check of a backend's parse result, as this answer stands for one
            raise WebProviderError(problem, provider=name, detail_code=BAD_PARSE_RESULT)
    return ParseResult(items=[{k: v for k, v in dict(item).items() if k not in ("rank", "provider")} for item in value])


#: The item fields a given item must hold as text when it has them: its address and its other addresses,
#: its title and its other one-line texts. A real answer's ``None`` or number there is normalised (``""``,
#: or the item dropped); a fake's is the test's slip (``"title": None``, ``"url": 5``), refused naming it.
_TEXT_FIELDS = ("url",) + URL_FIELDS + LINE_TEXT_FIELDS


def _answer_problem(name: str, value: Any) -> Optional[str]:
    """What makes a given answer unusable (``None``: nothing): not a list of item dicts, an
    item without a ``url`` (one with the vendor's ``link`` would be dropped by normalisation: a
    search answering nothing, unexplained), or one whose ``url``, ``title`` or other text field
    (:data:`_TEXT_FIELDS`) is no ``str`` (an ``int`` URL was dropped, a ``None`` title read as ``""``)."""
    items = None if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable) else list(value)
    if items is None or not all(isinstance(item, Mapping) for item in items):
        return "fake_results: the answer for %s must be a list of item dicts, a WebSearchError or a callable" % name
    for position, item in enumerate(items, 1):
        if "url" not in item:
            return (
                "fake_results: item %d for %s has no 'url' (its keys: %s); an item is {'title', 'url', 'snippet'}"
                % (
                    position,
                    name,
                    ", ".join(map(str, item)),
                )
            )
        wrong = [field for field in _TEXT_FIELDS if field in item and not isinstance(item[field], str)]
        if wrong:
            return "fake_results: item %d for %s: %r is %s, not a str (give %s)" % (
                position,
                name,
                wrong[0],
                _described(item[wrong[0]]),
                "the address as text" if wrong[0] == "url" else "text, or leave the key out",
            )
    return None


def _described(value: Any) -> str:
    """``None``, or a value's type and ``repr`` cut to 40 characters (``int 5``), for :func:`_answer_problem`."""
    return "None" if value is None else "%s %s" % (type(value).__name__, cut_end(repr(value), 40))


def _check_answer(name: str, value: Any) -> None:
    """A given answer is usable (:func:`_answer_problem`), else ``TypeError`` saying why."""
    if isinstance(value, WebSearchError) or callable(value):
        return
    problem = _answer_problem(name, value)
    if problem is not None:
        raise TypeError(problem)


@contextlib.contextmanager
def fake_results(
    results: Union[Sequence[Mapping[str, Any]], Mapping[str, FakeAnswer]],
    *,
    block_network: bool = True,
) -> Iterator[FakeResults]:
    """Within the block, backends answer with given items (or errors), without network.

    ``results`` is either a list of raw items (``{"title", "url", "snippet"}``,
    optionally ``source``/``published_at``) that every backend returns, or a
    mapping ``{backend: answer}`` where an answer is such a list, a
    ``WebSearchError`` to raise (e.g. ``WebBlocked("captcha", detail_code=
    "captcha_required")``) or a callable ``(SearchParams) -> list``. With a
    mapping, other network backends fail with ``WebProviderError(no_recorded_case)``
    and offline ones (``stub``) keep working.

    A call is checked as a real search checks it before any request (``InvalidInput``: a query
    the backend's ``max_query_chars`` refuses, an option's bad value), not the backend's key or
    endpoint. Items go through the normal normalization: ``rank`` and ``provider`` are
    assigned by the library (given ones are ignored), non-http(s) URLs are
    dropped, at most ``max_results`` are returned. An item without ``url``, or whose ``url``,
    ``title`` or other text field is there but no ``str`` (``None``, ``5``), is a ``TypeError``
    naming the item and the field (a callable's: ``WebProviderError(bad_parse_result)``).
    """
    fake = FakeResults()
    if isinstance(results, Mapping):
        table: dict[str, Any] = dict(results)
        for name, value in table.items():
            registry.backend_class(name)  # unknown names: InvalidInput(unknown_backend)
            _check_answer(name, value)
        names = [n for n in registry.backend_names() if n in table or registry.backend_class(n).kind != "offline"]
    else:
        _check_answer("every backend", results)
        table = {name: list(results) for name in registry.backend_names()}
        names = registry.backend_names()

    def answer_for(name: str) -> Answer:
        def answer(backend: Backend, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
            if name not in table:  # not answered: not a call (as replay_fixtures' calls)
                raise _no_answer(
                    name,
                    "fake_results has no answer for backend %s (answers given for: %s)"
                    % (name, ", ".join(table) or "none"),
                )
            fake.calls.append(SearchCall(name, params.query, params.max_results, _call_options(params)))
            return _fake_items(name, table[name], params)

        return answer

    with _swapped_backends({name: answer_for(name) for name in names}, block_network, _check_params_only):
        yield fake


# -- the contract ---------------------------------------------------------------------------------

_RESPONSE_KEYS = ("items", "provider_meta", "errors")
_ITEM_KEYS = (
    "title",
    "url",
    "snippet",
    "provider",
    "rank",
    "source",
    "published_at",
    "providers",
    "content",
    "content_by",
    "content_truncated_by",
)


def contract_problems(result: Any, max_results: Optional[int] = None, provider: Optional[str] = None) -> list[str]:
    """Everything in a ``search()`` result that breaks the canonical contract (empty when it holds).
    ``TypeError`` for a ``max_results`` that is no whole number or a ``provider`` that is no name: the
    test's slip, which compared as ``'>' not supported between instances of 'int' and 'str'``."""
    _check_contract_arguments(max_results, provider)
    if not isinstance(result, Mapping):
        return ["the result is a %s, not a dict with 'items'" % type(result).__name__]
    if "items" not in result:
        return ["the result has no 'items'"]
    problems = ["unexpected top-level key %r" % k for k in result if k not in _RESPONSE_KEYS]
    meta = result.get("provider_meta")
    vertical = (meta.get("vertical") if isinstance(meta, Mapping) else None) or "web"
    limit = max_results if max_results is not None else most_results(str(vertical))
    problems.extend(contract_violations(dict(result), max_results=limit, provider=provider, vertical=vertical))
    problems.extend(_unknown_item_keys(result["items"], vertical))
    for position, error in enumerate(result.get("errors") or [], 1):
        if not (
            isinstance(error, Mapping)
            and isinstance(error.get("type"), str)
            and isinstance(error.get("retryable"), bool)
        ):
            problems.append("errors[%d] is not {type, message, retryable, ...}" % position)
    return problems


def _check_contract_arguments(max_results: Any, provider: Any) -> None:
    """``TypeError`` for :func:`contract_problems`' arguments of the wrong type."""
    if max_results is not None and (type(max_results) is not int or max_results < 0):
        raise TypeError("max_results must be a whole number >= 0 (the most items allowed), got %r" % (max_results,))
    if provider is not None and not isinstance(provider, str):
        raise TypeError("provider must be a backend's name, a str, got %r" % (provider,))


def _unknown_item_keys(items: Any, vertical: str = "web") -> list[str]:
    """Item keys outside the canonical shape of ``vertical``'s items (raw upstream data leaking through)."""
    known = set(_ITEM_KEYS) | set(VERTICAL_TYPES.get(vertical, ()))
    problems: list[str] = []
    for position, item in enumerate(items if isinstance(items, list) else [], 1):
        if isinstance(item, Mapping):
            problems.extend(
                "item %d: unexpected key %r (raw upstream data?)" % (position, k) for k in item if k not in known
            )
    return problems


def assert_contract(result: Any, max_results: Optional[int] = None, provider: Optional[str] = None) -> None:
    """Assert that a ``search()`` result honours the canonical contract.

    Checks: a dict with an ``items`` list (never a bare list) and no unknown
    top-level keys; every item has string ``title``/``url``/``snippet``/``provider``,
    an http(s) URL, whitespace-collapsed text, no unknown keys; ranks are 1..n;
    no duplicate URLs; at most ``max_results`` items (default: the most a search of the
    result's vertical takes, 100 for images, 60 for videos, else 50);
    news, image and video items (``provider_meta["vertical"]``) by their own shape;
    every item's provider is ``provider`` when given. Raises ``AssertionError``
    listing every problem.
    """
    problems = contract_problems(result, max_results, provider)
    if problems:
        raise AssertionError("the result breaks the websearch_sync contract:\n  " + "\n  ".join(problems))


def reset() -> None:
    """Forget the process-wide state of the module-level calls (``websearch_sync.search``,
    ``fetch``) and of the tools' shared client: rate-limit pace, cool-downs after a block, the time a
    ``fake_results`` or ``replay_fixtures`` block skipped (this context's clock reads real time again),
    single-flight tables, the wires' proxy and CA options read from the environment, the SearXNG instances' ``/config`` read, a shared state's outage (Redis is
    tried again at once, not :data:`~websearch_sync.client.state.server.RETRY_AFTER_S` later), and what the
    library says once per process (a test's ``caplog`` sees it again): the malformed and mistyped variables
    already said to be ignored (``WEB_SEARCH_TIMEOUT_MS=abc``, ``WEB_SEARCH_BACKNED``), the backends whose
    constructor's traceback was logged, the built-in backends a ``register`` without ``replace=True`` replaced or
    added a vertical to, a key sent over plain http, a locale's hint, and every other such warning. A block a test provokes (``fake_results({"ddg_html": WebBlocked(...)})``)
    would otherwise leave that backend cooling down for the tests after it.

    Every open ``SearchClient`` (an application's module-level one too) forgets the same of its
    own, and the answers it cached in memory; its cache file is kept, and so is a shared state
    in Redis (``websearch-sync state clear``). The pytest plugin calls it before each test; call
    it yourself under another runner. The offline stub's ``OfflineResultsWarning`` stays once per
    process (a suite is told once, not once a test): ``pytest.warns`` sees it in the first test
    that searches the stub only.
    """
    forget_process_parts()
    forget_sayings()
    forget_skipped_time()
    forget_environment_answers()
    forget_outages()
    forget_configs()
    close_default_client()
    open_clients_learn_afresh()


# -- the conformance kit ---------------------------------------------------------------------------


def conformance_checks(
    backend: str,
    *,
    fixtures: Optional[StrPath] = None,
    settings: Optional[Settings] = None,
    verticals: Union[str, Sequence[str], None] = None,
) -> list[ConformanceCheck]:
    """The conformance checks of the registered ``backend``, for each vertical it serves (or
    only ``verticals``), each a callable raising ``AssertionError`` (``str(check)`` is
    ``<backend>-<check>``, ``<backend>[news]-<check>`` for a vertical: an id for ``parametrize``).

    What this project's conformance suite checks on its own backends: the declarations, the
    request (declared endpoint, query, secrets in headers only), missing settings and bad
    option values refused before any request, the status mapping (``AuthError``/``WebBlocked``/``BadGateway``...,
    ``Retry-After``), a proxy's error page, an unknown layout (``WebParseError``, never 0
    results), a silent server (``Timeout``, never a hang), and with ``fixtures`` (cases
    recorded by ``websearch-sync record``) every recorded case against its golden and the
    contract. ``settings`` (a ``Settings``) configure the backend (default: dummy values for
    what it requires); ``verticals`` is a list of verticals or one.
    """
    return _conformance_checks(backend, fixtures=fixtures, settings=settings, verticals=verticals)


def check_conformance(
    backend: str,
    *,
    fixtures: Optional[StrPath] = None,
    settings: Optional[Settings] = None,
    verticals: Union[str, Sequence[str], None] = None,
) -> None:
    """Run every check of :func:`conformance_checks`; ``AssertionError`` listing each that fails."""
    failures = []
    for check in conformance_checks(backend, fixtures=fixtures, settings=settings, verticals=verticals):
        try:
            check()
        except AssertionError as error:
            failures.append("%s: %s" % (check, error))
    if failures:
        raise AssertionError("%s breaks the conformance kit:\n  " % backend + "\n  ".join(failures))

"""SearchClient: validation, backend selection, strategies, caching and the shared
HTTP session; the parts live beside it (selection, attempts, strategies, cache,
rate limit, cool-downs, clock).

A client is safe to share between threads: the HTTP connection pool is sized for
it, and the cache, rate limiter and cool-down table are locked.
"""

import datetime
import inspect
import sys
import threading
import weakref
from collections.abc import Hashable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Literal, Optional, Union, cast, overload

from ..config import (
    DEFAULT_CONTENT_CHARS,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_CHARS,
    READ_WARNINGS,
    SETTINGS_ARGUMENTS,
    Settings,
    check_settings,
    hold,
)
from ..engine import registry
from ..engine.base import Backend
from ..engine.option import omitted_defaults
from ..errors import (
    BAD_BUDGET_MS,
    BAD_CACHE_MAX_ANSWERS,
    BAD_CACHE_TTL_S,
    BAD_COOLDOWNS,
    BAD_MIN_INTERVAL_S,
    BAD_RETRIES,
    BAD_STRATEGY,
    InvalidInput,
    WebSearchError,
    client_closed,
    redact_error,
)
from ..forks import module_lock
from ..models import (
    AnyResponse,
    ErrorInfo,
    ExtractMode,
    FetchResult,
    ImageResponse,
    NewsResponse,
    SafeSearch,
    SearchItem,
    SearchParams,
    SearchResponse,
    Strategy,
    StrPath,
    TimeRange,
    VideoResponse,
    params_with,
)
from ..net.deadline import Deadline
from ..net.transport import HttpTransport, WireArg
from ..net.urls import page_key, request_url
from ..reader.pagetext import CUT_DEADLINE, CUT_MAX_CHARS, asked_url
from ..validate import (
    COMMON_OPTIONS,
    BackendArg,
    backend_list,
    check_number,
    check_options_taken,
    check_query,
    check_timeout_ms,
    query_first,
    search_params,
    suggesting_keywords,
)
from .answers import (
    page_answer_bytes,
    search_answer_bytes,
    stray_selectors_read,
    valid_page_answer,
    valid_search_answer,
)
from .attempts import BackendRunner, CallState, refusal, send_need_s, with_retries
from .cache import DEFAULT_FILE_ANSWERS, PAGE_MEMORY_CHARS, PAGE_MEMORY_ENTRIES, MemoryCache, ResultCache, SqliteCache
from .cachekey import Fingerprints, SectionsSnapshot, fetch_key, search_key
from .clock import SYSTEM_CLOCK, Clock
from .cooldown import DEFAULT_COOLDOWNS_S, Cooldowns
from .flight import DEADLINE_CUTS, Flights, Reach
from .hostgate import HostGate, backend_hosts
from .plancache import PlanMemo, Validated, call_key, shape_key
from .ratelimit import RateLimiter
from .retry import DEFAULT_RETRY, RetryPolicy
from .selection import check_backends, default_backends, offline_backends, resolve_backends
from .stamps import served, shaping, stamped
from .state import SharedTiers, shared_tiers
from .strategies import STRATEGIES as STRATEGIES  # STRATEGIES: the CLI imports it here
from .strategies import asks_no_one, fallback, merge

if TYPE_CHECKING:
    import requests

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The clients not closed yet (weakly: one dropped unclosed is forgotten with it), under its lock
#: (clients open and close in any thread: a set iterated while another thread adds fails).
_OPEN: "weakref.WeakSet[SearchClient]" = weakref.WeakSet()
_OPEN_LOCK = module_lock(__name__, "_OPEN_LOCK")


def open_clients_learn_afresh() -> None:
    """Every open client forgets what it learnt running (``SearchClient._learn_afresh``): what
    ``websearch_sync.testing.reset()`` does between two tests."""
    with _OPEN_LOCK:
        clients = list(_OPEN)
    for client in clients:
        client._learn_afresh()


def _check_ttl(value: object) -> float:
    return check_number("cache_ttl_s", value, minimum=0, integer=False, detail=BAD_CACHE_TTL_S)


def _check_file_answers(value: object) -> int:
    return check_number("cache_max_answers", value, minimum=1, detail=BAD_CACHE_MAX_ANSWERS)


def _check_retries(value: object) -> int:
    return check_number("retries", value, minimum=0, maximum=10, detail=BAD_RETRIES)


def _check_interval(value: object) -> float:
    return check_number("min_interval_s", value, minimum=0, integer=False, detail=BAD_MIN_INTERVAL_S)


def _check_cooldowns(value: Optional[Mapping[str, float]]) -> dict[str, float]:
    """``{kind: seconds}`` with known kinds and non-negative numbers; ``InvalidInput(bad_cooldowns)`` naming the key."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInput("cooldowns must be a mapping {kind: seconds}, got %r" % (value,), detail_code=BAD_COOLDOWNS)
    for kind, seconds in value.items():
        if kind not in DEFAULT_COOLDOWNS_S:
            raise InvalidInput(
                "cooldowns has no kind %r; the kinds are %s" % (kind, ", ".join(DEFAULT_COOLDOWNS_S)),
                detail_code=BAD_COOLDOWNS,
            )
        check_number("cooldowns[%r]" % kind, seconds, minimum=0, integer=False, detail=BAD_COOLDOWNS)
    return {kind: float(seconds) for kind, seconds in value.items()}


def _check_parts(session: object, wire: object, clock: object) -> None:
    """``TypeError`` naming what ``session``, ``wire`` or ``clock`` takes when it is none of it: the
    host's slip was an error from deep inside (``cannot create weak reference to 'int' object``, ``'int'
    object has no attribute 'monotonic'``), or, for a wire, every search's ``internal_error`` blamed on
    its backend. ``requests`` is not imported for it: a ``requests.Session`` was made with it imported."""
    requests_module = sys.modules.get("requests")
    if session is not None and (requests_module is None or not isinstance(session, requests_module.Session)):
        raise TypeError("session must be a requests.Session, got %s" % type(session).__name__)
    if wire is not None and not (callable(getattr(wire, "exchange", None)) or callable(wire)):
        raise TypeError(
            "wire must be a wire (an object with exchange(), such as websearch_sync.testing.MockWire) or a"
            " function of the client's wire returning one, got %s" % type(wire).__name__
        )
    missing = [name for name in ("monotonic", "time", "sleep") if not callable(getattr(clock, name, None))]
    if missing:
        raise TypeError(
            "clock must have monotonic(), time() and sleep(seconds) (as the system clock), got %s without %s"
            % (type(clock).__name__, ", ".join(name + "()" for name in missing))
        )


def _check_strategy(strategy: Any) -> Strategy:
    """``strategy`` in lower case (as ``time_range``, ``vertical`` and backend names are read), or
    ``InvalidInput(bad_strategy)``."""
    if not isinstance(strategy, str) or strategy.lower() not in STRATEGIES:
        auto = isinstance(strategy, str) and strategy.lower() == "auto"  # docs/client.md lists it beside them
        raise InvalidInput(
            "strategy must be one of %s, got %r%s"
            % (
                ", ".join(STRATEGIES),
                strategy,
                " (auto is a backend: SearchClient('auto'), backend='auto', a fallback chain)" if auto else "",
            ),
            detail_code=BAD_STRATEGY,
        )
    return cast(Strategy, strategy.lower())


def _given(**values: Any) -> dict[str, Any]:
    """The options passed as typed keyword arguments, without those left at ``None``."""
    return {name: value for name, value in values.items() if value is not None}


class SearchClient:
    """A reusable, thread-safe search client owning one HTTP session (keep-alive).

    Args:
        backend: backend name, comma-separated names, names in order (a list, tuple or
            generator; a set, which has no order, is ``InvalidInput(unknown_backend)``), or
            ``"auto"`` (configured API backends, then the keyless chain); default
            ``settings.backend``, else ``"stub"``.
        strategy: with several backends, ``"fallback"`` (try in order, first
            success wins) or ``"merge"`` (query all in parallel, fuse the lists).
        settings: explicit :class:`~websearch_sync.Settings`; default ``Settings.from_env()``.
            Read when the client is built (transport, shared state, pace, cache key), so
            while the client is open assigning a field of it is
            ``dataclasses.FrozenInstanceError``: build a new client with
            ``settings.replace(...)`` (docs/client.md).
        session: a ``requests.Session`` to use (not closed by :meth:`close`): every request
            then goes through ``requests`` (its adapters), browser requests too.
        wire: a wire every request goes through instead of the network (``MockWire``,
            ``ReplayWire`` from :mod:`websearch_sync.testing`; browser requests pass through the
            impersonated browser's request building first), or a function wrapping each wire
            the client builds (``RecordingWire``). Not closed by :meth:`close`.
        cache_ttl_s: seconds a successful answer is reused by default (0: not cached,
            unless a call passes its own ``cache_ttl_s``).
        cache_path: a SQLite file for a cache that outlives the process (and may be
            shared: keys hold a fingerprint of the settings, never a secret).
            ``InvalidInput(bad_cache_path)`` when it cannot hold a SQLite database; a
            locked or corrupt file is skipped with a warning, never failing a call.
        cache_max_answers: the most answers the ``cache_path`` file keeps (default 100,000):
            each write deletes those written before the last this many, the oldest first.
            Without ``cache_path`` it is checked and bounds nothing (the command line refuses it).
        retries: retries per backend for retryable errors (Timeout, NetworkError,
            BadGateway, HTTP 429), with exponential backoff and jitter.
        budget_ms: bound on the whole call, retries, waits and fan-out included
            (default: the timeout).
        min_interval_s: minimum seconds between two requests to one backend, for
            all backends (a number) or per backend (``{"brave": 1.0}``); default:
            ``settings.min_interval_s`` (``WEB_SEARCH_MIN_INTERVAL_S``), else each
            backend's own (1 s for the HTML scrapers and Brave, else 0).
        cooldowns: seconds a backend is suspended after a block, by kind:
            ``{"captcha_required": 600, "http_429": 60, "http_403": 300}``
            (``http_429`` uses Retry-After when the service sent one).
        state_url: a Redis URL (``redis://host:port/db``) where the cache,
            rate-limit slots and cool-downs are shared with every process using it
            (needs the ``redis`` extra); default ``settings.state_url``; ``""``: none.
            See docs/scaling.md.
        clock: where waits (retries, rate-limit slots) and cool-downs read the
            time and sleep; default the system clock. Tests pass a fake one.

    Every ``search()`` argument of the same name overrides these per call.
    Use the client as a context manager, or call :meth:`close` when done.
    """

    #: Keywords of the function the caller called besides :meth:`search`'s own (the module-level
    #: ``search()``'s ``settings``): the hint for a mistyped keyword names them too.
    called_keywords: ClassVar[tuple[str, ...]] = ()

    @suggesting_keywords(SETTINGS_ARGUMENTS)
    def __init__(
        self,
        backend: BackendArg = None,
        *,
        strategy: Strategy = "fallback",
        settings: Optional[Settings] = None,
        session: Optional["requests.Session"] = None,
        wire: WireArg = None,
        cache_ttl_s: float = 300,
        cache_path: Optional[StrPath] = None,
        cache_max_answers: int = DEFAULT_FILE_ANSWERS,
        retries: int = 2,
        budget_ms: Optional[int] = None,
        min_interval_s: Union[None, float, Mapping[str, float]] = None,
        cooldowns: Optional[Mapping[str, float]] = None,
        clock: Clock = SYSTEM_CLOCK,
        state_url: Optional[str] = None,
    ) -> None:
        check_settings(settings)
        _check_parts(session, wire, clock)
        self.settings = settings if settings is not None else Settings.from_env()
        self._closed = False
        hold(self.settings, self)  # first: no field of the settings changes while the client reads them
        try:
            self._backend = check_backends(backend_list(backend))
            self.strategy = _check_strategy(strategy)
            self.cache_ttl_s = _check_ttl(cache_ttl_s)
            file_answers = _check_file_answers(cache_max_answers)
            self.retries = _check_retries(retries)
            self.budget_ms = check_timeout_ms(budget_ms, "budget_ms", BAD_BUDGET_MS)
            cooldown_s = _check_cooldowns(cooldowns)
            intervals = _check_intervals(self.settings.min_interval_s)
            intervals.update(_check_intervals(min_interval_s))
            self._retry: RetryPolicy = DEFAULT_RETRY.with_total(self.retries)
            # Both tiers exist whatever the default TTL: a call may ask for caching with its own cache_ttl_s.
            self._shared = shared_tiers(self.settings, state_url, clock, self.budget_ms or self.settings.timeout_ms)
            self._disk = (
                SqliteCache(cache_path, self.cache_ttl_s, clock, file_answers) if cache_path is not None else None
            )
            # pages in a table of their own, with a budget of their own: reading them never evicts a search answer
            self._page_disk = (
                SqliteCache(cache_path, self.cache_ttl_s, clock, file_answers, "pages")
                if cache_path is not None
                else None
            )
            self._transport = HttpTransport(
                wire=wire,
                session=session,
                proxy=self.settings.proxy,
                user_agent=self.settings.user_agent,
                allow_private=self.settings.allow_private,
                impersonate=self.settings.impersonate,
                ca_bundle=self.settings.ca_bundle,
            )
            self._cooldown_s, self._intervals = cooldown_s, intervals
            self._clock = clock
            #: Per thread, the validation :meth:`search_bound_ms` made and the backends it built, for
            #: that thread's next search (a ``ToolSession``'s call) to use, not to build them again.
            self._bound_backends = threading.local()
            self._learn_afresh()
        except BaseException:
            self._closed = True  # a client never made holds its settings no longer
            raise
        with _OPEN_LOCK:
            _OPEN.add(self)

    def _learn_afresh(self) -> None:
        """Make new what the client learns as it runs: answers cached in memory, plans, its pace,
        cool-downs and questions in flight (its file cache and a shared state are kept). At its
        making, and again for every open client at ``websearch_sync.testing.reset()`` (an
        application's module-level client must not carry one test's block or answers into the next)."""
        shared = self._shared
        self._cache = ResultCache(MemoryCache(self.cache_ttl_s, clock=self._clock), self._disk, shared.cache)
        # pages (fetch's, include_content's) in memory of their own: reading them never evicts a search answer
        page_memory = MemoryCache(self.cache_ttl_s, PAGE_MEMORY_ENTRIES, self._clock, PAGE_MEMORY_CHARS)
        self._pages = ResultCache(page_memory, self._page_disk, shared.cache)
        self._fingerprints = Fingerprints()
        self._plans = PlanMemo()
        limiter, self._cooldowns, self._flights = self._state_parts(self._cooldown_s, self._clock, shared)
        ahead = 2 * shared.cache.timeout_s if shared.cache is not None else 0.0  # two round trips: cache and cool-down
        # every request of this client (search, fetch, include_content, link resolution) waits at the gate
        gate = HostGate(limiter, self._cooldowns, self._clock, self.settings, self._runner_interval(self._intervals))
        self._transport.gate = self._gate = gate
        self._runner = BackendRunner(
            self._transport, limiter, self._cooldowns, self._intervals, self._clock, ahead, gate
        )

    @staticmethod
    def _runner_interval(intervals: dict[str, float]) -> Callable[[str], float]:
        """A backend's spacing: the client's setting for it, else its own ``min_interval_s``."""
        return lambda name: intervals.get(name, registry.backend_class(name).min_interval_s)

    def _call_deadline(self, timeout_ms: float) -> Deadline:
        """A call's whole deadline, from now (a client for one call counts from its own making)."""
        return Deadline(timeout_ms)

    def _state_parts(
        self, cooldown_s: dict[str, float], clock: Clock, shared: SharedTiers
    ) -> tuple[RateLimiter, Cooldowns, Flights]:
        """The client's rate limiter, cool-downs and single-flight table (its own; the
        module-level functions keep process-wide ones instead, see ``api.py``)."""
        cooldowns = Cooldowns(cooldown_s, clock=clock, shared=shared.cooldowns)
        return RateLimiter(clock, shared=shared.slots), cooldowns, Flights(shared.flights, cooldowns.cools_down)

    @property
    def clock(self) -> Clock:
        """The clock the client reads the time from and waits with (a ``ToolSession``'s repeat window reads it too)."""
        return self._clock

    def search_bound_ms(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[Strategy] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        time_range: Optional[TimeRange] = None,
        safe_search: Optional[SafeSearch] = None,
        vertical: Optional[str] = None,
        **options: Any,
    ) -> int:
        """The deadline, in ms, of :meth:`search` called with the same arguments: its whole call's
        bound, taken from the call's own validation (its backends as its locale and vertical choose
        them, ``auto`` included), so it is the very deadline the search gets. A ``ToolSession``
        counts how long a call may wait from it. The validation is remembered, and the backends it
        built kept for this thread's next search: the search that follows reuses both. Raises what
        that search would raise for its arguments."""
        self._check_open()  # as search's first step: a closed client's bound is its refusal
        options.update(_given(time_range=time_range, safe_search=safe_search, vertical=vertical))
        try:
            call = _CallSettings(self, strategy, timeout_ms, budget_ms, retries, cache_ttl_s)
            valid, backends = self._validated(query, backend, max_results, options)
            self._bound_backends.built = (valid, backends) if backends is not None else None
            return _bound_ms(call, valid)
        except WebSearchError as error:
            redact_error(error, self.settings.secrets())  # in place, as search's
            raise

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        """Release the HTTP session (if this client created it) and the cache file. A search or
        fetch after it is ``InvalidInput(client_closed)``: its connections would be opened again
        with no one to close them (and a browser transport's cannot be)."""
        if not self._closed:
            self._closed = True
            with _OPEN_LOCK:
                _OPEN.discard(self)
            self._transport.close()
            self._cache.close()
            self._pages.close()

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Refuse ``copy.copy``, ``copy.deepcopy`` and pickling alike, saying what to do instead: a
        shallow copy shared the caches, locks, pace, connections and open state (closing the copy
        closed the original's transport), and the other two failed on a lock with nothing said."""
        raise TypeError(
            "a %s cannot be copied or pickled: it holds connections, caches, locks and a pace of its own; "
            "share the client itself (it is thread-safe), or build another one with the same arguments "
            "(in another process, build it there)" % type(self).__name__
        )

    def __setattr__(self, name: str, value: Any) -> None:
        """Refuse to replace ``settings``: the transport, shared state, pace and cache key keep
        the ones the client was built from (only construction and ``close`` set attributes)."""
        if name == "settings" and "settings" in self.__dict__:
            raise AttributeError(
                "SearchClient.settings cannot be replaced: the client was built from them; "
                "build a new client with SearchClient(settings=...)"
            )
        object.__setattr__(self, name, value)

    def clear_cooldowns(self, backend: Optional[str] = None) -> list[str]:
        """Lift the cool-downs of ``backend`` (its parts too), or of every backend: this client's
        and, with a shared state, every process's. For an operator who knows a block is over;
        the names lifted, sorted. An answer cached during the cool-down without that backend (a
        fallback's or merge's) is no longer served, from any tier (:mod:`.stamps`): the next call
        asks the backend; other answers stay cached.

        Raises:
            InvalidInput: ``unknown_backend``.
            NetworkError: ``state_unavailable`` when the shared state cannot be reached.
            Timeout: ``deadline_exceeded`` when its scan of the shared state's keys went on past the
                client's deadline (``budget_ms``, else ``timeout_ms``).
        """
        if backend is None:
            return self._cooldowns.lift()
        registry.backend_class(backend)
        return self._cooldowns.lift(backend, backend_hosts(backend, self.settings))

    def __enter__(self) -> "SearchClient":
        self._check_open()
        return self

    def _check_open(self) -> None:
        if self._closed:
            raise client_closed()

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        try:
            backend = repr(self._backend or default_backends(self.settings))
        except InvalidInput:  # a misspelt WEB_SEARCH_BACKEND: a search says so; repr() must not raise
            backend = "<unknown WEB_SEARCH_BACKEND>"
        return "SearchClient(backend=%s, strategy=%r)" % (backend, self.strategy)

    # -- searching ------------------------------------------------------------------------

    @overload
    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[Strategy] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        time_range: Optional[TimeRange] = None,
        safe_search: Optional[SafeSearch] = None,
        vertical: Optional[Literal["web"]] = None,
        **options: Any,
    ) -> SearchResponse: ...

    @overload
    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[Strategy] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        time_range: Optional[TimeRange] = None,
        safe_search: Optional[SafeSearch] = None,
        vertical: Literal["news"],
        **options: Any,
    ) -> NewsResponse: ...

    @overload
    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[Strategy] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        time_range: Optional[TimeRange] = None,
        safe_search: Optional[SafeSearch] = None,
        vertical: Literal["images"],
        **options: Any,
    ) -> ImageResponse: ...

    @overload
    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[Strategy] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        time_range: Optional[TimeRange] = None,
        safe_search: Optional[SafeSearch] = None,
        vertical: Literal["videos"],
        **options: Any,
    ) -> VideoResponse: ...

    @overload
    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[Strategy] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        time_range: Optional[TimeRange] = None,
        safe_search: Optional[SafeSearch] = None,
        vertical: Optional[str] = None,
        **options: Any,
    ) -> AnyResponse: ...

    @query_first  # search(keywords=...): the first argument named, not Python's missing positional
    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[Strategy] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        time_range: Optional[TimeRange] = None,
        safe_search: Optional[SafeSearch] = None,
        vertical: Optional[str] = None,
        **options: Any,
    ) -> AnyResponse:
        """Search the web and return ``{"items": [...], "provider_meta": {...}}``.

        Args:
            query: the search terms (non-blank, at most 2000 characters).
            backend: backend name(s) or ``"auto"`` for this call (as the constructor's).
            max_results: 1..50, 1..100 for images, 1..60 for videos (default ``settings.max_results``, 5); a backend whose pages
                hold fewer reads the next pages (``provider_meta["pages"]``), at most its
                ``max_pages`` option (1..8, default 8).
            timeout_ms: deadline of the whole call, retries, waits and fallbacks
                included, unless ``budget_ms`` is given (then it caps each backend's
                requests); default: the backend's or the settings' timeout.
            strategy, retries, budget_ms, cache_ttl_s: per-call overrides of the
                client's settings (``cache_ttl_s=0`` bypasses the cache).
            vertical: ``"web"`` (default), ``"news"``, ``"images"`` or ``"videos"``: the items
                are then ``NewsItem``, ``ImageItem`` or ``VideoItem`` (docs/verticals.md); a
                backend that does not serve it is ``InvalidInput(unsupported_vertical)``.
            **options: ``locale``/``lang``, ``time_range`` (day/week/month/year),
                ``site_filter``, ``safe_search`` (off/moderate/strict), ``trace_id``,
                ``include_content``, ``max_content_chars`` and backend-specific
                options (see docs/api.md and docs/backends.md).

        ``provider_meta`` holds ``provider_name`` (the backend that answered),
        ``latency_ms``, ``wait_ms`` (the part of ``latency_ms`` spent waiting for
        rate-limit slots), ``cached``, ``attempts`` (requests sent, retries and
        fallbacks included) and ``request_id`` when the upstream sent one;
        ``errors`` lists the failures of backends that did not answer.

        Raises:
            WebSearchError: a subclass named by the error code; nothing else
            (except ``TypeError`` for an unknown keyword argument).
        """
        started = self._clock.monotonic()
        options.update(_given(time_range=time_range, safe_search=safe_search, vertical=vertical))
        try:
            self._check_open()
            call = _CallSettings(self, strategy, timeout_ms, budget_ms, retries, cache_ttl_s)
            plan = self._plan(
                query, backend, max_results, options, call
            )  # validation first: a cache hit never skips it
            if plan.valid.refused[call.strategy]:  # it asks no one: no cache, no flight
                return self._answer(plan, call, None, started)
            key = self._search_key(plan, call)
            cached = call.ttl > 0  # without a cache, identical calls at the same moment still send one request
            hit = self._cached(plan, key) if cached else None
            flight = key if cached else ("uncached", key)  # a cached call must not wait for an answer never cached
            read: list[Optional[dict[str, Any]]] = [None]  # what the cache gave (an answer handed over says itself)
            if hit is None:

                def lookup() -> Optional[dict[str, Any]]:
                    read[0] = cast(Optional[dict[str, Any]], self._cached(plan, key) if cached else None)
                    return read[0]

                with self._flights.turn(
                    flight,
                    plan.budget,
                    lookup,
                    across_processes=cached,  # other processes get an answer through the shared cache only
                    ask_need_s=send_need_s(plan.budget),
                    reach=Reach(0.0, call.retries, call.timeout),
                    secrets=self.settings.secrets(),
                ) as found:
                    if found is None:
                        return self._answer(plan, call, key if cached else None, started, flight)
                    hit = cast(SearchResponse, found)
            else:
                read[0] = cast(dict[str, Any], hit)
            self._revise_cached(plan, hit)
            hit["provider_meta"].update(
                {
                    "cached": read[0] is hit or hit["provider_meta"]["cached"],
                    "attempts": 0,
                    "latency_ms": self._elapsed_ms(started),
                    "wait_ms": 0,
                }
            )
            return hit
        except WebSearchError as error:
            redact_error(error, self.settings.secrets())  # in place
            raise

    def _cached(self, plan: "_Plan", key: Hashable) -> Optional[SearchResponse]:
        """The answer to ``key`` in the cache (one from outside the process checked first), or ``None``;
        its notes as they read now, and a miss when a cool-down that shaped it was lifted (:mod:`.stamps`)."""
        left_s = plan.budget.remaining_s()
        found = self._cache.lookup(key, left_s, plan.valid.check, plan.valid.max_bytes, stray_selectors_read)
        if found is None:
            return None
        return cast(
            Optional[SearchResponse],
            served(found[0], found[1], self._still_cooling, self._own_cooldown_keys(plan), plan.budget.remaining_s),
        )

    def _own_cooldown_keys(self, plan: "_Plan") -> Callable[[str], Optional[tuple[str, ...]]]:
        """For a cached answer's stamp (:func:`~.stamps.served`): the cool-down keys of the plan's
        backend of a name with the call's parameters, ``None`` for a name not in the plan. Only a
        named backend is built (a cache hit builds no other)."""

        def keys(name: str) -> Optional[tuple[str, ...]]:
            if plan.backends is not None:
                backends = [backend for backend in plan.backends if backend.name == name]
            else:
                backends = [registry.instance(cls, self.settings) for cls in plan.valid.classes if cls.name == name]
            if not backends:
                return None
            return registry.reported(backends[0], partial(backends[0].cooldown_keys, plan.params))

        return keys

    def _still_cooling(self, key: str, left_s: Optional[float]) -> None:
        """Raise the refusal a call would meet while cool-down ``key`` holds (:func:`~.stamps.served`)."""
        self._cooldowns.check(key, None, left_s)

    def _revise_cached(self, plan: "_Plan", hit: SearchResponse) -> None:
        """Bring the notes of an answer read from the cache up to date, in place
        (:meth:`Backend.revise_cached`): only an answer with notes, and only by the backends that
        revise them (a class that overrides it; only those are built), so a cache hit builds no
        other backend. The hook is the backend's code: a defect in it, or notes of the wrong shape,
        is :func:`~.registry.reported` like any other (``WebProviderError``)."""
        errors = hit.get("errors")
        if not errors:
            return
        if plan.backends:
            backends = [backend for backend in plan.backends if _revises(type(backend))]
        else:
            backends = [registry.instance(cls, self.settings) for cls in plan.valid.classes if _revises(cls)]
        for backend in backends:
            errors = registry.reported(backend, partial(_revised, backend, plan.params, errors))
        if errors:
            hit["errors"] = errors
        else:
            del hit["errors"]

    def _answer(
        self,
        plan: "_Plan",
        call: "_CallSettings",
        key: Optional[Hashable],
        started: float,
        flight: Optional[Hashable] = None,
    ) -> SearchResponse:
        """Ask the backends, hand the answer to the calls of this process waiting in ``flight`` (a
        partial one only when the deadline alone cut it, for the waiters that could do no more:
        :class:`~.flight.Reach`) and, when it is cacheable, cache it under ``key`` (``None``: not
        cached), for the call's TTL or less (:data:`~.strategies.Outcome`); an answer cached
        meanwhile (seen after a rate-limit wait) is returned instead."""
        from ..backends.stub import backends_named  # the backends load with the search, not with the client

        state = CallState()
        try:
            with backends_named(plan.named):  # the offline stub's warning: for the default alone
                response, keep_s, shaped = self._run(plan, call, key, state)
        except _AnsweredMeanwhile as found:
            self._revise_cached(plan, found.answer)
            found.answer["provider_meta"].update(
                {"cached": True, "attempts": 0, "latency_ms": self._elapsed_ms(started), "wait_ms": state.wait_ms()}
            )
            return found.answer
        latency_ms = self._elapsed_ms(started)
        response["provider_meta"].update(
            {"latency_ms": latency_ms, "wait_ms": min(state.wait_ms(), latency_ms), "attempts": state.attempts}
        )
        if not plan.named and offline_backends(response):  # the flag the stub's snippets follow, for the notes
            response["provider_meta"]["offline_default"] = True
        if flight is not None and (keep_s > 0 or _cut_by_deadline(response)):
            # a partial answer too, when only the deadline cut it: a waiter that could do no more
            # would get nothing better (another failure, a 502, its own retries may mend)
            partial = None if keep_s > 0 else Reach(plan.budget.timeout_ms / 1000.0, call.retries, call.timeout)
            # the waiters' copy says `cached` as the cache holds it: a partial answer, or one of a call
            # without a cache, is no cached answer
            stored = key is not None and keep_s > 0
            handed = {**response, "provider_meta": {**response["provider_meta"], "cached": stored}}
            self._flights.answered(flight, handed, partial)
        if key is not None and keep_s > 0:
            self._cache.set(
                key,
                stamped(cast(dict[str, Any], response), shaped, min(call.ttl, keep_s)),
                min(call.ttl, keep_s),
                plan.budget.remaining_s(),
                plan.valid.max_bytes,
            )
        return response

    def names_backends(self, backend: BackendArg = None) -> bool:
        """Whether a search with ``backend`` (the call's) names its backends: the call, this client
        or its settings (``WEB_SEARCH_BACKEND``) do. Else the offline stub answers as the default,
        and only then do its warning, snippets and notes tell how to search the web
        (``provider_meta.offline_default``); a stub named was chosen."""
        return backend is not None or self._backend is not None or self.settings.backend is not None

    def _plan(
        self,
        query: str,
        backend: BackendArg,
        max_results: Optional[int],
        options: dict[str, Any],
        call: "_CallSettings",
    ) -> "_Plan":
        """The validated call (backend names, parameters; an exact repeat reuses its validation)
        and its budget, starting now. A repeat of the validation this thread's
        :meth:`search_bound_ms` made last takes the backends it built (each is built once a call)."""
        valid, backends = self._validated(query, backend, max_results, options)
        plan = _Plan(valid, self._call_deadline(_bound_ms(call, valid)), backends)
        plan.named = self.names_backends(backend)
        bound = self._bound_backends.__dict__.pop("built", None)  # this search's or none: never a later one's
        if backends is None and bound is not None and bound[0] is valid:
            plan.backends, plan.params = bound[1], valid.params.asked_now()  # validated then: asked now
        return plan

    def _validated(
        self, query: str, backend: BackendArg, max_results: Optional[int], options: dict[str, Any]
    ) -> tuple[Validated, Optional[list[Backend]]]:
        """The validated call, remembered (an exact repeat reuses it), and the backends built by a
        validation made now (``None``: a repeat's, built again when asked)."""
        memo_key = call_key(query, backend, max_results, options)
        valid = self._plans.get(memo_key, self.settings)
        if valid is not None:
            return valid, None
        valid, backends = self._validate(query, backend, max_results, options)
        self._plans.put(memo_key, valid, shape_key(backend, max_results, options))
        return valid, backends

    def _validate(
        self, query: str, backend: BackendArg, max_results: Optional[int], options: dict[str, Any]
    ) -> tuple[Validated, list[Backend]]:
        """The call validated, and its backends (each has checked the call: :meth:`Backend.check`).
        A call like one validated before but for its query (:meth:`PlanMemo.shape`) checks the
        query and the backends' refusals of it only: the rest of the validation reads no query."""
        generation = registry.generation()  # first: a registration meanwhile makes the memo stale
        shape = self._plans.shape(shape_key(backend, max_results, options), self.settings)
        if shape is not None:
            params = params_with(
                shape.params,
                query=check_query(query),
                options=dict(shape.params.options),
                now=datetime.datetime.now(datetime.timezone.utc),
            )
            backends = [registry.instance(cls, self.settings) for cls in shape.classes]
            refused, refusing = _refusals(backends, params)
            return shape._replace(
                params=params, keys={}, refused=refused, refusing=refusing, generation=generation
            ), backends
        sections = SectionsSnapshot(self.settings)  # before reading them: an edit meanwhile is seen next call
        specific = registry.backend_options() if any(name not in COMMON_OPTIONS for name in options) else ()
        params = search_params(
            query,
            max_results,
            options,
            self.settings,
            specific,
            _SEARCH_KEYWORDS + self.called_keywords,
            _GIVEN_TO_THE_CLIENT,
        )
        names = resolve_backends(backend, self._backend, self.settings, params)
        classes = tuple(registry.backend_class(name, params.vertical) for name in names)  # unsupported_vertical
        if params.options:  # an option no backend of this call takes would be dropped without a word
            _check_options_taken(params, classes)
        backends = [registry.instance(cls, self.settings) for cls in classes]
        timeout_ms = max(one.timeout_ms() for one in backends)
        refused, refusing = _refusals(backends, params)
        return Validated(
            self.settings,
            names,
            params,
            classes,
            timeout_ms,
            {},
            partial(valid_search_answer, max_results=params.max_results, vertical=params.vertical),
            search_answer_bytes(
                params.max_results,
                params.options.get("max_content_chars", DEFAULT_CONTENT_CHARS) if params.include_content else None,
            ),
            refused,
            refusing,
            generation,
            sections,
        ), backends

    def _search_key(self, plan: "_Plan", call: "_CallSettings") -> Hashable:
        key = plan.valid.keys.get(call.strategy)
        if key is None:
            fingerprint = self._fingerprints.get(self.settings, plan.names, plan.params.include_content)
            # the pace used (a client given a backend's own pace paces as one given none): shared answers
            pace = [self._intervals.get(cls.name, cls.min_interval_s) for cls in plan.valid.classes]
            # an option given at a default every backend sends when omitted is the search without it
            options = omitted_defaults(plan.params.options, [cls.declared_options() for cls in plan.valid.classes])
            params = params_with(plan.params, options=options)
            key = search_key(params, plan.names, call.strategy, fingerprint, pace, plan.named)
            plan.valid.keys[call.strategy] = key
        return key

    def _run(
        self, plan: "_Plan", call: "_CallSettings", key: Optional[Hashable], state: CallState
    ) -> tuple[SearchResponse, float, dict[str, list[str]]]:
        """Ask the backends by the call's strategy (counting requests and waits in ``state``);
        ``(response, keep_s, shaped)``: the seconds it may be cached from now (:data:`~.strategies.Outcome`)
        and the cool-downs that shaped it, which its cached copy lasts no longer than (:mod:`.stamps`). The
        parameters are those of the validation, asked now: a validation reused for a repeat
        (:class:`PlanMemo`) was made at an earlier call, and a time range ends at the search's
        ``now`` (Baidu's ``gpc``, Mojeek's ``since``)."""
        policy = self._retry.with_total(call.retries)
        # a validation made in this call was made now; one reused for a repeat is asked now again
        params = plan.params if plan.backends is not None else plan.params.asked_now()

        def recheck() -> None:
            found = self._cached(plan, key) if key is not None else None
            if found is not None:
                raise _AnsweredMeanwhile(found)

        def run(one: Backend) -> Any:
            return self._runner.run(one, params, call.timeout, plan.budget, policy, state, recheck)

        # the backends of a validation made in this call have checked it (Backend.check_once): not again
        backends = plan.backends or [registry.instance(cls, self.settings) for cls in plan.valid.classes]
        refusing = plan.valid.refusing | self._cooldowns.refused.refusing(backends)  # a refused key: again
        strategy = merge if call.strategy == "merge" and len(backends) > 1 else fallback
        response, keep_s = strategy(backends, params, plan.budget, run, refusing, self._runner.skipped_for(params))
        if params.include_content:
            decided = self._clock.monotonic()
            if not self._add_content(response, params, plan.budget, call.ttl):
                keep_s = 0.0
            # a cool-down bounding keep_s ends as many seconds sooner as the pages took to read
            keep_s = max(0.0, keep_s - (self._clock.monotonic() - decided))
        else:  # a backend's own page text, not asked for: as bounded as when asked (its default cap)
            for item in response["items"]:
                _cap_content(item, DEFAULT_CONTENT_CHARS)
        shaped = shaping(cast(dict[str, Any], response), backends, self._runner.cooling(params)) if keep_s > 0 else {}
        return response, keep_s, shaped

    def _add_content(self, response: SearchResponse, params: SearchParams, budget: Deadline, ttl: float) -> bool:
        """Read the result pages into ``content``; false when some page could not be read (one read
        with a warning, :data:`~websearch_sync.config.READ_WARNINGS`, was). The text
        a service gave itself (Tavily's, Jina's) is kept, cut to the same ``max_content_chars``
        (``content_by``: that backend; ``content_truncated_by``: ``["max_chars"]`` when cut here); a page it gave none for is read as any other
        (``content_by``: ``"fetch"``), for ``include_content`` promises page text. The pages of an
        offline backend that gives its own text (the stub's are made up) are never read. Each page
        is read as :meth:`fetch` reads one (:meth:`_read_page`: its cache, for the search's ``ttl``,
        and its single flight), with the arguments :func:`add_page_content` reads pages with."""
        limit = params.options.get("max_content_chars", DEFAULT_CONTENT_CHARS)
        to_read = []
        for item in response["items"]:
            cls = registry.backend_class(item["provider"], params.vertical)
            if item.get("content"):
                _cap_content(item, limit)
                item["content_by"] = item["provider"]
            elif not (cls.provides_content and cls.kind == "offline"):
                to_read.append(item)
        from ..reader.page import add_page_content  # the reader (lxml, the extraction) when pages are read

        page_errors = add_page_content(
            to_read,
            transport=self._transport,
            settings=self.settings,
            deadline=budget,
            max_content_chars=limit,
            fetch=partial(self._read_page, ttl=ttl),
        )
        if page_errors:
            response.setdefault("errors", []).extend(page_errors)
        return all(e["detail_code"] in READ_WARNINGS for e in page_errors)  # a page's warning: read all the same

    def _elapsed_ms(self, started: float) -> int:
        return int(round((self._clock.monotonic() - started) * 1000))

    # -- reading pages --------------------------------------------------------------------

    @suggesting_keywords()
    def fetch(
        self,
        url: str,
        *,
        extract_mode: ExtractMode = "markdown",
        max_chars: int = DEFAULT_MAX_CHARS,
        timeout_ms: Optional[int] = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        allow_private: bool = False,
        cache_ttl_s: Optional[float] = None,
        include_comments: bool = False,
        images: bool = False,
    ) -> FetchResult:
        """Read one web page with this client's session (see :func:`websearch_sync.fetch`).

        Every request waits at the client's gate, as a search's does: a page on a search
        engine's host takes that engine's next rate-limit slot, and a host cooling down after
        a wall (met by a search or a fetch) is refused at once with ``WebBlocked``; a
        retryable failure is retried by the client's ``retries`` within the deadline.

        Successful results are cached like searches, keyed by the checked and
        normalised URL, the fetch parameters and the settings' fingerprint
        (``allow_private``, the fetch service...; ``cache_ttl_s=0`` bypasses the
        cache; a text its deadline cut, ``truncated_by`` ``["deadline"]``, is not cached); a cached result is a copy. Identical fetches at the same moment (the same
        key) read the page once, as identical searches ask once: the others wait for its
        answer (handed over in this process, read from the shared cache in another one); when
        it fails with what no attempt of theirs could mend (a 404, a wall), those in this process
        raise a copy of its error. The pages ``search(..., include_content=True)`` reads share this
        cache and flight: a fetch with ``extract_mode="text"`` and ``max_chars`` the search's
        ``max_content_chars`` serves them, and they serve it (docs/scaling.md).
        """
        self._check_open()
        ttl = _check_ttl(cache_ttl_s) if cache_ttl_s is not None else self.cache_ttl_s
        deadline = self._call_deadline(check_timeout_ms(timeout_ms) or self.settings.timeout_ms)
        return self._read_page(
            url,
            deadline=deadline,
            ttl=ttl,
            timeout_ms=timeout_ms,
            extract_mode=extract_mode,
            max_chars=max_chars,
            max_bytes=max_bytes,
            allow_private=allow_private,
            include_comments=include_comments,
            images=images,
        )

    def _read_page(
        self,
        url: str,
        *,
        deadline: Deadline,
        ttl: float,
        timeout_ms: Optional[int] = None,
        extract_mode: ExtractMode = "markdown",
        max_chars: int = DEFAULT_MAX_CHARS,
        max_bytes: int = DEFAULT_MAX_BYTES,
        allow_private: bool = False,
        include_comments: bool = False,
        images: bool = False,
    ) -> FetchResult:
        """One page read through the cache and the single-flight table: :meth:`fetch`'s, and each
        page ``include_content`` reads (one mechanism: a page either of them read, or is reading,
        serves the other when asked with the same key). ``ttl``: the call's cache TTL (0: no cache,
        the threads of this process still wait for each other)."""
        try:  # the URL is checked before the cache is consulted; other arguments are keyed by type and value
            page = page_key(request_url(url)) if ttl > 0 else _page_or_none(url)
        except WebSearchError as error:
            redact_error(error, self.settings.secrets())  # in place
            raise
        # without a page to key by (a URL fetch_page refuses), no flight: it sends nothing
        key: Optional[Hashable] = None
        if page is not None:
            key = fetch_key(
                page,
                (extract_mode, include_comments, images),
                max_chars,
                max_bytes,
                # what fetch_page reads: the settings' allow_private lets private targets through too
                True if allow_private is False and self.settings.allow_private else allow_private,
                self._fingerprints.get(self.settings, (), True),
            )
        max_answer = page_answer_bytes(max_chars, images) if type(max_chars) is int else None

        def cached() -> Optional[dict[str, Any]]:
            if key is None or ttl <= 0:
                return None
            check = partial(valid_page_answer, max_chars=max_chars, images=images)
            return self._pages.get(key, deadline.remaining_s(), check, max_answer)

        def as_asked(answer: dict[str, Any]) -> FetchResult:
            """Another caller's answer (the same page, maybe another fragment or case) with this one's URL."""
            answer["url"] = asked_url(url)
            return cast(FetchResult, answer)

        hit = cached()
        if hit is not None:
            return as_asked(hit)

        def read() -> FetchResult:
            return self._fetch_retrying(
                url,
                transport=self._transport,
                settings=self.settings,
                extract_mode=extract_mode,
                max_chars=max_chars,
                timeout_ms=timeout_ms,
                max_bytes=max_bytes,
                allow_private=allow_private,
                deadline=deadline,
                include_comments=include_comments,
                images=images,
            )

        if key is None:
            return read()
        flight = key if ttl > 0 else ("uncached", key)  # a cached fetch must not wait for an answer never cached
        try:
            with self._flights.turn(
                flight,
                deadline,
                cached,
                across_processes=ttl > 0,
                ask_need_s=send_need_s(deadline),
                secrets=self.settings.secrets(),
            ) as found:
                if found is not None:
                    return as_asked(found)
                result = read()
                # a text its own deadline cut (a long PDF's) is this caller's alone, as a search's partial
                # answer is: a waiter, and a later call, with more time would get less than it asks
                if CUT_DEADLINE not in result.get("truncated_by", ()):
                    self._flights.answered(flight, cast(dict[str, Any], result))
                    if ttl > 0:  # before the question is let go: a waiter in another process reads it then
                        self._pages.set(key, cast(dict[str, Any], result), ttl, deadline.remaining_s(), max_answer)
        except WebSearchError as error:  # a waiter's copy of another caller's failure too: with this caller's secrets
            redact_error(error, self.settings.secrets())  # in place, as search's
            raise
        return result

    def _fetch_retrying(self, url: str, *, deadline: Deadline, **arguments: Any) -> FetchResult:
        """:func:`fetch_page` with the client's retries (its requests wait at the client's gate)."""
        from ..reader.page import fetch_page  # the reader (lxml, the extraction) when a page is read

        return with_retries(
            lambda: fetch_page(url, deadline=deadline, **arguments),
            "fetch",
            self._retry,
            deadline,
            self._clock,
            self._cooldowns.duration_s,
            self._gate.refused,
        )


def _page_or_none(url: str) -> Optional[str]:
    """The key of ``url``'s page, or ``None`` when fetch refuses the URL (it says why itself,
    after its other arguments' checks, so an uncached call keeps its errors' order)."""
    try:
        return page_key(request_url(url))
    except WebSearchError:
        return None


def _cap_content(item: SearchItem, limit: int) -> None:
    """Cut ``item``'s page text to ``limit`` characters, saying so (``content_truncated_by``): a
    service's text is bounded as a page read here is, whether or not it was asked for (a plugin's
    parse may give it unasked, and a model reads every result)."""
    content = item.get("content")
    if content and len(content) > limit:
        item["content"], item["content_truncated_by"] = content[:limit], [CUT_MAX_CHARS]


def keyword_names(function: Callable[..., Any]) -> tuple[str, ...]:
    """The names of ``function``'s keyword-only parameters (``retries``, ``timeout_ms``...)."""
    return tuple(
        name
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.kind is parameter.KEYWORD_ONLY
    )


#: ``search()``'s own keywords (``retries``, ``timeout_ms``...): the ``TypeError`` of an unknown
#: keyword names a mistyped one (``retires``) as the closest, before an option that looks alike.
_SEARCH_KEYWORDS = keyword_names(SearchClient.search)

#: Where a search() given an argument of the client is told to give it (``search(q, cache_path=...)``
#: said "did you mean 'cache_ttl_s'?", ``proxy=`` nothing): the client's own arguments, and the settings.
_GIVEN_TO_THE_CLIENT = {
    **{name: "SearchClient(settings=Settings(%s=...))" % name for name in SETTINGS_ARGUMENTS},
    **{
        name: "SearchClient(%s=...)" % name
        for name in (
            "settings",
            "session",
            "wire",
            "cache_path",
            "cache_max_answers",
            "min_interval_s",
            "cooldowns",
            "clock",
            "state_url",
        )
    },
}


class _AnsweredMeanwhile(Exception):
    """Ends a call whose answer reached the cache while it waited for a rate-limit slot
    (not a ``WebSearchError``: the strategies let it through)."""

    def __init__(self, answer: SearchResponse) -> None:
        super().__init__("answered meanwhile")
        self.answer = answer


def _revises(cls: type[Backend]) -> bool:
    """Whether ``cls`` brings cached notes up to date (overrides :meth:`Backend.revise_cached`)."""
    return cls.revise_cached is not Backend.revise_cached


def _revised(backend: Backend, params: SearchParams, errors: list[ErrorInfo]) -> list[ErrorInfo]:
    """``errors`` as ``backend`` revises them (:meth:`Backend.revise_cached`), checked."""
    return registry.checked_errors(backend.revise_cached(params, errors), backend.name)


class _Plan:
    """One validated search call and its budget."""

    __slots__ = ("valid", "names", "params", "budget", "backends", "named")

    def __init__(self, valid: Validated, budget: Deadline, backends: Optional[list[Backend]] = None) -> None:
        self.valid = valid
        self.names = valid.names
        self.params = valid.params
        self.budget = budget
        #: The backends built by a validation made in this call, or by the :meth:`SearchClient.search_bound_ms`
        #: just before it (``None``: a repeat's, built again).
        self.backends = backends
        #: Whether the call, its client or its settings named the backends (the offline stub warns
        #: only when it answers as the default: :func:`~websearch_sync.backends.stub.backends_named`).
        self.named = False


class _CallSettings:
    """One call's strategy, timeout, budget, retries and cache TTL: its own, checked, else the client's."""

    def __init__(
        self,
        client: SearchClient,
        strategy: Optional[str],
        timeout_ms: Optional[int],
        budget_ms: Optional[int],
        retries: Optional[int],
        ttl: Optional[float],
    ) -> None:
        self.strategy = _check_strategy(strategy) if strategy is not None else client.strategy
        self.timeout = check_timeout_ms(timeout_ms)
        self.budget_ms = (
            check_timeout_ms(budget_ms, "budget_ms", BAD_BUDGET_MS) if budget_ms is not None else client.budget_ms
        )
        self.retries = _check_retries(retries) if retries is not None else client.retries
        self.ttl = _check_ttl(ttl) if ttl is not None else client.cache_ttl_s


def _cut_by_deadline(response: SearchResponse) -> bool:
    """True when every failure in ``response`` is the call's deadline running out (none: it was
    cut otherwise, e.g. a page unread; asking again may mend it)."""
    errors = response.get("errors", [])
    return bool(errors) and all(error.get("detail_code") in DEADLINE_CUTS for error in errors)


def _bound_ms(call: _CallSettings, valid: Validated) -> int:
    """A search call's whole deadline in ms: its budget, else its timeout, else its backends' longest."""
    return call.budget_ms or call.timeout or valid.timeout_ms


def _check_options_taken(params: SearchParams, classes: tuple[type[Backend], ...]) -> None:
    """Refuse an option no backend of the call takes (:func:`~..validate.check_options_taken`), told
    which backends take it: for this vertical, for their main one, or for another vertical of theirs."""
    vertical = params.vertical
    every = {name: registry.backend_class(name, vertical).option_names() for name in registry.backends_for(vertical)}
    main = {name: registry.primary_class(name).option_names() for name in registry.backend_names()}
    others = {
        cls.name: {
            other: registry.backend_class(cls.name, other).option_names()
            for other in registry.verticals_of(cls.name)
            if other != vertical
        }
        for cls in classes
    }
    check_options_taken(
        params.options, {cls.name: cls.option_names() for cls in classes}, every, main, vertical, others
    )


def _refusals(backends: list[Backend], params: SearchParams) -> tuple[dict[str, bool], frozenset[str]]:
    """By strategy, whether a call with ``params`` asks none of ``backends`` (they refuse it before
    sending); and the names of those that refuse it."""
    refusals = [refusal(one, params) for one in backends]
    return (
        {strategy: asks_no_one(strategy, refusals) for strategy in STRATEGIES},
        frozenset(one.name for one, refused in zip(backends, refusals) if refused is not None),
    )


def _check_intervals(value: Union[None, float, Mapping[str, float]]) -> dict[str, float]:
    """``{backend: seconds}`` from a number (every backend) or a mapping; ``InvalidInput(bad_min_interval_s)``."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        known = registry.backend_names()
        for name in value:
            if name not in known:
                raise InvalidInput(
                    "min_interval_s names %r, which is not a backend%s; known backends: %s"
                    % (name, registry.did_you_mean(name), ", ".join(known)),
                    detail_code=BAD_MIN_INTERVAL_S,
                )
        return {str(k): float(_check_interval(v)) for k, v in value.items()}
    interval = float(_check_interval(value))
    return dict.fromkeys(registry.backend_names(), interval)

"""SearchClient: validation, backend selection, fallback and merge strategies,
retries, rate limits, cool-downs, caching and the shared HTTP session.

A client is safe to share between threads: the HTTP connection pool is sized for
it, and the cache, rate limiter and cool-down table are locked.
"""

import concurrent.futures
import logging
import random
import threading
import time
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple, Union

import requests
from urllib.parse import urlsplit, urlunsplit

from ..backends import registry
from ..backends.base import Backend
from .cache import MemoryCache, SqliteCache
from ..config import Settings
from .cooldown import Cooldowns
from ..net.deadline import Deadline
from ..errors import InvalidInput, Timeout, WebBlocked, WebProviderError, WebSearchError, redact
from ..reader.page import DEFAULT_CONTENT_CHARS, DEFAULT_MAX_BYTES, DEFAULT_MAX_CHARS, add_page_content, fetch_page
from .fusion import fuse
from ..net.transport import HttpTransport
from ..models import ParseResult, SearchParams
from ..backends.normalize import normalize_items
from .ratelimit import RateLimiter
from ..validate import backend_list, check_timeout_ms, search_params

__all__ = ["SearchClient", "STRATEGIES", "AUTO_ORDER"]

logger = logging.getLogger("websearch_sync")

BackendArg = Union[None, str, Iterable[str]]
STRATEGIES = ("fallback", "merge")

#: ``backend="auto"``: configured API backends in this order, then ``ddg_html``.
AUTO_ORDER = ("brave", "bocha", "searxng", "tavily", "kagi", "jina", "service")
AUTO_LAST = "ddg_html"

#: Errors after which a fallback chain moves on to the next backend.
_FALL_THROUGH = ("WebBlocked", "Timeout", "NetworkError", "BadGateway", "AuthError", "WebParseError")
#: Most informative first, when every backend failed.
_PRECEDENCE = ("WebBlocked", "AuthError", "WebParseError", "BadGateway", "NetworkError", "Timeout", "WebProviderError", "InvalidInput")
_BACKOFF_BASE_S = 0.5
_BACKOFF_CAP_S = 8.0
_MERGE_MARGIN_S = 0.25

_UNSET: Any = object()


def is_retryable(error: WebSearchError) -> bool:
    """Retry only what can heal by itself: timeouts, network errors, 5xx, HTTP 429."""
    if error.code in ("Timeout", "NetworkError", "BadGateway"):
        return error.detail_code != "budget_exhausted"
    return error.code == "WebBlocked" and error.detail_code == "http_429"


def _check_number(name: str, value: Any, minimum: float, maximum: Optional[float] = None, integer: bool = False) -> Any:
    ok = isinstance(value, int) if integer else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok or value != value or value < minimum or (maximum is not None and value > maximum):
        raise InvalidInput(
            "%s must be %s >= %s%s, got %r" % (name, "an integer" if integer else "a number", minimum, "" if maximum is None else " and <= %s" % maximum, value),
            detail_code="bad_" + name,
        )
    return value


def _check_strategy(strategy: Any) -> str:
    if strategy not in STRATEGIES:
        raise InvalidInput("strategy must be one of %s, got %r" % (", ".join(STRATEGIES), strategy), detail_code="bad_strategy")
    return strategy


class _CallState:
    """Book-keeping of one search call (shared by the threads of a merge)."""

    def __init__(self) -> None:
        self.attempts = 0
        self.lock = threading.Lock()

    def count_attempt(self) -> None:
        with self.lock:
            self.attempts += 1


class SearchClient:
    """A reusable, thread-safe search client owning one HTTP session (keep-alive).

    Args:
        backend: backend name, list of names, comma-separated names, or ``"auto"``
            (configured API backends, then ``ddg_html``); default
            ``settings.backend``, else ``"stub"``.
        strategy: with several backends, ``"fallback"`` (try in order, first
            success wins) or ``"merge"`` (query all in parallel, fuse the lists).
        settings: explicit :class:`~websearch_sync.Settings`; default ``Settings.from_env()``.
        session: a ``requests.Session`` to use (not closed by :meth:`close`).
        cache_ttl_s: seconds a successful answer is reused (0 disables caching).
        cache_path: a SQLite file for a cache that outlives the process.
        retries: retries per backend for retryable errors (Timeout, NetworkError,
            BadGateway, HTTP 429), with exponential backoff and jitter.
        budget_ms: bound on the whole call, retries, waits and fan-out included
            (default: the timeout).
        min_interval_s: minimum seconds between two requests to one backend, for
            all backends (a number) or per backend (``{"brave": 1.0}``); default:
            each backend's own (1 s for the HTML scrapers and Brave, else 0).
        cooldowns: seconds a backend is suspended after a block, by kind:
            ``{"captcha_required": 600, "http_429": 60, "http_403": 300}``
            (``http_429`` uses Retry-After when the service sent one).

    Every ``search()`` argument of the same name overrides these per call.
    Use the client as a context manager, or call :meth:`close` when done.
    """

    def __init__(
        self,
        backend: BackendArg = None,
        *,
        strategy: str = "fallback",
        settings: Optional[Settings] = None,
        session: Optional[requests.Session] = None,
        cache_ttl_s: float = 300,
        cache_path: Optional[str] = None,
        retries: int = 2,
        budget_ms: Optional[int] = None,
        min_interval_s: Union[None, float, Mapping[str, float]] = None,
        cooldowns: Optional[Mapping[str, float]] = None,
    ) -> None:
        if settings is not None and not isinstance(settings, Settings):
            raise TypeError("settings must be a websearch_sync.Settings, got %s" % type(settings).__name__)
        self.settings = settings if settings is not None else Settings.from_env()
        self._backend = self._check_backends(backend_list(backend))
        self.strategy = _check_strategy(strategy)
        self.cache_ttl_s = _check_number("cache_ttl_s", cache_ttl_s, 0)
        self.retries = _check_number("retries", retries, 0, 10, integer=True)
        self.budget_ms = check_timeout_ms(budget_ms, "budget_ms")
        self._intervals = self._check_intervals(min_interval_s)
        self._memory_cache = MemoryCache(self.cache_ttl_s) if self.cache_ttl_s > 0 else None
        self._disk_cache = SqliteCache(cache_path, self.cache_ttl_s) if cache_path and self.cache_ttl_s > 0 else None
        self._limiter = RateLimiter()
        self._cooldowns = Cooldowns(dict(cooldowns or {}))
        self._transport = HttpTransport(
            session=session, proxy=self.settings.proxy, user_agent=self.settings.user_agent, allow_private=self.settings.allow_private
        )
        self._closed = False

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        """Release the HTTP session (if this client created it) and the cache file."""
        if not self._closed:
            self._closed = True
            self._transport.close()
            if self._disk_cache is not None:
                self._disk_cache.close()

    def __enter__(self) -> "SearchClient":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "SearchClient(backend=%r, strategy=%r)" % (self._backend or self._default_backends(), self.strategy)

    # -- searching ------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        strategy: Optional[str] = None,
        retries: Optional[int] = None,
        budget_ms: Optional[int] = None,
        cache_ttl_s: Optional[float] = None,
        **options: Any,
    ) -> Dict[str, Any]:
        """Search the web and return ``{"items": [...], "provider_meta": {...}}``.

        Args:
            query: the search terms (non-blank, at most 2000 characters).
            backend: backend name(s) or ``"auto"`` for this call.
            max_results: 1..10 (default ``settings.max_results``, 5).
            timeout_ms: deadline of one request (default from settings).
            strategy, retries, budget_ms, cache_ttl_s: per-call overrides of the
                client's settings (``cache_ttl_s=0`` bypasses the cache).
            **options: ``locale``/``lang``, ``time_range`` (day/week/month/year),
                ``site_filter``, ``safe_search`` (off/moderate/strict), ``trace_id``,
                ``include_content``, ``max_content_chars`` and backend-specific
                options (see the README).

        ``provider_meta`` holds ``provider_name`` (the backend that answered),
        ``latency_ms``, ``cached``, ``attempts`` (requests sent, retries and
        fallbacks included) and ``request_id`` when the upstream sent one;
        ``errors`` lists the failures of backends that did not answer.

        Raises:
            WebSearchError: a subclass named by the error code; nothing else
            (except ``TypeError`` for an unknown keyword argument).
        """
        started = time.monotonic()
        try:
            strategy = _check_strategy(strategy) if strategy is not None else self.strategy
            timeout = check_timeout_ms(timeout_ms)
            budget_ms = check_timeout_ms(budget_ms, "budget_ms") if budget_ms is not None else self.budget_ms
            retries = _check_number("retries", retries, 0, 10, integer=True) if retries is not None else self.retries
            ttl = _check_number("cache_ttl_s", cache_ttl_s, 0) if cache_ttl_s is not None else self.cache_ttl_s
            # The key holds the call's own arguments: a hit means the very same call
            # was validated and answered before, so the hit skips re-validation.
            key = ("search", query, _frozen(backend), max_results, strategy, _frozen(options) if options else ()) if ttl > 0 else None
            if key is not None:
                hit = self._cache_get(key)
                if hit is not None:
                    hit["provider_meta"].update(cached=True, attempts=0, latency_ms=int(round((time.monotonic() - started) * 1000)))
                    return hit
            names = self._resolve_backends(backend)
            params = search_params(query, max_results, options, self.settings, _all_backend_options())
            backends = [registry.backend_class(name)(self.settings) for name in names]
            budget = Deadline(budget_ms or timeout or max(b.timeout_ms() for b in backends))
            state = _CallState()
            if strategy == "merge" and len(backends) > 1:
                response, cacheable = self._merge(backends, params, timeout, budget, retries, state)
            else:
                response, cacheable = self._fallback(backends, params, timeout, budget, retries, state)
            if params.include_content:
                page_errors = add_page_content(
                    [item for item in response["items"] if not registry.backend_class(item["provider"]).provides_content],
                    transport=self._transport,
                    settings=self.settings,
                    deadline=budget,
                    max_content_chars=params.options.get("max_content_chars", DEFAULT_CONTENT_CHARS),
                )
                if page_errors:
                    response.setdefault("errors", []).extend(page_errors)
                    cacheable = False
            response["provider_meta"]["latency_ms"] = int(round((time.monotonic() - started) * 1000))
            response["provider_meta"]["attempts"] = state.attempts
            if key is not None and cacheable:
                self._cache_set(key, response, ttl)
            return response
        except WebSearchError as error:
            raise self._redacted(error)

    # -- reading pages --------------------------------------------------------------------

    def fetch(
        self,
        url: str,
        *,
        extract_mode: str = "markdown",
        max_chars: int = DEFAULT_MAX_CHARS,
        timeout_ms: Optional[int] = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        allow_private: bool = False,
        cache_ttl_s: Optional[float] = None,
    ) -> Dict[str, Any]:
        """Read one web page with this client's session (see :func:`websearch_sync.fetch`).

        Successful results are cached like searches, keyed by the normalised URL
        and the fetch parameters (``cache_ttl_s=0`` bypasses the cache); a cached
        result is a copy.
        """
        ttl = _check_number("cache_ttl_s", cache_ttl_s, 0) if cache_ttl_s is not None else self.cache_ttl_s
        key = ("fetch", _page_key(url), extract_mode, max_chars, max_bytes, bool(allow_private)) if ttl > 0 else None
        if key is not None:
            hit = self._cache_get(key)
            if hit is not None:
                return hit
        result = fetch_page(
            url,
            transport=self._transport,
            settings=self.settings,
            extract_mode=extract_mode,
            max_chars=max_chars,
            timeout_ms=timeout_ms,
            max_bytes=max_bytes,
            allow_private=allow_private,
        )
        if key is not None:
            self._cache_set(key, result, ttl)
        return result

    # -- strategies -----------------------------------------------------------------------

    def _fallback(
        self, backends: List[Backend], params: SearchParams, timeout: Optional[int], budget: Deadline, retries: int, state: _CallState
    ) -> Tuple[Dict[str, Any], bool]:
        failures: List[WebSearchError] = []
        for position, backend in enumerate(backends):
            try:
                result = self._run_backend(backend, params, timeout, budget, retries, state)
            except WebSearchError as error:
                if len(backends) == 1:
                    raise
                failures.append(error)
                if error.code not in _FALL_THROUGH:  # fallback cannot fix it: say so
                    error.errors = failures[:-1]
                    raise error
                if position == len(backends) - 1 or budget.expired():
                    raise _most_informative(failures)
                logger.info("backend %s failed (%s); falling back to %s", backend.name, error.code, backends[position + 1].name)
                continue
            items = normalize_items(result.items, backend.name, params.max_results)
            response = _response(items, backend.name, result, failures)
            return response, not failures
        raise _most_informative(failures)  # pragma: no cover - the loop always returns or raises

    def _merge(
        self, backends: List[Backend], params: SearchParams, timeout: Optional[int], budget: Deadline, retries: int, state: _CallState
    ) -> Tuple[Dict[str, Any], bool]:
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=len(backends), thread_name_prefix="websearch-merge")
        try:
            futures = [executor.submit(self._run_backend, b, params, timeout, budget, retries, state) for b in backends]
            concurrent.futures.wait(futures, timeout=max(0.0, budget.remaining_s()) + _MERGE_MARGIN_S)
        finally:
            executor.shutdown(wait=False)
        lists: List[Tuple[str, List[Dict[str, Any]]]] = []
        failures: List[WebSearchError] = []
        soft_errors: List[Dict[str, Any]] = []
        request_ids = []
        for backend, future in zip(backends, futures):
            if not future.done():
                failures.append(Timeout("%s did not answer within the budget" % backend.name, provider=backend.name, detail_code="deadline_exceeded"))
                continue
            error = future.exception()
            if error is not None:
                if not isinstance(error, WebSearchError):  # pragma: no cover - _run_backend wraps everything
                    raise error
                failures.append(error)
                continue
            result: ParseResult = future.result()
            lists.append((backend.name, normalize_items(result.items, backend.name, 10)))
            soft_errors.extend(result.errors)
            if result.request_id:
                request_ids.append(result.request_id)
        if not lists:
            raise _most_informative(failures)
        items = normalize_items(fuse(lists), lists[0][0], params.max_results)
        answered = [name for name, _ in lists]
        meta: Dict[str, Any] = {"provider_name": "+".join(answered), "providers": answered, "cached": False}
        if request_ids:
            meta["request_id"] = ",".join(request_ids)
        response: Dict[str, Any] = {"items": items, "provider_meta": meta}
        errors = [e.to_dict() for e in failures] + soft_errors
        if errors:
            response["errors"] = errors
        return response, not failures

    # -- one backend: cool-down, rate limit, retries ------------------------------------------

    def _run_backend(
        self, backend: Backend, params: SearchParams, timeout: Optional[int], budget: Deadline, retries: int, state: _CallState
    ) -> ParseResult:
        name = backend.name
        last_error: Optional[WebSearchError] = None
        for attempt in range(retries + 1):
            self._cooldowns.check(name)
            if self._wait_for_slot(backend, budget, last_error):
                self._cooldowns.check(name)  # another thread may have been blocked while this one waited
            if budget.expired():
                raise last_error or _budget_error(name, budget)
            state.count_attempt()
            sent = time.monotonic()
            try:
                result = _call_backend(backend, params, self._transport, budget.sooner(backend.timeout_ms(timeout)))
            except WebSearchError as error:
                last_error = error
                if attempt < retries and is_retryable(error):
                    delay = _backoff_s(attempt, error)
                    if delay < budget.remaining_s():
                        logger.info("%s: %s, retrying in %.2f s", name, error.code, delay)
                        time.sleep(delay)
                        continue
                if isinstance(error, WebBlocked):
                    self._cooldowns.record(error)
                raise
            self._cooldowns.clear(name, started=sent)
            return result
        raise last_error  # type: ignore[misc]  # pragma: no cover

    def _wait_for_slot(self, backend: Backend, budget: Deadline, last_error: Optional[WebSearchError]) -> bool:
        """Wait for the backend's next rate-limit slot; true when that took a wait."""
        interval = self._intervals.get(backend.name, backend.min_interval_s)
        wait = self._limiter.reserve(backend.name, interval, budget.remaining_s())
        if wait is None:  # budget first: do not wait for a slot that comes too late
            raise last_error or Timeout(
                "%s allows one request every %.1f s; the next slot is %.1f s away but only %.0f ms of the budget are left"
                % (backend.name, interval, self._limiter.next_free_in(backend.name), max(0.0, budget.remaining_ms())),
                provider=backend.name,
                detail_code="budget_exhausted",
            )
        if wait > 0:
            time.sleep(wait)
        return wait > 0

    # -- helpers --------------------------------------------------------------------------

    def _resolve_backends(self, backend: BackendArg) -> List[str]:
        names = self._check_backends(backend_list(backend)) or self._backend or self._default_backends()
        if "auto" in names:
            expanded: List[str] = []
            for name in names:
                for item in (self._auto_backends() if name == "auto" else [name]):
                    if item not in expanded:
                        expanded.append(item)
            names = expanded
        return names

    def _auto_backends(self) -> List[str]:
        known = registry.backend_names()
        chosen = [n for n in AUTO_ORDER if n in known and registry.backend_class(n)(self.settings).is_configured()]
        if AUTO_LAST in known:
            chosen.append(AUTO_LAST)
        if not chosen:
            raise InvalidInput("backend 'auto' found no configured backend", detail_code="not_configured")
        return chosen

    def _default_backends(self) -> List[str]:
        configured = backend_list(self.settings.backend)
        return self._check_backends(configured) or [registry.DEFAULT_BACKEND]

    @staticmethod
    def _check_backends(names: Optional[List[str]]) -> Optional[List[str]]:
        for name in names or ():
            if name != "auto":
                registry.backend_class(name)
        return names

    @staticmethod
    def _check_intervals(value: Union[None, float, Mapping[str, float]]) -> Dict[str, float]:
        if value is None:
            return {}
        if isinstance(value, Mapping):
            return {str(k): float(_check_number("min_interval_s", v, 0)) for k, v in value.items()}
        interval = float(_check_number("min_interval_s", value, 0))
        return {name: interval for name in registry.backend_names()}

    def _cache_get(self, key: Tuple) -> Optional[Dict[str, Any]]:
        if self._memory_cache is not None:
            hit = self._memory_cache.get(key)
            if hit is not None:
                return hit
        if self._disk_cache is not None:
            hit = self._disk_cache.get(key)
            if hit is not None and self._memory_cache is not None:
                self._memory_cache.set(key, hit)
            return hit
        return None

    def _cache_set(self, key: Tuple, response: Dict[str, Any], ttl: float) -> None:
        if self._memory_cache is not None:
            self._memory_cache.set(key, response, ttl)
        if self._disk_cache is not None:
            self._disk_cache.set(key, response, ttl)

    def _redacted(self, error: WebSearchError) -> WebSearchError:
        secrets = self.settings.secrets()
        for item in [error] + error.errors:
            item.message = redact(item.message, secrets)
            item.args = (item.message,)
        return error


def _page_key(url: Any) -> Any:
    """A URL with the cosmetic differences removed (case of scheme/host, fragment), for fetch cache keys."""
    if not isinstance(url, str):
        return repr(url)
    try:
        parts = urlsplit(url.strip())
        return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, ""))
    except ValueError:
        return url


def _frozen(value: Any) -> Any:
    """A hashable, order-independent stand-in for an argument (for cache keys)."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return repr(value)


def _all_backend_options() -> List[str]:
    names: List[str] = []
    for name in registry.backend_names():
        names.extend(registry.backend_class(name).options)
    return names


def _call_backend(backend: Backend, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
    """Run one backend; a bug inside it becomes a logged ``WebProviderError``, never a stray exception."""
    try:
        return backend.search(params, transport, deadline)
    except WebSearchError:
        raise
    except Exception as exc:  # a defect in a backend: report it loudly, typed
        logger.error("backend %s failed unexpectedly", backend.name, exc_info=True)
        raise WebProviderError(
            "internal error in backend %s: %s" % (backend.name, type(exc).__name__),
            provider=backend.name,
            detail_code="internal_error",
        ) from exc


def _backoff_s(attempt: int, error: WebSearchError) -> float:
    """Exponential backoff with jitter; never shorter than the service's Retry-After."""
    delay = min(_BACKOFF_CAP_S, _BACKOFF_BASE_S * (2 ** attempt)) * random.uniform(0.5, 1.0)
    if error.retry_after is not None:
        delay = max(delay, error.retry_after)
    return delay


def _budget_error(name: str, budget: Deadline) -> Timeout:
    return Timeout("the %.0f ms budget ran out before %s could be asked" % (budget.timeout_ms, name), provider=name, detail_code="deadline_exceeded")


def _most_informative(failures: List[WebSearchError]) -> WebSearchError:
    best = min(failures, key=lambda e: _PRECEDENCE.index(e.code) if e.code in _PRECEDENCE else len(_PRECEDENCE))
    best.errors = [e for e in failures if e is not best]
    return best


def _response(items: List[Dict[str, Any]], name: str, result: ParseResult, failures: List[WebSearchError]) -> Dict[str, Any]:
    meta: Dict[str, Any] = {"provider_name": name, "cached": False}
    if result.request_id:
        meta["request_id"] = result.request_id
    response: Dict[str, Any] = {"items": items, "provider_meta": meta}
    errors = [e.to_dict() for e in failures] + list(result.errors)
    if errors:
        response["errors"] = errors
    return response

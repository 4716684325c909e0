"""The module-level API: one-call functions.

Each call builds a fresh :class:`SearchClient` and closes it; no cache carries over
from one call to the next (scripts that search many times should share one
``SearchClient``). The rate-limit slots, cool-downs and single-flight table are
process-wide (per state settings: one pace per backend whatever a call's wire), so a worker calling these functions in a loop keeps its
pace and obeys its blocks, also while a shared state is unreachable. With a shared
state (``WEB_SEARCH_STATE_URL`` / ``Settings.state_url``) all of it, and a cache,
lives in Redis for every call and process (docs/scaling.md): that is how RQ or Celery
workers calling these functions keep one pace and one cache.
"""

import time
from typing import Any, Literal, Optional, overload

from .client.clock import Clock
from .client.cooldown import Cooldowns
from .client.flight import Flights
from .client.processwide import process_parts
from .client.ratelimit import RateLimiter
from .client.search_client import SearchClient, keyword_names
from .client.state import SharedTiers
from .config import DEFAULT_MAX_BYTES, DEFAULT_MAX_CHARS, SETTINGS_ARGUMENTS, Settings
from .models import (
    AnyResponse,
    ExtractMode,
    FetchResult,
    ImageResponse,
    NewsResponse,
    SafeSearch,
    SearchResponse,
    TimeRange,
    VideoResponse,
)
from .net.deadline import Deadline
from .validate import BackendArg, query_first, suggesting_keywords

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Seconds an answer stays in the shared cache when these functions use one.
SHARED_CACHE_TTL_S = 300


@overload
def search(
    query: str,
    *,
    backend: BackendArg = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    settings: Optional[Settings] = None,
    time_range: Optional[TimeRange] = None,
    safe_search: Optional[SafeSearch] = None,
    vertical: Optional[Literal["web"]] = None,
    **options: Any,
) -> SearchResponse: ...


@overload
def search(
    query: str,
    *,
    backend: BackendArg = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    settings: Optional[Settings] = None,
    time_range: Optional[TimeRange] = None,
    safe_search: Optional[SafeSearch] = None,
    vertical: Literal["news"],
    **options: Any,
) -> NewsResponse: ...


@overload
def search(
    query: str,
    *,
    backend: BackendArg = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    settings: Optional[Settings] = None,
    time_range: Optional[TimeRange] = None,
    safe_search: Optional[SafeSearch] = None,
    vertical: Literal["images"],
    **options: Any,
) -> ImageResponse: ...


@overload
def search(
    query: str,
    *,
    backend: BackendArg = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    settings: Optional[Settings] = None,
    time_range: Optional[TimeRange] = None,
    safe_search: Optional[SafeSearch] = None,
    vertical: Literal["videos"],
    **options: Any,
) -> VideoResponse: ...


@overload
def search(
    query: str,
    *,
    backend: BackendArg = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    settings: Optional[Settings] = None,
    time_range: Optional[TimeRange] = None,
    safe_search: Optional[SafeSearch] = None,
    vertical: Optional[str] = None,
    **options: Any,
) -> AnyResponse: ...


@query_first  # search(keywords="...") names the first argument, not Python's "missing 1 required positional"
def search(
    query: str,
    *,
    backend: BackendArg = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    settings: Optional[Settings] = None,
    time_range: Optional[TimeRange] = None,
    safe_search: Optional[SafeSearch] = None,
    vertical: Optional[str] = None,
    **options: Any,
) -> AnyResponse:
    """Search the web once and return ``{"items": [...], "provider_meta": {...}}``.

    ``vertical`` (``"web"``, ``"news"``, ``"images"``, ``"videos"``) chooses what to look for;
    the items of each are typed (``NewsItem``...; docs/verticals.md).

    ``backend`` defaults to ``settings.backend`` / ``WEB_SEARCH_BACKEND``, else the
    offline ``stub``; a list (or ``"auto"``) is a fallback chain, or a parallel
    merge with ``strategy="merge"``. No cache survives the call (share a
    :class:`SearchClient` for that) unless a shared state URL is set; rate-limit slots
    and cool-downs are kept for the process. See :meth:`SearchClient.search` for the
    options and errors.
    """
    with _one_call_client(settings) as client:
        return client.search(
            query,
            backend=backend,
            max_results=max_results,
            timeout_ms=timeout_ms,
            time_range=time_range,
            safe_search=safe_search,
            vertical=vertical,
            **options,
        )


class _OneCallClient(SearchClient):
    """A client for one call, on the process-wide rate limiter, cool-downs and single-flight table.

    The call's deadline counts from the client's making: building it is part of the call (the
    first in a process imports its wires, a few tenths of a second), which ``timeout_ms`` bounds."""

    called_keywords = keyword_names(search)

    def __init__(self, **kwargs: Any) -> None:
        self._started = time.monotonic()
        super().__init__(**kwargs)

    def _call_deadline(self, timeout_ms: float) -> Deadline:
        return Deadline.since(self._started, timeout_ms)

    def _state_parts(
        self, cooldown_s: dict[str, float], clock: Clock, shared: SharedTiers
    ) -> tuple[RateLimiter, Cooldowns, Flights]:
        return process_parts(self.settings, cooldown_s, clock, shared)


def _one_call_client(settings: Optional[Settings]) -> SearchClient:
    """A client for one call: no cache of its own; the shared one when a state URL is set."""
    settings = settings if settings is not None else Settings.from_env()
    shared = isinstance(settings, Settings) and bool(settings.state_url)  # a wrong type: SearchClient says so
    return _OneCallClient(settings=settings, cache_ttl_s=SHARED_CACHE_TTL_S if shared else 0)


@suggesting_keywords(SETTINGS_ARGUMENTS)
def fetch(
    url: str,
    *,
    extract_mode: ExtractMode = "markdown",
    max_chars: int = DEFAULT_MAX_CHARS,
    timeout_ms: Optional[int] = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    allow_private: bool = False,
    settings: Optional[Settings] = None,
    include_comments: bool = False,
    images: bool = False,
) -> FetchResult:
    """Read one web page and return its main content as markdown or text.

    Returns ``{"url", "final_url", "status", "content_type", "extractor", "title",
    "text", "truncated", "length"}`` (an image, with ``images=True``: also ``"width"``,
    ``"height"`` and ``"data"``, its bytes in base64, and for one downscaled to the caps
    ``"original_width"`` and ``"original_height"``, the size it was served at; ``"errors"``, warnings on what was read,
    when any: a PDF's pages that cannot be read, left out; ``"truncated_by"`` when truncated: what
    cut it, ``max_chars``, ``max_bytes``, a PDF read's ``deadline``...). Follows up to 5 redirects (meta refresh and
    ``location.replace`` redirect pages included), refuses private/loopback/
    link-local targets unless ``allow_private`` (or ``settings.allow_private``),
    reads at most ``max_bytes`` and returns at most ``max_chars`` characters,
    all within ``timeout_ms`` (default ``settings.timeout_ms``). When a fetch
    service or a Jina key is configured it is asked first. ``include_comments``
    keeps the page's reader comment threads. A PDF is read as text (the ``pdf`` extra);
    ``images`` returns a PNG, JPEG, GIF or WebP image instead of refusing it. Its requests
    keep the process-wide pace and cool-downs of the module-level functions (a host that
    just walled a search is refused), and a retryable failure is retried. Identical fetches at
    once in the process read the page once (with a state URL, in every process of the state:
    the answer is shared for 300 s). See docs/fetch.md.

    Raises:
        WebSearchError: a subclass named by the error code; nothing else
        (except ``TypeError`` for a wrong keyword argument or ``settings`` type).
    """
    with _one_call_client(settings) as client:
        return client.fetch(
            url,
            extract_mode=extract_mode,
            max_chars=max_chars,
            timeout_ms=timeout_ms,
            max_bytes=max_bytes,
            allow_private=allow_private,
            include_comments=include_comments,
            images=images,
        )

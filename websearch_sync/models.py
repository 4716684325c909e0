"""What backends are given and give back: validated search parameters and parse results.

The result shape users see is documented in docs/api.md and checked by
:func:`websearch_sync.testing.assert_contract`.
"""

import dataclasses
import datetime
from typing import Any, Dict, List, Optional, TypedDict

__all__ = [
    "SearchParams",
    "ParseResult",
    "TIME_RANGES",
    "SAFE_SEARCH_LEVELS",
    "SearchItem",
    "ProviderMeta",
    "ErrorInfo",
    "SearchResponse",
    "FetchResult",
]

TIME_RANGES = ("day", "week", "month", "year")
SAFE_SEARCH_LEVELS = ("off", "moderate", "strict")


@dataclasses.dataclass(frozen=True)
class SearchParams:
    """Validated parameters of one search, as backends see them.

    ``options`` holds backend-specific options (e.g. SearXNG ``categories``).
    ``now`` is when the search was asked for (UTC; set when the parameters are made):
    request builders stay pure and still send dates (Mojeek's ``since``).
    """

    query: str
    max_results: int
    locale: Optional[str] = None
    time_range: Optional[str] = None
    site_filter: Optional[str] = None
    safe_search: Optional[str] = None
    trace_id: Optional[str] = None
    include_content: bool = False
    options: Dict[str, Any] = dataclasses.field(default_factory=dict)
    now: datetime.datetime = dataclasses.field(default_factory=lambda: datetime.datetime.now(datetime.timezone.utc), compare=False)

    @property
    def full_query(self) -> str:
        """The query with ``site:`` appended when ``site_filter`` is set."""
        if self.site_filter:
            return "%s site:%s" % (self.query, self.site_filter)
        return self.query

    def cache_key(self) -> tuple:
        """Every parameter that can change the answer, hashable."""
        return (
            self.query,
            self.max_results,
            self.locale,
            self.time_range,
            self.site_filter,
            self.safe_search,
            self.include_content,
            tuple(sorted((k, repr(v)) for k, v in self.options.items())),
        )


@dataclasses.dataclass
class ParseResult:
    """What a backend's parser returns: raw items (no ``rank``), soft errors, meta.

    ``extras`` is what the service answered besides results (SearXNG's answers,
    infoboxes, suggestions, corrections: ``{kind: entries}``), shown as
    ``provider_meta["extras"]``.
    """

    items: List[Dict[str, Any]]
    errors: List[Dict[str, Any]] = dataclasses.field(default_factory=list)
    request_id: Optional[str] = None
    extras: Dict[str, List[Any]] = dataclasses.field(default_factory=dict)


# The canonical shapes (../shared/DESIGN.md, docs/api.md). ``search()`` and ``fetch()`` return plain
# dicts of these shapes; the TypedDicts let a user's type checker catch ``item["ulr"]``. Optional keys
# sit in a ``total=False`` subclass (``NotRequired`` needs Python 3.11).


class _SearchItemKeys(TypedDict):
    title: str
    url: str
    snippet: str
    provider: str
    rank: int


class SearchItem(_SearchItemKeys, total=False):
    """One search result; ``rank`` is written only by normalisation (1..n, no gaps)."""

    source: str
    published_at: str
    providers: List[str]
    content: str


class _ProviderMetaKeys(TypedDict):
    provider_name: str


class ProviderMeta(_ProviderMetaKeys, total=False):
    """Who answered and how: ``provider_name`` always; the rest as the call produced them."""

    latency_ms: int
    cached: bool
    attempts: int
    request_id: Optional[str]
    providers: List[str]
    extras: Dict[str, List[Any]]  #: what the service answered besides results (SearXNG's answers, infoboxes ...)


class _ErrorInfoKeys(TypedDict):
    type: str
    message: str
    retryable: bool
    detail_code: Optional[str]
    provider: Optional[str]


class ErrorInfo(_ErrorInfoKeys, total=False):
    """One failure in ``WebSearchError.to_dict()`` form, e.g. in a response's ``errors``."""

    errors: List["ErrorInfo"]
    engine: str  #: the engine of a meta-engine (SearXNG) that failed
    retry_after: float  #: seconds until that engine is asked again (it is suspended)


class _SearchResponseKeys(TypedDict):
    items: List[SearchItem]
    provider_meta: ProviderMeta


class SearchResponse(_SearchResponseKeys, total=False):
    """What ``search()`` returns: never a bare list."""

    errors: List[ErrorInfo]


class FetchResult(TypedDict):
    """What ``fetch()`` returns."""

    url: str
    final_url: str
    status: int
    content_type: str
    extractor: str
    title: str
    text: str
    truncated: bool
    length: int

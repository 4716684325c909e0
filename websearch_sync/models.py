"""Shapes of what goes in and out: search items, responses, parameters, parse results."""

import dataclasses
import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):  # pragma: no cover - typing only
    from typing import NotRequired, TypedDict
else:  # pragma: no cover
    from typing import TypedDict

    NotRequired = Optional  # type: ignore[assignment]

__all__ = ["SearchItem", "SearchResponse", "FetchResult", "SearchParams", "ParseResult", "TIME_RANGES", "SAFE_SEARCH_LEVELS"]

TIME_RANGES = ("day", "week", "month", "year")
SAFE_SEARCH_LEVELS = ("off", "moderate", "strict")


class SearchItem(TypedDict):
    """One canonical result. ``rank`` is written only by :mod:`websearch_sync.normalize`."""

    title: str
    url: str
    snippet: str
    provider: str
    rank: int
    source: NotRequired[str]
    published_at: NotRequired[str]
    providers: NotRequired[List[str]]
    content: NotRequired[str]


class SearchResponse(TypedDict):
    """What ``search()`` returns: ``{"items": [...]}`` plus optional extras."""

    items: List[SearchItem]
    provider_meta: NotRequired[Dict[str, Any]]
    errors: NotRequired[List[Dict[str, Any]]]


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


@dataclasses.dataclass(frozen=True)
class SearchParams:
    """Validated parameters of one search, as backends see them.

    ``options`` holds backend-specific options (e.g. SearXNG ``categories``).
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
    """What a backend's parser returns: raw items (no ``rank``), soft errors, meta."""

    items: List[Dict[str, Any]]
    errors: List[Dict[str, Any]] = dataclasses.field(default_factory=list)
    request_id: Optional[str] = None

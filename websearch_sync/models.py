"""What backends are given and give back: validated search parameters and parse results.

The result shape users see is documented in docs/api.md and checked by
:func:`websearch_sync.testing.assert_contract`.
"""

import dataclasses
import datetime
from typing import Any, Dict, List, Optional

__all__ = ["SearchParams", "ParseResult", "TIME_RANGES", "SAFE_SEARCH_LEVELS"]

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
    """What a backend's parser returns: raw items (no ``rank``), soft errors, meta."""

    items: List[Dict[str, Any]]
    errors: List[Dict[str, Any]] = dataclasses.field(default_factory=list)
    request_id: Optional[str] = None

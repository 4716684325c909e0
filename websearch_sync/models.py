"""What backends are given and give back: validated search parameters and parse results.

The result shape users see is documented in docs/api.md and checked by
:func:`websearch_sync.testing.assert_contract`.
"""

import dataclasses
import datetime
import os
from typing import Any, Literal, Optional, TypedDict, Union

from .errors import ErrorInfo as ErrorInfo  # defined beside WebSearchError.to_dict, which builds it

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

TIME_RANGES = ("day", "week", "month", "year")
SAFE_SEARCH_LEVELS = ("off", "moderate", "strict")

#: The values of ``time_range``, ``safe_search``, ``extract_mode`` and ``strategy`` (a type checker
#: catches ``time_range="weak"``; the call still checks them at run time).
TimeRange = Literal["day", "week", "month", "year"]
SafeSearch = Literal["off", "moderate", "strict"]
ExtractMode = Literal["markdown", "text"]
Strategy = Literal["fallback", "merge"]
#: A file or folder name: ``str`` or ``pathlib.Path``.
StrPath = Union[str, "os.PathLike[str]"]


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
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    now: datetime.datetime = dataclasses.field(
        default_factory=lambda: datetime.datetime.now(datetime.timezone.utc), compare=False
    )

    @property
    def full_query(self) -> str:
        """The query with ``site:`` appended when ``site_filter`` is set."""
        if self.site_filter:
            return "%s site:%s" % (self.query, self.site_filter)
        return self.query

    def cache_key(self) -> tuple[Any, ...]:
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

    items: list[dict[str, Any]]
    errors: list[ErrorInfo] = dataclasses.field(default_factory=list)
    request_id: Optional[str] = None
    extras: dict[str, list[Any]] = dataclasses.field(default_factory=dict)


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
    providers: list[str]
    content: str


class _ProviderMetaKeys(TypedDict):
    provider_name: str


class ProviderMeta(_ProviderMetaKeys, total=False):
    """Who answered and how: ``provider_name`` always; the rest as the call produced them."""

    latency_ms: int
    wait_ms: int  #: the part of ``latency_ms`` spent waiting for rate-limit slots
    cached: bool
    attempts: int
    request_id: Optional[str]
    providers: list[str]
    extras: dict[str, list[Any]]  #: what the service answered besides results (SearXNG's answers, infoboxes ...)


class _SearchResponseKeys(TypedDict):
    items: list[SearchItem]
    provider_meta: ProviderMeta


class SearchResponse(_SearchResponseKeys, total=False):
    """What ``search()`` returns: never a bare list."""

    errors: list[ErrorInfo]


class ToolError(TypedDict):
    """What a tool call answers instead of raising: ``{"error": ErrorInfo}``."""

    error: ErrorInfo


class _FetchResultKeys(TypedDict):
    url: str
    final_url: str
    status: int
    content_type: str
    extractor: str
    title: str
    text: str
    truncated: bool
    length: int


class FetchResult(_FetchResultKeys, total=False):
    """What ``fetch()`` returns; for an image (``images=True``) also its size and its bytes in
    base64 (``text`` is then one line describing it)."""

    width: int
    height: int
    data: str


#: What ``tool.call_tool`` returns: the search response, the fetch result, or the error.
ToolResult = Union[SearchResponse, FetchResult, ToolError]

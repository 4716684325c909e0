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
#: What a search looks for: web pages (the default), news articles, images or videos (docs/verticals.md).
#: How deeply the values a backend returns (``extras``, soft errors) may nest; why, and the check
#: refusing deeper ones, in ``engine.registry`` (here so that the engine's own walks share it).
MAX_RESULT_NESTING = 64
VERTICALS = ("web", "news", "images", "videos")
SAFE_SEARCH_LEVELS = ("off", "moderate", "strict")
#: The filters of an image or video search (docs/verticals.md): each option's vertical and the
#: values it takes, in our words; a backend maps each to its upstream's token (``Backend.filters``).
MEDIA_FILTERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "image_size": ("images", ("small", "medium", "large", "wallpaper")),
    "image_color": (
        "images",
        (
            "color",
            "monochrome",
            "red",
            "orange",
            "yellow",
            "green",
            "blue",
            "purple",
            "pink",
            "brown",
            "black",
            "gray",
            "teal",
            "white",
        ),
    ),
    "image_type": ("images", ("photo", "clipart", "gif", "transparent", "line")),
    "image_layout": ("images", ("square", "tall", "wide")),
    "image_license": (
        "images",
        ("creative_commons", "public_domain", "share", "share_commercially", "modify", "modify_commercially"),
    ),
    "video_resolution": ("videos", ("high", "standard")),
    "video_duration": ("videos", ("short", "medium", "long")),
    "video_license": ("videos", ("creative_commons", "youtube")),
}
#: How a call with several backends uses them (the values of ``strategy``).
STRATEGIES = ("fallback", "merge")
#: What a page's text is given as (the values of ``extract_mode``).
EXTRACT_MODES = ("markdown", "text")

#: The values of ``time_range``, ``safe_search``, ``extract_mode`` and ``strategy`` (a type checker
#: catches ``time_range="weak"``; the call still checks them at run time).
TimeRange = Literal["day", "week", "month", "year"]
SafeSearch = Literal["off", "moderate", "strict"]
ExtractMode = Literal["markdown", "text"]
Strategy = Literal["fallback", "merge"]
Vertical = Literal["web", "news", "images", "videos"]
#: A file or folder name: ``str`` or ``pathlib.Path``.
StrPath = Union[str, "os.PathLike[str]"]


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


@dataclasses.dataclass(frozen=True)
class SearchParams:
    """Validated parameters of one search, as backends see them.

    ``options`` holds backend-specific options (e.g. SearXNG ``categories``); ``filters`` the
    image or video filters given (``{"image_size": "large"}``: :data:`MEDIA_FILTERS`).
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
    vertical: str = "web"
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    filters: dict[str, str] = dataclasses.field(default_factory=dict)
    now: datetime.datetime = dataclasses.field(default_factory=lambda: _utc_now(), compare=False)

    def asked_now(self) -> "SearchParams":
        """These parameters with ``now`` the present moment: for a search asked again with
        parameters validated at an earlier call."""
        return params_with(self, now=_utc_now())

    @property
    def full_query(self) -> str:
        """The query with ``site:`` appended when ``site_filter`` is set."""
        if self.site_filter:
            return "%s site:%s" % (self.query, self.site_filter)
        return self.query

    def cache_key(self) -> tuple[Any, ...]:
        """Every parameter that can change the answer, hashable (the filters only when given:
        the key of a call without them is what it was before they existed)."""
        filters = (tuple(sorted(self.filters.items())),) if self.filters else ()
        return (
            self.query,
            self.max_results,
            self.locale,
            self.time_range,
            self.site_filter,
            self.safe_search,
            self.include_content,
            self.vertical,
            tuple(sorted((k, repr(v)) for k, v in self.options.items())),
            *filters,
        )


#: The names of :class:`SearchParams`' fields (all of them set by ``__init__``: see :func:`params_with`).
_PARAMS_FIELDS = frozenset(field.name for field in dataclasses.fields(SearchParams))


def params_with(params: SearchParams, **changes: Any) -> SearchParams:
    """``dataclasses.replace(params, **changes)`` without running ``__init__`` again: the copy
    holds ``params``' field values but for ``changes``, as ``replace`` makes it. ``SearchParams``
    is frozen, so its ``__init__`` sets each of its 12 fields through ``object.__setattr__``: a
    ``replace`` cost 6-10 us, this 1.5 us, and a search made three (its validation, its cache
    key). Equal to ``replace`` because every field is an ``__init__`` argument kept as given (no
    ``__post_init__``, no field computed or left out of ``__init__``:
    ``tests/unit/test_params_with.py`` fails when one is added). A name that is no field is
    ``TypeError``, as with ``replace``."""
    unknown = changes.keys() - _PARAMS_FIELDS
    if unknown:
        raise TypeError("SearchParams has no field %s" % ", ".join(sorted(unknown)))
    made: SearchParams = object.__new__(type(params))
    made.__dict__.update(params.__dict__, **changes)
    return made


@dataclasses.dataclass
class ParseResult:
    """What a backend's parser returns: raw items (no ``rank``), soft errors, meta.

    ``extras`` is what the service answered besides results (SearXNG's answers,
    infoboxes, suggestions, corrections: ``{kind: entries}``), shown as
    ``provider_meta["extras"]``. ``answered_at`` is when the service answered (its
    ``Date`` header, else the search's ``now``): relative dates ("3 hours ago") are
    resolved against it. ``pages`` is how many result pages were read once a next page was
    asked for or the call asked for more than a page holds (``None``: one page, or the backend
    cannot page); ``partial``: a later page failed (its error is in
    ``errors``), the answer lacks engines that timed out within the time the call's deadline gave
    them (SearXNG's ``engine_timeout``: a longer deadline may bring them), or a later request that
    judges the answer got none (SearXNG's ``/config``), or the vendor warned that its search was
    cut short (Wikipedia's ``warnings``), so the answer is not cached. ``page_not_read``: why a
    fill-up page (the call asked no more than a page holds, the first gave fewer) was not read or
    failed: best effort, the answer stands whole (``provider_meta["page_not_read"]``).
    """

    items: list[dict[str, Any]]
    errors: list[ErrorInfo] = dataclasses.field(default_factory=list)
    request_id: Optional[str] = None
    extras: dict[str, list[Any]] = dataclasses.field(default_factory=dict)
    answered_at: Optional[datetime.datetime] = None
    pages: Optional[int] = None
    partial: bool = False
    page_not_read: Optional[str] = None


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
    content_by: str  #: who read ``content``: the backend whose service gave it, or ``"fetch"`` (read by this library)
    #: When ``content`` was cut short: what cut it, as a fetch result's ``truncated_by`` names it.
    content_truncated_by: list[str]


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
    pages: int  #: result pages read, when a next page was asked for or the call asked more than a page holds
    #: Why a fill-up page (the call asked no more than a page holds) was not read: no rate-limit slot in
    #: the budget, or it failed; best effort, the answer stands whole (not partial, cached).
    page_not_read: str
    vertical: str  #: what was searched for, when not the web: news, images or videos
    not_sent: list[str]  #: the inputs (common ones, backend options) the call gave the answering backend did not send
    not_sent_by: dict[str, list[str]]  #: in a merge: ``not_sent`` by backend (those that went without one)
    #: ``True`` when the offline stub answered as the default (no backend named): its notes tell how
    #: to search the web; absent when the caller named the backends (``backend="stub"`` chose it).
    offline_default: bool


class _SearchResponseKeys(TypedDict):
    items: list[SearchItem]
    provider_meta: ProviderMeta


class SearchResponse(_SearchResponseKeys, total=False):
    """What ``search()`` returns: never a bare list."""

    errors: list[ErrorInfo]
    engines_not_listed: int  #: a meta-engine's engine failures past the first 20 listed in ``errors``


# The items of the other verticals (docs/verticals.md): the same rules as web items (1-based
# ``rank``, http(s) URLs, plain single-line text, ``provider``); a field the service does not give
# is absent, never made up. Dates are ISO 8601 in UTC, ``duration`` in seconds.


class _VerticalItemKeys(TypedDict):
    title: str
    url: str
    provider: str
    rank: int


class NewsItem(_VerticalItemKeys, total=False):
    """One news article: ``source`` is the publisher, ``image_url`` the article's picture."""

    snippet: str
    source: str
    published_at: str
    image_url: str
    providers: list[str]
    content: str  #: with ``include_content``, as a web item's (:class:`SearchItem`)
    content_by: str
    content_truncated_by: list[str]


class _ImageItemKeys(_VerticalItemKeys):
    image_url: str


class ImageItem(_ImageItemKeys, total=False):
    """One image: ``url`` is the page it is on, ``image_url`` the image itself, ``source`` the site."""

    thumbnail_url: str
    width: int
    height: int
    source: str
    providers: list[str]
    content: str  #: with ``include_content``: the text of the page the image is on
    content_by: str
    content_truncated_by: list[str]


class VideoItem(_VerticalItemKeys, total=False):
    """One video: ``duration`` in seconds, ``view_count`` when the service gives it."""

    snippet: str
    published_at: str
    duration: int
    publisher: str
    thumbnail_url: str
    view_count: int
    embed_url: str  #: the player a page embeds (``https://www.youtube.com/embed/…``), http(s)
    uploader: str  #: the channel (``freeCodeCamp.org``); ``publisher`` is the platform (``YouTube``)
    providers: list[str]
    content: str  #: with ``include_content``: the text of the video's page
    content_by: str
    content_truncated_by: list[str]


class _NewsResponseKeys(TypedDict):
    items: list[NewsItem]
    provider_meta: ProviderMeta


class NewsResponse(_NewsResponseKeys, total=False):
    """What ``search(..., vertical="news")`` returns."""

    errors: list[ErrorInfo]


class _ImageResponseKeys(TypedDict):
    items: list[ImageItem]
    provider_meta: ProviderMeta


class ImageResponse(_ImageResponseKeys, total=False):
    """What ``search(..., vertical="images")`` returns."""

    errors: list[ErrorInfo]


class _VideoResponseKeys(TypedDict):
    items: list[VideoItem]
    provider_meta: ProviderMeta


class VideoResponse(_VideoResponseKeys, total=False):
    """What ``search(..., vertical="videos")`` returns."""

    errors: list[ErrorInfo]


#: What ``search()`` returns when the vertical is not known to the type checker (a ``str`` variable).
AnyResponse = Union[SearchResponse, NewsResponse, ImageResponse, VideoResponse]


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
    base64 (``text`` is then one line describing it), and for one fetch downscaled to the caps the
    size it was served at (``original_width``, ``original_height``); ``errors``: warnings on what was read
    (a PDF's pages left out because they cannot be read), as in a search response;
    ``truncated_by``, when ``truncated``: what cut the text short (``max_chars``, ``max_bytes``,
    ``partial_content``, and for a PDF ``deadline``, ``content_budget``, ``large_pages``)."""

    truncated_by: list[str]
    width: int
    height: int
    data: str
    original_width: int
    original_height: int
    errors: list[ErrorInfo]


#: What ``tool.call_tool`` returns: the search response, the fetch result, or the error.
ToolResult = Union[SearchResponse, NewsResponse, ImageResponse, VideoResponse, FetchResult, ToolError]

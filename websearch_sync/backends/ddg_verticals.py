"""``ddg_html``'s news, images and videos: DuckDuckGo's JSON endpoints behind the ``vqd`` token.

The flow a browser follows on duckduckgo.com's News, Images and Videos tabs (SearXNG's
``searx/engines/duckduckgo_extra.py``, ddgs's ``ddgs/engines/duckduckgo_news.py`` / ``_images``
/ ``_videos``; the recorded answers under ``fixtures/ddg_html/``):

1. ``GET https://duckduckgo.com/?q=<query>&iar=<vertical>&t=h_``: the search page, which carries
   the search's ``vqd`` token (``vqd="4-…"`` on today's page; ``vqd='3-…'`` and ``vqd=3-…&`` on
   the 2020 pages). A page without one is ``WebParseError`` (the 2015 page predates the token),
   unless it is a bot wall or an error status.
2. ``GET https://duckduckgo.com/news.js`` (``i.js`` images, ``v.js`` videos) with ``q``, ``vqd``,
   ``o=json``, ``l`` (the locale's region, ``wt-wt`` without one), ``p`` (safe search: ``1``
   strict, ``-1`` moderate, DDG's default, ``-2`` off), news and videos ``noamp=1``, and the time
   range (news ``df``; videos ``f=publishedAfter:d``; images ``f=time:Day``). Both requests go
   as the same browser's (``kind="html"``): DuckDuckGo ties the token to who asked.
   Image and video filters (docs/verticals.md) go in ``f`` too, as ddgs sends them
   (``ddgs/engines/duckduckgo_images.py``: ``f=<time>,size:…,color:…,type:…,layout:…,license:…``;
   ``duckduckgo_videos.py``: ``f=<time>,videoDefinition:…,videoDuration:…,videoLicense:…``; the
   values as its README and ``api_server/api.py`` list them): every slot in that order, empty
   where not given, once a filter is given (as a recorded client did: duck-duck-scrape's image
   answer's ``next`` repeats its ``f=,,,,,``); the time alone (as before) otherwise.
3. More results: the answer's own ``next`` (``news.js?…&s=30&vqd=…``) on the same host, with the
   answer's ``vqd`` added when ``next`` lacks it (as the page's script does); never a made-up token.
   A call's ``pageno`` starts at ``s`` = its page's first result: the ``s`` of each recorded
   answer's ``next`` is the endpoint's page (news 30, images 100, videos 60), as ddgs counts its
   ``page``; the token is still the token page's.

The answer is ``{"results": [...], "next": ..., "vqd": {query: token}}``. A news result gives
``title``, ``url``, ``excerpt`` (HTML: ``<b>`` highlights, ``&#x27;``), ``source``, ``date``
(epoch seconds) and ``image``; an image ``title``, ``url`` (the page), ``image``, ``thumbnail``, ``width``,
``height`` (its ``source`` is DuckDuckGo's upstream, "Bing", not the site: not kept); a video
``title``, ``content`` (its page), ``description``, ``published`` (ISO, no offset: UTC),
``duration`` (``13:59:10``), ``publisher`` (the platform), ``images``, ``statistics.viewCount``,
``embed_url`` (the player; ``embed_html`` is it in an ``iframe``: not kept).
Every text field but the news excerpt is plain text (the recorded answers carry a bare ``&``
and ``'`` there, and no entity).

Bot walls: the anomaly page of the HTML endpoints (:data:`~.ddg.ANOMALY`), and the deep-results
script answers DuckDuckGo blocks with (recorded from ``d.js``): ``DDG.deep.anomalyDetectionBlock(…)``
and the ``DDG.deep.is506=1`` throttle, recognised only where the body starts with them. The
endpoint override of ``ddg_html`` (``WEB_SEARCH_ENDPOINT_DDG_HTML``) moves these engines to its
origin too, as every vertical engine's (a mirror, a proxy, a test server gets all the requests;
none goes to duckduckgo.com behind its back).
"""

import re
from typing import Any, ClassVar, Optional
from urllib.parse import parse_qsl, urljoin, urlsplit

from ..engine import registry
from ..engine.base import Backend, Page, dig, json_body, listed_results
from ..engine.html_engine import accept_language
from ..engine.media_fields import first_picture, nested, text
from ..engine.normalize import clean_text
from ..engine.option import pageno_option
from ..engine.page_forms import followed_origin
from ..errors import UNEXPECTED_SHAPE, WebParseError, WebSearchError
from ..models import ParseResult, SearchParams
from ..net.botwall import BotWall
from ..net.transport import HttpResponse, RequestSpec
from ..net.urls import browser_join
from .ddg import ANOMALY
from .ddg_regions import ddg_region, region_dropped

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

SITE = "https://duckduckgo.com/"
#: The block scripts start the body (a page merely mentioning them is no wall).
_ANOMALY_START = re.compile(r"\A\s*DDG\.deep\.anomalyDetectionBlock\(")
_THROTTLE_START = re.compile(r"\A\s*if\s?\(DDG\.deep\)\s?\{\s?DDG\.deep\.is506\s?=\s?1")
#: The deep-results script's answer to a blocked client (recorded: duck-duck-scrape's anomalyDetectionBlock.js).
DEEP_ANOMALY = BotWall(
    "DuckDuckGo anomaly block (deep-results script)",
    hints=("DDG.deep.anomalyDetectionBlock",),
    patterns=(_ANOMALY_START,),
)
#: The deep-results script's "506" throttle: a fake EOF result and no results (recorded: 506.js).
DEEP_506 = BotWall(
    "DuckDuckGo 506 throttle (deep-results script)", hints=("DDG.deep.is506",), patterns=(_THROTTLE_START,)
)
#: The token in each shape the recorded pages carry it: ``vqd="4-…"``, ``vqd='3-…'``, ``vqd=3-…&``.
_VQD = re.compile(r"""vqd=["']?(\d-[0-9-]{1,200})""")
#: The colours of ``image_color`` besides ``color`` and ``monochrome``, each written capitalised in ``f``.
_HUES = ("red", "orange", "yellow", "green", "blue", "purple", "pink", "brown", "black", "gray", "teal", "white")
_SAFE_SEARCH = {"strict": "1", "moderate": "-1", "off": "-2"}
_ACCEPT_JSON = "application/json, text/javascript, */*; q=0.01"
_ACCEPT_PAGE = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def slot_tokens(key: str, values: dict[str, str]) -> dict[str, str]:
    """A filter's tokens in ``f``: ``key:<upstream value>`` for each of our values."""
    return {ours: "%s:%s" % (key, theirs) for ours, theirs in values.items()}


def vqd_token(text: str) -> Optional[str]:
    """The ``vqd`` token a DuckDuckGo search page carries, or ``None``."""
    match = _VQD.search(text)
    return match.group(1) if match else None


class _DuckDuckGoVertical(Backend):
    """What DuckDuckGo's news, images and videos share: the token page, the JSON answer, paging."""

    kind = "html"  # both requests as a browser's: the token is tied to who asked
    # Titles, publishers and video descriptions are plain text (a bare "&" and "'", never an
    # entity): "Option<T>" in a title is the title's. News excerpts are HTML: read as text here.
    text_format = "text"
    min_interval_s = 1.0
    max_query_chars = 500  # DDG refuses queries of 500+ characters
    auto_rank = 110
    unsent: ClassVar[tuple[str, ...]] = ("locale=language-only",)  # l is a region (docs/backends.md)
    default_endpoint = SITE
    bot_walls = (ANOMALY, DEEP_ANOMALY, DEEP_506)
    results_per_page = 10  # pages hold 13 to 100 results; fewer distinct results than asked: the next one
    #: The results a page of the endpoint counts (``s`` of a recorded answer's ``next``): ``pageno``'s
    #: step, which each engine declares (no default: a missing one would send ``s=0`` for every page).
    page_size: ClassVar[int]
    #: The JSON endpoint (``news.js``), the ``iar`` tab of the token page, the time-range field.
    endpoint_path: ClassVar[str] = ""
    time_field: ClassVar[tuple[str, dict[str, str]]] = ("", {})
    extra_fields: ClassVar[dict[str, str]] = {}
    #: The filters' slots in ``f`` after the time, in the order ddgs sends them.
    filter_slots: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each engine's ``page_size`` checked (a positive int: ``TypeError`` else, at class creation)
        and its ``pageno`` declared saying that step, which it is whatever ``max_results`` is."""
        super().__init_subclass__(**kwargs)
        size = getattr(cls, "page_size", None)
        if not isinstance(size, int) or isinstance(size, bool) or size < 1:
            raise TypeError(
                "%s must declare page_size, its endpoint's page (a positive int), got %r" % (cls.__name__, size)
            )
        cls.options = (
            pageno_option(
                "%d results a page whatever max_results is (s = (pageno - 1) x %d, ddgs's page)" % (size, size)
            ),
        )

    def headers(self, params: SearchParams, accept: str) -> dict[str, str]:
        """What the page's own requests carry: same-origin, Referer the site, the locale's language."""
        return {
            "Accept": accept,
            "Accept-Language": accept_language(params.locale) or "en-US,en;q=0.9",
            "Referer": self.endpoint_url(),
            "Sec-Fetch-Site": "same-origin",
        }

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The locale, when DuckDuckGo lists no region for it (:func:`~.ddg_regions.region_dropped`)."""
        return region_dropped(params.locale)

    def build_request(self, params: SearchParams) -> RequestSpec:
        """The search page of the vertical's tab, which carries the ``vqd`` token."""
        query = {"q": params.full_query, "iar": self.vertical, "t": "h_"}
        return RequestSpec("GET", self.endpoint_url(), params=query, headers=self.headers(params, _ACCEPT_PAGE))

    def continue_request(self, response: HttpResponse, params: SearchParams, step: int) -> Optional[RequestSpec]:
        """After the search page (step 1), the JSON endpoint asked with the page's token."""
        if step > 1:
            return None
        error = self.answer_error(response)
        if error is not None:
            raise error
        token = vqd_token(response.text)
        if token is None:
            raise WebParseError(
                "%s: DuckDuckGo's search page carries no vqd token, which its %s endpoint needs"
                % (self.name, self.vertical),
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
                status=response.status,
            )
        fields = {
            "l": ddg_region(params.locale) or "wt-wt",
            "o": "json",
            "q": params.full_query,
            "vqd": token,
            "p": _SAFE_SEARCH[params.safe_search or "moderate"],
            **self.extra_fields,
        }
        fields.update(self.narrowing(params))
        page = self.option(params, "pageno")
        if page > 1:  # the page's first result, as the answers' own next links count it
            fields["s"] = str((page - 1) * self.page_size)
        url = urljoin(self.endpoint_url(), self.endpoint_path)
        return RequestSpec("GET", url, params=fields, headers=self.headers(params, _ACCEPT_JSON))

    def narrowing(self, params: SearchParams) -> dict[str, str]:
        """The call's time range and filters as their field (``f``; news ``df``), or nothing."""
        name, values = self.time_field
        time = values.get(params.time_range or "", "")
        tokens = self.filter_tokens(params)
        if tokens:  # the time is f's first slot (images, videos: the engines with filters)
            return {name: ",".join([time, *(tokens.get(slot, "") for slot in self.filter_slots)])}
        return {name: time} if time else {}

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """Any registered bot wall is ``WebBlocked(captcha_required)``, whatever the status."""
        return registry.wall_error(response, self.name)

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """The raw items of the answer's ``results`` (results none of which can be read: ``WebParseError``)."""
        results = dig(json_body(response, self.name), ("results",), self.name)
        if not isinstance(results, list):
            raise WebParseError(
                "%s answered with results that are not a list" % self.name,
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
            )
        items = [self.item(result) for result in results if isinstance(result, dict)]
        return ParseResult(items=listed_results(items, self.vertical, self.name, listed=len(results)))

    def item(self, result: dict[str, Any]) -> dict[str, Any]:
        """The raw item of one result (the field names of the vertical's items)."""
        raise NotImplementedError

    def next_page(self, params: SearchParams, page: Page) -> Optional[RequestSpec]:
        """The answer's ``next`` on the endpoint's host, with the answer's token when it lacks one,
        and the call's time range and filters when it lacks their field (the recorded image
        answers' ``next`` repeats the ``f`` asked, ``f=,,,,,``; the video answer's has none, and
        ddgs sends them with every page).

        A ``next`` on another origin (another host, or plain http) is not followed (the token and
        the pace are this host's) and is no last page either: ``WebParseError``, which leaves the
        pages read; so is a ``next`` for which the answer gives no token (the endpoint refuses a request without one)."""
        answer = page.previous.json()
        following = answer.get("next") if isinstance(answer, dict) else None
        if not isinstance(following, str) or not following:
            return None
        try:  # as a browser reads it (``\\host/x`` is another host's), as the form posts are
            url = browser_join(self.endpoint_url(), following)
        except ValueError:  # no URL (``https://[::1``): followed_origin says so
            url = ""
        followed_origin(url, self.endpoint_url(), self.name, "the answer's next page is")
        present = {key for key, _ in parse_qsl(urlsplit(url).query, keep_blank_values=True)}
        extra = {key: value for key, value in self.narrowing(params).items() if key not in present}
        tokens = answer.get("vqd")
        if "vqd=" not in urlsplit(url).query:
            if not (isinstance(tokens, dict) and len(tokens) == 1):
                raise WebParseError(
                    "%s: the answer's next page carries no vqd token (neither in next nor in its vqd field),"
                    " which the endpoint needs; not followed" % self.name,
                    provider=self.name,
                    detail_code=UNEXPECTED_SHAPE,
                )
            extra["vqd"] = str(next(iter(tokens.values())))
        return RequestSpec("GET", url, params=extra or None, headers=self.headers(params, _ACCEPT_JSON))


class DuckDuckGoNews(_DuckDuckGoVertical):
    """DuckDuckGo news (``news.js``)."""

    name = "ddg_html"
    vertical = "news"
    summary = "DuckDuckGo news (news.js behind the vqd token of the search page)"
    endpoint_path = "news.js"
    page_size = 30  # the recorded answer's next: s=30
    time_field = ("df", {"day": "d", "week": "w", "month": "m", "year": "y"})
    extra_fields = {"noamp": "1"}

    def item(self, result: dict[str, Any]) -> dict[str, Any]:
        """Title, URL, excerpt (HTML, read as text), source, date (epoch seconds), image."""
        return {
            "title": result.get("title"),
            "url": result.get("url"),
            "snippet": clean_text(result.get("excerpt")),
            "source": result.get("source"),
            "published_at": result.get("date"),
            "image_url": text(result.get("image")),
        }


class DuckDuckGoImages(_DuckDuckGoVertical):
    """DuckDuckGo images (``i.js``)."""

    name = "ddg_html"
    vertical = "images"
    summary = "DuckDuckGo images (i.js behind the vqd token of the search page)"
    endpoint_path = "i.js"
    page_size = 100  # the recorded answers' next: s=100
    time_field = ("f", {"day": "time:Day", "week": "time:Week", "month": "time:Month", "year": "time:Year"})
    filter_slots = ("image_size", "image_color", "image_type", "image_layout", "image_license")
    filters = {
        "image_size": slot_tokens(
            "size", {"small": "Small", "medium": "Medium", "large": "Large", "wallpaper": "Wallpaper"}
        ),
        "image_color": slot_tokens(
            "color",
            {
                "color": "color",
                "monochrome": "Monochrome",
                **{name: name.capitalize() for name in _HUES},  # red: Red
            },
        ),
        "image_type": slot_tokens("type", {name: name for name in ("photo", "clipart", "gif", "transparent", "line")}),
        "image_layout": slot_tokens("layout", {"square": "Square", "tall": "Tall", "wide": "Wide"}),
        "image_license": slot_tokens(
            "license",
            {
                "creative_commons": "any",  # ddgs: "any (All Creative Commons)"
                "public_domain": "Public",
                "share": "Share",
                "share_commercially": "ShareCommercially",
                "modify": "Modify",
                "modify_commercially": "ModifyCommercially",
            },
        ),
    }

    def item(self, result: dict[str, Any]) -> dict[str, Any]:
        """Title, the page, the image, its thumbnail and size (not ``source``: DuckDuckGo's upstream)."""
        return {
            "title": result.get("title"),
            "url": result.get("url"),
            "image_url": result.get("image"),
            "thumbnail_url": result.get("thumbnail"),
            "width": result.get("width"),
            "height": result.get("height"),
        }


class DuckDuckGoVideos(_DuckDuckGoVertical):
    """DuckDuckGo videos (``v.js``)."""

    name = "ddg_html"
    vertical = "videos"
    unsent = ("locale=language-only", "time_range=year")  # l is a region; the video filter has no year
    summary = "DuckDuckGo videos (v.js behind the vqd token of the search page)"
    endpoint_path = "v.js"
    page_size = 60  # the recorded answer's next: s=60
    time_field = ("f", {"day": "publishedAfter:d", "week": "publishedAfter:w", "month": "publishedAfter:m"})
    extra_fields = {"noamp": "1"}
    filter_slots = ("video_resolution", "video_duration", "video_license")
    filters = {
        # "standard", not ddgs's CLI choice "standart": ddgs sends the value it is given as it is
        # (``videoDefinition:{resolution}``) and its API documents "high, standard"; the CLI's is a typo
        "video_resolution": slot_tokens("videoDefinition", {"high": "high", "standard": "standard"}),
        "video_duration": slot_tokens("videoDuration", {"short": "short", "medium": "medium", "long": "long"}),
        "video_license": slot_tokens("videoLicense", {"creative_commons": "creativeCommon", "youtube": "youtube"}),
    }

    def item(self, result: dict[str, Any]) -> dict[str, Any]:
        """Title, the video's page, description, date, duration, platform, thumbnail, views, player, channel."""
        return {
            "title": result.get("title"),
            "url": result.get("content"),
            "snippet": result.get("description"),
            "published_at": result.get("published"),
            "duration": result.get("duration"),
            "publisher": result.get("publisher"),
            "thumbnail_url": first_picture(*(nested(result, "images", size) for size in ("medium", "small", "large"))),
            "view_count": nested(result, "statistics", "viewCount"),
            "embed_url": result.get("embed_url"),
            "uploader": result.get("uploader"),
        }

"""``brave`` news, images and videos: the Brave Search API's vertical endpoints
(``GET https://api.search.brave.com/res/v1/{news,images,videos}/search``).

Same key (``X-Subscription-Token``), parameters and error envelope as web search
(:mod:`.brave`): ``q``, ``count``, ``country``/``search_lang`` from the locale,
``freshness`` and ``safesearch``, except that image search has no ``freshness`` (a time
range is not sent) and knows only ``off`` and ``strict`` safe search (``moderate`` is
sent as ``strict``, Brave's own default there).

What the recorded answers (2024-12, 20 results each) show: an object whose ``type`` is
``news``/``images``/``videos`` with a flat ``results`` list (web search nests it in
``web``):

Their text is plain (a bare ``&`` and ``'``, no entity, no ``<strong>`` highlight: web
search's descriptions are HTML, these are not).

* news: ``title``, ``url``, ``description`` (the snippet), ``page_age`` (the date,
  ISO 8601 without zone; ``age`` beside it is for people: "48 minutes ago", "July 4,
  2023"), ``thumbnail.src`` (Brave's
  proxied copy: ``image_url``). No publisher name in the recording; Brave's schema names
  one ``source``, read when present.
* images: ``title``, ``url`` (the page), ``properties.url`` (the image),
  ``thumbnail.src``, ``source`` (the site). The recording gives no pixel size.
* videos: ``title``, ``url``, ``description``, ``page_age``, ``video.duration``
  (``01:56``), ``video.views``, ``video.publisher`` (``YouTube``), ``video.creator``
  (the channel: ``uploader``), ``thumbnail.src``.
"""

import dataclasses
from collections.abc import Iterable
from typing import Any, Callable

from ..engine.base import listed_results
from ..engine.json_api import JsonApiBackend
from ..engine.media_fields import nested, present, text, whole_number
from ..errors import UNEXPECTED_SHAPE, WebParseError
from ..models import SearchParams
from ..net.transport import RequestSpec
from .brave import Brave

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def news_item(result: dict[str, Any]) -> dict[str, Any]:
    """The raw news item of one ``news_result``."""
    return present(
        title=text(result.get("title")),
        url=text(result.get("url")),
        snippet=text(result.get("description")),
        source=text(result.get("source")),
        published_at=text(result.get("page_age")),
        image_url=text(nested(result, "thumbnail", "src")),
    )


def image_item(result: dict[str, Any]) -> dict[str, Any]:
    """The raw image item of one ``image_result``."""
    return present(
        title=text(result.get("title")),
        url=text(result.get("url")),
        image_url=text(nested(result, "properties", "url")),
        thumbnail_url=text(nested(result, "thumbnail", "src")),
        width=whole_number(nested(result, "properties", "width")),
        height=whole_number(nested(result, "properties", "height")),
        source=text(result.get("source")),
    )


def video_item(result: dict[str, Any]) -> dict[str, Any]:
    """The raw video item of one ``video_result``."""
    return present(
        title=text(result.get("title")),
        url=text(result.get("url")),
        snippet=text(result.get("description")),
        published_at=text(result.get("page_age")),
        duration=text(nested(result, "video", "duration")),
        publisher=text(nested(result, "video", "publisher")),
        uploader=text(nested(result, "video", "creator")),
        thumbnail_url=text(nested(result, "thumbnail", "src")),
        view_count=whole_number(nested(result, "video", "views")),
    )


#: How a result of each vertical becomes a raw item.
READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "news": news_item,
    "images": image_item,
    "videos": video_item,
}


class BraveVertical(Brave):
    """What the vertical endpoints share: a flat ``results`` list in an answer whose ``type``
    is the vertical, each result read by its :data:`READERS` entry. Not registered itself (no ``name``)."""

    name = ""
    # Plain text, unlike web search's descriptions (<strong>, &#x27;): the recorded answers for the
    # same query carry a bare "&" and "'", no entity and no highlight.
    text_format = "text"
    results_per_page = None  # ``count`` goes up to 50 (news, videos) or 200 (images): one request holds any call

    results_at = "results"
    result_fields = {}  # each result is read by its READERS entry (item_of)

    def results(self, data: Any, params: SearchParams) -> list[Any]:
        """``results[]`` of an answer whose ``type`` is the vertical (a web answer's reading is not theirs)."""
        if not isinstance(data, dict) or data.get("type") != self.vertical:
            raise WebParseError(
                "brave answered with JSON that is not a %s response" % self.vertical,
                provider=self.name,
                detail_code=UNEXPECTED_SHAPE,
            )
        return JsonApiBackend.results(self, data, params)

    def item_of(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """One result as a raw item, by the vertical's :data:`READERS` entry."""
        return READERS[self.vertical](result)

    def items_from(self, results: Iterable[Any], params: SearchParams) -> list[dict[str, Any]]:
        """Raw items of the results; results none of which has what an item of the vertical is
        known by (an image's image) are ``WebParseError`` (:func:`~..engine.base.listed_results`)."""
        entries = list(results)  # counted before reading: an entry that is no JSON object gives no item
        return listed_results(super().items_from(entries, params), self.vertical, self.name, listed=len(entries))


class BraveNews(BraveVertical):
    """The Brave Search news API."""

    name = "brave"
    vertical = "news"
    summary = "Brave Search news API (needs BRAVE_API_KEY)"
    default_endpoint = "https://api.search.brave.com/res/v1/news/search"


class BraveImages(BraveVertical):
    """The Brave Search image API."""

    name = "brave"
    vertical = "images"
    unsent = ("time_range",)  # image search has no freshness
    summary = "Brave Search image API (needs BRAVE_API_KEY)"
    default_endpoint = "https://api.search.brave.com/res/v1/images/search"

    def build_request(self, params: SearchParams) -> RequestSpec:
        """Web search's request without ``freshness``, ``safesearch`` only ``off`` or ``strict``."""
        spec = super().build_request(params)
        query = dict(spec.params or {})
        query.pop("freshness", None)
        if "safesearch" in query:
            query["safesearch"] = "off" if query["safesearch"] == "off" else "strict"
        return dataclasses.replace(spec, params=query)


class BraveVideos(BraveVertical):
    """The Brave Search video API."""

    name = "brave"
    vertical = "videos"
    #: Brave's video ``count`` goes up to 50: a video search may ask 60 (DuckDuckGo's page), and a call
    #: for more asks 50 and is told (``not_sent``: ``max_results``).
    max_results_limit = 50
    summary = "Brave Search video API (needs BRAVE_API_KEY)"
    default_endpoint = "https://api.search.brave.com/res/v1/videos/search"

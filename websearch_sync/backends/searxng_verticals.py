"""``searxng`` news, images and videos: a SearXNG instance's categories of the same name.

The request is web search's (:mod:`.searxng`) with ``categories`` set to the vertical
(a ``categories`` option adds its names to it), so the instance asks its news, image or
video engines; everything else (its refusals, its engines' failures, cool-downs per
engines/categories asked, ``timeout_limit``) is web search's. What SearXNG's JSON
carries per result depends on the template its engine fills in (``searx/templates/
simple/result_templates/``; ``datetime`` values are ISO 8601, ``timedelta`` values
seconds, by ``searx/webutils.py``'s JSON encoder):

* news (``default.html``): ``title``, ``url``, ``content`` (the snippet),
  ``publishedDate`` (``null`` when the engine gave none: all ten items of the recorded
  answer), ``img_src`` or ``thumbnail`` (the picture; the recorded answer has ``img_src: ""``
  beside a ``thumbnail``), and ``metadata``, free text an engine fills as it likes: SearXNG's
  Bing News engine joins the card's age and publisher with ``" | "`` (``"13 hours ago |
  Barchart on MSN"``, ``"6/13/2023 | The Wall Street Journal"``; ``searx/engines/bing_news.py``),
  its Reuters engine puts a section there (``"World"``). Read by structure
  (:func:`metadata_date_and_source`): the part that is a date is the date (when
  ``publishedDate`` gives none), and the one other part beside it the publisher (``source``);
  metadata without a date names no publisher. No publisher field otherwise.
* images (``images.html``): ``url`` (the page), ``img_src`` (the image),
  ``thumbnail_src``, ``resolution`` (``"700 x 444"``, read as width and height) and
  ``source``.
* videos (``videos.html``): ``url``, ``content``, ``publishedDate``, ``length`` (a
  string such as ``"4:01:40"``, or seconds), ``thumbnail`` and, from some engines,
  ``views`` (a number, or humanised text such as ``"1.2M"``, read as 1200000),
  ``iframe_src`` (the player, from its YouTube engines: ``embed_url``); ``author`` is the
  channel (``uploader``), not the platform, so no ``publisher``.
"""

import dataclasses
from collections.abc import Iterable
from typing import Any, Callable, Optional

from ..engine.base import listed_results
from ..engine.dates import leading_date, month_first
from ..engine.media_fields import first_date, first_picture, pixel_size, present, text, view_count, whole_number
from ..engine.values import reads_as_instant
from ..errors import WebBlocked
from ..models import ErrorInfo, ParseResult, SearchParams
from ..net.deadline import Deadline
from ..net.transport import HttpResponse, HttpTransport, RequestSpec
from .searxng import SearXNG

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def _seconds_or_text(value: Any) -> Any:
    """A duration as SearXNG gives it: seconds (a number) or text (``"4:01:40"``)."""
    if isinstance(value, float) and value >= 0:
        return value
    return whole_number(value) if not isinstance(value, str) else text(value)


def _count(value: Any) -> Optional[int]:
    """A count: an int, or the text some engines humanise it to (``"1.2M"``, read as 1200000)."""
    return whole_number(value) if not isinstance(value, str) else view_count(value)


#: The longest ``metadata`` read (an engine's line of facts, not a text).
_METADATA_CHARS = 300


def metadata_date_and_source(metadata: Any, order: Optional[bool]) -> tuple[Optional[str], Optional[str]]:
    """``(date, publisher)`` of a news result's free-text ``metadata``: its ``|``-separated parts, the
    first that is a date (a slashed one read in ``order``, :func:`leading_date`'s ``month_first``:
    one the order leaves ambiguous is still the date part, unread) and the one other part beside it,
    the publisher. A date is returned as written (an age is resolved against the answer's moment
    by normalisation) or as ``YYYY-MM-DD``; without a date part, or with more than one other
    part, no publisher."""
    if not isinstance(metadata, str) or len(metadata) > _METADATA_CHARS:
        return None, None
    parts = [part.strip() for part in metadata.split("|") if part.strip()]
    for position, part in enumerate(parts):
        is_date, date = _date_part(part, order)
        if is_date:
            others = parts[:position] + parts[position + 1 :]
            return date, others[0] if len(others) == 1 else None
    return None, None


def _date_part(part: str, order: Optional[bool]) -> tuple[bool, Optional[str]]:
    """Whether ``part`` is a date, and its value: a slashed day read in ``order``, else the text as
    :func:`~..engine.values.instant` will read it; a slashed day ``order`` leaves ambiguous
    (``6/10/2023`` without a market) is a date part all the same, without a value."""
    day, rest = leading_date(part, order)
    if day and not rest.strip():
        return True, day
    if reads_as_instant(part):
        return True, part
    either_order = (leading_date(part, True), leading_date(part, False))
    return any(read and not after.strip() for read, after in either_order), None


def news_item(result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
    """The raw news item of one result."""
    date, publisher = metadata_date_and_source(result.get("metadata"), month_first(params.locale))
    return present(
        title=text(result.get("title")),
        url=text(result.get("url")),
        snippet=text(result.get("content")),
        source=publisher,
        published_at=first_date(result.get("publishedDate"), date),
        image_url=first_picture(result.get("img_src"), result.get("thumbnail")),
    )


def image_item(result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
    """The raw image item of one result."""
    size = pixel_size(text(result.get("resolution")))
    return present(
        title=text(result.get("title")),
        url=text(result.get("url")),
        image_url=text(result.get("img_src")),
        thumbnail_url=first_picture(result.get("thumbnail_src"), result.get("thumbnail")),
        width=size[0] if size else None,
        height=size[1] if size else None,
        source=text(result.get("source")),
    )


def video_item(result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
    """The raw video item of one result."""
    return present(
        title=text(result.get("title")),
        url=text(result.get("url")),
        snippet=text(result.get("content")),
        published_at=text(result.get("publishedDate")),
        duration=_seconds_or_text(result.get("length")),
        thumbnail_url=first_picture(result.get("thumbnail"), result.get("thumbnail_src")),
        view_count=_count(result.get("views")),
        embed_url=text(result.get("iframe_src")),
        uploader=text(result.get("author")),
    )


#: How a result of each category becomes a raw item (the call's parameters: its locale's date order).
READERS: dict[str, Callable[[dict[str, Any], SearchParams], dict[str, Any]]] = {
    "news": news_item,
    "images": image_item,
    "videos": video_item,
}


class SearXNGVertical(SearXNG):
    """What the three categories share: web search with the vertical's category added
    to the call's parameters, results read by its :data:`READERS` entry. Not registered
    itself (no ``name``)."""

    name = ""

    def with_category(self, params: SearchParams) -> SearchParams:
        """``params`` whose ``categories`` option starts with the vertical's category."""
        merged = ",".join(dict.fromkeys((self.vertical,) + (self.option(params, "categories") or ())))
        return dataclasses.replace(params, options=dict(params.options, categories=merged))

    def build_request(self, params: SearchParams) -> RequestSpec:
        """Web search's request, ``categories`` including the vertical."""
        return super().build_request(self.with_category(params))

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """Web search's, judged by ``/config`` for the categories this call asks for: the engines a
        time range skipped are those of the vertical's category, not of the instance's default
        ``general`` (which a call naming no category would search)."""
        return super().search(self.with_category(params), transport, deadline)

    def revise_cached(self, params: SearchParams, errors: list[ErrorInfo]) -> list[ErrorInfo]:
        """Web search's, for the categories this call asks for (as :meth:`search` judged them)."""
        return super().revise_cached(self.with_category(params), errors)

    def cooldown_keys(self, params: SearchParams) -> tuple[str, ...]:
        """Web search's keys for the categories this call asks for."""
        return super().cooldown_keys(self.with_category(params))

    def cooldown_key(self, params: SearchParams, error: WebBlocked) -> str:
        """Web search's key for the categories this call asks for."""
        return super().cooldown_key(self.with_category(params), error)

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Web search's parse (engine failures, extras, warnings), items read for the vertical."""
        return super().parse(response, self.with_category(params))

    def items_from(self, results: Iterable[Any], params: SearchParams) -> list[dict[str, Any]]:
        """The vertical's raw items (entries that are not JSON objects are skipped); results none
        of which has what a result of the vertical is known by (an image's ``img_src``) are an
        unknown shape, never "no results" (:func:`~..engine.base.listed_results`)."""
        read = READERS[self.vertical]
        entries = list(results)
        return listed_results(
            [read(result, params) for result in entries if isinstance(result, dict)],
            self.vertical,
            self.name,
            listed=len(entries),
        )


class SearXNGNews(SearXNGVertical):
    """A SearXNG instance's ``news`` category."""

    name = "searxng"
    vertical = "news"
    summary = "SearXNG instance, categories=news (needs SEARXNG_BASE_URL)"


class SearXNGImages(SearXNGVertical):
    """A SearXNG instance's ``images`` category."""

    name = "searxng"
    vertical = "images"
    summary = "SearXNG instance, categories=images (needs SEARXNG_BASE_URL)"


class SearXNGVideos(SearXNGVertical):
    """A SearXNG instance's ``videos`` category."""

    name = "searxng"
    vertical = "videos"
    summary = "SearXNG instance, categories=videos (needs SEARXNG_BASE_URL)"

"""``bing_html`` videos: Bing Videos' tiles (``GET https://www.bing.com/videos/asyncv2?q=…``).

The endpoint Bing Videos' page loads its tiles from, and the one SearXNG's
``searx/engines/bing_videos.py`` reads. Sends ``q``, ``async=content``, ``first`` (1,
36, 71 …) and ``count=35`` (the recorded request), ``mkt`` from a locale with a region,
``form=VRFLTR`` with ``qft=filterui:videoage-lt<minutes>`` for a time range (SearXNG's
values) and ``adlt`` for safe search.

What the recorded answer (2026-08, en-US, 49 tiles) shows:

* Each tile is a ``div.mc_vtvc`` (``id="mc_vtvc_video_<n>"``, inside a ``<noscript>``
  of the fragment). Its ``mmeta`` attribute is JSON with ``murl``/``pgurl`` (the video's
  page) and ``turl`` (Bing's thumbnail); its ``div.vrhdata`` carries more JSON in
  ``vrhm``: ``vt`` (the title) and ``du`` (the duration, ``4:01:40``).
* Below the title, ``span.meta_vc_content`` is the view count as shown (``338.3K
  views``: Bing's rounding, read as 338300), ``span.meta_pd_content`` the upload date
  (``Apr 29, 2024``, read as ``2024-04-29``, or an age, ``2 weeks ago``, kept as a
  relative date), and the next row the platform (``YouTube``: ``publisher``) and the
  channel (``span.mc_vtvc_meta_row_channel``: ``uploader``). Every recorded tile has the date
  and that row, the 20 of the short-video carousel too; two lack the view count. A row a tile
  lacks is a field its item lacks.
* Tiles give no description: items have no ``snippet``.
"""

from typing import Any, Optional

from ..engine.html_parsing import (
    Block,
    PartTest,
    Tag,
    attribute,
    classes,
    has_class,
    leading_date,
    parse_fragment,
    walk_blocks,
)
from ..engine.media_fields import json_object, present, view_count
from ..engine.option import pageno_option
from ..models import SearchParams
from .bing import BingHtml
from .bing_images import PAGE_SIZE, tile_query

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_PARTS: dict[str, PartTest] = {
    "data": lambda tag, inside: tag.name == "div" and has_class(tag, "vrhdata") and bool(tag.get("vrhm")),
    "title": lambda tag, inside: tag.name == "div" and has_class(tag, "mc_vtvc_title"),
    "views": lambda tag, inside: tag.name == "span" and has_class(tag, "meta_vc_content"),
    "date": lambda tag, inside: tag.name == "span" and has_class(tag, "meta_pd_content"),
    "publisher": lambda tag, inside: (
        tag.name == "span" and not classes(tag) and tag.parent is not None and has_class(tag.parent, "mc_vtvc_meta_row")
    ),
    "uploader": lambda tag, inside: tag.name == "span" and has_class(tag, "mc_vtvc_meta_row_channel"),
}


def _is_tile(tag: Tag) -> bool:
    return tag.name == "div" and "mc_vtvc" in classes(tag)


def _json_attribute(tag: Optional[Tag], name: str) -> dict[str, Any]:
    """The JSON object in ``tag``'s attribute ``name`` (``{}`` when absent or not an object)."""
    return json_object(attribute(tag, name)) if tag is not None else {}


def _first_text(*values: Any) -> Optional[str]:
    return next((value.strip() for value in values if isinstance(value, str) and value.strip()), None)


def _item(block: Block) -> Optional[dict[str, Any]]:
    """The raw video item of one tile, or ``None`` without the video's address."""
    tile, data = _json_attribute(block.tag, "mmeta"), _json_attribute(block.parts.get("data"), "vrhm")
    url = _first_text(data.get("pgurl"), data.get("murl"), tile.get("pgurl"), tile.get("murl"))
    if url is None:
        return None
    shown = block.text("date")
    day, _ = leading_date(shown)
    return present(
        title=_first_text(data.get("vt"), block.text("title")),
        url=url,
        published_at=day or shown or None,
        duration=_first_text(data.get("du")),
        publisher=block.text("publisher") or None,
        uploader=block.text("uploader") or None,
        thumbnail_url=_first_text(tile.get("turl")),
        view_count=view_count(block.text("views")),
    )


class BingVideos(BingHtml):
    """Bing Videos, parsed from the tiles its page loads."""

    vertical = "videos"
    options = (pageno_option("35 videos a page whatever max_results is (first)"),)
    unsent = ("locale=language-only",)  # mkt needs a region (docs/backends.md)
    summary = "Bing Videos tiles (videos/asyncv2), no key"
    default_endpoint = "https://www.bing.com/videos/asyncv2"
    results_per_page = PAGE_SIZE  # later pages start (``first``) after the tiles read, as web search's
    region_start = ("mc_vtvc",)
    region_end = ()
    no_results = ()
    detail_field = "duration"

    def query(self, params: SearchParams) -> dict[str, str]:
        """``q``, ``async``, ``first``, ``count``, ``mkt``, ``form``/``qft``, ``adlt``."""
        query = tile_query(params, "content", "videoage")
        if "qft" in query:
            query["form"] = "VRFLTR"  # the filter form's name, sent with its filter
        return query

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The ``div.mc_vtvc`` tiles."""
        blocks = walk_blocks(parse_fragment(markup), _is_tile, _PARTS)
        return [item for item in map(_item, blocks) if item is not None]

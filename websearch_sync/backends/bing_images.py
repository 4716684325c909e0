"""``bing_html`` images: Bing Images' tiles (``GET https://www.bing.com/images/async?q=…``).

The endpoint Bing Images' page loads its tiles from, and the one SearXNG's
``searx/engines/bing_images.py`` and ddgs's ``ddgs/engines/bing_images.py`` read. Sends
``q``, ``first`` (1, 36, 71 …) and ``count=35`` (Bing's own page size, as the recorded
request), ``async=1``, ``mkt`` from a locale with a region, ``qft=filterui:age-lt<minutes>``
for a time range (SearXNG's values) and ``adlt`` for safe search (as web search).

What the recorded fragment (2026-08, en-US, 35 tiles) shows:

* Each tile is a ``div.iuscp``; its ``a.iusc`` carries the result as JSON in its ``m``
  attribute: ``purl`` (the page the image is on), ``murl`` (the image), ``turl`` (Bing's
  thumbnail), ``t`` (the title).
* ``div.img_info > span.nowrap`` is the image's size (``700×444``) and
  ``div.lnkw > a`` the site's name (``linkedin.com``): ``source``.
* A tile whose ``m`` is not JSON, or has no page or image address, is left out; a
  fragment without a usable tile is ``WebParseError`` (no zero-result answer on record).
"""

from typing import Any, Optional

from ..engine.base import page_number
from ..engine.html_parsing import Block, PartTest, Tag, attribute, classes, has_class, parse_fragment, walk_blocks
from ..engine.locales import split_locale
from ..engine.media_fields import json_object, pixel_size, present, text
from ..engine.option import pageno_option
from ..models import SearchParams
from .bing import BingHtml

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Tiles in one answer: Bing Images' own page size.
PAGE_SIZE = 35
#: Age filters in minutes (SearXNG's ``time_map``).
_MINUTES = {"day": 60 * 24, "week": 60 * 24 * 7, "month": 60 * 24 * 31, "year": 60 * 24 * 365}

_PARTS: dict[str, PartTest] = {
    "meta": lambda tag, inside: tag.name == "a" and has_class(tag, "iusc") and bool(tag.get("m")),
    "info": lambda tag, inside: tag.name == "div" and has_class(tag, "img_info"),
    "size": lambda tag, inside: tag.name == "span" and "info" in inside and has_class(tag, "nowrap"),
    "site_box": lambda tag, inside: tag.name == "div" and has_class(tag, "lnkw"),
    "site": lambda tag, inside: tag.name == "a" and "site_box" in inside,
}


def tile_query(params: SearchParams, load: str, age_filter: str) -> dict[str, str]:
    """The query of one page of Bing's image or video tiles: ``async=<load>``, the page's
    ``first`` and ``count``, ``mkt``, ``qft=filterui:<age_filter>-lt<minutes>``, ``adlt``."""
    page = page_number(params, "bing_html")
    query = {"q": params.full_query, "async": load, "first": str((page - 1) * PAGE_SIZE + 1), "count": str(PAGE_SIZE)}
    if params.locale:
        lang, country = split_locale(params.locale)
        if country:
            query["mkt"] = "%s-%s" % (lang, country)
    if params.time_range in _MINUTES:
        query["qft"] = "filterui:%s-lt%d" % (age_filter, _MINUTES[params.time_range])
    if params.safe_search:
        query["adlt"] = params.safe_search
    return query


def _is_tile(tag: Tag) -> bool:
    return tag.name == "div" and "iuscp" in classes(tag)


def _tile_data(block: Block) -> dict[str, Any]:
    """The tile's ``m`` JSON (``{}`` when absent or not a JSON object)."""
    meta = block.parts.get("meta")
    return json_object(attribute(meta, "m")) if meta is not None else {}


def _item(block: Block) -> Optional[dict[str, Any]]:
    """The raw image item of one tile, or ``None`` without a page and an image address."""
    data = _tile_data(block)
    page, image = text(data.get("purl")), text(data.get("murl"))
    if page is None or image is None:
        return None
    size = pixel_size(block.text("size"))
    return present(
        title=text(data.get("t")) or text(data.get("desc")),
        url=page,
        image_url=image,
        thumbnail_url=text(data.get("turl")),
        width=size[0] if size else None,
        height=size[1] if size else None,
        source=block.text("site") or None,
    )


class BingImages(BingHtml):
    """Bing Images, parsed from the tiles its page loads."""

    vertical = "images"
    options = (pageno_option("35 images a page whatever max_results is (first)"),)
    unsent = ("locale=language-only",)  # mkt needs a region (docs/backends.md)
    summary = "Bing Images tiles (images/async), no key"
    default_endpoint = "https://www.bing.com/images/async"
    results_per_page = PAGE_SIZE  # later pages start (``first``) after the tiles read, as web search's
    region_start = ("dgControl_list",)
    region_end = ()
    no_results = ()
    detail_field = "thumbnail_url"

    def query(self, params: SearchParams) -> dict[str, str]:
        """``q``, ``async``, ``first``, ``count``, ``mkt``, ``qft``, ``adlt``."""
        return tile_query(params, "1", "age")

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The ``div.iuscp`` tiles."""
        blocks = walk_blocks(parse_fragment(markup), _is_tile, _PARTS)
        return [item for item in map(_item, blocks) if item is not None]

"""``bing_html`` news: Bing News' result cards (``GET https://www.bing.com/news/infinitescrollajax?q=…``).

The endpoint Bing News' own page loads its cards from while scrolling, and the one
SearXNG's ``searx/engines/bing_news.py`` and ddgs's ``ddgs/engines/bing_news.py`` read.
Sends ``q``, ``InfiniteScroll=1``, ``first`` (1, 11, 21 …: ten cards a page) with
``SFX`` (the page number), as the recorded request did (``first=1&SFX=1``); ``setlang``
and ``cc`` from the locale; ``qft=interval="7|8|9"`` for the past day, week or month
(Bing News' own filters; it has none for a year, so ``time_range="year"`` is not sent).

What the recorded fragment (2026-08, en-US) shows:

* The answer is a bare fragment of ``div.news-card.newsitem`` cards. The card's own
  attributes carry the article (``url``, ``data-title``, ``data-author``: the
  publisher); the snippet is ``div.snippet``, the picture ``a.imagelink > img`` (a
  relative ``/th?id=…`` address on www.bing.com).
* The date is a ``span`` whose ``aria-label`` is the market's short date (``7/28/2022``)
  and whose text the age (``4y``, ``23d``). The slashed date is read in the order the
  page's unambiguous dates show (``7/28/2022`` is month first), else month first for
  an en-US locale and day first for another one; with neither, the age is kept as a
  relative date.
* Links are direct. The Turnstile wall of web search (``bing.TURNSTILE``) is
  recognised here too; no zero-result answer is on record, so a fragment without
  cards is ``WebParseError``.
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
    month_first,
    parse_fragment,
    walk_blocks,
)
from ..engine.locales import split_locale
from ..engine.media_fields import present
from ..engine.option import pageno_option
from ..models import SearchParams
from ..net.urls import browser_join
from .bing import BingHtml

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Bing's own origin: card pictures are relative addresses on it.
BING_ORIGIN = "https://www.bing.com/"
_INTERVALS = {"day": 'interval="7"', "week": 'interval="8"', "month": 'interval="9"'}

_PARTS: dict[str, PartTest] = {
    "link": lambda tag, inside: tag.name == "a" and has_class(tag, "title") and bool(tag.get("href")),
    "snippet": lambda tag, inside: tag.name == "div" and has_class(tag, "snippet"),
    "date": lambda tag, inside: tag.name == "span" and bool(tag.get("aria-label")),
    "imagelink": lambda tag, inside: tag.name == "a" and has_class(tag, "imagelink"),
    "image": lambda tag, inside: tag.name == "img" and "imagelink" in inside and bool(tag.get("src")),
}


def _is_card(tag: Tag) -> bool:
    return tag.name == "div" and "newsitem" in classes(tag)


def _date_order(blocks: list[Block], locale: Optional[str]) -> Optional[bool]:
    """Month first or not: what the page's unambiguous slashed dates show (``7/28/2022``),
    else what the locale's market writes."""
    for block in blocks:
        date = block.parts.get("date")
        parts = attribute(date, "aria-label").split("/") if date is not None else []
        if len(parts) == 3 and all(part.strip().isdecimal() for part in parts):
            first, second = int(parts[0]), int(parts[1])
            if first > 12 >= second:
                return False
            if second > 12 >= first:
                return True
    return month_first(locale)


def _published(block: Block, order: Optional[bool]) -> Optional[str]:
    """The card's date (``YYYY-MM-DD``), else its age as a relative date (``23d``)."""
    date = block.parts.get("date")
    if date is None:
        return None
    day, _ = leading_date(attribute(date, "aria-label"), order)
    return day or block.text("date") or None


def _item(block: Block, order: Optional[bool]) -> Optional[dict[str, Any]]:
    """The raw news item of one card, or ``None`` without an article address."""
    card, link = block.tag, block.parts.get("link")
    url = attribute(card, "url") or attribute(card, "data-url") or (attribute(link, "href") if link else "")
    if not url:
        return None
    image = block.parts.get("image")
    return present(
        title=attribute(card, "data-title") or block.text("link"),
        url=url.strip(),
        snippet=block.text("snippet"),
        source=attribute(card, "data-author") or None,
        published_at=_published(block, order),
        image_url=_image_url(attribute(image, "src")) if image is not None else None,
    )


def _image_url(src: str) -> Optional[str]:
    """A card's picture made absolute as a browser reads its ``src`` (``\\th?id=x`` is ``/th?id=x``
    on Bing's host; ``urljoin`` read ``/%5Cth``), or ``None`` when it names none (``http://[::1``)."""
    try:
        return browser_join(BING_ORIGIN, src)
    except ValueError:
        return None


class BingNews(BingHtml):
    """Bing News, parsed from the cards its page scrolls in."""

    vertical = "news"
    options = (pageno_option("10 cards a page whatever max_results is (first, SFX)"),)
    unsent = ("safe_search", "time_range=year")  # Bing News takes no adlt and has no year filter (docs/backends.md)
    summary = "Bing News cards (infinitescrollajax), no key"
    default_endpoint = "https://www.bing.com/news/infinitescrollajax"
    region_start = ("newsitem",)
    region_end = ()
    no_results = ()
    #: The next ``pageno`` (``first``/``SFX`` move together, ten cards a page, as SearXNG asks),
    #: not web search's count of the results read: a fragment may hold fewer cards.
    first_result_field = None

    def query(self, params: SearchParams) -> dict[str, str]:
        """``q``, ``InfiniteScroll``, ``first``/``SFX``, ``setlang``/``cc``, ``qft``."""
        page = self.option(params, "pageno")
        query = {"q": params.full_query, "InfiniteScroll": "1", "first": str((page - 1) * 10 + 1), "SFX": str(page)}
        if params.locale:
            lang, country = split_locale(params.locale)
            query["setlang"] = lang
            if country:
                query["cc"] = country
        if params.time_range in _INTERVALS:
            query["qft"] = _INTERVALS[params.time_range]
        return query

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The ``div.newsitem`` cards."""
        blocks = walk_blocks(parse_fragment(markup, images=True), _is_card, _PARTS)
        order = _date_order(blocks, params.locale)
        return [item for item in (_item(block, order) for block in blocks) if item is not None]

"""``yahoo_html``: Yahoo's results page (``GET https://search.yahoo.com/search?p=…``).

Sends ``p``, ``b`` (the first result's position) for later pages (option ``pageno``, seven a
page as the 2026 page's own page links count, ``b=8``, ``15``, ``22`` with ``pz=7``; ddgs's
``b`` too; the pages after the call's own start where the page's own "Next" link starts them:
``HtmlEngine.next_page``)
and ``btf=d|w|m`` for a day/week/month time range (the page's own time filter; no
"past year"). Safe search and the locale's language go in Yahoo's ``sB`` preference
cookie (``vm=r|i|p``, ``vl=lang_<xx>``), only when asked for: the parameters and the
cookie SearXNG's ``searx/engines/yahoo.py`` sends (``btf``, ``sB``), ddgs's ``b`` offset.

What the recorded pages (2015 → 2026) show:

* 2015 (de.search.yahoo.com): ``div#web > ol > li > div.res``, title ``h3 > a.yschttl``,
  snippet ``div.abstr``. ``div.res.sc`` blocks are cards of Yahoo's own verticals
  (image and video search), not results; nothing inside a sponsored container
  (``div.ads``, whose entries are ``li.res.rais``) is read.
* 2020 → 2026: ``div.dd.algo.algo-sr`` (with ``Sr``, ``relsrch``, ``richAlgo``,
  ``fst``/``lst`` variants), title in ``div.compTitle``, snippet ``div.compText``. In
  2020 the link is inside the heading (``h3.title > a.ac-algo``); in 2026 the ``<a>``
  wraps a favicon, the site name and the ``h3``: the title is the heading's text only.
* Links go through ``r.search.yahoo.com/…/RU=<percent-encoded target>/RK=…/RS=…``: the
  ``RU`` segment is decoded once. Direct links (the Apr 2026 browser capture) are kept;
  a redirect link without ``RU`` is dropped, never returned as a Yahoo URL.
* A snippet may open with a date (``Apr 14, 2006 · …``): it becomes ``published_at``.
* A page that says "We did not find results for" has no results (the wording seen on
  copies of Yahoo's zero-result page; no recording of one is on file).
"""

from typing import Any, ClassVar, Optional
from urllib.parse import urlencode

from ..engine.html_engine import HtmlEngine
from ..engine.html_parsing import (
    Block,
    PartTest,
    Tag,
    attribute,
    classes,
    dated_item,
    month_first,
    parse_fragment,
    walk_blocks,
)
from ..engine.locales import split_locale
from ..engine.option import pageno_option
from ..models import SearchParams
from ..net.urls import percent_decoded, url_parts

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_TIME_RANGES = {"day": "d", "week": "w", "month": "m"}
_SAFE_SEARCH = {"strict": "r", "moderate": "i", "off": "p"}


def decode_yahoo_href(href: str) -> Optional[str]:
    """The target of a Yahoo result link: ``…/RU=<target>/RK=…`` decoded once, direct links as
    they are, ``None`` for an ``r.search.yahoo.com`` link without ``RU``."""
    href = (href or "").strip()
    split = url_parts(href)
    if split is None:  # a malformed link: kept as it is, normalisation drops it
        return href
    parts, host = split
    if host != "r.search.yahoo.com":
        return href
    _, found, tail = parts.path.partition("/RU=")
    target = tail.split("/", 1)[0] if found else ""
    return percent_decoded(target) or None


def _is_result(tag: Tag) -> bool:
    """True for a result block: ``div.algo`` (2020 →) or ``div.res`` without ``sc`` (2015)."""
    names = classes(tag)
    return tag.name == "div" and ("algo" in names or ("res" in names and "sc" not in names))


def _is_ads(tag: Tag) -> bool:
    """A sponsored container: nothing inside it is read."""
    return "ads" in classes(tag)


#: The parts of a result block read: the heading, a link inside it (2015, 2020) and the
#: snippet (2015 ``abstr``, then ``compText``).
_PARTS: dict[str, PartTest] = {
    "heading": lambda tag, inside: tag.name == "h3",
    "heading_link": lambda tag, inside: tag.name == "a" and "heading" in inside and bool(tag.get("href")),
    "snippet": lambda tag, inside: any(name in ("compText", "abstr") for name in classes(tag)),
}


def _title_link(block: Block) -> Optional[Tag]:
    """The link of the heading: inside it (2015, 2020), else the ``<a>`` around it (2026).

    The walk up from the heading stays inside the block's own elements (a nested block
    holds its own heading), so all blocks' walks together are linear in the page."""
    inner = block.parts.get("heading_link")
    if inner is not None:
        return inner
    heading = block.parts.get("heading")
    for parent in heading.parents if heading is not None else ():
        if parent is block.tag:
            return None
        if parent.name == "a" and parent.get("href"):
            return parent
    return None


def _item(block: Block, order: Optional[bool]) -> Optional[dict[str, Any]]:
    """The item of one result block, or ``None`` without a usable title link."""
    link = _title_link(block)
    url = decode_yahoo_href(attribute(link, "href")) if link is not None else None
    if not url:
        return None
    return dated_item(block.text("heading"), url, block.text("snippet"), order)


class YahooHtml(HtmlEngine):
    """Yahoo web search, parsed from the results page."""

    name = "yahoo_html"
    options = (pageno_option("7 results a page whatever max_results is (b, as the 2026 page's own links count)"),)
    #: Yahoo's btf has no year; its ``vl`` preference is a language (docs/backends.md)
    unsent: ClassVar[tuple[str, ...]] = ("time_range=year", "locale.region")
    auto_rank = 140
    results_per_page = 10  #: the most a page shows (2015, 2020: 10; 2026: 7): fewer than asked reads on
    #: The results a ``pageno`` counts: the 2026 page's links to pages 2, 3, 4 ask ``b=8``, ``15``, ``22`` (``pz=7``)
    pageno_results: ClassVar[int] = 7
    #: Yahoo counts results: the next page starts where the page's "Next" link does (``b=8&pz=7`` after 7)
    first_result_field: ClassVar[Optional[str]] = "b"
    query_field: ClassVar[Optional[str]] = "p"
    summary = "Yahoo results page, no key; decodes RU= redirect links, drops sponsored blocks"
    default_endpoint = "https://search.yahoo.com/search"
    # A full page: #web up to the right column; a bare fragment: from its first block.
    region_start: ClassVar[tuple[str, ...]] = ('id="web"', "algo-sr")
    region_end: ClassVar[tuple[str, ...]] = ('id="right"',)
    no_results = ("We did not find results for",)

    def query(self, params: SearchParams) -> dict[str, str]:
        """``p``, ``b`` (page > 1), ``btf``."""
        query = self.paged_query(params)
        if params.time_range in _TIME_RANGES:
            query["btf"] = _TIME_RANGES[params.time_range]
        return query

    def paged_query(self, params: SearchParams) -> dict[str, str]:
        """``p`` and, for page 2 on, ``b``: the rank of the page's first result (:attr:`pageno_results` a page)."""
        query = {"p": params.full_query}
        page = self.option(params, "pageno")
        if page > 1:
            query["b"] = str((page - 1) * self.pageno_results + 1)
        return query

    def cookies(self, params: SearchParams) -> dict[str, str]:
        """The ``sB`` preference cookie for safe search and language (only when asked for)."""
        preferences = {}
        if params.safe_search:
            preferences["vm"] = _SAFE_SEARCH[params.safe_search]
        if params.locale:
            preferences["vl"] = "lang_" + split_locale(params.locale)[0]
        return {"sB": urlencode(dict(preferences, v="1"))} if preferences else {}

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """Result blocks of both layouts, never Yahoo's own vertical cards or ads."""
        order = month_first(params.locale)
        blocks = walk_blocks(parse_fragment(markup), _is_result, _PARTS, skip=_is_ads)
        return [item for item in (_item(block, order) for block in blocks) if item is not None]

"""``bing_html``: Bing's results page (``GET https://www.bing.com/search?q=…``).

Sends ``q``, ``count`` (= ``max_results``), ``first`` for later pages (option
``pageno``; a page read for depth: the page's own "Next" link's ``first``,
``HtmlEngine.next_page``), ``setlang``/``cc`` from the locale, ``filters=ex1:"ez1|2|3"`` for a
day/week/month time range (Bing's "past year" needs dates: not sent) and ``adlt``
for safe search. The same parameters SearXNG's ``searx/engines/bing.py`` and ddgs's
``ddgs/engines/bing.py`` send (``q``, ``adlt``, the market; ``first`` and the ``ez1..3``
filters as ddgs); headers: those every keyless engine sends (``engine/html_engine.py``).

What the recorded pages (2015 → 2026) show:

* Organic results are ``ol#b_results > li.b_algo`` in every era, the title link is
  ``h2 > a``, the snippet the first ``<p>`` of ``div.b_caption`` (2015: directly in it;
  2020-21: inside ``div.b_snippet``; 2026: ``p.b_lineclamp2|3``). Ads (``li.b_ad``)
  are never read. A zero-result page has ``li.b_no`` ("There are no results for …").
* 2026 pages use unquoted attribute values (``<li class="b_algo" data-id iid=SERP.5318>``)
  and a ``div.b_tpcn`` header whose ``div.tptt`` names the site (the item's ``source``).
* The 2026 en-US page routes every link through
  ``https://www.bing.com/ck/a?!&&p=…&u=a1<base64url(target)>&ntb=1``: the target is the
  ``u`` parameter without ``a1``, base64url-decoded. A ``ck/a`` link that does not decode
  is dropped, never returned as a bing.com URL. Earlier pages link directly.
* A snippet may open with the page's date, ``18.03.2013 · …`` (2015, de),
  ``10/18/2019 · …`` (2020, en-US), ``22/06/2011 · …`` (fr), ``Nov 5, 2012 …``: it
  becomes ``published_at`` and leaves the snippet. Bing writes dates in its market's
  order, so a slashed date such as ``6/10/2016`` is read month first only for an
  ``en-US`` locale, day first for another locale, and not at all without one.
* The bot wall is Cloudflare Turnstile inside a results-page shell ("One last step"):
  :data:`TURNSTILE`, recognised whatever the status.
"""

import base64
import binascii
import re
from typing import Any, ClassVar, Optional
from urllib.parse import parse_qsl

from ..engine.html_engine import HtmlEngine
from ..engine.html_parsing import (
    Block,
    HasClass,
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
from ..engine.unsent import locale_parts_unsent
from ..models import SearchParams
from ..net.botwall import BotWall
from ..net.urls import host_in, url_parts

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Bing's Cloudflare Turnstile challenge ("One last step", recorded with 200 and 403): a
#: results-page shell with ``div.captcha_header`` and the Turnstile widget
#: (``#turnstile-widget``, or the ``challenges.cloudflare.com/turnstile/`` script). Both
#: are needed: a Turnstile widget alone may sit in an ordinary page's form.
_TURNSTILE_BOX = re.compile(r"""<div class=["']?captcha_header\b""")
_TURNSTILE_WIDGET = re.compile(
    r"""<div id=["']?turnstile-widget\b|<script[^>]{0,200}?src=["']?https://challenges\.cloudflare\.com/turnstile/"""
)
TURNSTILE = BotWall(
    "Bing's Cloudflare Turnstile challenge ('One last step')",
    hints=("captcha_header",),  # in both spellings of the box: a rarer string than its literal start
    patterns=(_TURNSTILE_BOX, _TURNSTILE_WIDGET),
)

_FRESHNESS = {"day": 'ex1:"ez1"', "week": 'ex1:"ez2"', "month": 'ex1:"ez3"'}


def decode_bing_href(href: str) -> Optional[str]:
    """The target of a Bing result link: direct links as they are, ``bing.com/ck/a?…&u=a1<base64url>``
    decoded, ``None`` for a ``ck/a`` link without a decodable target."""
    href = (href or "").strip()
    split = url_parts(href)
    if split is None:  # a malformed link: kept as it is, normalisation drops it
        return href
    parts = split[0]
    if not (host_in(href, "bing.com") and parts.path == "/ck/a"):
        return href
    encoded = next((value for key, value in parse_qsl(parts.query) if key == "u"), "")
    if not encoded.startswith("a1"):
        return None
    payload = encoded[2:]
    try:
        target = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):  # not base64, or not UTF-8 text
        return None
    return target or None


#: The parts of an ``li.b_algo`` read: the title link, the caption and its first
#: paragraph (the snippet), the 2026 site name.
_PARTS: dict[str, PartTest] = {
    "link": lambda tag, inside: (
        tag.name == "a" and tag.parent is not None and tag.parent.name == "h2" and bool(tag.get("href"))
    ),
    "caption": HasClass("b_caption"),
    "paragraph": lambda tag, inside: tag.name == "p" and "caption" in inside,
    "site": HasClass("tptt"),
}


def _is_block(tag: Tag) -> bool:
    return tag.name == "li" and "b_algo" in classes(tag)


def _item(block: Block, order: Optional[bool]) -> Optional[dict[str, Any]]:
    """The item of one ``li.b_algo``, or ``None`` for an ad or without a usable title link."""
    link = block.parts.get("link")
    url = decode_bing_href(attribute(link, "href")) if link is not None and "b_ad" not in classes(block.tag) else None
    if not url:
        return None
    item = dated_item(block.text("link"), url, block.text("paragraph"), order)
    site = block.text("site")
    if site:
        item["source"] = site
    return item


class BingHtml(HtmlEngine):
    """Bing web search, parsed from the results page."""

    name = "bing_html"
    options = (pageno_option("max_results results a page (first = (pageno - 1) x max_results + 1)"),)
    unsent: ClassVar[tuple[str, ...]] = ("time_range=year",)  # Bing's freshness filter has no year (docs/backends.md)
    auto_rank = 120
    results_per_page = 10  # whatever count asks; later pages start where the page's "Next" link does
    first_result_field: ClassVar[Optional[str]] = "first"  # Bing counts results
    query_field: ClassVar[Optional[str]] = "q"
    summary = "Bing results page, no key; decodes ck/a redirect links, drops ads"
    default_endpoint = "https://www.bing.com/search"
    region_start: ClassVar[tuple[str, ...]] = ('id="b_results"', "id=b_results")
    region_end: ClassVar[tuple[str, ...]] = ('id="b_context"', "id=b_context", 'id="b_footer"', "id=b_footer")
    no_results: ClassVar[tuple[str, ...]] = ('<li class="b_no"', "<li class=b_no")
    bot_walls = (TURNSTILE,)

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The locale's region when it is no country (``es-419``): ``cc`` takes two letters."""
        return locale_parts_unsent(True, split_locale(params.locale)[1] is not None) if params.locale else ()

    def query(self, params: SearchParams) -> dict[str, str]:
        """``q``, ``count``, ``first`` (page > 1), ``setlang``/``cc``, ``filters``, ``adlt``."""
        query = {"q": params.full_query, "count": str(params.max_results)}
        page = self.option(params, "pageno")
        if page > 1:
            query["first"] = str((page - 1) * params.max_results + 1)
        if params.locale:
            lang, country = split_locale(params.locale)
            query["setlang"] = "%s-%s" % (lang, country) if country else lang
            if country:
                query["cc"] = country
        if params.time_range in _FRESHNESS:
            query["filters"] = _FRESHNESS[params.time_range]
        if params.safe_search:
            query["adlt"] = params.safe_search
        return query

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """``li.b_algo`` blocks (never ``li.b_ad``)."""
        order = month_first(params.locale)
        blocks = walk_blocks(parse_fragment(markup), _is_block, _PARTS)
        return [item for item in (_item(block, order) for block in blocks) if item is not None]

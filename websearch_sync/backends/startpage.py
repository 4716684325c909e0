"""``startpage_html``: Startpage's results page (``GET https://www.startpage.com/sp/search?query=…``).

Startpage shows Google's results without tracking. Sends ``query`` and ``cat=web``,
``page`` with ``segment=startpage.udog`` for the call's page (option ``pageno``; the fields
of the page's own pagination forms), ``qadf=none|moderate|heavy`` for safe search and
``with_date=d|w|m|y`` for a time range (the fields and values SearXNG's
``searx/engines/startpage.py`` @ 9fea412 (2026-08) and ddgs's ``ddgs/engines/startpage.py``
@ a97a4fc (2026-05) send). The locale goes in ``Accept-Language``
only: Startpage guesses the language from it (SearXNG's notes), and its own language
names (``english``, ``deutsch``) need a table this engine does not keep.

SearXNG and ddgs POST the search form with an ``sc`` code scraped from the home page's
form first (SearXNG: "without this argument Startpage considers the request is from a
bot"; it keeps one for an hour); this engine sends the one GET request the recorded
page answered (2026-04, no ``sc``, no second request), so it may meet the captcha
sooner. A later page is what a browser posts: the previous page's own form for it, which
carries the page's ``sc`` (:meth:`StartpageHtml.next_page`). The captcha is a redirect to
``/sp/captcha…`` (SearXNG reads the ``Location`` without following it; ``captcha-block?bc=<country>``
too): :data:`CAPTCHA`, read from the redirect, never followed.

What the recorded pages (2026-04, an HTTP answer and a browser's copy) show:

* ``div.w-gl`` holds one ``div.result`` per result (CSS-in-JS ``css-<hash>`` classes
  beside the stable ones, ``<style>`` blocks inside the links); the title link is
  ``a.result-title`` (``h2.wgl-title`` inside), the snippet ``p.description``, the site
  name ``a.wgl-site-title``. Links are direct. Ads (``div.a-bg-result``) sit outside
  ``div.w-gl``, and the pagination after it.
* A snippet may open with Google's date, ``14 Oct 2023 ... ``: it becomes
  ``published_at`` (:func:`~websearch_sync.engine.html_parsing.dated_item`; SearXNG's
  ``_parse_published_date`` reads the same form).
* No zero-result page is on record: such a page is reported as ``WebParseError``
  (``unexpected_shape``) rather than guessed at.
"""

import dataclasses
from typing import Any, ClassVar, Optional

from ..engine.base import Page, page_number
from ..engine.html_engine import HtmlEngine
from ..engine.html_parsing import (
    Block,
    PartTest,
    Tag,
    attribute,
    classes,
    dated_item,
    has_class,
    parse_fragment,
    walk_blocks,
)
from ..engine.option import pageno_option
from ..engine.page_forms import form_post, page_forms, with_own_fields
from ..models import SearchParams
from ..net.botwall import BotWall
from ..net.transport import RequestSpec
from ..net.urls import host_in, url_parts

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def is_captcha_url(url: str) -> bool:
    """True for Startpage's captcha address (``www.startpage.com/sp/captcha…``)."""
    split = url_parts(url)
    return split is not None and host_in(url, "startpage.com") and split[0].path.startswith("/sp/captcha")


#: Startpage's captcha: a redirect of the search to ``/sp/captcha`` (or ``/sp/captcha-block``).
CAPTCHA = BotWall("Startpage's captcha (redirect to /sp/captcha)", address=is_captcha_url)

_SAFE_SEARCH = {"off": "none", "moderate": "moderate", "strict": "heavy"}
_TIME_RANGES = {"day": "d", "week": "w", "month": "m", "year": "y"}

#: The parts of a ``div.result`` read: the title link, the snippet and the site name.
_PARTS: dict[str, PartTest] = {
    "link": lambda tag, inside: tag.name == "a" and has_class(tag, "result-title") and bool(tag.get("href")),
    "snippet": lambda tag, inside: tag.name == "p" and has_class(tag, "description"),
    "site": lambda tag, inside: tag.name == "a" and has_class(tag, "wgl-site-title"),
}


def _is_block(tag: Tag) -> bool:
    return tag.name == "div" and "result" in classes(tag)


def _item(block: Block) -> Optional[dict[str, Any]]:
    """The item of one ``div.result``, or ``None`` without a title link."""
    link = block.parts.get("link")
    if link is None:
        return None
    item = dated_item(block.text("link"), attribute(link, "href").strip(), block.text("snippet"))
    if block.text("site"):
        item["source"] = block.text("site")
    return item


class StartpageHtml(HtmlEngine):
    """Startpage web search (Google's results), parsed from the results page."""

    name = "startpage_html"
    options = (
        pageno_option(
            "Startpage's own page whatever max_results is (page; 10 web results, 50 images on the recorded pages)"
        ),
    )
    unsent: ClassVar[tuple[str, ...]] = ("locale",)  # the locale goes in Accept-Language only (docs/backends.md)
    #: Fewer distinct results than asked: the page's own form for the next page (:meth:`next_page`).
    results_per_page: ClassVar[Optional[int]] = 10
    summary = "Startpage results page (Google's results, private), no key"
    default_endpoint = "https://www.startpage.com/sp/search"
    follow_redirects = False  # the captcha is a redirect: read it, never follow it
    region_start = ('class="w-gl ', 'class="w-gl"')
    region_end = ('id="gcsa-bottom"', 'class="pagination')
    bot_walls = (CAPTCHA,)

    def query(self, params: SearchParams) -> dict[str, str]:
        """``query``, ``cat``, ``page``/``segment`` (page > 1), ``qadf``, ``with_date``."""
        query = {"query": params.full_query, "cat": "web"}
        page = self.option(params, "pageno")
        if page > 1:
            query["page"] = str(page)
            query["segment"] = "startpage.udog"
        if params.safe_search:
            query["qadf"] = _SAFE_SEARCH[params.safe_search]
        if params.time_range:
            query["with_date"] = _TIME_RANGES[params.time_range]
        return query

    def next_page(self, params: SearchParams, page: Page) -> Optional[RequestSpec]:
        """The previous page's own form for the next page (its ``page`` field that number; the
        "go to page 2" and "Next" forms are one), posted as a browser posts it: with the ``sc``
        code the page carries, which SearXNG notes Startpage asks of a request it takes for a
        person's, and with the call's own fields as its request for that page sends them (its
        query, ``cat``, ``page``, safe search and time range), whatever the form carries or lacks:
        :func:`~websearch_sync.engine.page_forms.with_own_fields`. ``None`` without one (the last page)."""
        number = page_number(params, self.name) + page.number - 1
        # the page forms carry ``query`` and ``page`` (the settings form too, with page 0)
        form = next(
            (
                form
                for form in page_forms(page.previous.text)
                if form.first("query") is not None and form.first("page") == str(number)
            ),
            None,
        )
        if form is None:
            return None
        # the call's own fields (query, category, page, safe search, time range) as its request for
        # that page sends them, whatever the form says or lacks
        own = self.query(dataclasses.replace(params, options=dict(params.options, pageno=number)))
        form = with_own_fields(form, own)
        return form_post(form, self.endpoint_url(), self.headers(params), self.name, self.follow_redirects)

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The ``div.result`` blocks of ``div.w-gl``."""
        blocks = walk_blocks(parse_fragment(markup), _is_block, _PARTS)
        return [item for item in map(_item, blocks) if item is not None]

"""``ddg_html`` and ``ddg_lite``: DuckDuckGo's server-rendered HTML and Lite pages.

The request is what a browser sends when the search form of DDG's no-JS page is
submitted (the forms of the recorded pages, and SearXNG's 2025-2026
``searx/engines/duckduckgo.py``): ``POST`` to the endpoint with its trailing slash
(``/html/``, ``/lite/``: the forms' ``action``), the form's fields in order, empty when
not chosen: HTML ``q``, ``b`` (the named search button), ``kl`` (region select), ``df``
(time select); Lite ``q``, ``kl``, ``df``. DDG keeps its settings in cookies named like
its parameters: ``kl`` and ``df`` when chosen (as SearXNG sends them) and ``kp`` for safe
search (no form field). A same-origin form post: ``Origin``, ``Referer`` = the origin
(DDG sets ``Referrer-Policy: origin``), ``Sec-Fetch-Site: same-origin``,
``Content-Type: application/x-www-form-urlencoded``. No ``pageno``: DDG serves page 2
only to a form carrying the ``vqd`` token of page 1 (SearXNG: asking without it gets the
address blocked). A call whose pages gave fewer distinct results than asked reads the next pages as a
browser pressing "Next" does: it posts the "Next" form of the page before, every named
field as the page carries it (``q``, ``s``, ``nextParams``, ``v``, ``o``, ``dc``, ``api``,
``vqd``, ``kl``) but ``q``, the call's own query, to the form's action on the same origin
(:func:`next_form`); never a made-up token. Both endpoints read the page. Either endpoint may answer with either template, so one parser
reads both: HTML (``div.result`` blocks with ``a.result__a``) and Lite (table rows
with ``a.result-link`` and ``td.result-snippet``). Links come direct, as
``//duckduckgo.com/l/?uddg=<target>`` or as ``/l/?kh=-1&uddg=<target>``; the
``uddg`` parameter is decoded exactly once. Ads (``result--ad``,
``result-sponsored``, ``duckduckgo.com/y.js`` links) are dropped. The "anomaly"
bot challenge (:data:`ANOMALY`) is recognised from the body whatever the status.
"""

import re
from typing import Any, Optional

from ..config import Settings
from ..engine import registry
from ..engine.base import Page
from ..engine.class_blocks import Below, ClassedTag, UnclassedTag
from ..engine.html_engine import HtmlEngine
from ..engine.html_parsing import (
    HasClass,
    PartTest,
    attribute,
    classes,
    elements,
    iso_datetime,
    parse_fragment,
    region,
    text_of,
    walk_blocks,
)
from ..engine.page_forms import PageForm, form_post, page_forms, with_own_fields
from ..models import SearchParams
from ..net.botwall import BotWall
from ..net.transport import RequestSpec
from ..net.urls import host_in, percent_decoded, url_parts
from .ddg_regions import ddg_region, region_dropped

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_TIME_RANGES = {"day": "d", "week": "w", "month": "m", "year": "y"}
_SAFE_SEARCH = {"strict": "1", "moderate": "-1", "off": "-2"}
#: The anomaly page ("Unfortunately, bots use DuckDuckGo too."): the ``anomaly-modal``
#: markup and a form posting to ``anomaly.js``; served with HTTP 200, 202 or 403
#: (recorded: fixtures/ddg_html blocked cases). Quotes included: a query echoed in a
#: results page is HTML-escaped and cannot produce them.
ANOMALY = BotWall(
    "DuckDuckGo anomaly (bot check) page",
    hints=('class="anomaly-modal', 'action="//duckduckgo.com/anomaly.js', "action='//duckduckgo.com/anomaly.js"),
)
_NO_RESULTS_MARKERS = ('class="no-results"', "result--no-result", "No more results.", "No results.")
_HTML_START = ('id="links"', "id='links'")
_HTML_END = ('class="nav-link"', 'id="bottom_spacing2"')
_HTML_FIELDS = ("result__a", "result__snippet", "result__extras__url")
# Per-result elements no field is read from (favicon link, display URL, float clear;
# Lite: display URL, numbering and spacer cells). Cut from the text before parsing:
# every element costs tree-building time. A variant they miss is only parsed slower.
# (Linear time: the icon's scan stops at the next <span or </span, the URL tag's at the next < or >.)
_HTML_SKIP = re.compile(
    r"""<span class="result__icon">[^<]*(?:<(?!/?span\b)[^<]*)*</span>|<a class="result__url"[^<>]*>[^<]*</a>|<div class="clear"></div>"""
)
_LITE_SKIP = re.compile(
    r"""<span class=['"]link-text['"]>[^<]*</span>|<td(?: valign=['"]top['"])?>(?:\s|&nbsp;|\d+\.)*</td>"""
)
_LITE_MARKERS = ("class='result-link'", 'class="result-link"')


#: How DuckDuckGo writes nearly every result link (``//duckduckgo.com/l/?uddg=...&rut=...``, read
#: as https): its query is read without splitting the URL (5 us a link on a page not seen before),
#: as urlsplit reads it when the link holds none of the characters urlsplit drops (tabs and line
#: breaks: such a link, which no page has shown, is split as before).
_REDIRECT_LINK = "https://duckduckgo.com/l/?"
#: How nearly every result link starts, its target the first parameter: read at once, as the query
#: below reads it (``tests/unit/backends/test_ddg_links.py`` holds the two equal).
_TARGET_FIRST = "//duckduckgo.com/l/?uddg="
#: The path of DuckDuckGo's ad links (``duckduckgo.com/y.js?...``).
_AD_PATH = "/y.js"


def _read_as_written(href: str) -> bool:
    """Whether urlsplit reads ``href`` as it is written: it drops every tab and line break (``\t``,
    ``\r``, ``\n``) and, before the scheme, control characters and spaces, which a link starting
    with :data:`_TARGET_FIRST` or :data:`_REDIRECT_LINK` has none of; any other character it keeps
    where it is (a ``str.find`` each, where ``isprintable`` read every character)."""
    return "\t" not in href and "\n" not in href and "\r" not in href


def decode_ddg_href(href: str) -> str:
    """The target of a DuckDuckGo result link.

    Direct links are returned as they are; ``//duckduckgo.com/l/?uddg=...`` and
    relative ``/l/?kh=-1&uddg=...`` redirect links give their ``uddg`` parameter,
    percent-decoded exactly once (a second decoding would corrupt targets that
    contain ``%2B``, ``%26`` or ``%25``).
    """
    href = (href or "").strip()
    if href.startswith(_TARGET_FIRST) and _read_as_written(href):  # what the general reading below gives it
        value = href[len(_TARGET_FIRST) :].partition("&")[0].partition("#")[0]
        if value:
            return percent_decoded(value)
    if href.startswith("//"):
        href = "https:" + href
    elif href.startswith("/"):
        href = "https://duckduckgo.com" + href
    if href.startswith(_REDIRECT_LINK) and _read_as_written(href):  # no tab or line break, which urlsplit drops
        query = href[len(_REDIRECT_LINK) :].partition("#")[0]  # what urlsplit reads of it, without its work
    else:
        parsed = url_parts(href)
        if parsed is None:  # a malformed link (``http://[``): kept as it is, normalisation drops it
            return href
        parts = parsed[0]
        if not (host_in(href, "duckduckgo.com") and parts.path.rstrip("/") == "/l"):
            return href
        query = parts.query
    for pair in query.split("&"):
        key, _, value = pair.partition("=")
        if key == "uddg" and value:
            return percent_decoded(value)
    return href


def _is_ad(url: str) -> bool:
    if _AD_PATH not in url:  # no URL whose path is it (the usual result: not split to see)
        return False
    parsed = url_parts(url)  # None for a malformed link: not an ad (normalisation drops it)
    return parsed is not None and host_in(url, "duckduckgo.com") and parsed[0].path == _AD_PATH


def _is_eof(title: str, url: str) -> bool:
    """DDG's fake result on a zero-result page: "EOF", linking to a Google search."""
    return title.strip() == "EOF" and "google.com/search" in url


def _result(title: str, href: str, snippet: str, stamp: str) -> dict[str, Any]:
    item = {"title": title, "url": decode_ddg_href(href), "snippet": snippet}
    published = iso_datetime(stamp) if stamp else None
    if published:
        item["published_at"] = published
    return item


def _keep(item: dict[str, Any]) -> tuple[bool, bool]:
    """(keep the item, it is the EOF marker)."""
    if not item["url"] or _is_ad(item["url"]):
        return False, False
    if _is_eof(item["title"], item["url"]):
        return False, True
    return True, False


#: A result block: ``div.result`` (declared, so that the blocks are found without the per-element walk:
#: :mod:`.class_blocks`).
_is_html_block = ClassedTag("div", "result")

#: The parts of a ``div.result`` read; the date is an unclassed span in ``.result__extras__url``
#: (after the icon and the display URL).
_HTML_PARTS: dict[str, PartTest] = {
    **{name: HasClass(name) for name in _HTML_FIELDS},
    "stamp": Below("result__extras__url", UnclassedTag("span")),
}


def _parse_html_template(markup: str) -> tuple[list[dict[str, Any]], bool]:
    """``div.result`` blocks: ``a.result__a``, ``.result__snippet``, a date span in ``.result__extras__url``."""
    items: list[dict[str, Any]] = []
    eof = False
    for block in walk_blocks(parse_fragment(_HTML_SKIP.sub("", markup)), _is_html_block, _HTML_PARTS):
        link = block.parts.get("result__a")
        if link is None:
            continue
        names = classes(block.tag)
        if "result--ad" in names or "result--no-result" in names:
            continue
        item = _result(
            block.text("result__a"), attribute(link, "href"), block.text("result__snippet"), block.text("stamp")
        )
        keep, is_eof = _keep(item)
        eof = eof or is_eof
        if keep:
            items.append(item)
    return items, eof


def _lite_result(row: dict[str, Any]) -> dict[str, Any]:
    """The item of one Lite row (its link, snippet and timestamp elements)."""
    return _result(text_of(row["link"]), attribute(row["link"], "href"), text_of(row["snippet"]), text_of(row["stamp"]))


def _parse_lite_template(markup: str) -> tuple[list[dict[str, Any]], bool]:
    """Table rows: ``a.result-link`` starts a result; the next rows hold
    ``td.result-snippet`` and ``span.timestamp``; ``result-sponsored`` marks ads."""
    rows: list[dict[str, Any]] = []
    current: Optional[dict[str, Any]] = None
    sponsored = False
    for tag in elements(parse_fragment(_LITE_SKIP.sub("", markup))):
        names = classes(tag)
        if tag.name == "tr":
            sponsored = "result-sponsored" in names
        elif "result-sponsored" in names:
            sponsored = True
        if "result-link" in names:
            current = {"link": tag, "snippet": None, "stamp": None, "sponsored": sponsored}
            rows.append(current)
        elif current is not None and "result-snippet" in names and current["snippet"] is None:
            current["snippet"] = tag
        elif current is not None and "timestamp" in names and current["stamp"] is None:
            current["stamp"] = tag
    items: list[dict[str, Any]] = []
    eof = False
    for row in rows:
        item = _lite_result(row)
        keep, is_eof = _keep(item)
        eof = eof or is_eof
        if keep and not row["sponsored"]:
            items.append(item)
    return items, eof


def _lite_region(text: str) -> Optional[str]:
    first = min((i for i in (text.find(m) for m in _LITE_MARKERS) if i >= 0), default=-1)
    if first < 0:
        return None
    last = max(text.rfind(m) for m in _LITE_MARKERS)
    begin = text.rfind("<table", 0, first)
    end = text.find("</table>", last)
    return text[max(begin, 0) : end if end >= 0 else len(text)]


def parse_ddg_page(text: str, provider: str = "ddg_html") -> list[dict[str, Any]]:
    """Raw items of a DuckDuckGo HTML or Lite results page (pure), as ``provider`` reads it.

    Returns ``[]`` for a page that says there are no (more) results (including
    DDG's fake "EOF" result); raises ``WebParseError`` for a page with neither
    results nor such a notice.
    """
    engine = registry.backend_class(provider)(Settings())
    assert isinstance(engine, _DuckDuckGo), provider
    return engine.read_page(text, SearchParams(query="page", max_results=10))


#: The hidden fields that make a form of the results page a page form ("Next" or "Previous").
_PAGE_FORM_FIELDS = ("s", "vqd")


def next_form(text: str) -> Optional[PageForm]:
    """The "Next" form of a DuckDuckGo HTML or Lite page (its action and entries, as a browser
    sends them: :func:`~websearch_sync.engine.page_forms.page_forms`), or ``None`` when the page
    has none (its last page).

    Found by structure, whatever the language of its button: of the forms carrying the page
    fields (``s``, ``vqd``), the one going furthest (the greatest ``s``; a "Previous" form goes
    back).
    """
    best: Optional[tuple[int, PageForm]] = None
    for form in page_forms(text):
        offset = form.first("s") or ""
        if all(form.first(name) for name in _PAGE_FORM_FIELDS) and offset.isdigit():
            if best is None or int(offset) > best[0]:
                best = (int(offset), form)
    return best[1] if best is not None else None


class _DuckDuckGo(HtmlEngine):
    """What both DuckDuckGo endpoints share: the form, the anomaly wall, the parser of both templates."""

    max_query_chars = 500  # DDG refuses queries of 500+ characters
    options = ()
    unsent = ("locale=language-only",)  # kl is a region (docs/backends.md)
    method = "POST"
    results_per_page = 10  # a "Next" form after 10 (Lite, HTML) to 30 (older HTML) results
    bot_walls = (ANOMALY,)
    no_results = _NO_RESULTS_MARKERS

    #: The fields of the page's search form, in order (a submit button with a name sends it).
    form_fields: tuple[str, ...] = ("q", "kl", "df")

    def query(self, params: SearchParams) -> dict[str, str]:
        """The search form as a browser submits it: every field, ``kl`` region and ``df`` time
        range empty when not chosen (the selects' first option)."""
        chosen = {
            "q": params.full_query,
            "kl": ddg_region(params.locale) or "",
            "df": _TIME_RANGES[params.time_range] if params.time_range else "",
        }
        return {name: chosen.get(name, "") for name in self.form_fields}

    def dropped(self, params: SearchParams) -> tuple[str, ...]:
        """The locale, when DuckDuckGo lists no region for it (:func:`~.ddg_regions.region_dropped`)."""
        return region_dropped(params.locale)

    def cookies(self, params: SearchParams) -> dict[str, str]:
        """DDG keeps its settings in cookies named like its URL parameters: ``kl`` and ``df``
        as chosen in the form, ``kp`` for safe search (not a form field)."""
        form = self.query(params)
        cookies = {name: form[name] for name in ("kl", "df") if form.get(name)}
        if params.safe_search:
            cookies["kp"] = _SAFE_SEARCH[params.safe_search]
        return cookies

    def results_region(self, text: str) -> Optional[str]:
        """``#links`` (the HTML template), else the table of Lite results."""
        markup = region(text, _HTML_START, _HTML_END)
        return markup if markup is not None else _lite_region(text)

    def region_items(self, markup: str, params: SearchParams) -> tuple[list[dict[str, Any]], bool]:
        """Items of either template, and whether DDG's "EOF" result said there are no more."""
        if any(marker in markup for marker in _HTML_START):
            return _parse_html_template(markup)
        return _parse_lite_template(markup)

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """Items of the results region (either template)."""
        return self.region_items(markup, params)[0]

    def next_page(self, params: SearchParams, page: Page) -> Optional[RequestSpec]:
        """The previous page's "Next" form as a browser submits it (:func:`next_form`), with the
        call's own query (a form carrying another would fetch another search's page 2), posted to
        its action on the endpoint's origin; ``None`` without one (the last page).

        A form aimed at another origin or at no http(s) URL is not followed (the token and the
        pace are this origin's) and is no last page either: ``WebParseError``, which leaves the
        pages read, as for the ``next`` of DuckDuckGo's JSON answers."""
        form = next_form(page.previous.text)
        if form is None:
            return None
        form = with_own_fields(form, {"q": params.full_query})
        return form_post(form, self.endpoint_url(), self.headers(params), self.name, self.follow_redirects)


class DuckDuckGoHtml(_DuckDuckGo):
    """DuckDuckGo's HTML endpoint (``html.duckduckgo.com/html/``)."""

    name = "ddg_html"
    auto_rank = 110
    summary = "DuckDuckGo HTML endpoint, no key; decodes uddg links, drops ads"
    default_endpoint = "https://html.duckduckgo.com/html/"
    form_fields = ("q", "b", "kl", "df")  # "b": the search button, named, value ""


class DuckDuckGoLite(_DuckDuckGo):
    """DuckDuckGo's Lite endpoint (``lite.duckduckgo.com/lite/``)."""

    name = "ddg_lite"
    auto_rank = 150
    summary = "DuckDuckGo Lite endpoint, no key; same rules as ddg_html"
    default_endpoint = "https://lite.duckduckgo.com/lite/"

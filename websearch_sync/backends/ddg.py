"""``ddg_html`` and ``ddg_lite``: DuckDuckGo's server-rendered HTML and Lite pages.

Both POST a form (``q``, plus ``kl`` region, ``df`` time range, ``kp`` safe search)
and read a page. Either endpoint may answer with either template, so one parser
reads both: HTML (``div.result`` blocks with ``a.result__a``) and Lite (table rows
with ``a.result-link`` and ``td.result-snippet``). Links come direct, as
``//duckduckgo.com/l/?uddg=<target>`` or as ``/l/?kh=-1&uddg=<target>``; the
``uddg`` parameter is decoded exactly once. Ads (``result--ad``,
``result-sponsored``, ``duckduckgo.com/y.js`` links) are dropped. The "anomaly"
bot challenge is recognised from the body whatever the status.
"""

import re
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import unquote, urlsplit

from bs4 import Tag

from ..errors import WebBlocked, WebParseError, WebSearchError
from ..net.transport import HttpResponse, RequestSpec
from ..models import ParseResult, SearchParams
from ..net.botwall import is_ddg_challenge
from .base import Backend
from .html_parsing import PartTest, classes, elements, has_class, iso_datetime, parse_fragment, region, text_of, walk_blocks

__all__ = ["DuckDuckGoHtml", "DuckDuckGoLite", "decode_ddg_href", "parse_ddg_page"]

_TIME_RANGES = {"day": "d", "week": "w", "month": "m", "year": "y"}
_SAFE_SEARCH = {"strict": "1", "moderate": "-1", "off": "-2"}
# Structural markers of the anomaly page (quotes included: a query echoed in a
# results page is HTML-escaped and cannot produce them).
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
_LITE_SKIP = re.compile(r"""<span class=['"]link-text['"]>[^<]*</span>|<td(?: valign=['"]top['"])?>(?:\s|&nbsp;|\d+\.)*</td>""")
_LITE_MARKERS = ("class='result-link'", 'class="result-link"')


def decode_ddg_href(href: str) -> str:
    """The target of a DuckDuckGo result link.

    Direct links are returned as they are; ``//duckduckgo.com/l/?uddg=...`` and
    relative ``/l/?kh=-1&uddg=...`` redirect links give their ``uddg`` parameter,
    percent-decoded exactly once (a second decoding would corrupt targets that
    contain ``%2B``, ``%26`` or ``%25``).
    """
    href = (href or "").strip()
    if href.startswith("//"):
        href = "https:" + href
    elif href.startswith("/"):
        href = "https://duckduckgo.com" + href
    try:
        parts = urlsplit(href)
        host = (parts.hostname or "").lower()
    except ValueError:  # a malformed link (``http://[``): kept as it is, normalisation drops it
        return href
    if (host == "duckduckgo.com" or host.endswith(".duckduckgo.com")) and parts.path.rstrip("/") == "/l":
        for pair in parts.query.split("&"):
            key, _, value = pair.partition("=")
            if key == "uddg" and value:
                return unquote(value)
    return href


def _is_ad(url: str) -> bool:
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:  # malformed: not an ad link (normalisation drops it)
        return False
    return (host == "duckduckgo.com" or host.endswith(".duckduckgo.com")) and parts.path == "/y.js"


def _is_eof(title: str, url: str) -> bool:
    """DDG's fake result on a zero-result page: "EOF", linking to a Google search."""
    return title.strip() == "EOF" and "google.com/search" in url


def _result(title: str, href: str, snippet: str, stamp: str) -> Dict[str, Any]:
    item = {"title": title, "url": decode_ddg_href(href), "snippet": snippet}
    published = iso_datetime(stamp) if stamp else None
    if published:
        item["published_at"] = published
    return item


def _keep(item: Dict[str, Any]) -> Tuple[bool, bool]:
    """(keep the item, it is the EOF marker)."""
    if not item["url"] or _is_ad(item["url"]):
        return False, False
    if _is_eof(item["title"], item["url"]):
        return False, True
    return True, False


def _is_html_block(tag: Tag) -> bool:
    return tag.name == "div" and "result" in classes(tag)


#: The parts of a ``div.result`` read; the date is an unclassed span in ``.result__extras__url``
#: (after the icon and the display URL).
_HTML_PARTS: Dict[str, PartTest] = {
    **{name: (lambda tag, inside, name=name: name in classes(tag)) for name in _HTML_FIELDS},
    "stamp": lambda tag, inside: tag.name == "span" and not classes(tag) and "result__extras__url" in inside,
}


def _parse_html_template(markup: str) -> Tuple[List[Dict[str, Any]], bool]:
    """``div.result`` blocks: ``a.result__a``, ``.result__snippet``, a date span in ``.result__extras__url``."""
    items: List[Dict[str, Any]] = []
    eof = False
    for block in walk_blocks(parse_fragment(_HTML_SKIP.sub("", markup)), _is_html_block, _HTML_PARTS):
        link = block.parts.get("result__a")
        if link is None or has_class(block.tag, "result--ad") or has_class(block.tag, "result--no-result"):
            continue
        item = _result(block.text("result__a"), link.get("href") or "", block.text("result__snippet"), block.text("stamp"))
        keep, is_eof = _keep(item)
        eof = eof or is_eof
        if keep:
            items.append(item)
    return items, eof


def _lite_result(row: Dict[str, Any]) -> Dict[str, Any]:
    """The item of one Lite row (its link, snippet and timestamp elements)."""
    return _result(text_of(row["link"]), row["link"].get("href") or "", text_of(row["snippet"]), text_of(row["stamp"]))


def _parse_lite_template(markup: str) -> Tuple[List[Dict[str, Any]], bool]:
    """Table rows: ``a.result-link`` starts a result; the next rows hold
    ``td.result-snippet`` and ``span.timestamp``; ``result-sponsored`` marks ads."""
    rows: List[Dict[str, Any]] = []
    current: Optional[Dict[str, Any]] = None
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
    items: List[Dict[str, Any]] = []
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


def parse_ddg_page(text: str, provider: str) -> List[Dict[str, Any]]:
    """Raw items of a DuckDuckGo HTML or Lite results page (pure).

    Returns ``[]`` for a page that says there are no (more) results (including
    DDG's fake "EOF" result); raises ``WebParseError`` for a page with neither
    results nor such a notice.
    """
    markup = region(text, _HTML_START, _HTML_END)
    if markup is not None:
        items, eof = _parse_html_template(markup)
    else:
        markup = _lite_region(text)
        items, eof = _parse_lite_template(markup) if markup is not None else ([], False)
    if items or eof or any(marker in text for marker in _NO_RESULTS_MARKERS):
        return items
    raise WebParseError(
        "%s answered with a page that has neither results nor a no-results notice" % provider,
        provider=provider,
        detail_code="unexpected_shape",
    )


def ddg_region(locale: Optional[str]) -> Optional[str]:
    """DDG's ``kl`` region for a locale: ``en-US`` -> ``us-en`` (``None`` without a country)."""
    if not locale:
        return None
    parts = locale.replace("_", "-").split("-")
    if len(parts) < 2:
        return None
    return "%s-%s" % (parts[-1].lower(), parts[0].lower())


class _DuckDuckGo(Backend):
    """What both DuckDuckGo endpoints share: the form, the headers, the challenge, the parser."""

    kind = "html"
    text_format = "text"  # read from the parsed DOM: entities decoded, tags gone
    max_query_chars = 500  # DDG refuses queries of 500+ characters
    min_interval_s = 1.0  # a scraper: one request a second keeps clear of the anomaly page

    def build_request(self, params: SearchParams) -> RequestSpec:
        """POST the search form, with the headers a browser on DDG's own page sends."""
        form = {"q": params.full_query}
        region_code = ddg_region(params.locale)
        if region_code:
            form["kl"] = region_code
        if params.time_range:
            form["df"] = _TIME_RANGES[params.time_range]
        if params.safe_search:
            form["kp"] = _SAFE_SEARCH[params.safe_search]
        url = self.endpoint_url()
        parts = urlsplit(url)
        headers = {
            "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            "Accept-Language": "en-US,en;q=0.9",
            "Referer": "%s://%s/" % (parts.scheme, parts.netloc),
        }
        return RequestSpec("POST", url, data=form, headers=headers)

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """The anomaly page is a block, whether served with 200, 202 or 403."""
        if is_ddg_challenge(response.text):
            return WebBlocked(
                "DuckDuckGo answered with its bot challenge (HTTP %d)" % response.status,
                provider=self.name,
                detail_code="captcha_required",
                status=response.status,
            )
        return None

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items of the HTML or Lite page."""
        return ParseResult(items=parse_ddg_page(response.text, self.name))

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> Dict[str, bool]:
        """Landmarks: no challenge page, the results region (``#links`` or the Lite
        table) found, result links parsed (or a no-results notice), snippets found."""
        text = response.text
        try:
            items: Optional[List[Dict[str, Any]]] = parse_ddg_page(text, self.name)
        except WebParseError:
            items = None
        return {
            "not_blocked": not is_ddg_challenge(text),
            "results_region": region(text, _HTML_START, _HTML_END) is not None or _lite_region(text) is not None,
            "result_links": items is not None,
            "snippets": not items or any(item["snippet"] for item in items),
        }


class DuckDuckGoHtml(_DuckDuckGo):
    """DuckDuckGo's HTML endpoint (``html.duckduckgo.com/html/``)."""

    name = "ddg_html"
    auto_rank = 110
    summary = "DuckDuckGo HTML endpoint, no key; decodes uddg links, drops ads"
    default_endpoint = "https://html.duckduckgo.com/html/"


class DuckDuckGoLite(_DuckDuckGo):
    """DuckDuckGo's Lite endpoint (``lite.duckduckgo.com/lite/``)."""

    name = "ddg_lite"
    auto_rank = 150
    summary = "DuckDuckGo Lite endpoint, no key; same rules as ddg_html"
    default_endpoint = "https://lite.duckduckgo.com/lite/"

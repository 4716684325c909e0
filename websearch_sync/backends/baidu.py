"""``baidu_html``: Baidu's desktop results page (``www.baidu.com/s``).

Items are the ``c-container`` blocks directly under ``#content_left`` that carry a
title link (``h3 a``; 2026: ``h3.cosc-title > a``): organic results and cards alike.
The URL is Baidu's ``/link?url=`` redirect as given (fetch follows it); when the
block names the real target (``mu`` attribute or ``data-tools`` JSON), its host
becomes the item extra ``source`` (the site, as for every backend). Snippets come from ``c-abstract`` (2015-2020) or from
CSS-module classes matched by their stable prefix (``content-right_`` 2022,
``summary-text_`` 2026), never by their hash suffix.

The request is SearXNG's (``searx/engines/baidu.py``): ``GET /s?wd=…&rn=10`` with
``allow_redirects=False``, a time range as ``gpc=stf=<from>,<to>|stftype=1`` ending at
the search's ``SearchParams.now``. A page is ten results (SearXNG's ``rn``; every recorded
request asked ``rn=10``): later pages are asked by ``pn``, the results before the page (0-based:
page 2 is ``pn=10``, as SearXNG sends ``(pageno - 1) * 10``), option ``pageno`` for the first; a
page read for depth where the page's own "Next" link starts it (the recorded pages link
``pn=10`` to ``90``, "下一页" ``pn=10``; ``HtmlEngine.next_page``), none after a page linking
none beyond itself.

The bot wall (a 302 to ``wappass.baidu.com``, or its "百度安全验证" page served
directly) is ``WebBlocked(captcha_required)``; the redirect is never followed.

Option ``resolve_links=True`` replaces each ``/link?url=`` URL by its target: one
request per link without following redirects (``Location``, else a client-side
redirect in a 200 body, read by ``engine.redirects`` as for fetch), a few at a time,
each at Baidu's pace (the client's gate), within the call's deadline; a link that
cannot be resolved stays as it is.
"""

import logging
import re
from typing import Any, Optional
from urllib.parse import urlsplit

from ..config import Settings
from ..engine.html_engine import HtmlEngine
from ..engine.html_parsing import Tag, attribute, classes, elements, has_class, parse_fragment, text_of
from ..engine.option import Option, pageno_option
from ..engine.redirects import client_redirects
from ..errors import BAD_RESOLVE_LINKS, WebSearchError
from ..models import ParseResult, SearchParams
from ..net.botwall import BotWall
from ..net.deadline import Deadline, each_within
from ..net.transport import HttpResponse, HttpTransport, RequestSpec
from ..net.urls import browser_join, host_in, result_url, url_parts

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

_SNIPPET_PREFIXES = ("content-right_", "summary-text_")
_DATE_PREFIX_CLASS = "newTimeFactor_before_abs"  # 2020: the date inside c-abstract
# The security check page: structural markers only (a query echoed into a results page is
# escaped and cannot produce a quoted src/href, nor a title that is exactly "百度安全验证").
_CHALLENGE = re.compile(
    r"""<title>\s*百度安全验证\s*</title>|(?:src|href)\s*=\s*['"][^'"]*(?:mkdjump|/static/captcha/)""", re.I
)
_TOOLS_URL = re.compile(r"""['"]?url['"]?\s*:\s*(['"])(.*?)\1""", re.S)
#: A time range's length in seconds (SearXNG's baidu engine: a month is 30 days, a year 365).
_TIME_RANGE_S = {"day": 86_400, "week": 604_800, "month": 2_592_000, "year": 31_536_000}
_RESOLVE_MAX_BYTES = 262_144
#: Link requests under way at once; each still waits for Baidu's next rate-limit slot (the client's gate).
_RESOLVE_WORKERS = 4
#: The results a page holds and ``pn`` steps by: SearXNG's ``rn``, the recorded pages' links.
_PAGE = 10


def is_baidu_captcha_url(url: str) -> bool:
    """True for Baidu's security-check address (``wappass.baidu.com``, ``/static/captcha/...``)."""
    parsed = url_parts(url)
    return parsed is not None and (
        host_in(url, "wappass.baidu.com") or (host_in(url, "baidu.com") and "/static/captcha" in parsed[0].path)
    )


#: Baidu's security check ("百度安全验证"): a redirect to, or a page from,
#: ``wappass.baidu.com/static/captcha``; the page itself loads wappass scripts (recorded:
#: fixtures/baidu_html blocked cases). The regex runs only on a head holding a hint.
SECURITY_CHECK = BotWall(
    "Baidu security check (wappass captcha)",
    hints=("百度安全验证", "mkdjump", "/static/captcha/"),
    patterns=(_CHALLENGE,),
    scan_chars=8192,
    address=is_baidu_captcha_url,
)


def is_baidu_link(url: str) -> bool:
    """True for Baidu's opaque result redirect ``http(s)://www.baidu.com/link?url=...``."""
    parsed = url_parts(url)
    return (
        parsed is not None
        and host_in(url, "baidu.com")
        and parsed[0].path == "/link"
        and parsed[0].query.startswith("url=")
    )


def _source(container: Tag, tools: Optional[Tag]) -> Optional[str]:
    """The real target a result block names (``mu``, else ``data-tools``), if http(s)."""
    candidates = [container.get("mu")]
    if tools is not None:
        match = _TOOLS_URL.search(attribute(tools, "data-tools"))
        candidates.append(match.group(2) if match else None)
    for candidate in candidates:
        url = result_url(candidate)
        if url and not is_baidu_link(url):
            return url
    return None


def _snippet(node: Optional[Tag]) -> str:
    if node is None:
        return ""
    return text_of(node, without={tag for tag in elements(node) if _DATE_PREFIX_CLASS in classes(tag)})


def _parts(container: Tag) -> tuple[Optional[Tag], Optional[Tag], Optional[Tag]]:
    """The block's heading (``h3``), snippet node (``c-abstract``, else a styled snippet) and ``data-tools`` node."""
    heading = abstract = styled = tools = None
    for tag in elements(container):
        if heading is None and tag.name == "h3":
            heading = tag
        if tools is None and "data-tools" in tag.attrs:
            tools = tag
        for name in classes(tag):
            if abstract is None and name == "c-abstract":
                abstract = tag
            elif styled is None and name.startswith(_SNIPPET_PREFIXES):
                styled = tag
    return heading, abstract or styled, tools


def _item(container: Tag) -> Optional[dict[str, Any]]:
    """The item of one ``c-container`` block, or ``None`` when it has no title link."""
    heading, snippet, tools = _parts(container)
    link = (
        next((tag for tag in elements(heading) if tag.name == "a" and "href" in tag.attrs), None) if heading else None
    )
    title = text_of(link)
    if link is None or not attribute(link, "href").strip() or not title:
        return None
    item = {"title": title, "url": attribute(link, "href").strip(), "snippet": _snippet(snippet)}
    target = _source(container, tools)
    if target:
        item["source"] = urlsplit(target).hostname or ""  # the site, as everywhere; resolve_links gives the URL
    return item


def _is_block(child: object) -> bool:
    return isinstance(child, Tag) and has_class(child, "c-container")


def parse_baidu_page(text: str) -> list[dict[str, Any]]:
    """Raw items of a Baidu results page (pure).

    Returns ``[]`` for a page saying "抱歉没有找到…"; raises ``WebParseError`` for a
    page with neither result blocks nor such a notice.
    """
    return BaiduHtml(Settings()).read_page(text, SearchParams(query="page", max_results=10))


def link_target(response: HttpResponse, link: str) -> Optional[str]:
    """Where a ``/link?url=`` answer points: ``Location``, else a client-side redirect read by
    the one reader fetch uses too (``engine.redirects``): the meta refresh a browser acts on, the
    stub's script, or its ``<noscript>`` refresh (each names the result; a reload names none)."""
    target = None
    if 300 <= response.status < 400 and response.location:
        target = browser_join(link, response.location)  # as the hop loop reads it (net.hops)
    elif response.status == 200:
        target = next(iter(client_redirects(response).targets(response.url)), None)
    url = result_url(target)
    return url if url and not is_baidu_captcha_url(url) and not is_baidu_link(url) else None


class BaiduHtml(HtmlEngine):
    """Baidu web search, parsed from the desktop results page."""

    name = "baidu_html"
    unsent = ("locale", "safe_search")  # Baidu has no locale or safe-search parameter (docs/backends.md)
    auto_rank = 100
    auto_languages = ("zh",)  # in auto only for Chinese, then ahead of the other keyless engines
    summary = "Baidu results page, no key; /link?url= URLs (resolve_links=True resolves them)"
    default_endpoint = "https://www.baidu.com/s"
    options = (
        pageno_option("10 results a page whatever max_results is (pn = (pageno - 1) x 10)"),
        Option(
            "resolve_links",
            "bool",
            default=False,
            detail=BAD_RESOLVE_LINKS,
            doc="replace each /link?url= URL by its target (one request per link, at Baidu's pace)",
        ),
    )
    accept_language = "zh-CN,zh;q=0.9,en;q=0.8"
    follow_redirects = False  # the bot wall is a redirect: read it, never follow it
    bot_walls = (SECURITY_CHECK,)
    volatile_params = ("gpc",)  # a span ending at the search's time: recorded as a placeholder
    region_start = ('id="content_left"', "id='content_left'")
    region_end = ('id="rs"', 'id="page"', 'id="foot"')
    no_results = ('class="nors"', "抱歉没有找到与", "抱歉，没有找到与", "没有找到与您查询的")
    results_per_page = _PAGE  # a call for more reads the next pages
    #: most pages give 9 distinct results (cards, a relative link): filling each up would double
    #: the requests of a call for 10, and a captcha on the second cools Baidu down for 10 minutes
    fills_short_page = False
    #: Baidu counts the results before a page (``pn=10`` is page 2): the next page starts where the
    #: page's own links say, and a page linking none beyond itself is the last
    first_result_field = "pn"
    first_result_base = 0
    query_field = "wd"
    first_result_step = _PAGE  # a page linking none of its search's: ten on (its links step 10)

    def query(self, params: SearchParams) -> dict[str, str]:
        """``wd``, ``rn=10``, ``pn`` (page > 1: the results before it), ``ie=utf-8``; a time range as
        ``gpc``: the span from that long before the search's time to it, in Unix seconds (as
        SearXNG's ``searx/engines/baidu.py`` sends them)."""
        query = {"wd": params.full_query, "rn": str(_PAGE)}
        page = self.option(params, "pageno")
        if page > 1:
            query["pn"] = str((page - 1) * _PAGE)
        query["ie"] = "utf-8"
        if params.time_range:
            end = int(params.now.timestamp())
            query["gpc"] = "stf=%d,%d|stftype=1" % (end - _TIME_RANGE_S[params.time_range], end)
        return query

    def items(self, markup: str, params: SearchParams) -> list[dict[str, Any]]:
        """The ``c-container`` children of ``#content_left`` that have a title link."""
        content = next((tag for tag in elements(parse_fragment(markup)) if tag.get("id") == "content_left"), None)
        blocks = [child for child in content if _is_block(child)] if content is not None else []
        return [item for item in (_item(block) for block in blocks if isinstance(block, Tag)) if item is not None]

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """The shared search, then (with ``resolve_links=True``) link resolution."""
        result = super().search(params, transport, deadline)
        if self.option(params, "resolve_links"):
            wanted = [item for item in result.items if result_url(item["url"])][: params.max_results]
            headers = self.headers(params)
            self.resolve_links([item for item in wanted if is_baidu_link(item["url"])], transport, deadline, headers)
        return result

    def resolve_link(self, link: str, transport: HttpTransport, deadline: Deadline, headers: dict[str, str]) -> str:
        """The target of one ``/link?url=`` URL, or the link itself when that fails."""
        spec = RequestSpec("GET", link, headers=headers, allow_redirects=False, browser=True)
        try:
            response = transport.send(
                spec,
                deadline=deadline,
                provider=self.name,
                max_bytes=_RESOLVE_MAX_BYTES,
                truncate=True,
                secrets=self.secrets(),
            )
        except WebSearchError as error:
            logger.debug("could not resolve %s: %s", link, error)
            return link
        return link_target(response, link) or link

    def resolve_links(
        self,
        items: list[dict[str, Any]],
        transport: HttpTransport,
        deadline: Deadline,
        headers: Optional[dict[str, str]] = None,
    ) -> None:
        """Resolve the items' URLs in parallel, in place; what is unresolved by the deadline stays.
        ``headers``: those of the search (a click on a result of its page), by default a plain search's."""
        if not items:
            return
        if headers is None:
            headers = self.headers(SearchParams(query="link", max_results=len(items)))
        futures = each_within(
            deadline,
            lambda item: self.resolve_link(item["url"], transport, deadline, headers),
            items,
            workers=_RESOLVE_WORKERS,
            name="baidu-resolve",
        )
        for item, future in zip(items, futures):
            if future.done() and not future.cancelled():
                item["url"] = future.result()

"""``baidu_html``: Baidu's desktop results page (``www.baidu.com/s``).

Items are the ``c-container`` blocks directly under ``#content_left`` that carry a
title link (``h3 a``; 2026: ``h3.cosc-title > a``): organic results and cards alike.
The URL is Baidu's ``/link?url=`` redirect as given (fetch follows it); when the
block names the real target (``mu`` attribute or ``data-tools`` JSON), its host
becomes the item extra ``source`` (the site, as for every backend). Snippets come from ``c-abstract`` (2015-2020) or from
CSS-module classes matched by their stable prefix (``content-right_`` 2022,
``summary-text_`` 2026), never by their hash suffix.

The bot wall (a 302 to ``wappass.baidu.com``, or its "百度安全验证" page served
directly) is ``WebBlocked(captcha_required)``; the redirect is never followed.

Option ``resolve_links=True`` replaces each ``/link?url=`` URL by its target: one
request per link without following redirects (``Location``, else
``window.location.replace`` / meta refresh in a 200 body), in parallel threads,
within the call's deadline; a link that cannot be resolved stays as it is.
"""

import logging
import re
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import SplitResult, urljoin, urlsplit

from bs4 import Tag

from ..net.deadline import Deadline
from ..errors import InvalidInput, WebBlocked, WebParseError, WebSearchError
from ..net.botwall import is_baidu_captcha_url, is_baidu_challenge
from ..net.redirects import client_redirect
from ..net.transport import HttpResponse, HttpTransport, RequestSpec
from ..models import ParseResult, SearchParams
from ..engine.normalize import clean_url
from ..engine.base import Backend
from ..engine.html_parsing import classes, elements, has_class, parse_fragment, region, text_of

__all__ = ["BaiduHtml", "parse_baidu_page", "is_baidu_link", "link_target"]

logger = logging.getLogger("websearch_sync")

_REGION_START = ('id="content_left"', "id='content_left'")
_REGION_END = ('id="rs"', 'id="page"', 'id="foot"')
_SNIPPET_PREFIXES = ("content-right_", "summary-text_")
_DATE_PREFIX_CLASS = "newTimeFactor_before_abs"  # 2020: the date inside c-abstract
_NO_RESULTS = ('class="nors"', "抱歉没有找到与", "抱歉，没有找到与", "没有找到与您查询的")
_TOOLS_URL = re.compile(r"""['"]?url['"]?\s*:\s*(['"])(.*?)\1""", re.S)
_RESOLVE_MAX_BYTES = 262_144
_RESOLVE_WORKERS = 10


def _split(url: Optional[str]) -> Optional[SplitResult]:
    """``urlsplit(url)``, or ``None`` for a malformed URL (``http://[::1``)."""
    try:
        return urlsplit(url or "")
    except ValueError:
        return None


def is_baidu_link(url: str) -> bool:
    """True for Baidu's opaque result redirect ``http(s)://www.baidu.com/link?url=...``."""
    parts = _split(url)
    if parts is None:
        return False
    host = (parts.hostname or "").lower()
    return (host == "baidu.com" or host.endswith(".baidu.com")) and parts.path == "/link" and parts.query.startswith("url=")


def _source(container: Tag, tools: Optional[Tag]) -> Optional[str]:
    """The real target a result block names (``mu``, else ``data-tools``), if http(s)."""
    candidates = [container.get("mu")]
    if tools is not None:
        match = _TOOLS_URL.search(tools["data-tools"])
        candidates.append(match.group(2) if match else None)
    for candidate in candidates:
        url = clean_url(candidate)
        if url and not is_baidu_link(url):
            return url
    return None


def _snippet(node: Optional[Tag]) -> str:
    if node is None:
        return ""
    for noise in [tag for tag in elements(node) if _DATE_PREFIX_CLASS in classes(tag)]:
        noise.decompose()
    return text_of(node)


def _parts(container: Tag) -> Tuple[Optional[Tag], Optional[Tag], Optional[Tag]]:
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


def _item(container: Tag) -> Optional[Dict[str, Any]]:
    """The item of one ``c-container`` block, or ``None`` when it has no title link."""
    heading, snippet, tools = _parts(container)
    link = next((tag for tag in elements(heading) if tag.name == "a" and "href" in tag.attrs), None) if heading else None
    title = text_of(link)
    if link is None or not link["href"].strip() or not title:
        return None
    item = {"title": title, "url": link["href"].strip(), "snippet": _snippet(snippet)}
    target = _source(container, tools)
    if target:
        item["source"] = urlsplit(target).hostname or ""  # the site, as everywhere; resolve_links gives the URL
    return item


def parse_baidu_page(text: str, provider: str) -> List[Dict[str, Any]]:
    """Raw items of a Baidu results page (pure).

    Returns ``[]`` for a page saying "抱歉没有找到…"; raises ``WebParseError`` for a
    page with neither result blocks nor such a notice.
    """
    markup = region(text, _REGION_START, _REGION_END)
    content = parse_fragment(markup).find(id="content_left") if markup is not None else None
    children = content.children if content is not None else ()
    blocks = [child for child in children if isinstance(child, Tag) and has_class(child, "c-container")]
    items = [item for item in map(_item, blocks) if item is not None]
    if items or any(marker in text for marker in _NO_RESULTS):
        return items
    raise WebParseError(
        "%s answered with a page that has neither result blocks nor a no-results notice" % provider,
        provider=provider,
        detail_code="unexpected_shape",
    )


def _items_or_none(text: str, provider: str) -> Optional[List[Dict[str, Any]]]:
    try:
        return parse_baidu_page(text, provider)
    except WebParseError:
        return None


def link_target(response: HttpResponse, link: str) -> Optional[str]:
    """Where a ``/link?url=`` answer points: ``Location``, else a JS / meta-refresh redirect."""
    target = None
    if 300 <= response.status < 400 and response.location:
        target = urljoin(link, response.location.strip())
    elif response.status == 200:
        target = client_redirect(response)  # the same JS / meta-refresh reading fetch uses
    url = clean_url(target)
    return url if url and not is_baidu_captcha_url(url) and not is_baidu_link(url) else None


class BaiduHtml(Backend):
    """Baidu web search, parsed from the desktop results page."""

    name = "baidu_html"
    auto_rank = 100
    auto_languages = ("zh",)  # in auto only for Chinese, then ahead of the other keyless engines
    kind = "html"
    text_format = "text"  # read from the parsed DOM: entities decoded, tags gone
    summary = "Baidu results page, no key; /link?url= URLs (resolve_links=True resolves them)"
    default_endpoint = "https://www.baidu.com/s"
    options = ("resolve_links",)
    min_interval_s = 1.0  # a scraper: one request a second keeps clear of the bot wall

    def _headers(self) -> Dict[str, str]:
        parts = urlsplit(self.endpoint_url())
        return {
            "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8",
            "Referer": "%s://%s/" % (parts.scheme, parts.netloc),
        }

    def check_params(self, params: SearchParams) -> None:
        """Also refuse a ``resolve_links`` that is not a bool."""
        super().check_params(params)
        if not isinstance(params.options.get("resolve_links", False), bool):
            raise InvalidInput("resolve_links must be true or false", provider=self.name, detail_code="bad_resolve_links")

    def build_request(self, params: SearchParams) -> RequestSpec:
        """GET ``/s?wd=…&rn=<max_results>&ie=utf-8``; redirects are not followed (the bot wall is one)."""
        query = {"wd": params.full_query, "rn": str(params.max_results), "ie": "utf-8"}
        return RequestSpec("GET", self.endpoint_url(), params=query, headers=self._headers(), allow_redirects=False)

    def classify(self, response: HttpResponse) -> Optional[WebSearchError]:
        """A redirect to wappass.baidu.com, or the security-check page itself, is a block."""
        if 300 <= response.status < 400:
            blocked = is_baidu_captcha_url(response.location or "")
        else:
            blocked = is_baidu_challenge(response.text)
        if not blocked:
            return None
        return WebBlocked(
            "Baidu answered with its security check (HTTP %d)" % response.status,
            provider=self.name,
            detail_code="captcha_required",
            status=response.status,
        )

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        """Items of the results page."""
        return ParseResult(items=parse_baidu_page(response.text, self.name))

    def structure_report(self, response: HttpResponse, params: Optional[SearchParams] = None) -> Dict[str, bool]:
        """Landmarks: no bot wall, ``#content_left`` found, result blocks with a title
        link (or a no-results notice), and snippets found in them."""
        text = response.text
        items = _items_or_none(text, self.name)
        return {
            "not_blocked": self.classify(response) is None,
            "content_left": region(text, _REGION_START, _REGION_END) is not None,
            "result_blocks": items is not None,
            "snippets": not items or any(item["snippet"] for item in items),
        }

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """The shared search, then (with ``resolve_links=True``) link resolution."""
        result = super().search(params, transport, deadline)
        if params.options.get("resolve_links"):
            wanted = [item for item in result.items if clean_url(item["url"])][: params.max_results]
            self.resolve_links([item for item in wanted if is_baidu_link(item["url"])], transport, deadline)
        return result

    def resolve_link(self, link: str, transport: HttpTransport, deadline: Deadline) -> str:
        """The target of one ``/link?url=`` URL, or the link itself when that fails."""
        spec = RequestSpec("GET", link, headers=self._headers(), allow_redirects=False)
        try:
            response = transport.send(
                spec, deadline=deadline, provider=self.name, max_bytes=_RESOLVE_MAX_BYTES, truncate=True, secrets=self.secrets()
            )
        except WebSearchError as error:
            logger.debug("could not resolve %s: %s", link, error)
            return link
        return link_target(response, link) or link

    def resolve_links(self, items: List[Dict[str, Any]], transport: HttpTransport, deadline: Deadline) -> None:
        """Resolve the items' URLs in parallel, in place; what is unresolved by the deadline stays."""
        if not items:
            return
        pool = ThreadPoolExecutor(max_workers=min(len(items), _RESOLVE_WORKERS), thread_name_prefix="baidu-resolve")
        try:
            futures = {pool.submit(self.resolve_link, item["url"], transport, deadline): item for item in items}
            done, _ = wait(futures, timeout=max(0.0, deadline.remaining_s()))
            for future in done:
                futures[future]["url"] = future.result()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)

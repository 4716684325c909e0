"""Client-side redirects: the page a small HTML answer sends the browser to at once
(``<meta http-equiv="refresh">``, ``location.replace(...)``). Used by backends whose result
links are redirect pages (Baidu), where any refresh names the result, ``<noscript>`` ones
included; fetch asks it about scripts only (``reader.refresh`` reads refreshes as a browser).
"""

import html
import re
from typing import Optional
from urllib.parse import urljoin

from ..extract.article import visible_text
from ..net.media import content_kind
from ..net.transport import HttpResponse
from ..net.urls import page_key

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A page that redirects with JavaScript is followed only when it is this small and shows little text.
_STUB_BYTES = 32768
_STUB_TEXT_CHARS = 300
#: A meta refresh is a redirect when it fires within this many seconds.
_MAX_REFRESH_DELAY_S = 10.0
_HEAD_SCAN_CHARS = 65536

# A tag's scan stops at the next "<" or ">": linear time on a page of unclosed "<meta" tags.
_META_REFRESH = re.compile(r"<meta\b[^<>]*?http-equiv\s*=\s*[\"']?refresh\b[^<>]*>", re.I)
_CONTENT_ATTR = re.compile(r"\bcontent\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I)
_REFRESH_VALUE = re.compile(r"^\s*(\d+(?:\.\d*)?)?\s*[;,]?\s*(?:url\s*=\s*)?(.*)$", re.I | re.S)
_JS_REDIRECT = re.compile(
    r"location(?:\.replace\(\s*|\.assign\(\s*|\.href\s*=\s*|\s*=\s*)"
    r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')"
)
#: What may stand before ``location``: nothing word-like, or one of these objects.
_JS_OWNER = re.compile(r"(?:^|[^\w$.])(?:(?:window|document|top|self)\.)?$")
_JS_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.S)


def _unescape_js(literal: str) -> str:
    def replace(match: "re.Match[str]") -> str:
        if match.group(1):
            return chr(int(match.group(1), 16))
        if match.group(2):
            return chr(int(match.group(2), 16))
        return match.group(3)

    return _JS_ESCAPE.sub(replace, literal[1:-1])


def _meta_refresh_target(head: str) -> Optional[str]:
    for tag in _META_REFRESH.finditer(head):
        content = _CONTENT_ATTR.search(tag.group(0))
        if not content:
            continue
        value = html.unescape(content.group(1).strip("\"'"))
        match = _REFRESH_VALUE.match(value)
        if not match:
            continue
        delay = float(match.group(1) or 0)
        target = match.group(2).strip().strip("\"'").strip()
        if target and delay <= _MAX_REFRESH_DELAY_S:
            return target
    return None


def _js_redirect_target(script: str) -> Optional[str]:
    for match in _JS_REDIRECT.finditer(script):
        if _JS_OWNER.search(script[max(0, match.start() - 12) : match.start()]):
            return _unescape_js(match.group(1)).strip()
    return None


def client_redirect(response: HttpResponse) -> Optional[str]:
    """The absolute URL an HTML page sends the browser to at once, or ``None``.

    A ``<meta http-equiv="refresh">`` with a URL and a delay of at most 10 s
    counts on any page; ``location.replace(...)`` / ``location.href = ...``
    only on a near-empty redirect page (Baidu's ``/link?url=`` pages), so a
    script in a real article is never followed. A target equal to the page
    itself is ignored.
    """
    if content_kind(response) != "html" or not (200 <= response.status < 300):
        return None
    head = response.text[:_HEAD_SCAN_CHARS]
    target = _meta_refresh_target(head)
    if target is None and len(response.content) <= _STUB_BYTES:
        target = _js_redirect_target(head)
        if target is not None and len(visible_text(response.text)) >= _STUB_TEXT_CHARS:
            target = None
    if not target:
        return None
    try:
        absolute = urljoin(response.url, target)
    except ValueError:  # malformed (``http://[::1``): the caller refuses it as it is
        return target
    if page_key(absolute) == page_key(response.url):  # a reload, not a redirect
        return None
    return absolute

"""What fetch makes of a response body: text by content type, and client-side
redirects (meta refresh, ``location.replace``) of small redirect pages.

Pure functions over :class:`~websearch_sync.http.HttpResponse`; no I/O.
"""

import html
import json
import re
from dataclasses import dataclass
from typing import Optional
from urllib.parse import urljoin, urlsplit

from .errors import WebParseError, WebProviderError
from .extract import extract_html, visible_text
from .http import HttpResponse

__all__ = ["PageText", "page_text", "content_kind", "media_kind", "client_redirect"]

HTML_TYPES = ("text/html", "application/xhtml+xml")
TEXT_TYPES = ("text/plain", "text/markdown", "text/x-markdown")

#: A page that redirects with JavaScript is followed only when it is this small and shows little text.
_STUB_BYTES = 32768
_STUB_TEXT_CHARS = 300
#: A meta refresh is a redirect when it fires within this many seconds.
_MAX_REFRESH_DELAY_S = 10.0
_HEAD_SCAN_CHARS = 65536

_META_REFRESH = re.compile(r"<meta\b[^>]*?http-equiv\s*=\s*[\"']?refresh\b[^>]*>", re.I)
_CONTENT_ATTR = re.compile(r"\bcontent\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I)
_REFRESH_VALUE = re.compile(r"^\s*(\d+(?:\.\d*)?)?\s*[;,]?\s*(?:url\s*=\s*)?(.*)$", re.I | re.S)
_JS_REDIRECT = re.compile(
    r"location(?:\.replace\(\s*|\.assign\(\s*|\.href\s*=\s*|\s*=\s*)"
    r"(\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')"
)
#: What may stand before ``location``: nothing word-like, or one of these objects.
_JS_OWNER = re.compile(r"(?:^|[^\w$.])(?:(?:window|document|top|self)\.)?$")
_JS_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.S)
#: A character a reader can read: not whitespace, a control character or U+FFFD (what
#: undecodable bytes and NUL bytes become).
_READABLE = re.compile(r"[^\s\x00-\x1f\x7f\ufffd]")


@dataclass
class PageText:
    """The readable part of a page."""

    title: str
    text: str
    extractor: str


def media_kind(media: str) -> Optional[str]:
    """``"html"``, ``"json"``, ``"text"`` or ``"other"`` for a media type; ``None`` when it is empty."""
    if media in HTML_TYPES:
        return "html"
    if media in ("application/json", "text/json") or media.endswith("+json"):
        return "json"
    if media in TEXT_TYPES:
        return "text"
    return "other" if media else None


def content_kind(response: HttpResponse) -> str:
    """``"html"``, ``"json"``, ``"text"`` or ``"other"`` from the Content-Type (sniffed when absent)."""
    kind = media_kind(response.content_type)
    if kind is not None:
        return kind
    head = response.content[:1024].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "html"
    if head.startswith((b"{", b"[")):
        return "json"
    if b"\x00" not in response.content[:8192]:
        return "text"
    return "other"


def page_text(response: HttpResponse, *, mode: str, provider: Optional[str] = None) -> PageText:
    """Turn a successful response into text (``mode``: ``"markdown"`` or ``"text"``).

    HTML -> main content (readability; visible text as the fallback), JSON ->
    pretty-printed, text/plain and text/markdown -> as is. Raises
    ``WebProviderError(unsupported_content)`` for other types and
    ``WebParseError(no_content)`` when nothing readable is left.
    """
    host = urlsplit(response.url).hostname or "the site"
    kind = content_kind(response)
    if kind == "other":
        raise WebProviderError(
            "%s served %s content, which fetch cannot read (only HTML, JSON, plain text and markdown)"
            % (host, response.content_type or "binary"),
            provider=provider,
            detail_code="unsupported_content",
            status=response.status,
        )
    if kind == "html":
        if not _READABLE.search(response.text):  # nothing to extract: spare readability a page of NUL bytes
            raise WebParseError("%s returned no readable text" % host, provider=provider, detail_code="no_content", status=response.status)
        extraction = extract_html(response.text, url=response.url, mode=mode)
        result = PageText(extraction.title, extraction.text.strip(), extraction.extractor)
        if not _READABLE.search(result.text):
            raise WebParseError(
                "%s returned a page with no readable text; it likely needs JavaScript to show its content" % host,
                provider=provider,
                detail_code="no_content",
                status=response.status,
            )
        return result
    if kind == "json":
        result = PageText("", _pretty_json(response, host, provider), "json")
    else:
        result = PageText("", response.text.strip(), "text")
    if not _READABLE.search(result.text):
        raise WebParseError("%s returned no readable text" % host, provider=provider, detail_code="no_content", status=response.status)
    return result


def _pretty_json(response: HttpResponse, host: str, provider: Optional[str]) -> str:
    try:
        data = response.json()
    except ValueError:
        if response.truncated:  # cut by max_bytes: show what arrived
            return response.text
        raise WebParseError("%s declared JSON but sent something else" % host, provider=provider, detail_code="not_json", status=response.status) from None
    return json.dumps(data, indent=2, ensure_ascii=False)


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
        if _JS_OWNER.search(script[max(0, match.start() - 12):match.start()]):
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
    if absolute.split("#", 1)[0] == response.url.split("#", 1)[0]:
        return None
    return absolute

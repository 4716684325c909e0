"""What fetch makes of a response body: text by content type.

Pure functions over :class:`~websearch_sync.net.transport.HttpResponse`; no I/O.
"""

import json
import re
from dataclasses import dataclass
from typing import Optional
from urllib.parse import urlsplit

from ..errors import NO_CONTENT, NOT_JSON, UNSUPPORTED_CONTENT, WebParseError, WebProviderError
from ..extract.article import extract_html
from ..extract.rules import COMMENT_RULE, DEFAULT_RULES
from ..net.media import content_kind, media_token
from ..net.transport import HttpResponse

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A character a reader can read: not whitespace, a control character or U+FFFD (what
#: undecodable bytes and NUL bytes become).
_READABLE = re.compile(r"[^\s\x00-\x1f\x7f\ufffd]")


@dataclass
class PageText:
    """The readable part of a page."""

    title: str
    text: str
    extractor: str


def page_text(
    response: HttpResponse, *, mode: str, provider: Optional[str] = None, include_comments: bool = False
) -> PageText:
    """Turn a successful response into text (``mode``: ``"markdown"`` or ``"text"``;
    ``include_comments`` keeps an HTML page's reader comment threads).

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
            % (host, media_token(response.content_type) if response.content_type else "binary"),
            provider=provider,
            detail_code=UNSUPPORTED_CONTENT,
            status=response.status,
        )
    if kind == "html":
        if not _READABLE.search(response.text):  # nothing to extract: spare readability a page of NUL bytes
            raise _no_readable_text(response, host, provider, "%s returned no readable text" % host)
        rules = DEFAULT_RULES - {COMMENT_RULE} if include_comments else DEFAULT_RULES
        extraction = extract_html(response.text, url=response.url, mode=mode, rules=rules)
        result = PageText(extraction.title, extraction.text.strip(), extraction.extractor)
        if not _READABLE.search(result.text):
            raise _no_readable_text(
                response,
                host,
                provider,
                "%s returned a page with no readable text; it likely needs JavaScript to show its content" % host,
            )
        return result
    if kind == "json":
        result = PageText("", _pretty_json(response, host, provider), "json")
    else:
        result = PageText("", response.text.strip(), "text")
    if not _READABLE.search(result.text):
        raise WebParseError(
            "%s returned no readable text" % host, provider=provider, detail_code=NO_CONTENT, status=response.status
        )
    return result


def _no_readable_text(response: HttpResponse, host: str, provider: Optional[str], whole_page: str) -> WebParseError:
    """``no_content``: the byte cap cut the page before its text began (``hint``: raise it),
    else ``whole_page``, the reason for a page read to its end."""
    if response.truncated:
        return WebParseError(
            "%s sent no readable text in the first %d bytes, where the byte cap cut the page"
            % (host, len(response.content)),
            provider=provider,
            detail_code=NO_CONTENT,
            status=response.status,
            hint="raise max_bytes",
        )
    return WebParseError(whole_page, provider=provider, detail_code=NO_CONTENT, status=response.status)


def _pretty_json(response: HttpResponse, host: str, provider: Optional[str]) -> str:
    try:
        data = response.json()
    except ValueError:
        if response.truncated:  # cut by max_bytes: show what arrived
            return response.text
        raise WebParseError(
            "%s declared JSON but sent something else" % host,
            provider=provider,
            detail_code=NOT_JSON,
            status=response.status,
        ) from None
    return json.dumps(data, indent=2, ensure_ascii=False)

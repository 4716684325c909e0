"""What kind of body a response carries: HTML, JSON, text or other."""

import re
from typing import Optional

from .transport import HttpResponse

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

HTML_TYPES = ("text/html", "application/xhtml+xml")
TEXT_TYPES = ("text/plain", "text/markdown", "text/x-markdown")
#: A media type as a message may name it: ``type/subtype`` in RFC 6838's characters.
_MEDIA_TOKEN = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}")


def media_token(media: str) -> str:
    """``media`` (a Content-Type without parameters) as an error message may name it, else
    ``"an unnamed type of"``: the server chose the value, and an error line reaches a model
    outside the untrusted-content block, so nothing but a well-formed media type is quoted."""
    return media if _MEDIA_TOKEN.fullmatch(media) else "an unnamed type of"


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

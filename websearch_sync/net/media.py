"""What kind of body a response carries: HTML, JSON, text or other."""

from typing import Optional

from .transport import HttpResponse

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

HTML_TYPES = ("text/html", "application/xhtml+xml")
TEXT_TYPES = ("text/plain", "text/markdown", "text/x-markdown")


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

"""What fetch reads out of a body, whatever its type: :class:`PageText`."""

import re
from dataclasses import dataclass
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A character a reader can read: not whitespace, a control character or U+FFFD (what
#: undecodable bytes and NUL bytes become).
_READABLE = re.compile(r"[^\s\x00-\x1f\x7f\ufffd]")


def readable(text: str) -> bool:
    """Whether ``text`` holds a character a reader can read."""
    return _READABLE.search(text) is not None


@dataclass(frozen=True)
class ImageData:
    """An image as fetch returns it: media type, size in pixels, the bytes in base64."""

    content_type: str
    width: int
    height: int
    data: str


@dataclass
class PageText:
    """The readable part of a page; ``truncated`` when the reader stopped before its end
    (a PDF read page by page stops at ``max_chars`` or near the deadline); ``image`` for an
    image (``text`` is then one line describing it)."""

    title: str
    text: str
    extractor: str
    truncated: bool = False
    image: Optional[ImageData] = None

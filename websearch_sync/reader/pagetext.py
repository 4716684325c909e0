"""What fetch reads out of a body, whatever its type: :class:`PageText`."""

import re
from dataclasses import dataclass, field
from typing import Optional

from ..errors import ErrorInfo
from ..net.transport import HttpResponse
from ..net.urls import INVISIBLE, TAGS, stray_selectors_dropped

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: A character a reader can read: not whitespace, a control character or U+FFFD (what
#: undecodable bytes and NUL bytes become).
_READABLE = re.compile(r"[^\s\x00-\x1f\x7f\ufffd]")


def readable(text: str) -> bool:
    """Whether ``text`` holds a character a reader can read."""
    return _READABLE.search(text) is not None


#: Characters text never holds but binary data decoded as text is full of: C0 controls other
#: than whitespace, DEL, C1 controls and U+FFFD (a byte no charset decodes). Real pages have
#: next to none (none in the first 4096 characters of the 641 benchmark pages and fixtures);
#: random bytes, compressed data, a PNG, a zip archive: over half (``bench/binary_text.py``).
_BINARY = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd]")
_BINARY_SAMPLE = 4096
#: The ASCII bytes :data:`_BINARY` does not match (deleted, what is left is what it matches).
_TEXT_ASCII = bytes([0x09, 0x0A, 0x0C, 0x0D, *range(0x20, 0x7F)])
_BINARY_SHARE = 0.1
#: ... and more than this many of them: a few stray bytes in a short text do not make it binary.
_BINARY_LEAST = 32


def binary(text: str) -> bool:
    """Whether ``text`` is binary data decoded as text: over a tenth of its first 4096
    characters (and over 32) are ones text does not hold (:data:`_BINARY`)."""
    sample = text[:_BINARY_SAMPLE]
    if sample.isascii():  # the same count, by bytes.translate in C instead of the pattern's walk
        found = len(sample.encode("ascii").translate(None, _TEXT_ASCII))
    else:
        found = len(_BINARY.findall(sample))
    return found > _BINARY_LEAST and found > _BINARY_SHARE * len(sample)


#: Control characters a model is not handed (all but tab, line feed and carriage return; DEL and
#: the C1 controls too): a plain-text page's ANSI escape sequence or NUL byte.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]")
#: The ASCII bytes :data:`_CONTROLS` does not match: tab, line feed, carriage return, printable.
_SENDABLE_ASCII = bytes([0x09, 0x0A, 0x0D, *range(0x20, 0x7F)])
#: A lone surrogate (a JSON ``"\ud800"`` escape decodes to one): no UTF-8 encoder takes it, so
#: a tool result holding one cannot be sent to a model API, or over MCP.
_SURROGATES = re.compile("[\ud800-\udfff]")


#: The tag characters: each an ASCII character written invisibly, which a model reads as text (words
#: hidden in a page or a snippet, "ASCII smuggling"); their one other use is an emoji flag of a region.
_TAGS = TAGS


def untagged(text: str) -> str:
    """``text`` without its tag characters (:data:`_TAGS`) and the variation selectors that select
    nothing (:func:`~..net.urls.stray_selectors_dropped`). A cap on a page's text is taken after
    this: hidden characters would use up ``max_chars`` and leave the words out."""
    if text.isascii() or max(text) < "\ufe00":  # both in C: most text holds no character that high
        return text
    return stray_selectors_dropped(_TAGS.sub("", text))


def sendable(text: str) -> str:
    """``text`` as a tool result may carry it: each control character (:data:`_CONTROLS`) a
    space, each lone surrogate U+FFFD (the same length), each tag character (:data:`_TAGS`)
    left out (no longer: a cap on ``text`` holds on the result)."""
    if text.isascii() and not text.encode("ascii").translate(None, _SENDABLE_ASCII):
        return text  # nothing to replace: found by bytes.translate in C, not by two patterns' walks
    return _SURROGATES.sub("\ufffd", _CONTROLS.sub(" ", untagged(text)))


def title_line(title: str) -> str:
    """A page's title as a fetch result carries it: :func:`sendable`, and on one line without
    invisible characters (:data:`~..net.urls.INVISIBLE`: a bidi override, a zero-width space), as
    a search result's title. It stands outside the untrusted-content block, on the page's header
    line, where an override turned the rest of the line around for a reader of the tool text."""
    return " ".join(INVISIBLE.sub("", sendable(title)).split())


@dataclass(frozen=True)
class ImageData:
    """An image as fetch returns it: media type, size in pixels, the bytes in base64; for an image
    fetch downscaled to the caps, the size it was served at (as shown, its orientation applied)."""

    content_type: str
    width: int
    height: int
    data: str
    original_size: Optional[tuple[int, int]] = None


#: What cut a page's text short, as a fetch result's ``truncated_by`` names it, in the order it
#: lists them: ``max_chars``; ``max_bytes``, the byte cap cut the body; ``partial_content``, the
#: server sent a part of the page (206); and what stopped a PDF's page-by-page read: the deadline,
#: its content budget spent (what its pages decode to), pages left out for drawing over a page's cap.
CUT_MAX_CHARS = "max_chars"
CUT_MAX_BYTES = "max_bytes"
CUT_PARTIAL = "partial_content"
CUT_DEADLINE = "deadline"
CUT_CONTENT_BUDGET = "content_budget"
CUT_LARGE_PAGES = "large_pages"
CUTS = (CUT_MAX_CHARS, CUT_MAX_BYTES, CUT_PARTIAL, CUT_DEADLINE, CUT_CONTENT_BUDGET, CUT_LARGE_PAGES)


@dataclass
class PageText:
    """The readable part of a page; ``cuts``, what stopped the reader before its end (a PDF read
    page by page stops at ``max_chars``, near the deadline or once its content budget is spent,
    and leaves out a page drawing too much: :data:`CUTS`); ``image`` for an image (``text`` is
    then one line describing it); ``warnings`` on what it read (a PDF's pages left out because
    they cannot be read), which the result's ``errors`` carry."""

    title: str
    text: str
    extractor: str
    cuts: frozenset[str] = frozenset()
    image: Optional[ImageData] = None
    warnings: list[ErrorInfo] = field(default_factory=list)


def asked_url(url: str) -> str:
    """What a fetch result's ``url`` says: the caller's URL as given (its fragment, its case),
    without the white space around it; an answer shared with another caller of the same page
    (handed over, cached) is given the one that caller asked for."""
    return url.strip()


#: A ``Content-Range`` of bytes: first, last, and the whole's length (``*``: unknown). Anchored,
#: each part one run of digits: linear.
_CONTENT_RANGE = re.compile(r"bytes +(\d{1,18})-(\d{1,18})/(\d{1,18}|\*)", re.IGNORECASE)


def partial_answer(response: HttpResponse) -> bool:
    """Whether the answer is a part of the page short of the whole: a 206 Partial Content (which
    fetch never asks for: it sends no ``Range``; some servers and caches answer so anyway)
    whose ``Content-Range`` does not run from the first byte to the last, or cannot be read: a
    page's text is then ``truncated`` by ``partial_content``; a part of an image is no image (it
    is refused, as one cut short), and a PDF that cannot be read in part says so."""
    if response.status != 206:
        return False
    found = _CONTENT_RANGE.fullmatch((response.headers.get("Content-Range") or "").strip())
    if found is None:
        return True
    first, last, total = found.groups()
    return not (int(first) == 0 and total != "*" and int(last) + 1 == int(total))

"""Reading a PDF's text layer, page by page, with pypdf (the optional ``pdf`` extra).

pypdf is pure Python (no compiler, no system library) and maintained; it reads the text a
PDF carries, not the pixels of scanned pages (no OCR). Pages are read one at a time, so
the read stops once ``max_chars`` are gathered, and before the deadline: a page is not
begun when less time is left than twice the slowest page so far took (the text read until
then is returned, ``truncated``). Between pages the read also stops when its caller has
abandoned it (:func:`~websearch_sync.checkpoints.checkpoint`).
"""

import io
import logging
import time
from typing import Any, Optional
from urllib.parse import urlsplit

from ..checkpoints import checkpoint
from ..errors import (
    DEADLINE_EXCEEDED,
    PDF_BROKEN,
    PDF_ENCRYPTED,
    PDF_NO_TEXT,
    RESPONSE_TOO_LARGE,
    UNSUPPORTED_CONTENT,
    Timeout,
    WebParseError,
    WebProviderError,
)
from ..net.deadline import Deadline
from ..net.transport import HttpResponse
from .pagetext import PageText, readable

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

EXTRACTOR = "pdf"
EXTRA = "pdf"
#: A page is begun only when the time left is at least this many times the slowest page so far.
PAGE_RESERVE = 2.0
#: What a malformed file makes pypdf raise besides its own errors (it parses untrusted
#: structure with plain indexing, arithmetic and recursion).
_MALFORMED = (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError, ZeroDivisionError)


def _pypdf() -> Any:
    """The pypdf module, or ``None`` without the ``pdf`` extra."""
    try:
        import pypdf
    except ImportError:
        return None
    return pypdf


def pdf_text(
    response: HttpResponse,
    *,
    mode: str,
    provider: Optional[str],
    max_chars: Optional[int] = None,
    deadline: Optional[Deadline] = None,
) -> PageText:
    """The text of a PDF response: its pages in order, each under a heading (``## Page N``
    in markdown, ``--- Page N ---`` in text) when it has several; its title from the
    document's metadata.

    Raises ``WebProviderError``: ``unsupported_content`` (no ``pdf`` extra),
    ``response_too_large`` (the byte cap cut the file: a PDF cannot be read in part),
    ``pdf_encrypted``; ``WebParseError``: ``pdf_broken``, ``pdf_no_text`` (no text layer:
    scanned pages); ``Timeout`` when the deadline leaves no time for the first page.
    """
    host = urlsplit(response.url).hostname or "the site"
    pypdf = _pypdf()
    if pypdf is None:
        raise WebProviderError(
            "%s served a PDF; reading PDFs needs the optional 'pdf' extra (pip install -e '.[pdf]' from a checkout)"
            % host,
            provider=provider,
            detail_code=UNSUPPORTED_CONTENT,
            status=response.status,
            hint="install the pdf extra (pypdf)",
        )
    if response.truncated:
        raise WebProviderError(
            "%s served a PDF larger than the %d-byte cap; a PDF cannot be read in part" % (host, len(response.content)),
            provider=provider,
            detail_code=RESPONSE_TOO_LARGE,
            status=response.status,
            hint="raise max_bytes",
        )

    def broken(error: BaseException) -> WebParseError:
        return WebParseError(
            "%s served a PDF that cannot be read (%s)" % (host, type(error).__name__),
            provider=provider,
            detail_code=PDF_BROKEN,
            status=response.status,
        )

    try:
        reader = pypdf.PdfReader(io.BytesIO(response.content))
        _unlock(pypdf, reader, host, provider, response.status)
        title = _title(reader)
        pages, truncated = _read_pages(reader, mode, max_chars, deadline)
    except (pypdf.errors.PyPdfError, *_MALFORMED) as error:
        logger.debug("pypdf failed on %s", response.url, exc_info=True)
        raise broken(error) from None
    if not pages and truncated:
        raise Timeout(
            "%s served a PDF whose first page could not be read within the deadline" % host,
            provider=provider,
            detail_code=DEADLINE_EXCEEDED,
        )
    text = "\n\n".join(pages)
    if not readable(text):
        raise WebParseError(
            "%s served a PDF without a text layer (scanned pages?); fetch reads a PDF's text, it does no OCR" % host,
            provider=provider,
            detail_code=PDF_NO_TEXT,
            status=response.status,
        )
    return PageText(title, text, EXTRACTOR, truncated=truncated)


def _unlock(pypdf: Any, reader: Any, host: str, provider: Optional[str], status: int) -> None:
    """Open an encrypted PDF with the empty password (many are encrypted only against
    editing), else raise ``WebProviderError(pdf_encrypted)``."""
    if not reader.is_encrypted:
        return
    try:
        unlocked = reader.decrypt("") != pypdf.PasswordType.NOT_DECRYPTED
        reason = "it needs a password"
    except pypdf.errors.DependencyError:  # AES: pypdf needs the cryptography package
        unlocked, reason = False, "its AES encryption needs the cryptography package (pip install cryptography)"
    if not unlocked:
        raise WebProviderError(
            "%s served an encrypted PDF, which fetch cannot read: %s" % (host, reason),
            provider=provider,
            detail_code=PDF_ENCRYPTED,
            status=status,
        )


def _title(reader: Any) -> str:
    """The document title of the PDF's metadata (empty when it has none)."""
    metadata = reader.metadata
    title = metadata.title if metadata is not None else None
    return " ".join(str(title).split()) if title else ""


def _heading(number: int, mode: str) -> str:
    return "## Page %d" % number if mode == "markdown" else "--- Page %d ---" % number


def _read_pages(
    reader: Any, mode: str, max_chars: Optional[int], deadline: Optional[Deadline]
) -> tuple[list[str], bool]:
    """The pages' texts, under their headings when there are several (pages without text
    left out), and whether the read stopped before the last page (``max_chars`` gathered,
    or the deadline near)."""
    pages: list[str] = []
    gathered = 0
    slowest = 0.0
    count = len(reader.pages)
    for index in range(count):
        checkpoint()
        if max_chars is not None and gathered >= max_chars:
            return pages, True
        if deadline is not None and deadline.remaining_s() < PAGE_RESERVE * slowest:
            return pages, True
        started = time.monotonic()
        text = (reader.pages[index].extract_text() or "").strip()
        slowest = max(slowest, time.monotonic() - started)
        if readable(text):
            pages.append("%s\n\n%s" % (_heading(index + 1, mode), text) if count > 1 else text)
            gathered += len(text)
    return pages, False

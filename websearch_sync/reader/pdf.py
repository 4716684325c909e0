"""Reading a PDF's text layer, page by page, with pypdf (the optional ``pdf`` extra).

pypdf is pure Python (no compiler, no system library) and maintained; it reads the text a
PDF carries, not the pixels of scanned pages (no OCR). Pages are read one at a time, each
resolved from the page tree only when the read reaches it (:mod:`.pdfpages`), so the read
stops once ``max_chars`` are gathered, and before the deadline: a page is not begun when
less time is left than twice the slowest page so far took (the text read until then is
returned, ``truncated``). Between pages, and between the page tree's nodes, the read also
stops when its caller has abandoned it (:func:`~websearch_sync.checkpoints.checkpoint`), and so
does pypdf's own work wherever it reads the file (:class:`_CheckedFile`): opening it (the
cross-reference tables and their chain, a broken file's rebuilt table), resolving its
objects. A read its caller abandoned at the deadline or on Ctrl-C thus ends at its next read
of the file; pypdf's work on data it already decoded runs to its end first: a cross-reference
stream's entries, at most one per ``BYTES_PER_XREF_ENTRY`` bytes of the file; the parse of an
object stream's objects, at most ``MAX_OBJECT_STREAM`` bytes; the parse of a page's content, at most ``MAX_PAGE_CONTENT`` bytes, into operations (its extraction then
reaches a checkpoint before each, :func:`_operation`), and before that, of the character maps
of the page's fonts, which count only to the read's decoding budget (:func:`_budget`: 50 MB, or
ten times the file's size; pypdf parses about 12 MB of a map a second). While reads given up still run, a new one
waits for one of them to end, or is refused (:mod:`.pdfreads`).

What a page costs is not bounded by the file's size: its content (and the forms it draws)
can decompress to tens of MB from a few KB, pypdf's text extraction of one long run of
text is worse than linear (4 MB: about 16 s, uninterruptible), and pypdf keeps everything
it decoded until the read ends. So a page is read only when what it draws decodes to at
most ``MAX_PAGE_CONTENT`` bytes (else it is left out, ``truncated``), and the read stops
once what it decoded (fonts' character maps included) holds ``MAX_CONTENT`` bytes, or
``CONTENT_PER_BYTE`` times the file's size when that is more.
"""

import codecs
import importlib.util
import io
import logging
import math
import re
import time
from collections.abc import Iterator
from typing import Any, NamedTuple, Optional
from urllib.parse import urlsplit

from ..checkpoints import Abandoned, WorkAbandoned, abandonable, abandoned_here, checkpoint
from ..errors import (
    DEADLINE_EXCEEDED,
    PDF_BROKEN,
    PDF_ENCRYPTED,
    PDF_NO_TEXT,
    PDF_PAGES_LEFT_OUT,
    RAISE_MAX_BYTES,
    RESPONSE_TOO_LARGE,
    UNSUPPORTED_CONTENT,
    Timeout,
    WebParseError,
    WebProviderError,
    WebSearchError,
    install_hint,
)
from ..extract.mdescape import escape_lines
from ..net.deadline import Deadline
from ..net.media import pdf_start, served_as
from ..net.transport import HttpResponse
from ..net.urls import shown_url
from .pagetext import (
    CUT_CONTENT_BUDGET,
    CUT_DEADLINE,
    CUT_LARGE_PAGES,
    CUT_MAX_CHARS,
    PageText,
    partial_answer,
    readable,
)
from .pdfdraw import Decoded, drawn_bytes
from .pdflog import pypdf_notes_of
from .pdfpages import Unreadable, page_objects
from .pdfreads import RUNNING

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

EXTRACTOR = "pdf"
EXTRA = "pdf"
#: A page is begun only when the time left is at least this many times the slowest page so far.
PAGE_RESERVE = 2.0
#: Decoded bytes a page may draw (its content streams and forms) to be read: a page of text
#: draws tens of KB; pypdf takes about 1 s of CPU on 1 MB of one run of text, 2.2 s on 1 MB of short lines.
MAX_PAGE_CONTENT = 1_000_000
#: Decoded bytes of all a read decodes, fonts' character maps included (pypdf holds them until it ends).
MAX_CONTENT = 50_000_000
#: Decoded bytes of one object stream a read lets pypdf parse: it parses every object in one the
#: first time it resolves any of them, from data already decoded (no read of the file, so no
#: checkpoint), at 0.2-2.4 µs a byte (strings fastest, names and numbers slowest); a real one holds
#: about a hundred objects, tens of KB. A 40 KB file whose page object shared its stream with a
#: 40 MB string ran on for 5.6 s of CPU after its fetch had given the read up.
MAX_OBJECT_STREAM = 1_000_000
#: ... or this many times the file's size when that is more: a document decodes to a few times
#: its size (a large tagged one's object streams too), a bomb to a thousand times.
CONTENT_PER_BYTE = 10
#: Bytes of the file for each cross-reference stream entry pypdf reads when it opens it (and at
#: least ``MIN_XREF_ENTRIES``): an object takes more than that in a real file, while zeros
#: compress to nothing (2,000,000 entries, pypdf's own cap, are 6 KB and 2.5 s of its work
#: on data already decoded, which no read of the file interrupts); never more than pypdf's own
#: cap, ``MAX_XREF_ENTRIES`` (a file over 16 MB would otherwise loosen it). Real documents
#: measured: 200-600 bytes per object.
BYTES_PER_XREF_ENTRY = 8
MIN_XREF_ENTRIES = 10_000
MAX_XREF_ENTRIES = 2_000_000
#: Reads and seeks of the file pypdf may make to resolve the metadata and its title: it parses
#: a string a byte at a time, a read each (1-2 s a MB: a 3 MB title took a PDF's fetch past its
#: deadline, its pages' text lost with it); a real /Info dictionary takes a few hundred.
MAX_TITLE_READS = 65_536
#: Control characters (an escape sequence, a bell, NUL), which a title may hold as bytes.
_CONTROLS = re.compile("[\x00-\x1f\x7f]")
#: What a malformed file makes pypdf raise besides its own errors (it parses untrusted
#: structure with plain indexing, arithmetic and recursion, and narrows types with
#: ``assert``: an indirect reference inside a content stream fails one), and what a file
#: using a feature pypdf lacks does (a filter it does not implement).
_MALFORMED = (
    AssertionError,
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    RecursionError,
    ZeroDivisionError,
    OverflowError,  # an offset past 2**63 (a startxref of 20 digits), which a seek cannot take
    NotImplementedError,
)


def pdf_readable() -> bool:
    """Whether fetch reads PDFs here (the ``pdf`` extra is installed), without importing pypdf:
    the fetch tool's description says so only then."""
    return importlib.util.find_spec("pypdf") is not None


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
    ``response_too_large`` (the byte cap cut the file: a PDF cannot be read in part; or it
    decodes to more than the content caps before any text was read),
    ``pdf_encrypted``, ``pdf_reads_busy`` (retryable: reads given up earlier still ran after the
    wait for them, :mod:`.pdfreads`); ``WebParseError``: ``pdf_broken``, ``pdf_no_text`` (no text layer:
    scanned pages); ``Timeout`` when the deadline came before any page with text was read.
    """
    host = urlsplit(response.url).hostname or "the site"
    pypdf = _pypdf()
    if pypdf is None:
        raise WebProviderError(
            "%s served a PDF; reading PDFs needs %s" % (host, install_hint("pdf")),
            provider=provider,
            detail_code=UNSUPPORTED_CONTENT,
            status=response.status,
        )
    if response.truncated:
        raise WebProviderError(
            "%s served a PDF larger than the %d-byte cap; a PDF cannot be read in part" % (host, len(response.content)),
            provider=provider,
            detail_code=RESPONSE_TOO_LARGE,
            status=response.status,
            hint=RAISE_MAX_BYTES,
        )

    def broken(error: BaseException) -> WebSearchError:
        if _aes_missing(pypdf, error, content):
            return _encrypted(host, provider, response.status, _AES_MISSING)
        return WebParseError(
            "%s served %s" % (host, _what_broke(response, error)),
            provider=provider,
            detail_code=PDF_BROKEN,
            status=response.status,
        )

    # from its header on: what comes before (a PHP warning, a MacBinary header) is no part of the
    # file, and its cross-reference offsets count from there, as PDF readers count them
    content = response.content[max(0, pdf_start(response.content)) :]
    budget = _budget(content)
    try:
        with (
            RUNNING.reading(host, provider, response.status, deadline),
            pypdf_notes_of(host),
        ):  # pypdf's repairs: logged
            reader = _open(pypdf, content, host, provider, response.status)
            _unlock(pypdf, reader, host, provider, response.status)
            read = _read_pages(pypdf, reader, mode, max_chars, deadline, budget)
            # after the read, which first measures the object streams /Info may sit in; only when
            # text was read (else the read fails below: its work on the title would be lost)
            title = _title(pypdf, reader, host) if read.pages else ""
    except _failures(pypdf) as error:
        logger.debug("pypdf failed on %s", shown_url(response.url), exc_info=True)  # no user info nor query: keys
        raise broken(error) from None
    if not read.pages and read.timed_out:
        raise Timeout(
            "%s served a PDF of which no page with text was read within the deadline" % host,
            provider=provider,
            detail_code=DEADLINE_EXCEEDED,
        )
    text = "\n\n".join(read.pages)
    if not readable(text) and read.failure is not None:  # pypdf failed on every page it could read text from
        raise broken(read.failure)
    if not readable(text) and read.truncated:  # pages left out for their size, or the content budget spent
        raise WebProviderError(
            "%s served a PDF that decodes to more than fetch reads (over %d bytes of content a page or an object "
            "stream, or %d in all)" % (host, MAX_PAGE_CONTENT, budget),
            provider=provider,
            detail_code=RESPONSE_TOO_LARGE,
            status=response.status,
        )
    if not readable(text):
        raise WebParseError(_no_text(host, read), provider=provider, detail_code=PDF_NO_TEXT, status=response.status)
    warnings = [_left_out(host, read, provider, response.status).to_dict()] if read.left_out else []
    return PageText(title, text, EXTRACTOR, cuts=read.cuts, warnings=warnings)


def _what_broke(response: HttpResponse, error: BaseException) -> str:
    """What the server served that pypdf could not read, in an error message's words: a PDF, or,
    with no ``%PDF-`` header where PDF readers look for it, content declared a PDF that is none
    (an empty body, a text; a sign-in or error page sent under the PDF's type never comes here:
    ``net.media.content_kind`` takes it for the page it is). pypdf reads a file from its end, so a PDF without a header
    is read as long as the rest holds; one that ends without its ``%%EOF`` is said to, as a file
    cut short (an upload or a copy that stopped) is, and a 206 holding a part of it says so."""
    if pdf_start(response.content) >= 0:
        if partial_answer(response):
            part = ": the server sent only a part of it (206 Partial Content)"
        elif b"%%EOF" not in response.content[-PDF_END_WITHIN:]:  # where every PDF writer ends the file
            part = ": it ends without a PDF's trailer (%%EOF), as a file cut short does"
        else:
            part = ""
        return "a PDF that cannot be read (%s)%s" % (type(error).__name__, part)
    what = "%s that is no PDF" % served_as(response.content_type)
    if not response.content:
        return what + ": it is empty"
    return what + ": it opens with no %PDF- header"


#: What a PDF with no readable text lacks, by whether pypdf extracted characters none of which
#: reads (a subset font without a character map: its glyphs' numbers come out as control codes,
#: as a viewer's copied text does): its text layer is there, but says nothing.
_NO_TEXT = {
    False: "without a text layer (scanned pages?)",
    True: "whose text maps to no characters (its fonts give none for their glyphs)",
}


def _no_text(host: str, read: "_Read") -> str:
    """Why a PDF read gave no text, in its error's words: no page at all (a page tree of none, or
    none pypdf finds: not a scan's pages), no text layer, or text that maps to no characters."""
    if not read.reached:
        return "%s served a PDF of no page: its page tree lists none" % host
    return "%s served a PDF %s; fetch reads a PDF's text, it does no OCR" % (host, _NO_TEXT[read.unmapped])


#: Pages left out that the warning names (a broken file can have 40,000); the others are counted.
LEFT_OUT_NAMED = 10


def _left_out(host: str, read: "_Read", provider: Optional[str], status: int) -> WebParseError:
    """The warning on the pages pypdf failed on (``read.left_out``: each named, with what pypdf
    raised; the same name repeated, a part of unknown pages, is counted), left out while the
    others were read, or those before where the read stopped: no ``max_chars`` brings them back."""
    times: dict[str, int] = {}
    for name in read.left_out:
        times[name] = times.get(name, 0) + 1
    names = ["%s (%d times)" % (name, n) if n > 1 else name for name, n in times.items()]
    more = sum(list(times.values())[LEFT_OUT_NAMED:])
    return WebParseError(
        "%s served a PDF of which fetch left out %s%s: pypdf cannot read %s; the other pages were read%s"
        % (
            host,
            ", ".join(names[:LEFT_OUT_NAMED]),
            " and %d more" % more if more else "",
            "them" if len(read.left_out) > 1 else "it",
            " up to where the read stopped (truncated)" if read.stopped else "",
        ),
        provider=provider,
        detail_code=PDF_PAGES_LEFT_OUT,
        status=status,
    )


def _failures(pypdf: Any) -> tuple[type[BaseException], ...]:
    """What reading a malformed file makes pypdf raise (see :data:`_MALFORMED`)."""
    return (pypdf.errors.PyPdfError, *_pypdf_refusals(pypdf), *_MALFORMED)


def _pypdf_refusals(pypdf: Any) -> tuple[type[Exception], ...]:
    """pypdf's errors outside ``PyPdfError`` that a file can cause: a filter whose package
    is missing (``DependencyError``: brotli, cryptography) or that pypdf no longer reads
    (``DeprecationError``: the abbreviated ``/Fl`` of a stream's filter)."""
    return pypdf.errors.DependencyError, pypdf.errors.DeprecationError


class _CheckedFile(io.BytesIO):
    """The PDF's bytes as the file pypdf reads, with a
    :func:`~websearch_sync.checkpoints.checkpoint` at every read and seek: pypdf parses the
    file through them, a few bytes at a time, so its work stops within a read once the fetch
    gave it up (a cross-reference table of 250,000 entries takes pypdf 5 s to open, with
    under 50 ms between two reads). A checkpoint is a thread-local read: a 300-page report,
    read in 0.65 s, reads and seeks its file about 83,000 times, a few percent of that time."""

    def read(self, size: Optional[int] = -1) -> bytes:
        checkpoint()
        return super().read(size)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        checkpoint()
        return super().seek(offset, whence)


def _open(pypdf: Any, content: bytes, host: str, provider: Optional[str], status: int) -> Any:
    """pypdf's reader of ``content``; ``WebProviderError(pdf_encrypted)`` for an encryption
    pypdf cannot open: it reads the standard (password) security handler only, not a
    certificate's (``/Adobe.PubSec``) or an unknown version, and raises
    ``NotImplementedError`` for them while opening the file."""
    try:
        entries = min(MAX_XREF_ENTRIES, max(MIN_XREF_ENTRIES, len(content) // BYTES_PER_XREF_ENTRY))
        return pypdf.PdfReader(_CheckedFile(content), xref_stream_maximum_entries=entries)
    except NotImplementedError:
        if b"/Encrypt" not in content:  # not the encryption: a filter pypdf lacks (pdf_broken)
            raise
        raise _encrypted(host, provider, status, "its encryption is not the password kind pypdf reads") from None


def _unlock(pypdf: Any, reader: Any, host: str, provider: Optional[str], status: int) -> None:
    """Open an encrypted PDF with the empty password (many are encrypted only against
    editing), else raise ``WebProviderError(pdf_encrypted)``."""
    if not reader.is_encrypted:
        return
    try:
        unlocked = reader.decrypt("") != pypdf.PasswordType.NOT_DECRYPTED
        reason = "it needs a password"
    except pypdf.errors.DependencyError:  # AES: pypdf needs the cryptography package
        unlocked, reason = False, _AES_MISSING
    if not unlocked:
        raise _encrypted(host, provider, status, reason)


#: How near its end a PDF holds its end-of-file marker, ``%%EOF`` (the PDF specification's 1024 bytes).
PDF_END_WITHIN = 1024
#: Why an AES-encrypted PDF is not read where pypdf has no AES implementation (pypdf installed
#: alone, not through the ``pdf`` extra: its AES needs the cryptography package, or pycryptodome).
_AES_MISSING = "its AES encryption needs the cryptography package (pip install cryptography, or the pdf extra)"


def _aes_missing(pypdf: Any, error: BaseException, content: bytes) -> bool:
    """Whether pypdf's ``error`` is its want of AES: a ``DependencyError`` on a file encrypted with
    AES, which pypdf raises while opening it (AES-256: its password check) or reading its objects
    (AES-128: each page's content, its metadata). The file's encryption dictionary, never in an
    object stream, names its AES crypt filter, ``/AESV2`` or ``/AESV3``."""
    return isinstance(error, pypdf.errors.DependencyError) and b"/Encrypt" in content and b"/AESV" in content


def _encrypted(host: str, provider: Optional[str], status: int, reason: str) -> WebProviderError:
    return WebProviderError(
        "%s served an encrypted PDF, which fetch cannot read: %s" % (host, reason),
        provider=provider,
        detail_code=PDF_ENCRYPTED,
        status=status,
    )


def _title(pypdf: Any, reader: Any, host: str) -> str:
    """The document title of the PDF's metadata: a string, its control characters read as
    spaces (as in an HTML page's title); empty when it has none, or something else where the
    string belongs (pypdf then returns that object: an array, a number, a dictionary), or when
    the metadata cannot be read (an ``/Info`` that refers to itself, an array): the pages'
    text, read before, is what was asked for, and no viewer refuses a document for its title.
    Empty too when reading it takes over ``MAX_TITLE_READS`` reads of the file (a title of
    megabytes), which are then not made."""
    reads = _Reads(abandoned_here(), MAX_TITLE_READS)
    try:
        with abandonable(reads):
            metadata = reader.metadata
            title = metadata.title if metadata is not None else None
            raw = metadata.get("/Title") if metadata is not None else None
            raw = raw.get_object() if raw is not None else None
    except (pypdf.errors.PyPdfError, *_MALFORMED) as error:
        logger.info("PDF from %s: its metadata cannot be read (%s); no title", host, type(error).__name__)
        return ""
    except WorkAbandoned:
        if not reads.spent:  # its fetch gave the read up: the thread ends
            raise
        logger.info("PDF from %s: its metadata takes over %d reads of the file; no title", host, MAX_TITLE_READS)
        return ""
    if isinstance(raw, bytes) and raw[:2] in (codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE):
        # UTF-16 that pypdf could not decode (a lone surrogate, an odd byte) it reads as
        # PDFDocEncoding: "þÿ" and the bytes as Latin letters. Read as UTF-16, the broken unit replaced.
        title = raw.decode("utf-16", errors="replace")
    return " ".join(_CONTROLS.sub(" ", title).split()) if isinstance(title, str) else ""


class _Reads:
    """What gives a read of the title up (:func:`~websearch_sync.checkpoints.abandonable`): its
    fetch giving the whole read up (``outer``), or ``limit`` checkpoints passed, each a read or
    seek of the file (:class:`_CheckedFile`); ``spent`` says the latter."""

    def __init__(self, outer: Optional[Abandoned], limit: int) -> None:
        self.outer = outer
        self.left = limit

    @property
    def spent(self) -> bool:
        """Whether the reads it allows are used up."""
        return self.left < 0

    def is_set(self) -> bool:
        """Counts a checkpoint: true once the reads are spent or the fetch gave the read up."""
        if self.outer is not None and self.outer.is_set():
            return True
        self.left -= 1
        return self.left < 0


def _heading(number: Optional[int], mode: str) -> str:
    """A page's heading; ``Page ?`` after a part of the page tree whose pages are not known."""
    name = "Page %d" % number if number is not None else "Page ?"
    return "## %s" % name if mode == "markdown" else "--- %s ---" % name


def _page_name(number: Optional[int]) -> str:
    return "page %d" % number if number is not None else "a page (its number unknown)"


def _pages_name(previous: Optional[int], number: Optional[int]) -> str:
    """The pages after page ``previous`` up to ``number``: what a page (or a part of the page
    tree that cannot be parsed) held; their numbers unknown when either is ``None``."""
    if previous is None:
        return "a part of the page tree (its pages' numbers unknown)"
    where = "after page %d" % previous if previous else "at its start"
    if number is None:
        return "a part of the page tree %s (how many pages unknown)" % where
    if number == previous + 1:
        return "page %d" % number
    if number == previous:
        return "a part of the page tree %s (no page, by the counts)" % where
    return "pages %d-%d" % (previous + 1, number)


class _Streams(NamedTuple):
    """What the object streams decode to: in all, and the largest one."""

    total: int = 0
    largest: int = 0

    def over(self, budget: int) -> bool:
        """Whether they are not to be parsed: over ``budget`` in all, or one over
        ``MAX_OBJECT_STREAM``."""
        return self.total > budget or self.largest > MAX_OBJECT_STREAM


def _object_streams_bytes(reader: Any, budget: int) -> _Streams:
    """The decoded bytes of the object streams the cross-reference points into, counted until
    over ``budget`` or one over ``MAX_OBJECT_STREAM``. pypdf decodes one whenever it resolves an
    object inside (the page objects when it lists the pages), keeps it, and parses all its
    objects at once, without a checkpoint. Decoding here is zlib's, in C."""
    streams = _Streams()
    for number in dict.fromkeys(stream for stream, _ in reader.xref_objStm.values()):  # each once, in order
        checkpoint()
        stream = reader.get_object(number)
        size = len(stream.get_data()) if hasattr(stream, "get_data") else 0
        streams = _Streams(streams.total + size, max(streams.largest, size))
        if streams.over(budget):
            break
    return streams


def _budget(content: bytes) -> int:
    """The decoded bytes a read of the PDF ``content`` may hold."""
    return max(MAX_CONTENT, CONTENT_PER_BYTE * len(content))


class _Page(NamedTuple):
    """One page read: its text (empty when it was not extracted) and the decoded bytes it
    draws, or what pypdf raised on it."""

    text: str = ""
    drawn: int = 0
    failure: Optional[BaseException] = None


def _read_page(pypdf: Any, page: Any, decoded: Decoded, budget: int) -> _Page:
    """The text of ``page`` (or its :class:`~.pdfpages.Unreadable` object's error), extracted only
    when what it draws is within ``MAX_PAGE_CONTENT`` and what measuring it decoded is within
    ``budget`` (:func:`~.pdfdraw.drawn_bytes`, which adds what it decoded to ``decoded``, a
    failed page's too); a failure of pypdf's on the page is returned."""
    if isinstance(page, Unreadable):
        return _Page(failure=page.error)
    try:
        over_cap = (pypdf.errors.LimitReachedError,)
        drawn, new = drawn_bytes(page, decoded, MAX_PAGE_CONTENT, budget, over_cap, _decode_cap(pypdf))
        within = new <= budget and drawn <= MAX_PAGE_CONTENT
        text = page.extract_text(visitor_operand_before=_operation) if within else ""
        return _Page(_lines(text or "").strip(), drawn)
    except _failures(pypdf) as error:
        return _Page(failure=error)


def _lines(text: str) -> str:
    """A page's text with each line break a line feed: a CR (a string's ``\\r``), alone or before a
    line feed, ends a line for markdown (CommonMark) and moves a terminal's cursor back over the
    line, so the line after it went unescaped (a heading, a page heading the file made up)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _decode_cap(pypdf: Any) -> Any:
    """What decodes a page's drawn streams within a cap (:func:`~.pdfdraw.drawn_bytes`): pypdf's
    output limits of its expanding filters (Flate, LZW, run length; 75 MB each by default) lowered
    for the call, through its public ``apply_configuration`` (a context variable: this thread's
    read only, not the program's own use of pypdf)."""

    def capped(cap: int) -> Any:
        return pypdf.apply_configuration(
            zlib_maximum_output_length=cap, lzw_maximum_output_length=cap, run_length_maximum_output_length=cap
        )

    return capped


def _operation(operator: Any, operands: Any, cm: Any, tm: Any) -> None:
    """Called by pypdf's text extraction before each operation of the page's content
    (``visitor_operand_before``): a :func:`~websearch_sync.checkpoints.checkpoint`, so a read
    given up stops within an operation (pypdf takes about 2 s to extract 1 MB of one run of text,
    4 s for 1 MB of short lines), not at the page's end. What has none is pypdf's parse of the
    content into operations before the first (0.4-0.9 s for 1 MB on a loaded machine)."""
    checkpoint()


class _Read(NamedTuple):
    """What a page-by-page read gathered: the pages' texts (under their headings), what made it
    leave text out (``pagetext.CUTS``: it stopped before the last page at ``max_chars``, the
    deadline or its content budget, or left a page out for its size), the first page's failure,
    and the pages pypdf failed on (``page 3 (AssertionError)``); whether it stopped before the
    last page; whether pypdf extracted any characters (``unmapped``: when none reads, the fonts
    map their glyphs to none); how many pages (or parts of the page tree) it reached."""

    pages: list[str]
    cuts: frozenset[str] = frozenset()
    failure: Optional[BaseException] = None
    left_out: list[str] = []
    stopped: bool = False
    unmapped: bool = False
    reached: int = 0

    @property
    def truncated(self) -> bool:
        """Whether the read left text out."""
        return bool(self.cuts)

    @property
    def timed_out(self) -> bool:
        """Whether the deadline stopped the read."""
        return CUT_DEADLINE in self.cuts


def _read_pages(
    pypdf: Any, reader: Any, mode: str, max_chars: Optional[int], deadline: Optional[Deadline], budget: int
) -> _Read:
    """The pages' texts, under their headings when there are several (pages without text
    left out, pages drawing over ``MAX_PAGE_CONTENT`` bytes, and pages pypdf fails on: a
    broken content stream or font on one page costs that page only); the read stops at
    ``max_chars`` gathered, near the deadline, or once over ``budget`` bytes are decoded.
    The pages are resolved one at a time as the read reaches them (:mod:`.pdfpages`)."""
    texts: list[tuple[Optional[int], str]] = []
    gathered = 0
    cuts: set[str] = set()
    stopped = unmapped = False
    failure: Optional[BaseException] = None
    slowest = 0.0
    decoded = Decoded()
    streams = _object_streams_bytes(reader, budget)
    if streams.over(budget):
        logger.info(
            "PDF not read: its object streams decode to over %d bytes, or one to over %d", budget, MAX_OBJECT_STREAM
        )
        return _Read([], frozenset({CUT_CONTENT_BUDGET}))
    reached = 0
    left_out: list[str] = []
    remaining = deadline.remaining_s if deadline is not None else lambda: math.inf
    for previous, number, page in _numbered(page_objects(pypdf, reader, _failures(pypdf), remaining)):
        checkpoint()  # the next page is resolved before the checks
        reached += 1
        stop = _stop(max_chars, gathered, deadline, slowest)
        if stop is not None:
            cuts.add(stop)
            stopped = True
            break
        started = time.monotonic()
        read = _read_page(pypdf, page, decoded, budget - streams.total - decoded.total)
        slowest = max(slowest, time.monotonic() - started)
        if read.failure is not None:  # left out, as a viewer shows the other pages (said in a warning)
            failure = failure or read.failure
            left_out.append(_failed(previous, number, read.failure))
        if streams.total + decoded.total > budget:  # what a failed page decoded counts too: pypdf keeps it
            logger.info("PDF read stopped at %s: its pages decode to over %d bytes", _page_name(number), budget)
            cuts.add(CUT_CONTENT_BUDGET)
            stopped = True
            break
        if read.failure is not None:
            continue
        if read.drawn > MAX_PAGE_CONTENT:
            logger.info("PDF %s left out: it draws %d bytes of content", _page_name(number), read.drawn)
            cuts.add(CUT_LARGE_PAGES)
            continue
        if readable(read.text):
            text = escape_lines(read.text) if mode == "markdown" else read.text  # "1. Introduction" is no list item
            texts.append((number, text))
            gathered += len(text)
        unmapped = unmapped or bool(read.text)  # pypdf gave characters: said only when none of them reads
    several = reached > 1  # a second page (or part of the page tree) was reached: the document has several
    if left_out:  # one line, not one a page: a broken file can have 40,000 (each at DEBUG, with pypdf's error)
        logger.info("PDF: %d part(s) left out, pypdf failed on them: %s", len(left_out), ", ".join(left_out[:3]))
    return _Read(_headed(texts, several, mode), frozenset(cuts), failure, left_out, stopped, unmapped, reached)


def _numbered(pages: Iterator[Any]) -> Iterator[tuple[Optional[int], Optional[int], Any]]:
    """``(previous, number, page)`` for each of ``pages``: the number of the page before it and its
    own (the last of what an :class:`~.pdfpages.Unreadable` held), ``None`` once unknown."""
    number: Optional[int] = 0
    for page in pages:
        held = page.pages if isinstance(page, Unreadable) else 1
        previous, number = number, number + held if number is not None and held is not None else None
        yield previous, number, page


def _stop(max_chars: Optional[int], gathered: int, deadline: Optional[Deadline], slowest: float) -> Optional[str]:
    """What stops the read before its next page: :data:`CUT_DEADLINE` for the deadline's reserve
    (less time left than ``PAGE_RESERVE`` times the slowest page so far), :data:`CUT_MAX_CHARS`
    for ``max_chars`` gathered; ``None`` when it goes on."""
    if max_chars is not None and gathered >= max_chars:
        return CUT_MAX_CHARS
    if deadline is not None and deadline.remaining_s() < PAGE_RESERVE * slowest:
        return CUT_DEADLINE
    return None


def _failed(previous: Optional[int], number: Optional[int], failure: BaseException) -> str:
    """What pypdf failed on, as the warning names it (``page 3 (AssertionError)``), logged at
    DEBUG with pypdf's error: the read logs one INFO line for all (a broken file can have 40,000)."""
    pages = _pages_name(previous, number)
    logger.debug("PDF %s left out: pypdf failed on it", pages, exc_info=failure)
    return "%s (%s)" % (pages, type(failure).__name__)


def _headed(texts: list[tuple[Optional[int], str]], several: bool, mode: str) -> list[str]:
    """The pages' texts, each under its heading when the document has several pages."""
    return ["%s\n\n%s" % (_heading(n, mode), text) if several else text for n, text in texts]

"""What kind of body a response carries: HTML, JSON, text, PDF, image or other."""

import re
from typing import Optional

from .contenttype import PDF_TYPES, UNKNOWN, untyped, valid_media, xml_media
from .transport import HttpResponse
from .wire import SNIFF_BYTES
from .xmlroot import foreign_root, past_prologue, prefixed_xhtml_root, xhtml_root

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

HTML_TYPES = ("text/html", "application/xhtml+xml")
TEXT_TYPES = ("text/plain", "text/markdown", "text/x-markdown")
#: Text read as it is besides those: what ``text/*`` names (CSV, XML, CSS, JavaScript, source
#: code...), XML (``application/xml``, feeds: ``application/rss+xml``, ``application/atom+xml``) and
#: JavaScript; not a stream that never ends (``text/event-stream``).
_OTHER_TEXT = ("application/xml", "application/javascript", "application/x-javascript", "application/ecmascript")
_STREAMS = ("text/event-stream",)
#: The signatures of the image formats fetch reads (PNG, JPEG, GIF, WebP), by media type.
IMAGE_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
#: The signatures of image formats fetch does not return, by media type: the MIME Sniffing
#: standard's others (ICO and its cursors, BMP) and TIFF; AVIF and HEIF by the brand of their
#: ISO file-type box (:data:`_IMAGE_BRANDS`). An untyped one is named in the refusal, not called
#: binary data that is no image.
OTHER_IMAGE_SIGNATURES = (
    (b"\x00\x00\x01\x00", "image/x-icon"),
    (b"\x00\x00\x02\x00", "image/x-icon"),
    (b"BM", "image/bmp"),
    (b"II*\x00", "image/tiff"),
    (b"MM\x00*", "image/tiff"),
)
#: The major brands of an ISO file-type box (``ftyp`` at byte 4) that make it an image (an MP4
#: video has the same box, with other brands).
_IMAGE_BRANDS = {
    b"avif": "image/avif",
    b"avis": "image/avif",
    b"heic": "image/heic",
    b"heix": "image/heic",
    b"mif1": "image/heif",
}
#: A media type as a message may name it: ``type/subtype`` in RFC 6838's characters.
_MEDIA_TOKEN = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,63}/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}")


def media_token(media: str) -> str:
    """``media`` (a Content-Type without parameters) as an error message may name it, else
    ``"an unnamed type of"``: the server chose the value, and an error line reaches a model
    outside the untrusted-content block, so nothing but a well-formed media type is quoted."""
    return media if _MEDIA_TOKEN.fullmatch(media) else "an unnamed type of"


def media_kind(media: str) -> Optional[str]:
    """``"html"``, ``"json"``, ``"text"``, ``"pdf"``, ``"image"`` or ``"other"`` for a media type
    (``"text"``: every text type besides HTML, XML and JavaScript, read as they are); ``None``
    when it says nothing of the body (:func:`~.contenttype.untyped`: absent, ``application/octet-stream``,
    an unknown type such as ``*/*``, a value with no ``/``)."""
    if untyped(media):
        return None
    if media in HTML_TYPES:
        return "html"
    if media in ("application/json", "text/json") or media.endswith("+json"):
        return "json"
    if media in TEXT_TYPES:
        return "text"
    if media in PDF_TYPES:
        return "pdf"
    if media.startswith("image/"):
        return "image"
    if (media.startswith("text/") and media not in _STREAMS) or media in _OTHER_TEXT or xml_media(media):
        return "text"
    return "other"


def served_as(media: str) -> str:
    """What a response of the media type ``media`` served, in an error message's words: ``image/png
    content``, ``content without a type``, ``content of an unknown type (*/*)``. The server chose
    the type, and an error line reaches a model outside the untrusted-content block, so only a
    well-formed media type (:func:`media_token`) or one of :data:`~.contenttype.UNKNOWN` is quoted."""
    if not media:
        return "content without a type"
    if media in UNKNOWN:
        return "content of an unknown type (%s)" % media
    if not valid_media(media):
        return "content of an unknown type (a Content-Type that names no media type)"
    return "%s content" % media_token(media)


def sniffed_image_type(content: bytes) -> Optional[str]:
    """The media type of an image by its first bytes (PNG, JPEG, GIF, WebP), or None."""
    for signature, media in IMAGE_SIGNATURES:
        if content.startswith(signature):
            return media
    if content[:4] == b"RIFF" and content[8:12] == b"WEBP":
        return "image/webp"
    return None


def sniffed_other_image_type(content: bytes) -> Optional[str]:
    """The media type of an image fetch does not return (ICO, BMP, TIFF, AVIF, HEIF) by its first
    bytes, or None; only asked of a body that sniffs as binary data (a text may open with ``BM``)."""
    for signature, media in OTHER_IMAGE_SIGNATURES:
        if content.startswith(signature):
            return media
    return _IMAGE_BRANDS.get(content[8:12]) if content[4:8] == b"ftyp" else None


def content_kind(response: HttpResponse) -> str:
    """``"html"``, ``"json"``, ``"text"``, ``"pdf"``, ``"image"`` or ``"other"`` from the
    Content-Type, sniffed when it says nothing of the body (:func:`media_kind` is None: absent,
    ``application/octet-stream``, ``*/*``...), as the MIME Sniffing standard's "rules for
    identifying an unknown MIME type" do (HTML, a PDF, an image, else text or binary). A body that opens
    with a PDF's or an image's signature is that whatever text type it is declared as:
    servers send PDFs as ``text/plain`` or ``text/html``, and no text opens with those bytes. A body
    declared as an image or a PDF that opens as an HTML page (:func:`opens_as_page`; for a PDF, with
    no ``%PDF-`` header in its first KB) is that page: no image opens with ``<``, and a server's
    sign-in or error page sent under the type of the image or PDF it stood for was refused as one.

    Found once a response (``HttpResponse.kind_memo``): a fetch asks three times (whether to extract
    in the calling thread, what to extract, whether a client-side redirect can be read), each a
    sniff of the body's first KB (3.4 us on a small page)."""
    header, content, truncated = response.headers.get("Content-Type"), response.content, response.truncated
    memo = response.kind_memo
    if memo is not None and memo[0] is header and memo[1] is content and memo[2] == truncated:
        return memo[3]
    kind = _content_kind(response)
    response.kind_memo = (header, content, truncated, kind)
    return kind


def _content_kind(response: HttpResponse) -> str:
    """:func:`content_kind`, found."""
    kind = media_kind(response.content_type)
    signed = _by_its_bytes(response, kind)
    if signed is not None:
        return signed
    if kind == "text" and xml_media(response.content_type) and xhtml_root(response.content):
        return "html"
    if response.content_type == "text/html" and foreign_root(response.content):
        return "text"  # a feed or other XML labelled HTML: its XML, as under an XML type
    if kind is not None:
        return kind
    head = response.content[:1024].lstrip(_BLANKS).lower()
    if _opens_as_html(head) or b"<body" in head or prefixed_xhtml_root(response.content):
        return "html"  # an XHTML root under a prefix (``<h:html>``) opens as no HTML: it came back as its markup
    if head.startswith((b"{", b"[")):
        return "json"  # read as JSON only if it parses (``reader.content``): ``[Home](/)`` is text
    if b"\x00" not in response.content[:8192]:
        return "text"
    return "other"


#: What may come before a body's first character: a UTF-8 byte-order mark and white space.
_BLANKS = b"\xef\xbb\xbf\t\n\f\r "

#: How an untyped HTML page opens: the MIME Sniffing standard's HTML patterns, each followed by a
#: space or ``>`` (a tag-terminating byte), after a byte-order mark, white space, comments and
#: processing instructions (``<!-- generated -->``, ``<?xml ...?>`` before an XHTML page's doctype),
#: skipped as ``xmlroot`` skips an XML prologue, but the doctype, which is one of the patterns.
_HTML_OPENINGS = (
    *(b"<!doctype html", b"<html", b"<head", b"<script", b"<iframe", b"<h1", b"<div", b"<font"),
    *(b"<table", b"<a", b"<style", b"<title", b"<b", b"<body", b"<br", b"<p"),
)


def opens_as_page(content: bytes) -> bool:
    """Whether ``content`` (its first KB: :data:`~.wire.SNIFF_BYTES`) opens as an HTML page, as an
    untyped body is sniffed (:func:`content_kind`): one of the MIME Sniffing standard's HTML openings
    after a byte-order mark, white space, comments and an XML declaration."""
    return _opens_as_html(content[:SNIFF_BYTES].lstrip(_BLANKS).lower())


def _opens_as_html(head: bytes) -> bool:
    """Whether ``head`` (the body's first KB, lower case) opens as an HTML page."""
    head = head[past_prologue(head, doctype=False) :]
    return any(
        head.startswith(opening) and head[len(opening) : len(opening) + 1] in (b" ", b">") for opening in _HTML_OPENINGS
    )


def _by_its_bytes(response: HttpResponse, kind: Optional[str]) -> Optional[str]:
    """The kind a body is by its first bytes whatever its declared ``kind`` says, else None: a page
    under an image's type (a sign-in or error page: read as the page it is); one under a PDF's type
    with no ``%PDF-`` header where PDF readers look for it (:func:`pdf_start`: a PDF after a PHP
    warning opens as a page too, ``<br />``, and stays the PDF); a PDF or an image untyped or under
    a text type (:func:`_signed_kind`)."""
    if kind == "image":
        return "html" if opens_as_page(response.content) else None
    if kind == "pdf":
        return "html" if opens_as_page(response.content) and pdf_start(response.content) < 0 else None
    if kind in (None, "html", "json", "text"):
        return _signed_kind(response.content, cut=response.truncated, declared=kind is not None)
    return None


def _signed_kind(content: bytes, cut: bool, declared: bool = False) -> Optional[str]:
    """``"pdf"`` or ``"image"`` for a body that opens with such a file's signature (a PDF's after
    white space, or after other bytes by :func:`pdf_after_junk`; ``cut``: by ``max_bytes``;
    ``declared``: under a declared text type, which asks more of the bytes before), else None."""
    if content[:1024].lstrip().startswith(b"%PDF-") or pdf_after_junk(content, cut=cut, declared=declared):
        return "pdf"
    if sniffed_image_type(content[:16]) is not None:
        return "image"
    return None


#: How far into a file a PDF reader looks for its ``%PDF-`` header: pdf.js's rule (``find`` over
#: the first 1024 bytes), under which the whole signature lies there, starting at byte 1019 at most.
PDF_HEADER_WITHIN = 1024
#: A PDF header's version and the end of its line: ``%PDF-1.7`` then CR or LF, or a comment of
#: binary bytes on the same line first (``%PDF-1.4 %\xe2\xe3\xcf\xd3``), as pdf.js takes it.
_PDF_VERSION = re.compile(rb"%PDF-[0-9]\.[0-9](?:[ \t]{0,8}%[^\r\n]{0,64})?[ \t]{0,8}[\r\n]")
#: A PDF's first indirect object: ``12 0 obj``. Bounded runs of digits and blanks: linear.
_PDF_OBJECT = re.compile(rb"[0-9]{1,10}[ \t\r\n\f\x00]{1,16}[0-9]{1,5}[ \t\r\n\f\x00]{1,16}obj[^A-Za-z0-9]")
#: How far after its header a PDF's first object is looked for (past its comment lines).
_FIRST_OBJECT_WITHIN = 4096
#: How near its end a PDF's trailer ends the file: ``startxref``, its offset and ``%%EOF``.
_TRAILER_WITHIN = 1024


def pdf_start(content: bytes) -> int:
    """Where ``content``'s ``%PDF-`` header starts as a PDF reader finds it (pdf.js: the whole
    signature in the first :data:`PDF_HEADER_WITHIN` bytes), or -1. A PDF's cross-reference
    offsets count from there: what comes before is no part of the file."""
    return content.find(b"%PDF-", 0, PDF_HEADER_WITHIN)


#: A PDF's trailer: ``startxref``, its offset, ``%%EOF``. Bounded runs: linear.
_TRAILER = re.compile(rb"startxref[ \t\r\n]{1,8}[0-9]{1,12}[ \t\r\n]{1,8}%%EOF")
#: The trailer as the last bytes of a file, then blanks at most.
_TRAILER_AT_END = re.compile(_TRAILER.pattern + rb"[ \t\r\n\x00]{0,64}\Z")
#: The only tags a server's error notice printed before a file holds (PHP's ``<br />`` and
#: ``<b>Warning</b>``, an old ``<font>``, Xdebug's table of the call stack with its spans, links and
#: small print): before a PDF, any other tag (``<pre>``, ``<title>``, ``<p>``, ``<meta>``...) is a
#: page quoting PDF syntax.
_NOTICE_TAGS = frozenset(
    (b"br", b"b", b"font", b"table", b"tbody", b"tr", b"th", b"td", b"span", b"i", b"small", b"a", b"em", b"strong")
)
#: A tag's name as read after its ``<``: letters and digits, with ``/`` before (an end tag) or after
#: (``br/``). Bounded: linear.
_TAG_NAME = re.compile(rb"(/?)([A-Za-z][A-Za-z0-9]{0,15})/?")


def _only_notice_tags(prefix: bytes) -> bool:
    """Whether every tag in ``prefix`` (the bytes before a PDF's header, or after its trailer) is
    one of :data:`_NOTICE_TAGS`. A ``<`` not followed by a letter (``x < 3``, a byte of a binary
    header) is no tag, as an HTML tokenizer reads it; ``<!`` and ``<?`` (a comment, a doctype, a
    processing instruction) are a page's."""
    at = prefix.find(b"<")
    while at >= 0:
        name = _TAG_NAME.match(prefix, at + 1)
        if name is None:
            if prefix[at + 1 : at + 2] in (b"!", b"?"):
                return False
            at = prefix.find(b"<", at + 1)
            continue
        if name.group(2).lower() not in _NOTICE_TAGS:
            return False
        at = prefix.find(b"<", name.end())
    return True


#: How far past a PDF's trailer an untyped body may go on when what follows is an error notice
#: (PHP's notices printed after the file, each some 100 bytes).
_NOTICE_AFTER_WITHIN = 65536
#: The opening of a PHP error notice: line breaks, then its kind in bold (``<br />\n<b>Notice</b>:``),
#: or Xdebug's table of the call stack (``<font size='1'><table class='xdebug-error ...``).
#: Every repeat is bounded: a failed match backtracks a few hundred steps at most.
_NOTICE_OPENING = re.compile(
    rb"(?:<br[ \t]{0,4}/?>\s{0,8}){0,4}"
    rb"(?:<b>(?:Notice|Warning|Deprecated|Fatal error)</b>|<font[^<>]{0,64}>\s{0,8}<table[^<>]{0,64}xdebug-error)"
)


def _ends_as_pdf(content: bytes) -> bool:
    """Whether an untyped body ends as a PDF ends: its trailer in its last 1024 bytes, or further
    back when all that follows it is an error notice (:func:`_only_notice_tags`, opening as one
    does, :data:`_NOTICE_OPENING`: ``<br />`` then ``<b>Notice</b>: ...``) within
    :data:`_NOTICE_AFTER_WITHIN` bytes; a line break then prose, or a table, is no notice."""
    if _TRAILER.search(content[-_TRAILER_WITHIN:]) is not None:
        return True
    tail = content[-_NOTICE_AFTER_WITHIN:]
    eof = tail.rfind(b"%%EOF")
    if eof < 0 or _TRAILER.search(tail, max(0, eof - 64), eof + 5) is None:
        return False
    after = tail[eof + 5 :].lstrip()
    return _NOTICE_OPENING.match(after) is not None and _only_notice_tags(after)


def pdf_after_junk(content: bytes, *, cut: bool = False, declared: bool = False) -> bool:
    """Whether a body is a PDF with bytes before its header, as PDF readers take it (a PHP warning,
    a MacBinary header, a byte-order mark): a ``%PDF-n.n`` line where :func:`pdf_start` finds it,
    followed (past comment lines and blanks) by the file's first object, ``1 0 obj``, and a file
    that runs to the body's end (its trailer, ``startxref``, its offset and ``%%EOF``, in the last
    1024 bytes or before an error notice, :func:`_ends_as_pdf`, unless ``cut``:
    a body cut by ``max_bytes`` shows no end, and its PDF is refused as too large); never a body
    that opens as an HTML document (a page that shows PDF syntax in a ``<pre>``). A text that
    quotes ``%PDF-1.4`` and an object has no trailer at its end, and bytes before the header that
    hold a tag other than an error notice's (:data:`_NOTICE_TAGS`: ``<pre>``, ``<title>``,
    ``<meta>``...) are a page quoting PDF syntax, typed or not.

    Under a declared text type (``declared``: a PHP warning made ``header()`` fail, so the PDF went
    out as ``text/html``) a browser would show the page: only a body whose last bytes are the
    trailer (``startxref``, its offset, ``%%EOF``) is taken for the PDF, and a cut one never (a text
    documenting the format that quotes a PDF's start or its trailer words stays a text)."""
    start = pdf_start(content)
    if start <= 0:
        return False
    if not _only_notice_tags(content[:start]):  # a document's opening (<!doctype, <html, <!--, <?xml) too
        return False
    tail = content[-_TRAILER_WITHIN:]
    if declared:
        if cut or _TRAILER_AT_END.search(tail) is None:
            return False
    elif not cut and not _ends_as_pdf(content):
        return False
    header = _PDF_VERSION.match(content, start)
    if header is None:
        return False
    at = header.end()
    end = min(len(content), start + _FIRST_OBJECT_WITHIN)
    while at < end:  # past blanks and comment lines (the header's second line of binary bytes)
        if content[at] in b" \t\r\n\f\x00":
            at += 1
        elif content[at] == ord("%"):
            line_end = min(i for i in (content.find(b"\n", at, end), content.find(b"\r", at, end), end) if i >= 0)
            at = line_end
        else:
            break
    return _PDF_OBJECT.match(content[:end], at) is not None

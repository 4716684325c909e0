"""Small PDFs built in the test, with pypdf: text pages under a Helvetica font (what a
word processor's export carries), an encrypted copy, pages without a text layer (what
a scanner produces: no text operators), a broken file, and pages whose compressed content
decodes to megabytes (a decompression bomb)."""

import io
import os
import re
import struct
import zlib
from collections.abc import Sequence
from typing import Optional, Union

from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    PdfObject,
    StreamObject,
)

__all__ = [
    "text_pdf",
    "textless_pdf",
    "broken_pdf",
    "bomb_pdf",
    "text_run",
    "idle_form_pdf",
    "mapped_font_pdf",
    "object_stream_pdf",
    "object_stream_text_pdf",
    "blank_pages_pdf",
    "hand_written_pdf",
    "nested_tree_pdf",
    "misplaced_xref",
    "chained_xref_pdf",
    "xref_stream_pdf",
    "deflated_repeats",
]


def _escaped(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _font(writer: PdfWriter) -> DictionaryObject:
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    return DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}  # noqa: SLF001
    )


def _text_page(writer: PdfWriter, resources: DictionaryObject, lines: Sequence[str]) -> None:
    page = writer.add_blank_page(width=612, height=792)
    operators = ["BT", "/F1 11 Tf", "14 TL", "72 720 Td"]
    operators += ["(%s) Tj T*" % _escaped(line) for line in lines]
    operators.append("ET")
    stream = DecodedStreamObject()
    stream.set_data("\n".join(operators).encode("latin-1"))
    page[NameObject("/Contents")] = writer._add_object(stream)  # noqa: SLF001
    page[NameObject("/Resources")] = resources


def text_pdf(
    pages: Sequence[Sequence[str]], *, title: Union[str, PdfObject, None] = None, password: Optional[str] = None
) -> bytes:
    """A PDF whose page ``n`` shows the lines ``pages[n]``; ``title`` in its metadata (a
    string, or any PDF object, as a malformed file has); encrypted (RC4, no extra
    dependency) with the user password ``password``."""
    writer = PdfWriter()
    resources = _font(writer)
    for lines in pages:
        _text_page(writer, resources, lines)
    if isinstance(title, str):
        writer.add_metadata({"/Title": title})
    elif title is not None:  # add_metadata would write it as a string
        writer.add_metadata({"/Producer": "tests"})
        writer._info[NameObject("/Title")] = title  # type: ignore[index]  # noqa: SLF001
    if password is not None:
        writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def textless_pdf(page_count: int = 2) -> bytes:
    """A PDF of pages that draw only shapes (a scan's pages hold an image: no text either)."""
    writer = PdfWriter()
    for _ in range(page_count):
        page = writer.add_blank_page(width=612, height=792)
        stream = DecodedStreamObject()
        stream.set_data(b"0.5 g 72 72 468 648 re f")
        page[NameObject("/Contents")] = writer._add_object(stream)  # noqa: SLF001
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def broken_pdf() -> bytes:
    """A PDF header followed by garbage: no objects, no cross-reference table."""
    return b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nthis is not a PDF object\n"


def text_run(size: int) -> bytes:
    """A content stream of about ``size`` bytes showing one endless run of text (no line
    break: pypdf's extraction of it is worse than linear, about 1 s a MB at 1 MB)."""
    return b"BT /F1 11 Tf 72 720 Td " + b"(harbour tonnage rose in the year) Tj " * (size // 38) + b"ET"


class Deflated(bytes):
    """Content already deflated (:func:`deflated_repeats`), which :func:`bomb_pdf` stores as it is."""


def deflated_repeats(unit: bytes, times: int) -> Deflated:
    """``unit`` repeated ``times`` times, zlib-compressed without building the whole: each
    repeat is the same deflate block after a full flush (which empties the window), so one is
    compressed and copied (80 MB of content in 0.01 s and 120 KB; compressing it took 0.4 s)."""
    compressor = zlib.compressobj(9)
    first = compressor.compress(unit) + compressor.flush(zlib.Z_FULL_FLUSH)
    again = compressor.compress(unit) + compressor.flush(zlib.Z_FULL_FLUSH)
    checksum = 1
    for _ in range(times):
        checksum = zlib.adler32(unit, checksum)
    end = compressor.flush()[:-4] + struct.pack(">I", checksum)
    return Deflated(first + again * (times - 1) + end)


def _flate(writer: PdfWriter, data: bytes, **entries: object) -> object:
    stream = StreamObject()
    # stored compressed, as a producer writes it
    stream._data = bytes(data) if isinstance(data, Deflated) else zlib.compress(data, 9)  # noqa: SLF001
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    for name, value in entries.items():
        stream[NameObject("/" + name)] = value
    return writer._add_object(stream)  # noqa: SLF001


def _form(writer: PdfWriter, content: bytes, **entries: object) -> object:
    """A form XObject drawing ``content``, as a page's resources name it."""
    box = ArrayObject([FloatObject(0), FloatObject(0), FloatObject(612), FloatObject(792)])
    return _flate(writer, content, Type=NameObject("/XObject"), Subtype=NameObject("/Form"), BBox=box, **entries)


def bomb_pdf(
    pages: Sequence[Union[bytes, Sequence[str]]], *, in_form: bool = False, ballast: int = 0, shared: bool = False
) -> bytes:
    """A PDF whose pages are text pages (lines, as :func:`text_pdf`) and pages drawing a
    content stream given as bytes, stored Flate-compressed (a few KB for megabytes of
    repeated operators; :class:`Deflated` content is stored as it is); ``in_form``: the page draws it through a form XObject of its own;
    ``ballast``: bytes of random data in a stream no page uses (a file that large); ``shared``:
    pages drawing the same bytes draw one content stream (one object the pages refer to; not
    with ``in_form``)."""
    writer = PdfWriter()
    resources = _font(writer)
    if ballast:
        unused = DecodedStreamObject()
        unused.set_data(os.urandom(ballast))
        writer._add_object(unused)  # noqa: SLF001
    streams: dict[bytes, object] = {}
    for content in pages:
        if not isinstance(content, bytes):
            _text_page(writer, resources, content)
            continue
        page = writer.add_blank_page(width=612, height=792)
        if shared and content in streams:
            page[NameObject("/Resources")] = resources
            page[NameObject("/Contents")] = streams[content]
            continue
        drawn = content
        if in_form:
            form = _form(writer, content, Resources=resources)
            xobjects = DictionaryObject({NameObject("/X0"): form})
            page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
            content = b"/X0 Do"
        else:
            page[NameObject("/Resources")] = resources
        page[NameObject("/Contents")] = streams[drawn] = _flate(writer, content)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def font_map_pdf(pages: Sequence[Sequence[str]], to_unicode: bytes) -> bytes:
    """A PDF of text pages (lines, as :func:`text_pdf`) whose one font, shared by every page, has
    the character map ``to_unicode`` (``/ToUnicode``, stored as :func:`bomb_pdf` stores content)."""
    writer = PdfWriter()
    resources = _font(writer)
    font = resources["/Font"]["/F1"].get_object()
    font[NameObject("/ToUnicode")] = _flate(writer, to_unicode)
    for lines in pages:
        _text_page(writer, resources, lines)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def idle_form_pdf(lines: Sequence[str], form_content: bytes) -> bytes:
    """A one-page PDF showing ``lines`` whose resources also hold a form XObject of
    ``form_content`` that the page never draws (producers share one resource dictionary)."""
    writer = PdfWriter()
    resources = _font(writer)
    resources[NameObject("/XObject")] = DictionaryObject({NameObject("/Unused"): _form(writer, form_content)})
    _text_page(writer, resources, lines)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


#: A character map (``/ToUnicode``) that maps the printable bytes to themselves, then (``%s``)
#: the padding.
_IDENTITY_MAP = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF>"
    b" endcodespacerange 1 beginbfrange <20> <7E> <0020> endbfrange endcmap%s end end"
)


def mapped_font_pdf(pages: Sequence[Sequence[str]], padding: int) -> bytes:
    """A PDF whose page ``n`` shows ``pages[n]`` in a font of its own whose character map is
    padded with ``padding`` blanks (stored Flate-compressed: a few KB for megabytes)."""
    writer = PdfWriter()
    for lines in pages:
        resources = _font(writer)
        font = resources["/Font"]["/F1"].get_object()  # type: ignore[index]
        font[NameObject("/ToUnicode")] = _flate(writer, _IDENTITY_MAP % (b" " * padding))
        _text_page(writer, resources, lines)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def object_stream_pdf(pages: int, padding: int) -> bytes:
    """A PDF of ``pages`` blank pages, each page object in an object stream of its own padded
    with ``padding`` blanks (Flate-compressed), found through a cross-reference stream;
    written by hand: pypdf writes no object streams."""
    out = b"%PDF-1.7\n"
    entries: dict[int, tuple[int, int, int]] = {}  # object number -> cross-reference entry

    def add(number: int, body: bytes) -> None:
        nonlocal out
        entries[number] = (1, len(out), 0)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)

    kids = b" ".join(b"%d 0 R" % (3 + n) for n in range(pages))
    add(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    add(2, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages))
    for n in range(pages):
        header = b"%d 0 " % (3 + n)
        data = zlib.compress(header + b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>" + b" " * padding, 9)
        stream = b"<< /Type /ObjStm /N 1 /First %d /Filter /FlateDecode /Length %d >>" % (len(header), len(data))
        add(3 + pages + n, stream + b"\nstream\n" + data + b"\nendstream")
        entries[3 + n] = (2, 3 + pages + n, 0)
    xref = 3 + 2 * pages
    entries[xref] = (1, len(out), 0)
    rows = zlib.compress(b"".join(struct.pack(">BIH", *entries.get(n, (0, 0, 65535))) for n in range(xref + 1)))
    head = b"<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length %d >>" % (xref + 1, len(rows))
    out += b"%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n" % (xref, head, rows)
    return out + b"startxref\n%d\n%%%%EOF\n" % entries[xref][1]


def object_stream_text_pdf(line: str, others: Sequence[bytes], *, info: Optional[bytes] = None) -> bytes:
    """A one-page PDF showing ``line`` whose page object sits in an object stream with ``others``
    (objects 10, 11, ..., which nothing refers to; a Flate-compressed stream, so a megabyte of one
    letter is a few KB of file), found through a cross-reference stream; ``info``: the trailer's
    ``/Info``, object 6, in that stream too. Written by hand: pypdf writes no object streams."""
    out = b"%PDF-1.7\n"
    entries: dict[int, tuple[int, int, int]] = {}

    def add(number: int, body: bytes) -> None:
        nonlocal out
        entries[number] = (1, len(out), 0)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)

    content = b"BT /F1 11 Tf 72 720 Td (%s) Tj ET" % _escaped(line).encode("latin-1")
    add(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    add(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    add(4, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    add(5, b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 4 0 R >> >> >>"
    held = [(3, page), *([(6, info)] if info is not None else []), *((10 + n, body) for n, body in enumerate(others))]
    header = data = b""
    for number, body in held:
        header += b"%d %d " % (number, len(data))
        data += body + b"\n"
    packed = zlib.compress(header + data, 9)
    stream = b"<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>" % (
        len(held),
        len(header),
        len(packed),
    )
    add(7, stream + b"\nstream\n" + packed + b"\nendstream")
    for index, (number, _) in enumerate(held):
        entries[number] = (2, 7, index)
    xref = 10 + len(others)
    entries[xref] = (1, len(out), 0)
    rows = zlib.compress(b"".join(struct.pack(">BIH", *entries.get(n, (0, 0, 65535))) for n in range(xref + 1)))
    trailer = b"/Root 1 0 R" + (b" /Info 6 0 R" if info is not None else b"")
    head = b"<< /Type /XRef /Size %d /W [1 4 2] %s /Filter /FlateDecode /Length %d >>" % (xref + 1, trailer, len(rows))
    out += b"%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n" % (xref, head, rows)
    return out + b"startxref\n%d\n%%%%EOF\n" % entries[xref][1]


def hand_written_pdf(objects: Sequence[bytes]) -> bytes:
    """A PDF of ``objects`` (object ``n`` is ``objects[n - 1]``; the first is the catalog)
    with a cross-reference table, written by hand: pypdf's writer repairs what a test wants
    broken, and takes seconds for many pages."""
    parts = [b"%PDF-1.7\n"]
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(sum(map(len, parts)) if number == 1 else offsets[-1] + len(parts[-1]))
        parts.append(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = offsets[-1] + len(parts[-1])
    rows = b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    parts.append(b"xref\n0 %d\n0000000000 65535 f \n%s" % (len(offsets) + 1, rows))
    parts.append(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref))
    return b"".join(parts)


def blank_pages_pdf(pages: int) -> bytes:
    """A PDF of ``pages`` blank pages (about 80 bytes each: 40,000 in 3.2 MB), their size and
    their empty resources inherited from the page tree's root."""
    kids = b" ".join(b"%d 0 R" % (3 + n) for n in range(pages))
    return hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d /MediaBox [0 0 612 792] /Resources << >> >>" % (kids, pages),
            *[b"<< /Type /Page /Parent 2 0 R >>"] * pages,
        ]
    )


def _text_stream(line: str) -> bytes:
    content = b"BT /F1 11 Tf 72 720 Td (%s) Tj ET" % _escaped(line).encode("latin-1")
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)


def nested_tree_pdf(lines: Sequence[str], *, cycle: bool = False) -> bytes:
    """A PDF of three pages showing ``lines`` (three), in a page tree of two levels: the first
    two pages under a node of their own whose font they inherit, the third beside that node
    with its own font; ``cycle``: that node also lists the root among its kids. The font's
    encoding reads ``X`` as ``T`` (a page read without its font shows the ``X``)."""
    font = b"/Resources << /Font << /F1 6 0 R >> >>"
    inner_kids = b"4 0 R 5 0 R 2 0 R" if cycle else b"4 0 R 5 0 R"
    return hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R 7 0 R] /Count 3 /MediaBox [0 0 612 792] >>",
            b"<< /Type /Pages /Parent 2 0 R /Kids [%s] /Count 2 %s >>" % (inner_kids, font),
            b"<< /Type /Page /Contents 8 0 R >>",  # no /Parent: pypdf's extraction looks up
            b"<< /Type /Page /Contents 9 0 R >>",  # a page's resources through it
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [88 /T] >> >>",
            b"<< /Type /Page /Parent 2 0 R /Contents 10 0 R %s >>" % font,
            *[_text_stream(line) for line in lines],
        ]
    )


def misplaced_xref(body: bytes) -> bytes:
    """The PDF ``body`` with its ``startxref`` pointing a few bytes past its cross-reference
    table (a file edited by hand): pypdf finds the table nearby and logs a warning on it."""
    pointer = re.search(rb"startxref\s+(\d+)", body)
    assert pointer is not None
    return body[: pointer.start(1)] + b"%d" % (int(pointer[1]) + 7) + body[pointer.end(1) :]


def chained_xref_pdf(sections: int) -> bytes:
    """A PDF of no page whose cross-reference is ``sections`` tables of one entry, each one's
    trailer pointing to the one before (``/Prev``; about 76 bytes each: 30,000 in 2.3 MB). pypdf
    reads every table when it opens the file: about 0.1 ms each on an idle machine, in one call."""
    parts = [b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"]
    parts.append(b"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
    at, previous = sum(map(len, parts)), None
    for _ in range(sections):
        pointer = b"" if previous is None else b" /Prev %d" % previous
        parts.append(b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size 3 /Root 1 0 R%s >>\n" % pointer)
        at, previous = at + len(parts[-1]), at
    return b"".join(parts) + b"startxref\n%d\n%%%%EOF\n" % previous


def xref_stream_pdf(entries: int) -> bytes:
    """A PDF of no page whose cross-reference stream lists ``entries`` free objects: 3 bytes
    each, zeros, which compress to next to nothing (1,990,000 in 6 KB). pypdf reads each entry
    in Python from the decoded stream when it opens the file, never reading the file meanwhile."""
    parts = [b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"]
    parts.append(b"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
    at = sum(map(len, parts))
    data = zlib.compress(bytes(3 * entries), 9)
    parts.append(
        b"3 0 obj\n<< /Type /XRef /Size %d /W [1 1 1] /Root 1 0 R /Filter /FlateDecode /Length %d >>\nstream\n"
        % (entries, len(data))
        + data
        + b"\nendstream\nendobj\n"
    )
    return b"".join(parts) + b"startxref\n%d\n%%%%EOF\n" % at

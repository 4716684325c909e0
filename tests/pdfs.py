"""Small PDFs built in the test, with pypdf: text pages under a Helvetica font (what a
word processor's export carries), an encrypted copy, pages without a text layer (what
a scanner produces: no text operators), and a broken file."""

import io
from collections.abc import Sequence
from typing import Optional

from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

__all__ = ["text_pdf", "textless_pdf", "broken_pdf"]


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


def text_pdf(pages: Sequence[Sequence[str]], *, title: Optional[str] = None, password: Optional[str] = None) -> bytes:
    """A PDF whose page ``n`` shows the lines ``pages[n]``; ``title`` in its metadata;
    encrypted (RC4, no extra dependency) with the user password ``password``."""
    writer = PdfWriter()
    resources = _font(writer)
    for lines in pages:
        page = writer.add_blank_page(width=612, height=792)
        operators = ["BT", "/F1 11 Tf", "14 TL", "72 720 Td"]
        operators += ["(%s) Tj T*" % _escaped(line) for line in lines]
        operators.append("ET")
        stream = DecodedStreamObject()
        stream.set_data("\n".join(operators).encode("latin-1"))
        page[NameObject("/Contents")] = writer._add_object(stream)  # noqa: SLF001
        page[NameObject("/Resources")] = resources
    if title is not None:
        writer.add_metadata({"/Title": title})
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

"""A PDF whose text pypdf extracts as control codes only (reader/pdf.py ``_NO_TEXT``): a subset
font without a character map (``/ToUnicode``) gives its glyphs' numbers, as a viewer's copied
text does. It has a text layer, which says nothing: ``pdf_no_text`` says that, not "without a
text layer (scanned pages?)", which sent a reader to look for scans."""

import pytest
from pdfs import hand_written_pdf
from requests.structures import CaseInsensitiveDict

from websearch_sync.errors import WebParseError
from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader import pdf


def glyph_ids_pdf(shown: bytes) -> bytes:
    """One page showing the two-byte glyph numbers ``shown`` in a CID font without a character map."""
    content = b"BT /F1 11 Tf 72 720 Td <%s> Tj ET" % shown
    return hand_written_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
            b"<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Sub /Encoding /Identity-H /DescendantFonts [6 0 R] >>",
            b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Sub"
            b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>",
        ]
    )


def test_a_pdf_whose_glyphs_map_to_no_characters_says_so():
    headers = CaseInsensitiveDict({"Content-Type": "application/pdf"})
    body = glyph_ids_pdf(b"000100020003000400050006")  # pypdf: "\x01\x02\x03\x04\x05\x06"
    with pytest.raises(WebParseError) as raised:
        pdf.pdf_text(HttpResponse(200, headers, body, "http://example.org/r.pdf"), mode="text", provider="fetch")
    assert raised.value.detail_code == "pdf_no_text"
    assert "whose text maps to no characters (its fonts give none for their glyphs)" in raised.value.message

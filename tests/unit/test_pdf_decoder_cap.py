"""A page whose content decodes past pypdf's own cap (reader/pdfdraw.py ``drawn_bytes``, its
``over_cap``): pypdf raises ``LimitReachedError`` at 75 MB decoded, and the page is left out
for its size (``large_pages``, as one drawing over 1 MB), not as a page pypdf cannot read: a
bomb of 160 KB was named in the ``pdf_pages_left_out`` warning, and alone it was ``pdf_broken``."""

from pdfs import bomb_pdf, deflated_repeats
from requests.structures import CaseInsensitiveDict

from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader import pdf
from websearch_sync.reader.pagetext import CUT_LARGE_PAGES

#: 83 MB of text operators (more than pypdf's 75 MB cap) in 160 KB.
OVER_PYPDF_CAP = deflated_repeats(b"BT (x) Tj ET " * 80_000, 80)


def response(body: bytes) -> HttpResponse:
    return HttpResponse(200, CaseInsensitiveDict({"Content-Type": "application/pdf"}), body, "http://example.org/b.pdf")


def test_a_page_decoding_past_pypdf_s_cap_is_left_out_for_its_size():
    body = bomb_pdf([["The quay opened in October."], OVER_PYPDF_CAP])
    read = pdf.pdf_text(response(body), mode="text", provider="fetch")
    assert (read.text, read.cuts, read.warnings) == (
        "--- Page 1 ---\n\nThe quay opened in October.",
        {CUT_LARGE_PAGES},
        [],
    )
    # alone, such a page is a PDF that decodes to more than fetch reads (response_too_large, as
    # for a page drawing over 1 MB: tests/sockets/test_fetch_pdf.py), which that cut makes it

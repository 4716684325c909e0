"""A body declared a PDF that is none (reader/pdf.py ``_what_broke``): a text or nothing sent
under ``application/pdf`` is still ``pdf_broken``, but its message says it is no PDF instead of
"a PDF that cannot be read (PdfStreamError)", which sent an agent to retry a file that was never
there. A sign-in page sent so is read as the page (net.media ``content_kind``; fetch's own test:
test_fetch_pdf.py), never handed to the PDF reader: the reader's note "(it opens as an HTML page)"
could not be reached, and is gone. Read through ``page_text``, fetch's way to the PDF reader.
A PDF without its header is still read: pypdf reads a file from its end."""

import pytest
from pdfs import broken_pdf, text_pdf
from requests.structures import CaseInsensitiveDict

from websearch_sync.errors import WebParseError
from websearch_sync.net.transport import HttpResponse
from websearch_sync.reader.content import page_text

SIGN_IN = b"<!doctype html><html><head><title>Sign in</title></head><body><h1>Sign in to download</h1></body></html>"


def read(body: bytes):
    headers = CaseInsensitiveDict({"Content-Type": "application/pdf"})
    return page_text(HttpResponse(200, headers, body, "http://example.org/r.pdf"), mode="text", provider="fetch")


@pytest.mark.parametrize(
    "body, said",
    [
        (b"Access denied\n", "application/pdf content that is no PDF: it opens with no %PDF- header"),
        (b"", "application/pdf content that is no PDF: it is empty"),
        # a header, then garbage, and no trailer: it ends as a file cut short does
        (
            broken_pdf(),
            "a PDF that cannot be read (PdfStreamError): it ends without a PDF's trailer (%%EOF), as a file cut short does",
        ),
    ],
    ids=["text", "empty", "broken pdf"],
)
def test_a_body_declared_a_pdf_that_is_none_says_so(body, said):
    with pytest.raises(WebParseError) as raised:
        read(body)
    assert (raised.value.detail_code, raised.value.message) == ("pdf_broken", "example.org served " + said)


def test_a_sign_in_page_declared_a_pdf_is_read_as_the_page_not_by_the_pdf_reader():
    page = read(SIGN_IN)
    assert page.extractor != "pdf" and page.title == "Sign in" and "Sign in to download" in page.text


def test_a_pdf_without_its_header_is_read():
    assert read(b"%XXX" + text_pdf([["No header."]])[4:]).text == "No header."

"""What pypdf parses of a PDF without reaching a checkpoint is bounded: pypdf parses a whole
object stream, every object in it, the first time it resolves any one of them, from data it
already decoded (no read of the file, so no checkpoint), at 0.2-2.4 µs a byte (strings fastest,
names and numbers slowest); a 40 KB file whose page object shares its object stream with a
40 MB string ran on for 5.6 s of CPU after its fetch gave the read up at its deadline. Nor is the
title read at any cost: pypdf parses a string a byte at a time, a read of the file each (1-2 s a
MB), and a PDF of one page and a 3 MB title took its fetch past its deadline, the page's text lost.
"""

import pytest
from faults import respond
from pdfs import object_stream_text_pdf, text_pdf
from servers import FaultServer
from test_fetch_pdf import PDF, fetch, fetch_error

from websearch_sync.reader import pdf

LINE = "Annual report of the harbour authority"


def test_an_object_stream_decoding_to_over_its_cap_is_not_parsed():
    body = object_stream_text_pdf(LINE, [b"(" + b"T" * (pdf.MAX_OBJECT_STREAM + 1000) + b")"])
    assert len(body) < 10_000
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        error = fetch_error(server.url("/b.pdf"), timeout_ms=20_000)
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "response_too_large"), repr(error)
    assert "an object stream" in error.message


@pytest.mark.parametrize(
    "others", [[], [b"(" + b"T" * (pdf.MAX_OBJECT_STREAM // 2) + b")"]], ids=["alone", "half the cap"]
)
def test_a_page_object_in_an_object_stream_within_its_cap_is_read(others):
    body = object_stream_text_pdf(LINE, others)
    with FaultServer({"/b.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/b.pdf"), timeout_ms=20_000)
    assert (result["extractor"], result["text"], result["truncated"]) == ("pdf", LINE, False)


@pytest.mark.parametrize("length, kept", [(10_000, True), (300_000, False)])
def test_a_title_is_read_only_within_its_reads_of_the_file(length, kept):
    body = text_pdf([[LINE]], title="T" * length)
    with FaultServer({"/t.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/t.pdf"), timeout_ms=20_000)
    assert (result["text"], result["title"]) == (LINE, "T" * length if kept else "")


def test_a_title_in_an_object_stream_is_read():
    body = object_stream_text_pdf(LINE, [], info=b"<< /Title (Harbour report) >>")
    with FaultServer({"/t.pdf": respond(200, body, content_type=PDF)}) as server:
        result = fetch(server.url("/t.pdf"))
    assert (result["text"], result["title"]) == (LINE, "Harbour report")

"""What pypdf parses of a PDF without reaching a checkpoint is bounded: pypdf parses a whole
object stream, every object in it, the first time it resolves any one of them, from data it
already decoded (no read of the file, so no checkpoint), at 0.2-2.4 µs a byte (strings fastest,
names and numbers slowest); a 40 KB file whose page object shares its object stream with a
40 MB string ran on for 5.6 s of CPU after its fetch gave the read up at its deadline."""

import pytest
from faults import respond
from pdfs import object_stream_text_pdf
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

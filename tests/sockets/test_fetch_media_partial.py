"""A 206 Partial Content answer holding only a part of an image or a PDF (fetch sends no ``Range``;
some servers and caches answer so anyway): a part of an image is no image a model API takes (one
refuses the whole request carrying it), and it was returned as one, ``truncated`` by
``partial_content``; a part of a PDF pypdf cannot read said only ``PdfStreamError``."""

import pytest
from faults import respond
from images import pillow_image
from pdfs import text_pdf
from servers import FaultServer

import websearch_sync as ws

pytest.importorskip("PIL.Image")  # the JPEG is written by Pillow
PHOTO = pillow_image(300, 200, "JPEG")
REPORT = text_pdf([["Line %d of the report on page %d." % (line, page) for line in range(10)] for page in range(5)])


def part_of(body: bytes, content_type: str, end: int):
    """A 206 answer with the first ``end`` bytes of ``body``, its ``Content-Range`` saying so."""
    return respond(
        206, body[:end], content_type=content_type, headers={"Content-Range": "bytes 0-%d/%d" % (end - 1, len(body))}
    )


def fetch_error(url: str, **kwargs) -> ws.WebSearchError:
    with pytest.raises(ws.WebSearchError) as info:
        ws.fetch(url, allow_private=True, settings=ws.Settings(), **kwargs)
    return info.value


def test_a_part_of_an_image_is_unreadable_saying_the_server_sent_a_part():
    with FaultServer({"/p.jpg": part_of(PHOTO, "image/jpeg", len(PHOTO) // 2)}) as server:
        error = fetch_error(server.url("/p.jpg"), images=True)
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "image_unreadable"), repr(error)
    assert "only a part" in error.message, error.message


def test_a_206_holding_the_whole_image_is_returned():
    with FaultServer({"/p.jpg": part_of(PHOTO, "image/jpeg", len(PHOTO))}) as server:
        result = ws.fetch(server.url("/p.jpg"), images=True, allow_private=True, settings=ws.Settings())
    assert (result["extractor"], result["width"], result["height"], result["truncated"]) == ("image", 300, 200, False)


def test_a_part_of_a_pdf_that_cannot_be_read_says_the_server_sent_a_part():
    with FaultServer({"/r.pdf": part_of(REPORT, "application/pdf", len(REPORT) // 2)}) as server:
        error = fetch_error(server.url("/r.pdf"))
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "pdf_broken"), repr(error)
    assert "only a part" in error.message, error.message

"""A body served under a type that says nothing of it is sniffed as a browser sniffs it (the MIME
Sniffing standard's "rules for identifying an unknown MIME type"): under no type, ``*/*``,
``application/unknown``, ``unknown/unknown`` or a value that is no media type, a page, a PDF and an
image are read as what they are, binary data is refused saying so; a PDF with bytes before its
header is read as a PDF, as PDF readers take it, and a text that names ``%PDF-`` is not."""

import pytest
from faults import respond
from images import png
from pdfs import text_pdf
from servers import FaultServer

import websearch_sync as ws

UNKNOWN_TYPES = ["*/*", "application/unknown", "unknown/unknown", "nonsense"]
PAGE = b"<!doctype html><title>Tide tables</title><p>High water at the harbour is at 06:12 today.</p>"
NOTICE = text_pdf([["A one-page notice of the harbour."]], title="Notice")
PICTURE = png(4, 3)
JUNK = bytes(range(256)) * 8  # binary data no sniffing rule names: NUL bytes and controls
PHP_WARNING = b"<br />\nWarning: session_start(): headers already sent in /srv/report.php on line 3<br />\n"
MACBINARY = b"\x00\x11report.pdf" + b"\x00" * 116  # a 128-byte MacBinary header before the file
PDF_NAMED = b"How to spot a PDF: it opens with %PDF-1.7\nand then its objects follow, numbered.\n"


def routes():
    """Every body under every unknown type and under none; ``/<kind>/none`` sends no Content-Type."""
    bodies = {"page": PAGE, "pdf": NOTICE, "png": PICTURE, "junk": JUNK}
    bodies.update(php=PHP_WARNING + NOTICE, macbinary=MACBINARY + NOTICE, named=PDF_NAMED)
    bodies.update(far=b"x" * 1024 + b"\n" + NOTICE, html_named=b"<p>" + PDF_NAMED + b"</p>")
    answers = {}
    for name, body in bodies.items():
        answers["/%s/none" % name] = respond(200, body, content_type=None)
        for number, media in enumerate(UNKNOWN_TYPES):
            answers["/%s/%d" % (name, number)] = respond(200, body, content_type=media)
    return answers


@pytest.fixture(scope="module")
def server():
    with FaultServer(routes()) as running:
        yield running


def fetch(server, path, **kwargs):
    return ws.fetch(server.url(path), allow_private=True, settings=ws.Settings(), **kwargs)


def refusal(server, path, **kwargs):
    with pytest.raises(ws.WebProviderError) as caught:
        fetch(server, path, **kwargs)
    return caught.value.detail_code, caught.value.message


TYPES = pytest.mark.parametrize("number", range(len(UNKNOWN_TYPES)), ids=UNKNOWN_TYPES)


@TYPES
def test_a_page_under_an_unknown_type_is_read_as_a_page(server, number):
    result = fetch(server, "/page/%d" % number)
    assert (result["extractor"], result["title"]) == ("readability", "Tide tables")
    assert "High water at the harbour is at 06:12 today." in result["text"]


@TYPES
def test_a_pdf_under_an_unknown_type_is_read_as_a_pdf(server, number):
    result = fetch(server, "/pdf/%d" % number)
    assert (result["extractor"], result["title"], result["text"]) == (
        "pdf",
        "Notice",
        "A one-page notice of the harbour.",
    )


@TYPES
def test_an_image_under_an_unknown_type_is_returned_as_an_image(server, number):
    result = fetch(server, "/png/%d" % number, images=True)
    assert (result["extractor"], result["content_type"], result["width"], result["height"]) == (
        "image",
        "image/png",
        4,
        3,
    )


@pytest.mark.parametrize(
    "path, served",
    [
        ("/png/0", "content of an unknown type (*/*)"),
        ("/png/3", "content of an unknown type (a Content-Type that names no media type)"),
        ("/png/none", "content without a type"),
    ],
)
def test_an_image_not_asked_for_says_its_type_says_nothing(server, path, served):
    assert refusal(server, path) == (
        "unsupported_content",
        "127.0.0.1 served %s, an image; fetch returns images only when asked" % served,
    )


@pytest.mark.parametrize(
    "path, served",
    [
        *(("/junk/%d" % n, "content of an unknown type (%s)" % media) for n, media in enumerate(UNKNOWN_TYPES[:3])),
        ("/junk/3", "content of an unknown type (a Content-Type that names no media type)"),
        ("/junk/none", "content without a type"),
    ],
)
def test_binary_data_under_an_unknown_type_is_refused_saying_what_it_sniffed_as(server, path, served):
    assert refusal(server, path) == (
        "unsupported_content",
        "127.0.0.1 served %s, binary data by its first bytes (no HTML, PDF, image or text), which fetch cannot read"
        % served,
    )


@pytest.mark.parametrize("junk", ["php", "macbinary"])
@pytest.mark.parametrize("media", ["none", "0"], ids=["untyped", "*/*"])
def test_a_pdf_with_bytes_before_its_header_is_read_as_a_pdf(server, junk, media):
    result = fetch(server, "/%s/%s" % (junk, media))
    assert (result["extractor"], result["text"]) == ("pdf", "A one-page notice of the harbour.")


def test_a_text_that_names_the_pdf_header_is_returned_as_text(server):
    result = fetch(server, "/named/none")
    assert (result["extractor"], result["text"]) == ("text", PDF_NAMED.decode().strip())


def test_a_page_that_names_the_pdf_header_is_read_as_a_page(server):
    result = fetch(server, "/html_named/none")
    assert result["extractor"] != "pdf" and result["text"].startswith("How to spot a PDF")


def test_a_pdf_header_past_the_first_1024_bytes_makes_no_pdf(server):
    result = fetch(server, "/far/none", max_chars=40)
    assert (result["extractor"], result["text"]) == ("text", "x" * 40)

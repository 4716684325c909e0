"""Text fetch reads as it is, whatever its text type: CSV, XML, a feed, CSS, JavaScript, source
code were refused as content fetch cannot read (only ``text/plain`` and ``text/markdown`` were
read), though they are text a model reads. Binary data under such a type is still refused, and
so is a stream that never ends (``text/event-stream``), from its headers."""

import pytest
from faults import endless, raw, respond
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

import websearch_sync as ws

FEED = (
    b'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Harbour news</title>'
    b"<item><title>Dredging approved</title><description>The board approved the plan.</description></item>"
    b"</channel></rss>"
)
BODIES = {
    "text/csv": b"date,tonnage\n2024-01,1200\n2024-02,1310\n",
    "text/xml": FEED,
    "application/xml": FEED,
    "application/rss+xml": FEED,
    "application/atom+xml; charset=utf-8": FEED.replace(b"rss", b"feed"),
    "text/css": b"body { color: #222; }\narticle p { margin: 0 0 1em; }\n",
    "application/javascript": b"export function tonnage(rows) {\n  return rows.length;\n}\n",
    "text/x-python": b"def tonnage(rows):\n    return len(rows)\n",
}


@pytest.mark.parametrize("content_type", BODIES)
def test_a_text_type_is_read_as_it_is(content_type):
    body = BODIES[content_type]
    with FaultServer({"/f": respond(200, body, content_type=content_type)}) as server:
        result = fetch(server.url("/f"))
    assert (result["extractor"], result["content_type"]) == ("text", content_type.split(";")[0])
    assert result["text"] == body.decode().strip() and result["truncated"] is False


XHTML = (
    b'\xef\xbb\xbf<?xml version="1.0" encoding="utf-8"?>\n<!-- served by a static site -->\n'
    b'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
    b'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Harbour works</title>'
    b"<script>var tracking_id = 1;</script></head><body><article><h1>Harbour works</h1><p>"
    + b"The harbour board approved the dredging plan after a long public hearing on Tuesday. " * 4
    + b"</p></article></body></html>"
)


#: The same document in UTF-16, opening with its byte-order mark.
XHTML_UTF16 = XHTML[3:].replace(b"utf-8", b"utf-16").decode().encode("utf-16")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
@pytest.mark.parametrize("content_type", ["text/xml", "application/xml", "application/xhtml+xml"])
def test_xhtml_served_as_xml_is_read_as_a_page(content_type, encoding):
    """An XML document whose root is ``<html>`` is a page a browser shows as one: its markup and
    scripts came back as the text when served as ``text/xml`` or ``application/xml`` (a UTF-16
    one too: its root was looked for in its raw bytes, where ``<html`` is spelt with NULs)."""
    body = XHTML if encoding == "utf-8" else XHTML_UTF16
    with FaultServer({"/f": respond(200, body, content_type=content_type)}) as server:
        result = fetch(server.url("/f"), extract_mode="text")
    assert result["extractor"] != "text" and result["title"] == "Harbour works"
    assert result["text"].startswith("The harbour board approved the dredging plan")
    assert "<" not in result["text"] and "tracking_id" not in result["text"]


def test_binary_data_under_a_text_type_is_still_refused():
    with FaultServer({"/f": respond(200, bytes(range(256)) * 64, content_type="text/csv")}) as server:
        error = fetch_error(server.url("/f"))
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content")
    assert "binary data as text/csv" in error.message


def test_an_event_stream_is_refused_from_its_headers():
    with FaultServer({"/events": endless(content_type="text/event-stream")}) as server:
        error = fetch_error(server.url("/events"), timeout_ms=30_000)
    assert (type(error).__name__, error.detail_code) == ("WebProviderError", "unsupported_content")
    assert "text/event-stream" in error.message


ARTICLE = (
    b"<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1><p>"
    + b"The harbour board approved the dredging plan after a long public hearing on Tuesday. " * 6
    + b"</p></article></body></html>"
)


def with_content_types(*values: bytes, body: bytes = ARTICLE):
    """An answer carrying one ``Content-Type`` header per value."""
    lines = b"".join(b"Content-Type: %s\r\n" % value for value in values)
    return raw(b"HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\nConnection: close\r\n\r\n" % (lines, len(body)) + body)


@pytest.mark.parametrize(
    "values",
    [
        (b"text/html", b"text/html; charset=utf-8"),
        (b"text/plain", b"text/html"),
        (b"text/html, text/html",),
        (b'text/html; charset="x, application/json"',),
    ],
    ids=["the same twice", "the last one counts", "two in one header", "a comma inside quotes"],
)
@pytest.mark.parametrize("impersonate", ["off", "chrome"])
def test_several_content_types_are_read_as_a_browser_reads_them(values, impersonate):
    """The last valid type, as the Fetch standard extracts it: "text/html, text/html" was a type
    fetch could not read, or (any text type read as text) the page returned with its markup."""
    with FaultServer({"/p": with_content_types(*values)}) as server:
        result = fetch(server.url("/p"), settings=ws.Settings(impersonate=impersonate))
    assert (result["extractor"], result["content_type"]) == ("readability", "text/html")
    assert result["text"].startswith("The harbour board approved")


CYRILLIC = (
    "<html><head><title>Порт</title></head><body><article><h1>Порт</h1><p>"
    + "Совет порта одобрил план дноуглубления после долгих публичных слушаний. " * 6
    + "</p></article></body></html>"
).encode()


def test_the_charset_is_the_one_of_the_type_that_counts():
    """The charset goes with the last type: the first one named read a UTF-8 page as windows-1251."""
    value = b"text/plain; charset=windows-1251, text/html; charset=utf-8"
    with FaultServer({"/p": with_content_types(value, body=CYRILLIC)}) as server:
        result = fetch(server.url("/p"))
    assert (result["extractor"], result["title"]) == ("readability", "Порт")
    assert result["text"].startswith("Совет порта одобрил план дноуглубления")

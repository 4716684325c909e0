"""JSON served as ``text/html`` (an API left at its server's default type) is read as the JSON it
is: read as HTML, its strings lost their markup (``<b>bold</b>`` became ``**bold**``) and gained
markdown escapes (``\\*starred\\*``), and the JSON came back altered. HTML stays HTML."""

import json

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_pdf import fetch, fetch_error

DATA = {
    "items": [{"snake_case_name": "*starred* _under_ [link](x) <b>bold</b> & 1 < 2", "rank": n} for n in range(3)],
    "next": None,
}


@pytest.mark.parametrize("mode", ["markdown", "text"])
@pytest.mark.parametrize("body", [json.dumps(DATA).encode(), b"\xef\xbb\xbf\n  " + json.dumps(DATA["items"]).encode()])
def test_json_declared_as_html_comes_back_unaltered(body, mode):
    with FaultServer({"/api": respond(200, body, content_type="text/html; charset=utf-8")}) as server:
        result = fetch(server.url("/api"), extract_mode=mode)
    assert (result["extractor"], result["content_type"]) == ("json", "text/html")
    assert json.loads(result["text"]) == json.loads(body.decode("utf-8-sig"))


def test_html_opening_with_a_brace_that_is_no_json_stays_html():
    page = (
        b"{ draft } <p>" + b"The harbour board approved the dredging plan after a long public hearing. " * 4 + b"</p>"
    )
    with FaultServer({"/p": respond(200, page, content_type="text/html")}) as server:
        result = fetch(server.url("/p"))
    assert result["extractor"] in ("readability", "visible_text") and "dredging plan" in result["text"]


LONG = json.dumps({"items": [{"title": "Harbour <b>works</b> & *dredging*", "rank": n} for n in range(200)]}).encode()


@pytest.mark.parametrize("cut", [1024, 1500, 2000, 2047])
def test_json_declared_as_html_and_cut_comes_back_as_json_cut_does(cut):
    """Cut by ``max_bytes`` it no longer parses, and went through HTML extraction (its markup
    turned to markdown, escapes added); served as JSON, what arrived comes back as it is."""
    routes = {
        "/html": respond(200, LONG, content_type="text/html; charset=utf-8"),
        "/json": respond(200, LONG, content_type="application/json"),
    }
    with FaultServer(routes) as server:
        as_html = fetch(server.url("/html"), max_bytes=cut)
        as_json = fetch(server.url("/json"), max_bytes=cut)
    assert as_html["truncated"] is True and as_html["extractor"] == "json"
    assert as_html["text"] == as_json["text"] == LONG[:cut].decode()


def test_json_declared_as_html_nested_too_deep_is_refused_as_json_is():
    deep = b"[" * 300 + b"]" * 300
    routes = {
        "/html": respond(200, deep, content_type="text/html"),
        "/json": respond(200, deep, content_type="application/json"),
    }
    with FaultServer(routes) as server:
        as_html = fetch_error(server.url("/html"))
        as_json = fetch_error(server.url("/json"))
    assert (type(as_html).__name__, as_html.detail_code) == ("WebParseError", "not_json")
    assert "nested over 256 levels deep" in as_html.message and as_html.message == as_json.message


def test_html_opening_with_a_brace_and_cut_stays_html():
    page = (
        b"{ draft } "
        + (b"<p>" + b"The harbour board approved the dredging plan after a long hearing. " * 4 + b"</p>") * 20
    )
    with FaultServer({"/p": respond(200, page, content_type="text/html")}) as server:
        result = fetch(server.url("/p"), max_bytes=1024)
    assert result["truncated"] is True
    assert result["extractor"] in ("readability", "visible_text") and "dredging plan" in result["text"]

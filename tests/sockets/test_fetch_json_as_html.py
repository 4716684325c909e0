"""JSON served as ``text/html`` (an API left at its server's default type) is read as the JSON it
is: read as HTML, its strings lost their markup (``<b>bold</b>`` became ``**bold**``) and gained
markdown escapes (``\\*starred\\*``), and the JSON came back altered. HTML stays HTML."""

import json

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_pdf import fetch

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

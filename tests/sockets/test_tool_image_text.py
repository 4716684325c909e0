"""A text-only consumer of a fetched image reads one line describing it (issue 35 item 2), in
``format_results``' text and markdown, on the MCP text block and in a repeat's answer: the line
is written by the library (type, size, URL), not page text, so it carries no untrusted-content
block and no page header repeating the URL. The MCP text block is checked in
tests/sockets/test_mcp.py, on the session of one server its fetch tests share."""

import pytest
from faults import respond
from images import png
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.client.search_client import SearchClient

PNG = png(64, 48)


@pytest.fixture(scope="module")
def image_result():
    with SearchClient(settings=ws.Settings(allow_private=True)) as client:
        with FaultServer({"/i.png": respond(200, PNG, content_type="image/png")}) as server:
            session = tool.ToolSession(client, images=True, max_repeats=1)
            first = session.call_tool("web_fetch", {"url": server.url("/i.png")})
            repeat = session.call_tool("web_fetch", {"url": server.url("/i.png")})
    return first, repeat


def test_format_results_gives_the_image_as_its_one_line(image_result):
    first, _ = image_result
    line = first["text"]
    assert line.startswith("[image: image/png, 64x48 pixels, ") and "\n" not in line
    assert tool.format_results(first) == line
    assert tool.format_results(first, "markdown") == tool.markdown_text(line)
    text, copy = tool.format_for_model(first)
    assert text == line and copy["text"] == line and "data" not in copy


def test_a_repeat_gives_its_note_then_the_line(image_result):
    first, repeat = image_result
    assert tool.format_results(repeat) == "%s\n\n%s" % (repeat["note"], first["text"])

"""include_comments through every way in (fetch, SearchClient.fetch and its cache, the CLI
flag, the tool argument), against a real local server: reader comment threads inside the
article are left out by default and kept on request."""

import json

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.cli import main

POST = (
    "<html><head><title>Mending a sash window</title></head><body><div class='post'><h1>Mending a sash window</h1>"
    + "".join(
        "<p>Paragraph %d of the post: the cords snapped, the weights fell, and the beads had to come off "
        "before anything else could be done with the window.</p>" % n
        for n in range(4)
    )
    + "<ol class='commentlist main'>"
    + "".join(
        "<li><div class='comment-body'><p>Reader %d writes: I had the same trouble with mine, and waxed "
        "cotton cord was the answer in the end.</p></div></li>" % n
        for n in range(3)
    )
    + "</ol></div></body></html>"
).encode()
COMMENT = "Reader 1 writes"


@pytest.fixture
def server():
    with FaultServer({"/post": respond(200, POST)}) as running:
        yield running


def test_fetch_leaves_comments_out_unless_asked(server):
    settings = ws.Settings()
    default = ws.fetch(server.url("/post"), allow_private=True, settings=settings)
    kept = ws.fetch(server.url("/post"), allow_private=True, settings=settings, include_comments=True)
    assert "Paragraph 3 of the post" in default["text"] and COMMENT not in default["text"]
    assert "Paragraph 3 of the post" in kept["text"] and COMMENT in kept["text"]


def test_the_client_cache_keeps_the_two_readings_apart(server):
    with ws.SearchClient("stub", settings=ws.Settings(allow_private=True), cache_ttl_s=60) as client:
        assert COMMENT not in client.fetch(server.url("/post"), allow_private=True)["text"]
        assert COMMENT in client.fetch(server.url("/post"), allow_private=True, include_comments=True)["text"]


def test_a_non_boolean_is_refused(server):
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(server.url("/post"), allow_private=True, settings=ws.Settings(), include_comments="yes")
    assert info.value.detail_code == "bad_include_comments"


def test_cli_flag_and_tool_argument(server, capsys):
    assert main(["fetch", server.url("/post"), "--allow-private", "--include-comments", "--json"]) == 0
    assert COMMENT in json.loads(capsys.readouterr().out)["text"]
    client = ws.SearchClient("stub", settings=ws.Settings(allow_private=True))
    result = tool.call_tool("web_fetch", {"url": server.url("/post"), "include_comments": True}, client=client)
    assert COMMENT in result["text"]
    assert COMMENT not in tool.call_tool("web_fetch", {"url": server.url("/post")}, client=client)["text"]

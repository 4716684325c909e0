"""The agent tools against a real local server: an upstream failure comes back in the
error form, and the fetch tool reads (and refuses) pages. The rest of the tools is in
tests/unit/test_tool.py."""

from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool

PAGE = (
    "<html><head><title>Tool page</title></head><body><article><h1>Tool page</h1>"
    + "<p>Readable paragraph for the fetch tool, long enough to be the main content of the page. " * 3
    + "</p></article></body></html>"
).encode()


def test_network_failures_return_the_error_form(testjson):
    with FaultServer({"/s": respond(429, b"", {"Retry-After": "100"})}) as server:
        client = ws.SearchClient("testjson", settings=ws.Settings(endpoints={"testjson": server.url("/s")}), retries=0)
        result = tool.call_tool("web_search", {"query": "q"}, client=client)
    assert result["error"]["type"] == "WebBlocked" and result["error"]["retryable"] is True
    assert result["error"]["provider"] == "testjson"


def test_fetch_tool_and_its_formatting(snapshot, monkeypatch):
    monkeypatch.setattr(tool, "_new_nonce", lambda: "0123456789abcdef")  # the wrapper's random code, fixed here
    with FaultServer({"/page": respond(200, PAGE)}) as server:
        client = ws.SearchClient("stub", settings=ws.Settings(allow_private=True))
        result = tool.call_tool(
            "web_fetch", {"url": server.url("/page"), "extract_mode": "text", "max_chars": 60}, client=client
        )
        refused = tool.call_tool(
            "web_fetch", {"url": server.url("/page")}, client=ws.SearchClient("stub", settings=ws.Settings())
        )
    assert result["title"] == "Tool page" and result["truncated"] is True and result["length"] == 60
    assert refused["error"]["detail_code"] == "private_address"
    port = server.url("/").split(":")[2].split("/")[0]
    shown = tool.format_results(result).replace(port, "PORT")
    snapshot("fetch.txt", shown)
    assert "<untrusted-web-content" in shown

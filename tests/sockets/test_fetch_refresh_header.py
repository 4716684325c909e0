"""fetch and an HTTP ``Refresh`` header: a browser acts on it as on a meta refresh, read before
the page's own tags; fetch did not, and answered a page redirected by its header with
``no_content`` ("it likely needs JavaScript")."""

from faults import respond
from servers import FaultServer

import websearch_sync as ws

STUB = b"<html><head><title>Moved</title></head><body></body></html>"
ARTICLE = (
    b"<html><head><title>Harbour works</title></head><body><article><h1>Harbour works</h1><p>"
    + b"The harbour board approved the dredging plan after a long public hearing on Tuesday. " * 5
    + b"</p></article></body></html>"
)
ELSEWHERE = (
    b"<html><body><p>"
    + b"This is not the page the header points at, but a meta refresh's. " * 5
    + b"</p></body></html>"
)


def fetch(url: str) -> dict:
    """``ws.fetch`` with a deadline that is not these tests' subject: 30 s. A process's first fetch
    builds its wire and extractor (2-7 s at a load of 6-15), over the 3 s these tests had."""
    return ws.fetch(url, allow_private=True, settings=ws.Settings(), timeout_ms=30_000)


def test_a_refresh_header_on_an_empty_page_is_followed():
    with FaultServer({"/a": respond(200, STUB, {"Refresh": "0; url=/b"}), "/b": respond(200, ARTICLE)}) as server:
        page = fetch(server.url("/a"))
        assert [request.route for request in server.requests] == ["/a", "/b"]
    assert (page["final_url"], page["title"]) == (server.url("/b"), "Harbour works")


def test_the_header_comes_before_a_meta_refresh_of_the_page():
    carrier = STUB.replace(b"<head>", b'<head><meta http-equiv="refresh" content="0; url=/c">')
    routes = {"/a": respond(200, carrier, {"Refresh": "0;url=/b"}), "/b": respond(200, ARTICLE)}
    with FaultServer({**routes, "/c": respond(200, ELSEWHERE)}) as server:
        page = fetch(server.url("/a"))
        assert [request.route for request in server.requests] == ["/a", "/b"]
    assert page["final_url"] == server.url("/b")


def test_a_slow_refresh_header_on_an_article_is_a_reload_timer_not_followed():
    with FaultServer(
        {"/a": respond(200, ARTICLE, {"Refresh": "300; url=/b"}), "/b": respond(200, ELSEWHERE)}
    ) as server:
        page = fetch(server.url("/a"))
        assert [request.route for request in server.requests] == ["/a"]
    assert page["title"] == "Harbour works"

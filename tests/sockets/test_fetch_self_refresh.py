"""A page whose refresh loads itself again (its own address however written, an empty or ``#``
URL, no URL at all, the HTTP ``Refresh`` header) is a reload, not a redirect, in the one
client-side-redirect reader fetch and Baidu share: fetch reads the page's own content, and a
page with none is said to refresh itself, not to need JavaScript."""

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_refresh import ARTICLE, ELSEWHERE, article, fetch, routes_seen

import websearch_sync as ws

EMPTY = b"<html><head><title>Loading</title>%s</head><body></body></html>"

#: Refreshes that load ``/p`` again (``{origin}`` is the server's ``http://127.0.0.1:PORT``,
#: ``{host}`` its ``127.0.0.1:PORT``, ``{port}`` its port).
SELF_REFRESHES = {
    "its path": "0; url=/p",
    "its address": "0; url={origin}/p",
    "an empty url": "0; url=",
    "a fragment": "0; url=#top",
    "a bare #": "0; url=#",
    "no url": "3",
    "dot segments": "0; url=/./x/../p",
    "upper-case scheme": "0; url=HTTP://{host}/p",
}


def self_refreshing(body: bytes, content: str, header: bool = False):
    """A route serving ``body`` with a refresh ``content`` (``{origin}``, ``{host}``, ``{port}``
    filled in) in a meta tag, or in the HTTP header when ``header``."""

    def route(conn, request, server):
        origin = server.url("")
        host = origin.split("//", 1)[1]
        filled = content.format(origin=origin, host=host, port=host.rsplit(":", 1)[1])
        if header:
            respond(200, body.replace(b"%s", b""), headers={"Refresh": filled})(conn, request, server)
        else:
            tag = b'<meta http-equiv="refresh" content="%s">' % filled.encode()
            respond(200, body.replace(b"%s", tag))(conn, request, server)

    return route


def fetch_error(url: str) -> ws.WebSearchError:
    with pytest.raises(ws.WebSearchError) as info:
        fetch(url)
    return info.value


@pytest.mark.parametrize("content", SELF_REFRESHES.values(), ids=SELF_REFRESHES.keys())
def test_an_empty_page_that_refreshes_itself_says_so(content):
    with FaultServer({"/p": self_refreshing(EMPTY, content)}) as server:
        error = fetch_error(server.url("/p"))
        assert routes_seen(server) == ["/p"]
    assert (type(error).__name__, error.detail_code) == ("WebParseError", "no_content")
    assert error.message.startswith("127.0.0.1 returned a page with no readable text that only refreshes itself")
    assert "JavaScript" not in error.message


def test_the_message_gives_the_delay_and_the_header_counts_too():
    with FaultServer(
        {"/p": self_refreshing(EMPTY, "0; url=/p", header=True), "/q": self_refreshing(EMPTY, "30")}
    ) as server:
        at_once, later = fetch_error(server.url("/p")), fetch_error(server.url("/q"))
    assert at_once.message.endswith("(it loads the same address again at once)")
    assert later.message.endswith("(it loads the same address again after 30 s)")


@pytest.mark.parametrize("content", SELF_REFRESHES.values(), ids=SELF_REFRESHES.keys())
def test_a_page_with_text_that_refreshes_itself_is_read(content):
    with FaultServer({"/p": self_refreshing(ARTICLE, content)}) as server:
        result = fetch(server.url("/p"))
        assert routes_seen(server) == ["/p"]
    assert result["final_url"] == server.url("/p") and "dredging plan" in result["text"]


def test_its_own_address_with_another_case_of_host_is_no_redirect_loop():
    """``LOCALHOST`` is the page's ``localhost``: followed as a redirect, the hop loop refused the
    page as a redirect loop, its text unread."""
    with FaultServer({"/p": self_refreshing(ARTICLE, "0; url=http://LOCALHOST:{port}/p")}) as server:
        result = fetch(server.url("/p").replace("127.0.0.1", "localhost"))
        assert routes_seen(server) == ["/p"]
    assert "dredging plan" in result["text"]


def test_a_refresh_naming_no_url_reloads_even_beside_a_base_elsewhere():
    """The standard's steps: no URL is the document's own address; only a URL (``url=#`` too)
    is parsed against the ``<base href>``."""
    with FaultServer({"/elsewhere/": respond(200, ELSEWHERE)}) as server:
        base = b'<base href="%s">' % server.url("/elsewhere/").encode()
        server.routes["/p"] = respond(200, article(base + b'<meta http-equiv="refresh" content="0">'))
        server.routes["/hash"] = respond(200, article(base + b'<meta http-equiv="refresh" content="0; url=#">'))
        reloaded = fetch(server.url("/p"))
        assert routes_seen(server) == ["/p"]
        followed = fetch(server.url("/hash"))
    assert "dredging plan" in reloaded["text"] and reloaded["final_url"] == server.url("/p")
    assert followed["final_url"] == server.url("/elsewhere/") and "refresh points at" in followed["text"]

"""A redirect's ``Location`` is read as a browser reads it, on both wires, for fetch and search:
before its query a backslash is a slash (WHATWG URL, for every special scheme's URL, which is
what Chromium follows), so ``\\ok`` leads to ``/ok``; and two or more slashes or backslashes
where a host may start open it (``\\\\host:port\\ok``, ``///host:port/ok``: another host). Both
wires followed ``\\ok`` to ``/%5Cok`` (``urljoin`` keeps a backslash as a path character) and
``///host/ok`` to ``/host/ok`` on the same host."""

import socket
import threading

import pytest
from faults import redirect, respond
from servers import FaultServer
from transports import BOTH, send_once

import websearch_sync as ws

PAGE = (
    b"<html><head><title>Harbour works</title></head><body><p>"
    + b"The harbour board met. " * 20
    + b"</p></body></html>"
)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "location, path",
    [
        ("\\ok", "/ok"),
        ("ok\\deeper", "/from/ok/deeper"),
        ("\\ok\\deeper\\", "/ok/deeper/"),
        ("\\ok?q=1", "/ok?q=1"),
    ],
)
def test_fetch_follows_a_backslash_as_a_slash(impersonate, location, path):
    with FaultServer({"/from/here": redirect(location), "*": respond(200, PAGE)}) as server:
        page = ws.fetch(server.url("/from/here"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (page["final_url"], page["title"], server.requests[-1].path) == (server.url(path), "Harbour works", path)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "written",
    ["\\\\127.0.0.1:%d\\ok", "///127.0.0.1:%d/ok", "/\\127.0.0.1:%d/ok", "http:///127.0.0.1:%d/ok"],
    ids=["two-backslashes", "three-slashes", "slash-backslash", "scheme-and-three-slashes"],
)
def test_slashes_and_backslashes_open_another_host_as_in_a_browser(impersonate, written):
    """However many slashes or backslashes where a host may start: the host follows them."""
    with FaultServer({"*": respond(200, PAGE)}) as other:
        target = written % other.port
        with FaultServer({"/from": redirect(target)}) as server:
            page = ws.fetch(server.url("/from"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (page["final_url"], [r.path for r in other.requests]) == (other.url("/ok"), ["/ok"])


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_search_follows_a_backslash_as_a_slash(impersonate):
    """A search's hops keep the target as sent (no fetch canonical form): the same reading."""
    routes = {
        "/search": redirect("\\results"),
        "/results": respond(200, b'{"ok": true}', content_type="application/json"),
    }
    with FaultServer(routes) as server:
        response = send_once(server.url("/search"), impersonate)
    assert (response.status, response.json(), [r.path for r in server.requests]) == (
        200,
        {"ok": True},
        ["/search", "/results"],
    )


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "written",
    [
        "https:/\t/127.0.0.1:%d/ok",
        "https://127.0.0.1:%d\t/ok",
        "ht\ttps://127.0.0.1:%d/ok ",
        "https:/127.0.0.1:%d/ok",
        "https:127.0.0.1:%d/ok",
    ],
    ids=[
        "tab-between-the-slashes",
        "tab-after-the-port",
        "tab-in-the-scheme-space-last",
        "another-scheme-one-slash",
        "another-scheme-no-slash",
    ],
)
def test_a_location_is_sent_to_the_host_checked_without_its_tabs(impersonate, written, fake_clock):
    """WHATWG drops every tab (CR, LF) of a URL, and control characters and spaces at its ends,
    before it reads it: the hop goes to the host the guard checked (``urlsplit`` drops them; in
    another scheme's URL ``urljoin`` kept them, and the wire was sent a URL with a tab in it:
    "invalid request", no connection). Another special scheme than the page's opens the host
    whatever follows its colon (``https:/host`` from an http page: ``urljoin`` read a path without a
    host, ``bad_redirect``). The target speaks no TLS: what shows the hop went out is
    the TLS handshake's first byte (0x16) reaching it, for search and fetch."""
    listener = socket.create_server(("127.0.0.1", 0))
    firsts = []

    def accept():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                firsts.append(conn.recv(1))

    threading.Thread(target=accept, daemon=True).start()
    try:
        with FaultServer({"/from": redirect(written % listener.getsockname()[1])}) as server:
            with pytest.raises(ws.NetworkError):
                send_once(server.url("/from"), impersonate)
            searched = len(firsts)
            with pytest.raises(ws.NetworkError):
                ws.fetch(server.url("/from"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    finally:
        listener.close()
    assert searched >= 1 and len(firsts) > searched and set(firsts) == {b"\x16"}


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "written", ["http://127.0.0.1:%d\\ok", "http://127.0.0.1:%d/a\\ok", "http:\\\\127.0.0.1:%d\\ok"]
)
def test_a_url_to_fetch_with_a_backslash_before_its_query_is_bad_url_with_a_browsers_reading(impersonate, written):
    """A URL the caller passes is refused, not rewritten (as ``http:///host`` and a control
    character are): before the query a browser reads a backslash as a slash, ``urlsplit`` as part
    of the host (``127.0.0.1:PORT\\ok``: a bad port, ``bad_url``) and ``requests`` as a path
    character (``/a%5Cok`` was sent), so the one reading to check and send is the caller's to
    choose; the message names a browser's. Nothing is sent, on either wire."""
    with FaultServer({"*": respond(200, PAGE)}) as server:
        url = written % server.port
        with pytest.raises(ws.InvalidInput) as refused:
            ws.fetch(url, allow_private=True, settings=ws.Settings(impersonate=impersonate))
        requests = list(server.requests)
    browser_reading = url.replace("\\", "/").replace("http:///", "http://")
    assert (refused.value.detail_code, requests) == ("bad_url", [])
    assert str(refused.value).endswith("(did you mean %r?)" % browser_reading)


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_backslash_in_the_query_of_a_url_to_fetch_is_sent_encoded(impersonate):
    """After the query starts a backslash is no slash to a browser either: sent as ``%5C``."""
    with FaultServer({"*": respond(200, PAGE)}) as server:
        page = ws.fetch(server.url("/a?q=\\x"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (page["title"], server.requests[-1].path) == ("Harbour works", "/a?q=%5Cx")


def _refresh_to(target):
    return b'<html><head><meta http-equiv="refresh" content="0; url=%s"></head><body></body></html>' % target.encode()


def _script_to(target):
    quoted = target.replace("\\", "\\\\").encode()
    return b'<html><head><script>window.location.href="%s"</script></head><body></body></html>' % quoted


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("page", [_refresh_to, _script_to], ids=["meta-refresh", "script"])
def test_a_client_side_redirect_reads_a_backslash_as_a_location_does(impersonate, page):
    """A meta refresh's or a script's target is read as a ``Location`` is (``urljoin`` first, then
    the hop's reading, took ``\\ok`` to ``/from//ok`` and ``\\\\host\\ok`` to a path on the same host)."""
    with FaultServer({"*": respond(200, PAGE)}) as other:
        routes = {
            "/from/near": respond(200, page("\\ok")),
            "/from/far": respond(200, page("\\\\127.0.0.1:%d\\ok" % other.port)),
        }
        routes["*"] = respond(200, PAGE)
        with FaultServer(routes) as server:
            settings = ws.Settings(impersonate=impersonate)
            near = ws.fetch(server.url("/from/near"), allow_private=True, settings=settings)
            far = ws.fetch(server.url("/from/far"), allow_private=True, settings=settings)
            paths = [r.path for r in server.requests]
    assert (near["final_url"], far["final_url"]) == (server.url("/ok"), other.url("/ok"))
    assert (paths, [r.path for r in other.requests]) == (["/from/near", "/ok", "/from/far"], ["/ok"])

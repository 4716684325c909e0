"""Redirects of search requests, followed by the transport itself: bounded in time and
bytes, credentials never forwarded to another origin, non-public targets refused.

Regression tests for defects the fault matrix found: ``requests`` read a redirect's
whole body without limit (an endless 302 body took 37 s and 1.4 GB against a 1 s
deadline), gave every hop of a redirect chain the full timeout (a 1 s call took 2 s),
forwarded ``X-Subscription-Token`` to whatever host a redirect named, and followed
redirects to the cloud metadata address.
"""

import time
import tracemalloc

import pytest

import websearch_sync as ws
from websearch_sync.deadline import Deadline
from websearch_sync.http import HttpTransport, RequestSpec

from servers import FaultServer, _head, delayed, redirect, respond

GOOD_JSON = b'{"type": "search", "web": {"results": [{"title": "A", "url": "https://a.example/", "description": "a"}]}}'
KEY = "br-SECRET-5d6e7f8a9b0c"


def endless_redirect(location):
    """A 302 whose chunked body never ends (until the client hangs up)."""
    def handler(conn, request, server):
        conn.sendall(_head(302, {"Location": location, "Content-Type": "text/html", "Transfer-Encoding": "chunked", "Connection": "close"}))
        frame = b"%x\r\n%s\r\n" % (65536, b"a" * 65536)
        sent = 0
        while not server.stopping.is_set() and sent < 500_000_000:
            conn.sendall(frame)
            sent += len(frame)
    return handler


def brave_settings(endpoint, **kwargs):
    return ws.Settings(endpoints={"brave": endpoint}, providers={"brave": {"api_key": KEY}}, **kwargs)


def test_an_endless_redirect_body_is_not_read_and_the_redirect_is_followed():
    with FaultServer({"/s": endless_redirect("/good"), "/good": respond(200, GOOD_JSON, content_type="application/json")}) as server:
        tracemalloc.start()
        started = time.monotonic()
        try:
            with ws.SearchClient("brave", settings=brave_settings(server.url("/s")), min_interval_s=0) as client:
                result = client.search("q", timeout_ms=2000)
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    assert time.monotonic() - started < 2.0
    assert peak < 2_000_000
    assert [item["url"] for item in result["items"]] == ["https://a.example/"]


def test_an_endless_body_of_a_redirect_that_is_not_followed_stays_under_the_cap():
    """Baidu does not follow redirects: the 302 itself is read, up to the byte cap."""
    with FaultServer({"/s": endless_redirect("/elsewhere")}) as server:
        settings = ws.Settings(endpoints={"baidu_html": server.url("/s")}, max_response_bytes=200_000)
        started = time.monotonic()
        with pytest.raises(ws.WebProviderError) as info:
            ws.search("q", backend="baidu_html", settings=settings, timeout_ms=2000)
    assert time.monotonic() - started < 2.0
    assert info.value.detail_code == "response_too_large"


def test_a_chain_of_slow_redirects_ends_at_the_deadline():
    hops = {"/s%d" % i: delayed(0.4, redirect("/s%d" % (i + 1))) for i in range(4)}
    hops["/s4"] = delayed(0.4, respond(200, GOOD_JSON, content_type="application/json"))
    with FaultServer(hops) as server:
        started = time.monotonic()
        with pytest.raises(ws.Timeout):
            ws.search("q", backend="brave", settings=brave_settings(server.url("/s0")), timeout_ms=1000)
        elapsed = time.monotonic() - started
    assert elapsed < 1.3, "a 1000 ms call took %.0f ms" % (elapsed * 1000)


def test_more_than_five_redirects_is_a_redirect_loop():
    with FaultServer({"/s": redirect("/s")}) as server:
        with pytest.raises(ws.WebProviderError) as info:
            ws.search("q", backend="brave", settings=brave_settings(server.url("/s")), timeout_ms=2000)
        assert len(server.requests) == 6  # the first request and five redirects
    assert info.value.detail_code == "redirect_loop"


@pytest.mark.parametrize("backend, header", [("brave", "x-subscription-token"), ("bocha", "authorization")])
def test_credentials_stay_behind_when_a_redirect_leaves_the_origin(backend, header):
    with FaultServer({"/x": respond(200, GOOD_JSON, content_type="application/json")}) as other:
        elsewhere = other.url("/x").replace("127.0.0.1", "localhost")  # another host name (allowed below)
        with FaultServer({"/s": redirect(elsewhere, status=307)}) as server:
            settings = ws.Settings(
                endpoints={backend: server.url("/s")}, providers={backend: {"api_key": KEY}}, allow_private=True
            )
            try:
                ws.search("q", backend=backend, settings=settings, timeout_ms=2000)
            except ws.WebParseError:
                pass  # the body is brave-shaped: only the headers that went out matter here
            first = server.requests[0].headers
        assert KEY in first.get(header, "")  # the endpoint itself got the key
        assert other.requests, "the redirect was not followed"
        forwarded = other.requests[0]
        assert header not in forwarded.headers
        assert KEY not in repr(forwarded.headers) and KEY.encode() not in forwarded.body


def test_credentials_go_along_on_a_same_origin_redirect():
    with FaultServer({"/s": redirect("/t"), "/t": respond(200, GOOD_JSON, content_type="application/json")}) as server:
        ws.search("q", backend="brave", settings=brave_settings(server.url("/s")), timeout_ms=2000)
        assert [r.headers.get("x-subscription-token") for r in server.requests] == [KEY, KEY]


def test_a_session_auth_is_not_sent_to_another_origin():
    import requests

    with FaultServer({"/x": respond(200, GOOD_JSON, content_type="application/json")}) as other:
        with FaultServer({"/s": redirect(other.url("/x").replace("127.0.0.1", "localhost"))}) as server:
            session = requests.Session()
            session.auth = ("user", "session-SECRET-pw")
            transport = HttpTransport(session=session, allow_private=True)
            transport.send(RequestSpec("GET", server.url("/s")), deadline=Deadline(2000), provider="t", max_bytes=10_000)
            assert "authorization" in server.requests[0].headers
            assert "authorization" not in other.requests[0].headers


@pytest.mark.parametrize(
    "status, method, body_expected",
    [(302, "GET", False), (303, "GET", False), (307, "POST", True), (308, "POST", True), (301, "GET", False)],
)
def test_redirect_methods(status, method, body_expected):
    """DuckDuckGo posts a form: 301/302/303 turn it into a GET without a body, 307/308 repeat it."""
    page = b"<html><body><div id=\"links\"><div class=\"no-results\">No results.</div></div></body></html>"
    with FaultServer({"/s": redirect("/t", status=status), "/t": respond(200, page)}) as server:
        settings = ws.Settings(endpoints={"ddg_html": server.url("/s")})
        ws.search("q", backend="ddg_html", settings=settings, timeout_ms=2000)
        second = server.requests[1]
    assert second.method == method
    assert (b"q=q" in second.body) is body_expected


@pytest.mark.parametrize(
    "location",
    [
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://10.0.0.1/",
        "http://0x7f.1/",
        "http://localhost/admin",
    ],
)
def test_a_redirect_to_a_non_public_host_is_refused_before_connecting(location):
    """Under the no-network guard a connection attempt would fail with another error."""
    with FaultServer({"/s": redirect(location)}) as server:
        with pytest.raises(ws.InvalidInput) as info:
            ws.search("q", backend="brave", settings=brave_settings(server.url("/s")), timeout_ms=2000)
    assert info.value.detail_code == "private_address"
    assert info.value.provider == "brave"


def test_allow_private_lets_a_redirect_to_a_local_host_through():
    with FaultServer({"/x": respond(200, GOOD_JSON, content_type="application/json")}) as other:
        with FaultServer({"/s": redirect(other.url("/x").replace("127.0.0.1", "localhost"))}) as server:
            result = ws.search("q", backend="brave", settings=brave_settings(server.url("/s"), allow_private=True), timeout_ms=2000)
    assert result["items"][0]["url"] == "https://a.example/"


@pytest.mark.parametrize("location", ["ftp://example.com/file", "javascript:alert(1)", "http://:80/", "http://example.com:99999/"])
def test_a_redirect_to_something_that_is_not_an_http_url_is_bad_redirect(location):
    with FaultServer({"/s": redirect(location)}) as server:
        with pytest.raises(ws.WebProviderError) as info:
            ws.search("q", backend="brave", settings=brave_settings(server.url("/s")), timeout_ms=2000)
    assert info.value.detail_code == "bad_redirect"

"""What an answer's framing can do to either wire (issue 33 points 1, 7 and 20).

A header line or a chunked trailer that starts with ``HTTP/`` is a header, not a new status
line; an answer that is not HTTP is the upstream's fault (``NetworkError(malformed_response)``,
so a fallback chain goes on), on both wires alike; a proxy that cannot be reached is
``NetworkError(proxy_error)`` naming the proxy, not the upstream refusing.
"""

import json

import pytest
from faults import listener_that_never_accepts, raw, refused_port, respond
from servers import FaultServer, Socks5Proxy
from transports import BOTH

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec

RESULTS = json.dumps({"results": [{"title": "A", "url": "https://a.example/", "snippet": "s"}]}).encode()
#: The deadline of the calls whose deadline is not the subject: 30 s. A process's first call builds its
#: wire (requests, or curl_cffi for the browser wire) and a fetch its extractor: 2-7 s at a load of 6-15,
#: which timed out a 3 s deadline when such a test was the first of its process to send.
NOT_THE_SUBJECT_MS = 30_000


def send(url, impersonate, **kwargs):
    transport = HttpTransport(impersonate=impersonate, **kwargs)
    try:
        return transport.send(
            RequestSpec("GET", url, browser=True),
            deadline=Deadline(NOT_THE_SUBJECT_MS),
            provider="t",
            max_bytes=1 << 20,
        )
    finally:
        transport.close()


#: A header line that starts like a status line (one with ASCII digits, one with other digits).
HEADER_LIKE_STATUS = {
    "ascii": b"HTTP/1.1 404 Not: found",
    "superscript": b"HTTP/1.1 \xb2\xb2\xb2 X: y",
}


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("line", sorted(HEADER_LIKE_STATUS))
def test_a_header_line_starting_with_http_is_a_header_not_a_status(impersonate, line):
    answer = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n" + HEADER_LIKE_STATUS[line] + b"\r\nConnection: close\r\n\r\nok"
    with FaultServer({"/": raw(answer)}) as server:
        response = send(server.url("/"), impersonate)
    assert (response.status, response.content) == (200, b"ok")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_chunked_trailer_starting_with_http_does_not_replace_the_status(impersonate):
    answer = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X\r\nConnection: close\r\n\r\n"
        b"2\r\nok\r\n0\r\nHTTP/1.1 500 Bad: trailer\r\n\r\n"
    )
    with FaultServer({"/": raw(answer)}) as server:
        response = send(server.url("/"), impersonate)
    assert (response.status, response.content) == (200, b"ok")


@pytest.mark.parametrize("impersonate", BOTH)
def test_fetch_of_a_page_with_a_header_like_a_status_line_is_read(impersonate):
    page = b"<html><head><title>T</title></head><body><p>" + b"Words of a page. " * 20 + b"</p></body></html>"
    answer = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n" % len(page)
        + HEADER_LIKE_STATUS["superscript"]
        + b"\r\nConnection: close\r\n\r\n"
        + page
    )
    with FaultServer({"/": raw(answer)}) as server:
        result = ws.fetch(
            server.url("/"),
            allow_private=True,
            timeout_ms=NOT_THE_SUBJECT_MS,
            settings=ws.Settings(impersonate=impersonate),
        )
    assert "Words of a page." in result["text"]


@pytest.mark.parametrize("impersonate", BOTH)
def test_an_answer_that_is_not_http_is_the_upstream_s_fault(impersonate):
    with FaultServer({"/": raw(b"SSH-2.0-OpenSSH_9.6\r\nnot a web server\r\n")}) as server:
        with pytest.raises(ws.NetworkError) as info:
            send(server.url("/"), impersonate)
    assert info.value.detail_code == "malformed_response"


@pytest.mark.parametrize("impersonate", BOTH)
def test_an_answer_that_is_not_http_does_not_stop_a_fallback_chain(impersonate, json_backends):
    json_backends("aa", "bb")
    with FaultServer(
        {"/aa": raw(b"SSH-2.0-OpenSSH_9.6\r\n"), "/bb": respond(200, RESULTS, content_type="application/json")}
    ) as server:
        settings = ws.Settings(endpoints={"aa": server.url("/aa"), "bb": server.url("/bb")}, impersonate=impersonate)
        result = ws.search("q", backend=["aa", "bb"], settings=settings, retries=0, timeout_ms=NOT_THE_SUBJECT_MS)
    assert result["provider_meta"]["provider_name"] == "bb"


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_dead_proxy_is_a_proxy_error_naming_the_proxy(impersonate):
    port = refused_port()
    with pytest.raises(ws.NetworkError) as info:
        send("http://search.example/html/", impersonate, proxy="http://user:secret@127.0.0.1:%d" % port)
    assert info.value.detail_code == "proxy_error", repr(info.value)
    assert "127.0.0.1:%d" % port in info.value.message
    assert "secret" not in info.value.message and "user" not in info.value.message


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_deadline_passing_while_connecting_to_a_proxy_is_the_deadline_not_the_proxy(impersonate):
    """A proxy whose connection never opens, and the call's deadline passes: requests said the
    proxy "failed or refused the connection" (proxy_error), the browser wire the deadline. A request
    to a server first builds the wire (its first use in a process imports it), so that the deadline
    passes while connecting to the proxy, not while importing."""
    with FaultServer({"/": respond(200, b"ok")}) as server:
        assert send(server.url("/"), impersonate).status == 200
    with listener_that_never_accepts() as proxy:
        transport = HttpTransport(impersonate=impersonate, proxy=proxy.url(""))
        try:
            with pytest.raises(ws.Timeout) as info:
                transport.send(
                    RequestSpec("GET", "http://search.example/html/", browser=True),
                    deadline=Deadline(800),
                    provider="t",
                    max_bytes=1 << 20,
                )
        finally:
            transport.close()
    assert info.value.detail_code == "deadline_exceeded", repr(info.value)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "status, said", [(407, "asks for credentials (HTTP 407)"), (403, "refused to reach it (HTTP 403)")]
)
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_proxy_refusing_the_tunnel_is_said_to_refuse_not_to_be_unreachable(impersonate, status, said, scheme):
    """The proxy answered ``CONNECT`` (https) with a refusal, or plain http's request with a 407: it
    was reached. The browser wire said "could not be reached", requests "failed", neither why."""
    refusal = respond(status, b"no", {"Proxy-Authenticate": 'Basic realm="proxy"'})
    with FaultServer({"*": refusal}) as proxy:
        try:
            send("%s://search.example/html/" % scheme, impersonate, proxy="http://127.0.0.1:%d" % proxy.port)
        except ws.NetworkError as error:
            assert error.detail_code == "proxy_error", repr(error)
            assert said in error.message and "127.0.0.1:%d" % proxy.port in error.message
        else:  # both wires send plain http through the proxy without CONNECT: its 403 is a response
            assert (scheme, status) == ("http", 403)


def test_a_407_answer_is_a_proxy_asking_for_credentials(json_backends):
    """A 407 comes from a proxy only (``requests`` sends plain http through it without ``CONNECT``):
    it was "unexpected HTTP 407" from the search service."""
    json_backends("aa")
    with FaultServer({"*": respond(407, b"no", {"Proxy-Authenticate": 'Basic realm="proxy"'})}) as proxy:
        settings = ws.Settings(endpoints={"aa": "http://search.example/s"}, proxy=proxy.url(""), impersonate="off")
        with pytest.raises(ws.NetworkError) as info:
            ws.search("q", backend="aa", settings=settings, retries=0, timeout_ms=NOT_THE_SUBJECT_MS)
    assert info.value.detail_code == "proxy_error" and "asks for credentials (HTTP 407)" in info.value.message


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_407_answer_with_no_proxy_is_the_page_s_answer(impersonate):
    """No proxy configured: the 407 is the server's own answer, fetch's ``http_407`` like any other 4xx
    (it was a retryable proxy_error "a proxy on the way to 127.0.0.1 asks for credentials")."""
    with FaultServer({"*": respond(407, b"no", {"Proxy-Authenticate": 'Basic realm="proxy"'})}) as server:
        with pytest.raises(ws.WebProviderError) as info:
            ws.fetch(
                server.url("/"),
                allow_private=True,
                timeout_ms=NOT_THE_SUBJECT_MS,
                settings=ws.Settings(impersonate=impersonate),
            )
    assert info.value.detail_code == "http_407", repr(info.value)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("answer", [b"", b"HTTP/1.1 100 Continue\r\n\r\n"], ids=["nothing", "only-100-continue"])
def test_a_server_closing_without_an_answer_is_said_to_have_closed(impersonate, answer):
    """The connection opened and the server hung up without a final answer: the browser wire said
    "connection failed" (connection_error, as if it never connected), requests "reset by peer";
    then each in its own words ("...by the server: 127.0.0.1" on requests)."""
    with FaultServer({"*": raw(answer)}) as server:
        with pytest.raises(ws.NetworkError) as info:
            send(server.url("/s"), impersonate)
    assert info.value.detail_code == "connection_reset", repr(info.value)
    assert info.value.message == "no answer: the connection was closed by the server 127.0.0.1"


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("reply", [2, 4], ids=["not-allowed", "host-unreachable"])
def test_a_socks_proxy_refusing_is_a_proxy_error_naming_the_proxy(impersonate, reply):
    """requests read a SOCKS proxy's refusal as the upstream failing (connection_error
    "connection failed: search.example"); the browser wire did not name the proxy."""
    pytest.importorskip("socks")
    with Socks5Proxy(reply=reply) as proxy:
        with pytest.raises(ws.NetworkError) as info:
            send("http://search.example/html/", impersonate, proxy=proxy.url())
    assert info.value.detail_code == "proxy_error", repr(info.value)
    assert "the proxy 127.0.0.1:%d failed or refused the connection" % proxy.port in info.value.message


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_socks_proxy_from_the_environment_refusing_is_a_proxy_error(impersonate, monkeypatch):
    """``ALL_PROXY``, no proxy setting: libcurl reads the variable itself (the browser wire does not
    know the proxy, so cannot name it), requests merges it into the request's proxies."""
    pytest.importorskip("socks")
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    with Socks5Proxy(reply=2) as proxy:
        monkeypatch.setenv("ALL_PROXY", proxy.url())
        with pytest.raises(ws.NetworkError) as info:
            send("http://127.0.0.1:%d/html/" % refused_port(), impersonate)  # the proxy refuses: never reached
    assert info.value.detail_code == "proxy_error", repr(info.value)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 200 OK\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Cut: a",
        b"HTTP/1.1 200 OK\r\nContent-Length: 1233\r\n><body><p>hello",
    ],
)
def test_a_header_block_the_connection_cut_is_no_answer(impersonate, answer):
    """libcurl ends such a transfer without an error and without a final head (the browser wire
    handed on an answer of status 0: fetch said "unexpected HTTP 0", not retryable), or, when a
    length was declared, with PARTIAL_FILE before the head ("connection failed"). http.client
    read the cut block as a whole one, its body what follows (an empty page, or ``incomplete_body``);
    the requests wire now sees where the block ended (tests/sockets/test_wire_parity_heads.py)."""
    with FaultServer({"*": raw(answer)}) as server:
        with pytest.raises(ws.NetworkError) as raised:
            send(server.url("/s"), impersonate)
    assert raised.value.detail_code == "connection_reset", repr(raised.value)
    assert "no answer: the connection was closed by the server" in raised.value.message

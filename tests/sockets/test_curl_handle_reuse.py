"""A pooled curl handle keeps its options from one request to the next (net/_curl().py,
``_Options``): whatever a request set (a form body, a method, a pinned address, a fresh
connection, the header order after a redirect), the next request on that handle goes out
exactly as it would on a new handle: same method, body, headers and header order, and a kept
connection is reused again once a pinned request's fresh one is done."""

import threading

import pytest
from servers import KeepAliveServer
from transports import needs_browser

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.wire import WireRequest

pytestmark = needs_browser


class _Sink:
    def __init__(self):
        self.status = 0
        self.body = b""

    def head(self, status, headers, url, framed=False):
        self.status = status
        return True

    def data(self, chunk):
        self.body += chunk
        return True


class RecordingServer(KeepAliveServer):
    """Keep-alive HTTP/1.1 on 127.0.0.1 answering every method; records what arrived."""

    def __init__(self):
        self.seen = []
        super().__init__(self._answer)

    def _answer(self, handler):
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        self.seen.append((handler.command, body, list(handler.headers.items()), handler.client_address[1]))
        answer = b"" if handler.command == "HEAD" else b"ok"
        handler.send_response(200)
        handler.send_header("Content-Length", "2")
        handler.end_headers()
        handler.wfile.write(answer)


def _curl():
    """``websearch_sync.net.wire_curl``, imported when a test runs: at collection every worker
    would pay for curl_cffi's import (and a checkout without the browser extra could not collect)."""
    from websearch_sync.net import wire_curl

    return wire_curl


def _send(wire, request):
    sink = _Sink()
    wire.exchange(request, sink, deadline=Deadline(5000), provider="t")
    assert sink.status == 200
    return sink


def _as_sent_on_a_new_handle(server, request):
    wire = _curl().CurlWire("chrome")
    try:
        _send(wire, request)
    finally:
        wire.close()
    return server.seen[-1]


FORM = [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://127.0.0.1")]
#: Each request changes what the one before it set: body, method, header order, custom method.
SEQUENCE = [
    ("POST", "q=rust", FORM, False),
    ("GET", None, [], False),
    ("HEAD", None, [], False),
    ("GET", None, [("Referer", "http://127.0.0.1/")], True),
    ("PUT", b'{"a": 1}', [("Content-Type", "application/json")], False),
    ("DELETE", None, [], False),
    ("POST", "q=second", FORM, True),
    ("POST", "q=third+and+longer", FORM, False),
    ("OPTIONS", None, [], False),
    ("POST", None, [], False),
    ("GET", None, [], False),
]


def test_every_request_on_a_reused_handle_goes_out_as_on_a_new_one():
    with RecordingServer() as server:
        wire = _curl().CurlWire("chrome")
        try:
            for method, body, headers, redirected in SEQUENCE:
                request = WireRequest(
                    method, server.url("/x"), list(headers), body, browser=True, redirected=redirected
                )
                _send(wire, request)
                method_sent, body_sent, headers_sent, _ = server.seen[-1]
                fresh = _as_sent_on_a_new_handle(server, request)
                assert (method_sent, body_sent, headers_sent) == fresh[:3], (method, body)
                assert method_sent == method and body_sent == (body.encode() if isinstance(body, str) else body or b"")
        finally:
            wire.close()


def test_a_pinned_requests_fresh_connection_is_not_kept_for_the_requests_after_it():
    with RecordingServer() as server:
        wire = _curl().CurlWire("chrome")
        try:
            _send(wire, WireRequest("GET", server.url("/a")))
            _send(wire, WireRequest("GET", server.url("/b")))
            # the host was reached unpinned on this handle: a pinned request takes a fresh connection, not kept
            _send(wire, WireRequest("GET", server.url("/pinned"), connect_to="127.0.0.1"))
            _send(wire, WireRequest("GET", server.url("/c")))
            _send(wire, WireRequest("GET", server.url("/d")))
        finally:
            wire.close()
    ports = [port for _, _, _, port in server.seen]
    assert ports[0] == ports[1]  # kept
    assert ports[2] != ports[1]  # the pinned one: fresh
    assert ports[3] == ports[4] == ports[0]  # the kept connection again: no fresh-connect or forbid-reuse left set


def _give_up_before_the_transfer(monkeypatch, wire, request):
    """Send ``request`` on ``wire`` with Ctrl-C arriving while the transfer is handed over (its
    ``release`` runs, the transfer never does); the hand-off is the real one again afterwards."""
    real = _curl().run_interruptibly

    def interrupted_before_the_work(work, *, abandon, release):
        release()
        raise KeyboardInterrupt

    monkeypatch.setattr(_curl(), "run_interruptibly", interrupted_before_the_work)
    try:
        with pytest.raises(KeyboardInterrupt):
            _send(wire, request)
    finally:
        monkeypatch.setattr(_curl(), "run_interruptibly", real)


def test_a_request_given_up_before_it_was_sent_leaves_nothing_on_the_handle(monkeypatch):
    """Ctrl-C while the transfer is handed over: the request's header list is curl_cffi's to free
    at the transfer's end, which never comes; the next request must not send it too."""
    with RecordingServer() as server:
        wire = _curl().CurlWire("chrome")
        try:
            given_up = WireRequest("POST", server.url("/x"), [("X-Given-Up", "1")] + FORM, "q=gone", browser=True)
            _give_up_before_the_transfer(monkeypatch, wire, given_up)
            _send(wire, WireRequest("GET", server.url("/next"), [("Referer", "http://127.0.0.1/")]))
        finally:
            wire.close()
        ((method, body, headers, _),) = server.seen
        assert method == "GET" and body == b""
        assert "X-Given-Up" not in dict(headers) and "Origin" not in dict(headers)
        assert dict(headers)["Referer"] == "http://127.0.0.1/"


def test_a_post_without_a_body_sends_an_empty_one_not_the_processs_stdin():
    """libcurl's default read function reads stdin: a POST with no body set streamed it, chunked."""
    with RecordingServer() as server:
        wire = _curl().CurlWire("chrome")
        try:
            _send(wire, WireRequest("POST", server.url("/x")))
        finally:
            wire.close()
    ((method, body, headers, _),) = server.seen
    assert method == "POST" and body == b""
    assert dict(headers).get("Content-Length") == "0" and "Transfer-Encoding" not in dict(headers)


def test_the_same_headers_after_a_request_given_up_are_set_again(monkeypatch):
    """The handle keeps its header list between transfers while the headers are the same
    (``_Options.set_headers``); a request given up before its transfer frees it, so the same
    request next must set it again (else libcurl reads the freed list)."""
    with RecordingServer() as server:
        wire = _curl().CurlWire("chrome")
        try:
            request = WireRequest("POST", server.url("/x"), [("X-Again", "1")] + FORM, "q=again", browser=True)
            _send(wire, request)
            _give_up_before_the_transfer(monkeypatch, wire, request)
            _send(wire, request)
            _send(wire, request)
        finally:
            wire.close()
        first, *again = server.seen
        assert len(again) == 2
        for method, body, headers, _ in again:
            assert (method, body, headers) == first[:3]
            assert [name for name, _ in headers].count("X-Again") == 1


def test_a_handle_under_way_when_the_wire_is_closed_is_closed_when_its_call_ends():
    """A service closing its client while another thread's fetch runs: that call's handle came back
    to the closed wire's pool and kept its connection open until the wire was garbage-collected (8
    calls under way at close(): 23 descriptors and 8 server connections left, per client). Closed
    now, the server sees the connection end; a request after close() is ``client_closed``."""
    answering, go, connections = threading.Event(), threading.Event(), []

    def answer(handler):
        connections.append(threading.current_thread())  # the server's thread of this connection
        answering.set()
        go.wait(10)
        handler.send_response(200)
        handler.send_header("Content-Length", "2")
        handler.end_headers()
        handler.wfile.write(b"ok")

    with KeepAliveServer(answer) as server:
        wire = _curl().CurlWire("chrome")
        request = WireRequest("GET", server.url("/x"), [], None, browser=True)
        call = threading.Thread(target=_send, args=(wire, request))
        call.start()
        assert answering.wait(10)
        wire.close()
        go.set()
        call.join(10)
        connections[0].join(10)  # ends when the client closes the connection
        assert not connections[0].is_alive(), "the connection of the call under way at close() stayed open"
        with pytest.raises(ws.InvalidInput) as info:
            _send(wire, request)
        assert info.value.detail_code == "client_closed"

"""A kept connection that died while it sat in the pool (the server closed or reset it, unanswered,
when the next request came) costs a request nothing on both wires: it goes out again on a fresh
connection, as libcurl and browsers send it. The requests wire said "no answer: the connection was
closed by the server" (a server's idle timeout racing the next request does this in the wild).

A fresh connection that dies unanswered, or a kept one that died inside its answer (after its status
line, or inside its head), is the server's doing: said as such on both wires, the request not sent
again. The requests wire sends only an idempotent method again, once (a POST the server read and
acted on is left to the retry policy); libcurl sends a POST again too."""

import socket
import struct
import threading

import pytest
from faults import head
from servers import FaultServer, _read_request
from transports import BOTH

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec

BODY = b"hello"
OK = head(200, {"Content-Type": "text/plain", "Content-Length": str(len(BODY))}) + BODY
CLOSED = "no answer: the connection was closed by the server 127.0.0.1"


def kept_then(dies):
    """A handler: every connection answers ``OK``; the first stays open, and the next request on it
    meets ``dies(conn)``. Counts connections (by the path of their first request) and every request
    read (method and path)."""
    lock, connections, requests = threading.Lock(), [], []

    def handler(conn, request, server):
        with lock:
            connections.append(request.path)
            requests.append((request.method, request.path))
            first = len(connections) == 1
        conn.sendall(OK)
        following = _read_request(conn) if first else None  # the next request, on the kept connection
        if following is not None:
            with lock:
                requests.append((following.method, following.path))
            dies(conn)

    handler.requests = requests

    handler.connections = connections
    return handler


def close(conn):
    conn.shutdown(socket.SHUT_RDWR)


def reset(conn):
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def cut_inside_its_head(conn):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/pl")
    conn.shutdown(socket.SHUT_RDWR)


def status_line_then_reset(conn):
    conn.sendall(b"HTTP/1.1 200 OK\r\n")
    reset(conn)


def two_requests(handler, impersonate, second="GET"):
    """``GET /a`` then ``/b`` (by ``second``) through one transport (the second on the first's kept
    connection): each answer (status, body) or error (detail code, words)."""
    answers = []
    with FaultServer({"*": handler}) as server:
        transport = HttpTransport(impersonate=impersonate)
        try:
            for method, path in (("GET", "/a"), (second, "/b")):
                data = {"q": "buy"} if method == "POST" else None
                spec = RequestSpec(method, server.url(path), data=data, browser=True)
                try:
                    response = transport.send(spec, deadline=Deadline(5000), provider="t", max_bytes=1000)
                    answers.append((response.status, response.content))
                except ws.NetworkError as error:
                    answers.append((error.detail_code, str(error)))
        finally:
            transport.close()
    return answers


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("dies", [close, reset], ids=["closed", "reset"])
def test_a_request_on_a_kept_connection_that_died_goes_out_again(impersonate, dies):
    handler = kept_then(dies)
    assert two_requests(handler, impersonate) == [(200, BODY), (200, BODY)]
    assert handler.connections == ["/a", "/b"]  # the second request's own connection: a fresh one


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_kept_connection_that_died_inside_its_answer_is_the_servers_doing(impersonate):
    handler = kept_then(cut_inside_its_head)
    assert two_requests(handler, impersonate) == [(200, BODY), ("connection_reset", CLOSED)]
    assert handler.connections == ["/a"]  # not sent again


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_fresh_connection_that_died_unanswered_is_not_sent_again(impersonate):
    lock, connections = threading.Lock(), []

    def unanswered(conn, request, server):
        with lock:
            connections.append(request.path)

    assert two_requests(unanswered, impersonate)[0] == ("connection_reset", CLOSED)
    assert connections[:1] == ["/a"] and connections.count("/a") == 1


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_kept_connection_reset_after_its_status_line_is_the_servers_doing(impersonate):
    handler = kept_then(status_line_then_reset)
    answers = two_requests(handler, impersonate)
    assert answers[0] == (200, BODY) and answers[1][0] == "connection_reset"
    assert handler.connections == ["/a"]  # not sent again: part of an answer came
    assert handler.requests == [("GET", "/a"), ("GET", "/b")]


@pytest.mark.parametrize("dies", [close, reset], ids=["closed", "reset"])
def test_the_requests_wire_never_sends_a_post_again_when_its_kept_connection_died(dies):
    handler = kept_then(dies)  # the server read the POST (it may have acted on it), then the connection died
    answers = two_requests(handler, "off", second="POST")
    assert answers[0] == (200, BODY) and answers[1][0] == "connection_reset"
    assert handler.requests == [("GET", "/a"), ("POST", "/b")]  # the POST reached the server once
    assert handler.connections == ["/a"]

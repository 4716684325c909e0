"""A kept connection that died while it sat in the pool (the server closed or reset it, unanswered,
when the next request came) costs a request nothing on both wires: it goes out again on a fresh
connection, as libcurl and browsers send it. The requests wire said "no answer: the connection was
closed by the server" (a server's idle timeout racing the next request does this in the wild).

A fresh connection that dies unanswered, or a kept one that died inside its answer, is the server's
doing: said as such on both wires, the request not sent again."""

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
    meets ``dies(conn)``. Counts connections (by the path of their first request)."""
    lock, connections = threading.Lock(), []

    def handler(conn, request, server):
        with lock:
            connections.append(request.path)
            first = len(connections) == 1
        conn.sendall(OK)
        if first and _read_request(conn) is not None:  # the next request, on the kept connection
            dies(conn)

    handler.connections = connections
    return handler


def close(conn):
    conn.shutdown(socket.SHUT_RDWR)


def reset(conn):
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def cut_inside_its_head(conn):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/pl")
    conn.shutdown(socket.SHUT_RDWR)


def two_requests(handler, impersonate):
    """``/a`` then ``/b`` through one transport (the second on the first's kept connection): each answer
    (status, body) or error (detail code, words)."""
    answers = []
    with FaultServer({"*": handler}) as server:
        transport = HttpTransport(impersonate=impersonate)
        try:
            for path in ("/a", "/b"):
                spec = RequestSpec("GET", server.url(path), browser=True)
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

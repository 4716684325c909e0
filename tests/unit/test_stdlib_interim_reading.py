"""The undocumented ``http.client`` behaviour the requests wire reads interim (1xx) answers by
(``net/requests_adapter.py``: ``_FinalAnswer``; docs/architecture.md): ``getresponse`` builds its
answer from ``response_class``, and ``HTTPResponse.begin()`` reads an answer only while it has no
``headers``. A Python (or urllib3) release that changes either fails here by name."""

import http.client
import socket

import pytest
import urllib3.connection

EARLY_HINTS = b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
FINAL = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"


class _Recorded(http.client.HTTPResponse):
    """An answer class that notes it was built."""

    built = 0

    def __init__(self, *args, **kwargs):
        type(self).built += 1
        super().__init__(*args, **kwargs)


def _answered(connection_class):
    """A connection of ``connection_class`` over one end of a socket pair whose other end has sent
    an interim and a final answer, its request sent; and that other end."""
    ours, theirs = socket.socketpair()
    theirs.sendall(EARLY_HINTS + FINAL)
    theirs.shutdown(socket.SHUT_WR)
    connection = connection_class("example.invalid")
    connection.sock = ours
    connection.request("GET", "/")
    return connection, theirs


def test_begin_reads_an_answer_only_while_it_has_no_headers():
    ours, theirs = socket.socketpair()
    with ours:
        theirs.sendall(EARLY_HINTS + FINAL)
        theirs.close()
        response = http.client.HTTPResponse(ours, method="GET")
        response.begin()
        assert (response.status, response.getheader("Link")) == (103, "</a.css>; rel=preload")
        response.begin()
        assert response.status == 103  # headers set: begin() returns without reading
        response.headers = None  # type: ignore[assignment]
        response.begin()
        assert (response.status, response.read()) == (200, b"ok")


@pytest.mark.parametrize(
    "base", [http.client.HTTPConnection, urllib3.connection.HTTPConnection], ids=["http.client", "urllib3"]
)
def test_getresponse_builds_its_answer_from_response_class(base):
    connection_class = type("Connection", (base,), {"response_class": _Recorded})
    before = _Recorded.built
    connection, theirs = _answered(connection_class)
    with theirs:
        response = connection.getresponse()
        assert (response.status, _Recorded.built - before) == (103, 1)
        connection.close()

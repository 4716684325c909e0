"""Answers whose header block is hostile, on both wires: what the library says must be what
happened (not "connection failed"), as a documented error.

A header block no client reads whole (a 1 MB header line, 10,000 ``Set-Cookie`` lines, an
endless run of ``100 Continue``) is refused by ``http.client`` and libcurl alike; each wire
said ``NetworkError(connection_error)``, "connection failed", as if nothing had answered.
"""

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH

from websearch_sync.errors import NetworkError
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec

BODY = b"<html><body><p>a page</p></body></html>"
TAIL = b"Content-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(BODY), BODY)

#: name -> the whole answer
OVERSIZED = {
    "one-header-line-of-1-MB": b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 1_000_000 + b"\r\n" + TAIL,
    "10000-set-cookie-lines": b"HTTP/1.1 200 OK\r\n"
    + b"".join(b"Set-Cookie: c%d=v; Path=/\r\n" % i for i in range(10_000))
    + TAIL,
    "100000-interim-answers": b"HTTP/1.1 100 Continue\r\n\r\n" * 100_000 + b"HTTP/1.1 200 OK\r\n" + TAIL,
    "a-chunked-trailer-line-of-1-MB": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\nX-Big: %s\r\n\r\n"
    % (len(BODY), BODY, b"a" * 1_000_000),
}


def send(url, impersonate):
    transport = HttpTransport(impersonate=impersonate)
    try:
        return transport.send(
            RequestSpec("GET", url, browser=True), deadline=Deadline(5000), provider="t", max_bytes=1 << 20
        )
    finally:
        transport.close()


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("answer", sorted(OVERSIZED))
def test_a_header_block_too_large_to_read_is_said_to_be_one(impersonate, answer):
    with FaultServer({"/p": raw(OVERSIZED[answer])}) as server:
        try:
            response = send(server.url("/p"), impersonate)
        except NetworkError as error:
            assert error.detail_code == "malformed_response", repr(error)
            assert "header block too large" in error.message
        else:  # http.client skips interim answers one by one: it reads that block whole
            assert (impersonate, answer) == ("off", "100000-interim-answers")
            assert (response.status, response.content) == (200, BODY)


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_status_line_of_a_version_the_wire_does_not_speak_is_no_connection_failure(impersonate):
    with FaultServer({"/p": raw(b"HTTP/2.0 200 OK\r\n" + TAIL)}) as server:
        try:
            response = send(server.url("/p"), impersonate)
        except NetworkError as error:  # http.client: UnknownProtocol
            assert error.detail_code == "malformed_response", repr(error)
        else:  # libcurl reads it as HTTP/1.x
            assert (response.status, response.content) == (200, BODY)


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_chunk_size_line_too_long_for_http_client_is_read_as_libcurl_reads_it(impersonate):
    """A 100 KB chunk extension: http.client refused the chunk-size line (``LineTooLong("chunk size")``)
    while reading the body, which requests said was "a header block too large", then the wire "a body
    cut short"; libcurl skips an extension of any length, and so does the requests wire now."""
    answer = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n%x;x=%s\r\n%s\r\n0\r\n\r\n" % (
        len(BODY),
        b"a" * 100_000,
        BODY,
    )
    with FaultServer({"/p": raw(answer)}) as server:
        response = send(server.url("/p"), impersonate)
    assert (response.status, response.content) == (200, BODY)

"""Hostile heads get one verdict on both wires: what libcurl refuses as breaking HTTP's rules the
requests wire refuses too, in the same words, and what both read they read alike.

Found by comparing the wires answer by answer: ``http.client`` read past a header line without a
colon (taking it, and every header after it, for the body: a ``Content-Length`` or ``Location``
after it was lost), a NUL or CR inside a line, a ``Content-Length`` that is no number (``-1``,
``abc``, ``+12``, empty) and a status line of another shape (``HTTP/1.2``, ``HTTP/0.9``, two
spaces), all of which libcurl refuses; and the two wires said a
malformed status line, and malformed headers, in different words. The other way round, libcurl
took ``HTTP/2.0 200`` from an HTTP/1 server (and its body for a framed one), and read a body of a
``Content-Length`` from 2^63 on to the connection's end where ``http.client`` waited for its bytes:
both wires now refuse those."""

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH, send_once

from websearch_sync.errors import NetworkError

BODY = b"<html><body><p>hello</p></body></html>"
LENGTH = b"Content-Length: %d\r\n" % len(BODY)
CHUNKED = b"%x\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY)
MALFORMED_HEADERS = (
    "127.0.0.1 answered with malformed headers (e.g. a conflicting or invalid Content-Length, a line that is no header)"
)
MALFORMED_STATUS = "127.0.0.1 answered with a malformed status line"
NOT_HTTP = "127.0.0.1 answered with something that is not HTTP"


def answer(status=b"HTTP/1.1 200 OK", headers=LENGTH, body=BODY):
    return status + b"\r\nContent-Type: text/html\r\n" + headers + b"\r\n" + body


#: name -> (the answer, what both wires say)
REFUSED = {
    "status-code-099": (answer(b"HTTP/1.1 099 X"), MALFORMED_STATUS),
    "status-code-1000": (answer(b"HTTP/1.1 1000 X"), MALFORMED_STATUS),
    "lower-case-version": (answer(b"http/1.1 200 OK"), MALFORMED_STATUS),
    "blank-line-first": (b"\r\n" + answer(), NOT_HTTP),
    "icy-status-line": (answer(b"ICY 200 OK"), NOT_HTTP),
    "version-1.2": (answer(b"HTTP/1.2 200 OK"), NOT_HTTP),
    "version-0.9": (answer(b"HTTP/0.9 200 OK"), NOT_HTTP),
    "two-spaces-after-the-version": (answer(b"HTTP/1.1  200 OK"), NOT_HTTP),
    # libcurl took HTTP/2.0 from an HTTP/1 server (and its body as framed: whole without a length)
    "version-2.0": (answer(b"HTTP/2.0 200 OK"), NOT_HTTP),
    "version-2": (answer(b"HTTP/2 200 OK"), NOT_HTTP),  # libcurl: "Version mismatch"
    "version-3": (answer(b"HTTP/3 200 OK"), NOT_HTTP),
    "two-different-lengths": (answer(headers=LENGTH + b"Content-Length: 99\r\n"), MALFORMED_HEADERS),
    "negative-length": (answer(headers=b"Content-Length: -1\r\n"), MALFORMED_HEADERS),
    "length-not-a-number": (answer(headers=b"Content-Length: abc\r\n"), MALFORMED_HEADERS),
    "length-with-a-sign": (answer(headers=b"Content-Length: +%d\r\n" % len(BODY)), MALFORMED_HEADERS),
    "empty-length": (answer(headers=b"Content-Length: \r\n"), MALFORMED_HEADERS),
    "length-of-two-numbers": (answer(headers=b"Content-Length: 1 2\r\n"), MALFORMED_HEADERS),
    # no 64-bit length: http.client waited for the bytes (incomplete_body), libcurl read to the end
    "length-of-2^63": (answer(headers=b"Content-Length: %d\r\n" % 2**63), MALFORMED_HEADERS),
    "length-of-40-digits": (answer(headers=b"Content-Length: %s\r\n" % (b"9" * 40)), MALFORMED_HEADERS),
    "length-of-5000-digits": (answer(headers=b"Content-Length: 1%s\r\n" % (b"0" * 5000)), MALFORMED_HEADERS),
    "bad-length-beside-chunked": (
        answer(headers=b"Content-Length: abc\r\nTransfer-Encoding: chunked\r\n", body=CHUNKED),
        MALFORMED_HEADERS,
    ),
    "line-without-colon": (answer(headers=b"Garbage line\r\n" + LENGTH), MALFORMED_HEADERS),
    "last-line-without-colon": (answer(headers=LENGTH + b"NoColon\r\n"), MALFORMED_HEADERS),
    "interim-line-without-colon": (b"HTTP/1.1 103 Early Hints\r\nGarbage\r\n\r\n" + answer(), MALFORMED_HEADERS),
    "nul-in-a-value": (answer(headers=b"X-A: a\x00b\r\n" + LENGTH), MALFORMED_HEADERS),
    "nul-in-the-status-line": (answer(b"HTTP/1.1 200 O\x00K"), MALFORMED_HEADERS),
    "cr-in-a-value": (answer(headers=b"X-A: a\rb\r\n" + LENGTH), MALFORMED_HEADERS),
    "two-crs-ending-a-line": (answer(headers=b"X-A: b\r\r\n" + LENGTH), MALFORMED_HEADERS),
    "two-crs-ending-the-last-line": (answer(headers=LENGTH + b"X-A: b\r\r\n"), MALFORMED_HEADERS),
}

#: name -> an answer both wires read: status 200 (or 204) and the body
READ = {
    "one-length-twice": answer(headers=LENGTH + LENGTH),
    "one-length-listed-twice": answer(headers=b"Content-Length: %d, %d\r\n" % (len(BODY), len(BODY))),
    "bad-length-of-a-204": answer(b"HTTP/1.1 204 No Content", headers=b"Content-Length: abc\r\n", body=b""),
    "length-after-40-zeros": answer(headers=b"Content-Length: %s%d\r\n" % (b"0" * 40, len(BODY))),
    "space-in-a-name": answer(headers=b"Bad Name: x\r\n" + LENGTH),
    "continuation-line-first": answer(headers=b" folded: x\r\n" + LENGTH),
    "name-empty": answer(headers=b":novalue\r\n" + LENGTH),
    "folded-value": answer(headers=b"X-A: a\r\n b\r\n" + LENGTH),
    "blank-line-of-two-crs": answer(headers=LENGTH + b"\r"),  # libcurl: a line opening with a CR ends the head
}


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_head_libcurl_refuses_is_refused_on_both_wires_in_one_way(impersonate, name):
    sent, said = REFUSED[name]
    with FaultServer({"/p": raw(sent)}) as server:
        with pytest.raises(NetworkError) as raised:
            send_once(server.url("/p"), impersonate)
    assert (str(raised.value), raised.value.detail_code) == (said, "malformed_response")


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("name", sorted(READ))
def test_a_head_both_read_is_read_alike(impersonate, name):
    with FaultServer({"/p": raw(READ[name])}) as server:
        response = send_once(server.url("/p"), impersonate)
    expected = (204, b"") if name == "bad-length-of-a-204" else (200, BODY)
    assert (response.status, response.content) == expected

"""A body in a ``Transfer-Encoding`` other than chunked is refused on both wires, in the same words
(``bad_content_encoding``, naming the coding); chunked and identity are read alike.

libcurl refuses such a body ("Unsolicited Transfer-Encoding"), which the browser wire said as "a body
that does not decompress"; ``http.client`` knows only ``chunked`` spelled alone and read any other
as the raw bytes up to the connection's end: ``gzip, chunked`` gave the chunks' framing as the page,
and so did ``identity, chunked``, which libcurl reads as chunked."""

import gzip

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH, send_once

from websearch_sync.errors import NetworkError

BODY = b"<html><body><p>hello</p></body></html>"
ZIPPED = gzip.compress(BODY)


def answer(coding, body):
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: %s\r\nConnection: close\r\n\r\n%s" % (
        coding,
        body,
    )


def chunked(data):
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data)


#: the Transfer-Encoding, the body sent, the coding the refusal names
REFUSED = [
    (b"gzip, chunked", chunked(ZIPPED), "gzip"),
    (b"gzip", ZIPPED, "gzip"),
    (b"chunked, gzip", ZIPPED, "gzip"),
    (b"foo", BODY, "foo"),
    (b"\xe9t\xe9", BODY, "unnamed"),
]
READ = [
    (b"chunked", chunked(BODY)),
    (b"Chunked", chunked(BODY)),
    (b"identity", BODY),
    (b"identity, chunked", chunked(BODY)),
    (b"chunked, chunked", chunked(BODY)),
]


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("coding, body, named", REFUSED, ids=[r[0].decode("latin-1") for r in REFUSED])
def test_a_body_in_another_transfer_coding_is_refused_on_both_wires(impersonate, coding, body, named):
    with FaultServer({"/p": raw(answer(coding, body))}) as server:
        with pytest.raises(NetworkError) as raised:
            send_once(server.url("/p"), impersonate)
    assert (str(raised.value), raised.value.detail_code) == (
        "127.0.0.1 sent a body in a Transfer-Encoding (%s) that cannot be read here (readable: chunked)" % named,
        "bad_content_encoding",
    )


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("coding, body", READ, ids=[r[0].decode() for r in READ])
def test_chunked_and_identity_are_read_alike(impersonate, coding, body):
    with FaultServer({"/p": raw(answer(coding, body))}) as server:
        response = send_once(server.url("/p"), impersonate)
    assert (response.status, response.content) == (200, BODY)

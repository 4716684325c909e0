"""A chunked body's framing gets one verdict on both wires: what libcurl refuses the requests wire
refuses, in the same words, and what libcurl reads the requests wire reads alike.

Found by comparing the wires body by body: ``http.client`` tossed the two bytes after a chunk's
data unseen (``hello`` then ``XX``: the page went on, ``helloabc``), read any text ``int(x, 16)``
takes for a size (`` 5``, ``+5``, ``0x5``, ``0_5``), refused a line end libcurl reads (``\\n`` or
``\\r\\r\\n`` after the data, ``5 junk`` as a size) and took a trailer that the connection's end cut,
or one holding a lone CR, a NUL, no colon or a folded line, for a whole body. libcurl reads a size
from the hex digits opening its line (1 to 17, below 2^63; the rest of the line skipped), ends a
chunk's data with any CRs then an LF, and reads trailer lines by its header rules. A folded trailer
line was "connection failed" on the browser wire (libcurl's "Invalid response header")."""

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH, send_once

from websearch_sync.errors import NetworkError

HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
CUT = "the body from 127.0.0.1 was cut short: the connection broke while reading it"
MALFORMED_HEADERS = (
    "127.0.0.1 answered with malformed headers (e.g. a conflicting or invalid Content-Length, a line that is no header)"
)

#: name -> (the chunked body, what both wires say)
REFUSED = {
    "no-line-end-after-data": (b"5\r\nhelloXX3\r\nabc\r\n0\r\n\r\n", CUT),
    "a-byte-before-the-lf": (b"5\r\nhelloX\n0\r\n\r\n", CUT),
    "a-space-after-data": (b"5\r\nhello \r\n0\r\n\r\n", CUT),
    "a-lone-cr-after-data": (b"5\r\nhello\r0\r\n\r\n", CUT),
    "a-blank-line-after-the-line-end": (b"5\r\nhello\n\n0\r\n\r\n", CUT),
    "size-after-a-space": (b" 5\r\nhello\r\n0\r\n\r\n", CUT),
    "size-with-a-plus": (b"+5\r\nhello\r\n0\r\n\r\n", CUT),
    "size-negative": (b"-5\r\nhello\r\n0\r\n\r\n", CUT),
    "size-empty": (b"\r\nhello\r\n0\r\n\r\n", CUT),
    "size-of-18-digits": (b"000000000000000005\r\nhello\r\n0\r\n\r\n", CUT),
    "size-of-2^63": (b"8000000000000000\r\nhello\r\n0\r\n\r\n", CUT),
    "size-of-17-digits-over-2^63": (b"10000000000000005\r\nhello\r\n0\r\n\r\n", CUT),
    # libcurl reads the size 0 of "0x5" (its hex digits) and then "hello" as a trailer line
    "size-0x5": (b"0x5\r\nhello\r\n0\r\n\r\n", MALFORMED_HEADERS),
    "size-0_5": (b"0_5\r\nhello\r\n0\r\n\r\n", MALFORMED_HEADERS),
    "closed-after-the-last-chunk": (b"5\r\nhello\r\n0\r\n", CUT),
    "closed-inside-the-trailer": (b"5\r\nhello\r\n0\r\nX: y\r\n", CUT),
    "closed-after-a-cr": (b"5\r\nhello\r\n0\r\n\r", CUT),
    "trailer-with-a-lone-cr": (b"5\r\nhello\r\n0\r\nX: y\rZ\r\n\r\n", CUT),
    "trailer-ending-in-two-crs": (b"5\r\nhello\r\n0\r\nX: y\r\r\n\r\n", CUT),
    "blank-line-of-two-crs": (b"5\r\nhello\r\n0\r\n\r\r\n", CUT),
    "trailer-with-a-nul": (b"5\r\nhello\r\n0\r\nX: a\x00b\r\n\r\n", MALFORMED_HEADERS),
    "trailer-without-a-colon": (b"5\r\nhello\r\n0\r\nabc\r\n\r\n", MALFORMED_HEADERS),
    "trailer-folded": (b"5\r\nhello\r\n0\r\nX: a\r\n b\r\n\r\n", MALFORMED_HEADERS),
    "trailer-folded-first": (b"5\r\nhello\r\n0\r\n b\r\n\r\n", MALFORMED_HEADERS),
}

#: name -> a chunked body both wires read as ``hello``
READ = {
    "canonical": b"5\r\nhello\r\n0\r\n\r\n",
    "lf-after-data": b"5\r\nhello\n0\r\n\r\n",
    "crs-then-lf-after-data": b"5\r\nhello\r\r\r\n0\r\n\r\n",
    "lf-after-the-size": b"5\nhello\r\n0\n\n",
    "an-extension": b"5 ; a=b\r\nhello\r\n0;x=y\r\n\r\n",
    "a-quoted-extension": b'5;a="b c"\r\nhello\r\n0\r\n\r\n',
    "junk-after-the-size": b"5 junk\r\nhello\r\n0\r\n\r\n",
    "a-cr-and-junk-after-the-size": b"5\rjunk\r\nhello\r\n0\r\n\r\n",
    "size-of-17-digits": b"00000000000000005\r\nhello\r\n0\r\n\r\n",
    "size-in-two-chunks": b"2\r\nhe\r\n3\r\nllo\r\n0\r\n\r\n",
    "a-trailer": b"5\r\nhello\r\n0\r\nX-Sum: 1\r\n\r\n",
    "a-trailer-ending-in-lf": b"5\r\nhello\r\n0\r\nX-Sum: 1\n\n",
    "a-trailer-name-with-a-space": b"5\r\nhello\r\n0\r\nBad Name: x\r\n\r\n",
}


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_chunked_framing_libcurl_refuses_is_refused_on_both_wires_in_one_way(impersonate, name):
    body, said = REFUSED[name]
    with FaultServer({"/p": raw(HEAD + body)}) as server:
        with pytest.raises(NetworkError) as raised:
            send_once(server.url("/p"), impersonate)
    expected = "incomplete_body" if said == CUT else "malformed_response"
    assert (str(raised.value), raised.value.detail_code) == (said, expected)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("name", sorted(READ))
def test_chunked_framing_both_read_is_read_alike(impersonate, name):
    with FaultServer({"/p": raw(HEAD + READ[name])}) as server:
        response = send_once(server.url("/p"), impersonate)
    assert (response.status, response.content) == (200, b"hello")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_large_chunked_body_read_in_pieces_is_whole(impersonate):
    """Chunks larger than a read, in odd sizes, with each line end libcurl reads: every byte, in order."""
    pieces = [bytes([65 + n % 26]) * size for n, size in enumerate((70_000, 1, 65_536, 3_333, 131_073))]
    ends = [b"\r\n", b"\n", b"\r\r\n", b"\r\n", b"\n"]
    body = b"".join(
        b"%x;n=%d\r\n%s%s" % (len(piece), n, piece, end) for n, (piece, end) in enumerate(zip(pieces, ends))
    )
    with FaultServer({"/p": raw(HEAD + body + b"0\r\n\r\n")}) as server:
        response = send_once(server.url("/p"), impersonate)
    assert response.content == b"".join(pieces)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("size", [70_000, 300_000])
def test_a_chunk_extension_longer_than_http_client_reads_is_skipped_as_libcurl_skips_it(impersonate, size):
    """``http.client`` refused a size line over 64 KB (``LineTooLong("chunk size")``: a body cut
    short); libcurl skips an extension of any length up to the line's LF."""
    body = b"5;x=" + b"a" * size + b"\r\nhello\r\n0\r\n\r\n"
    with FaultServer({"/p": raw(HEAD + body)}) as server:
        response = send_once(server.url("/p"), impersonate)
    assert (response.status, response.content) == (200, b"hello")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_connection_closed_inside_a_long_chunk_extension_cuts_the_body_short(impersonate):
    body = b"5;x=" + b"a" * 70_000
    with FaultServer({"/p": raw(HEAD + body)}) as server:
        with pytest.raises(NetworkError) as raised:
            send_once(server.url("/p"), impersonate)
    assert (str(raised.value), raised.value.detail_code) == (CUT, "incomplete_body")


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("status", [b"204 No Content", b"304 Not Modified"])
def test_a_204_or_304_saying_chunked_ends_with_its_head(impersonate, status):
    """RFC 9112 (6.3): a 204 or 304 ends at its head whatever its headers say, as libcurl reads it;
    ``http.client`` waited for the chunks' framing of a body that never comes (``incomplete_body``)."""
    answer = b"HTTP/1.1 %s\r\nTransfer-Encoding: chunked\r\n\r\n" % status
    with FaultServer({"/p": raw(answer)}) as server:
        response = send_once(server.url("/p"), impersonate)
    assert (response.status, response.content) == (int(status[:3]), b"")


TOO_LARGE = (
    "127.0.0.1 answered with a header block too large to read (too many header lines, one too long, or over 300 KB)"
)
LAST = b"5\r\nhello\r\n0\r\n"


def trailer(lines, size):
    """``lines`` trailer lines of ``size`` bytes each (their CRLF aside), then the blank line."""
    return LAST + (b"X: " + b"y" * (size - 3) + b"\r\n") * lines + b"\r\n"


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "lines, size",
    [(10_000, 4), (1, 5_000), (400, 1_000), (100_000, 4)],
    ids=["10000-lines", "a-5000-byte-line", "400-kb", "100000-lines"],
)
def test_a_trailer_over_libcurls_bounds_is_a_header_block_too_large_on_both_wires(impersonate, lines, size):
    """libcurl reads at most 5000 lines of header blocks and trailer together, 300 KB of them, and
    trailer lines of at most 4093 bytes; ``http.client`` read any number of trailer lines of up
    to 64 KB (an endless trailer held the requests wire to the deadline)."""
    with FaultServer({"/p": raw(HEAD + trailer(lines, size))}) as server:
        with pytest.raises(NetworkError) as raised:
            send_once(server.url("/p"), impersonate)
    assert (str(raised.value), raised.value.detail_code) == (TOO_LARGE, "malformed_response")


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "lines, size", [(3_000, 4), (1, 4_000), (250, 1_000)], ids=["3000-lines", "a-4000-byte-line", "250-kb"]
)
def test_a_trailer_within_libcurls_bounds_is_read_on_both_wires(impersonate, lines, size):
    with FaultServer({"/p": raw(HEAD + trailer(lines, size))}) as server:
        response = send_once(server.url("/p"), impersonate)
    assert (response.status, response.content) == (200, b"hello")

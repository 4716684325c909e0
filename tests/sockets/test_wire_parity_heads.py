"""An answer's head (status line and header block) gets one verdict on both wires: the same error,
in the same words, for a head the connection's end cut short, a head over 300 KB, and an answer
that is not HTTP; and the same answer for a head either wire reads.

The requests wire took a head cut short for a whole one (``http.client`` ends a header block at
the end of the input) and its missing body for an empty one: fetch said ``no_content``, where
libcurl says the server closed the connection without an answer. It read a final head of up to
100 lines of 64 KB, where libcurl refuses more than 300 KB of header lines (counted with the
interim answers', each line with its CRLF, the blank line too); libcurl itself said
``incomplete_body`` when the blank line tipped the count over, after the head was delivered.
"""

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH, send_once

import websearch_sync as ws
from websearch_sync.errors import NetworkError

CLOSED = "no answer: the connection was closed by the server 127.0.0.1"
TOO_LARGE = (
    "127.0.0.1 answered with a header block too large to read (too many header lines, one too long, or over 300 KB)"
)
NOT_HTTP = "127.0.0.1 answered with something that is not HTTP"
#: libcurl's limit on an answer's header lines (MAX_HTTP_RESP_HEADER_SIZE): 300 KB
LIMIT = 300 * 1024
EARLY_HINTS = b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"

#: name -> the whole answer, the connection closed after it: each ends inside its head
CUT_SHORT = {
    "inside-a-header-line": b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Trace: ab",
    "after-a-header-line": b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n",
    "after-the-status-line": b"HTTP/1.1 200 OK\r\n",
    "status-line-without-its-end": b"HTTP/1.1 200 OK",
    "inside-the-status-code": b"HTTP/1.1 20",
    "inside-the-version": b"HTT",
    "inside-an-interim-answer": b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n",
    "after-an-interim-answer": EARLY_HINTS + b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n",
}


def refusal(answer, impersonate):
    with FaultServer({"/p": raw(answer)}) as server:
        with pytest.raises(NetworkError) as raised:
            send_once(server.url("/p"), impersonate)
    return str(raised.value), raised.value.detail_code


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("answer", sorted(CUT_SHORT))
def test_a_head_the_connection_cut_short_is_no_answer(impersonate, answer):
    assert refusal(CUT_SHORT[answer], impersonate) == (CLOSED, "connection_reset")


@pytest.mark.parametrize("impersonate", BOTH)
def test_fetch_says_no_answer_came_not_that_the_page_has_no_text(impersonate, fake_clock):
    with FaultServer({"/p": raw(CUT_SHORT["inside-a-header-line"])}) as server:
        with pytest.raises(ws.NetworkError) as raised:
            ws.fetch(server.url("/p"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (str(raised.value), raised.value.detail_code) == (CLOSED, "connection_reset")


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("answer", [b"hello", b"hello\r\n", b"HTTP/1.1 2x0 OK\r\n\r\n"], ids=["cut", "line", "code"])
def test_an_answer_that_is_not_http_is_said_in_one_way(impersonate, answer):
    """A first line that cannot become a status line: not HTTP, cut short or not (the requests
    wire said "answer that is not HTTP: HOST", libcurl "HOST answered with something that is not HTTP")."""
    assert refusal(answer, impersonate) == (NOT_HTTP, "malformed_response")


def answer_with_head_of(size, interim=b""):
    """An answer whose head (``interim`` answers, status line, header lines, blank line) is ``size``
    bytes, filled with 10 KB header lines, then a two-byte body."""
    start = interim + b"HTTP/1.1 200 OK\r\n"
    end = b"Content-Length: 2\r\nConnection: close\r\n\r\n"
    lines, fill = [], size - len(start) - len(end)
    while fill:
        length = fill if fill < 20_000 else 10_000
        lines.append(b"X-Fill: " + b"a" * (length - 10) + b"\r\n")
        fill -= length
    head = start + b"".join(lines) + end
    assert len(head) == size
    return head + b"ok"


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("interim", [b"", EARLY_HINTS], ids=["final-only", "with-an-interim-answer"])
def test_a_head_of_300_kb_is_read_one_byte_more_is_refused(impersonate, interim):
    with FaultServer(
        {"/at": raw(answer_with_head_of(LIMIT, interim)), "/over": raw(answer_with_head_of(LIMIT + 1, interim))}
    ) as server:
        response = send_once(server.url("/at"), impersonate)
        with pytest.raises(NetworkError) as raised:
            send_once(server.url("/over"), impersonate)
    assert (response.status, response.content) == (200, b"ok")
    assert (str(raised.value), raised.value.detail_code) == (TOO_LARGE, "malformed_response")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_final_head_of_many_lines_within_each_limit_is_refused_past_300_kb(impersonate):
    """40 lines of 10 KB: within http.client's 100 lines of 64 KB, over libcurl's 300 KB."""
    answer = b"HTTP/1.1 200 OK\r\n" + b"X-Fill: %s\r\n" % (b"a" * 10_000) * 40 + b"Content-Length: 2\r\n\r\nok"
    assert refusal(answer, impersonate) == (TOO_LARGE, "malformed_response")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_lone_cr_ending_the_head_at_the_end_of_the_input_is_a_whole_head(impersonate):
    """libcurl takes a line starting with CR for the blank line: the head is whole, the body empty."""
    with FaultServer({"/p": raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r")}) as server:
        response = send_once(server.url("/p"), impersonate)
    assert (response.status, response.content) == (200, b"")


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "answer",
    [
        b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 101 Switching Protocols\r\n\r\n",
    ],
    ids=["alone", "after-100"],
)
def test_a_101_nothing_asked_for_is_an_unexpected_status_on_both_wires(impersonate, answer):
    """A 101 is final and has no body (RFC 9110 15.2.2): libcurl took it for an interim answer and
    said "connection failed" when none followed; the requests wire, "unexpected HTTP 101"."""
    with FaultServer({"/p": raw(answer)}) as server:
        with pytest.raises(ws.WebProviderError) as raised:
            ws.fetch(server.url("/p"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (str(raised.value), raised.value.detail_code) == ("127.0.0.1 answered with unexpected HTTP 101", "http_101")

"""The undocumented ``http.client`` behaviour the requests wire holds an answer's head to libcurl's
bounds by (``net/requests_adapter.py``: ``_HeadLines``): ``HTTPResponse.begin()`` reads the status
line and the header block by the reader's ``readline`` alone, a header block at the end of the
input ends without a blank line (no error), and ``read`` decodes chunks by the ``chunked`` attribute
``begin()`` sets. A Python release that changes any of these fails here by name."""

import http.client
import socket

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok"


class _Lines:
    """A reader with ``readline`` (and ``close``) only, keeping the lines read."""

    def __init__(self, fp):
        self.fp, self.lines = fp, []

    def readline(self, limit=-1):
        line = self.fp.readline(limit)
        self.lines.append(line)
        return line

    def close(self):
        self.fp.close()


def _begun(sent):
    """A response over a socket pair whose other end sent ``sent`` and closed, begun with a
    :class:`_Lines` as its reader; that reader."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(sent)
        theirs.shutdown(socket.SHUT_WR)
        response = http.client.HTTPResponse(ours, method="GET")
        fp = response.fp
        lines = response.fp = _Lines(fp)
        response.begin()
        response.fp = fp
        return response, lines


def test_begin_reads_the_head_by_readline_alone():
    response, lines = _begun(ANSWER)
    assert lines.lines == [b"HTTP/1.1 200 OK\r\n", b"Content-Type: text/html\r\n", b"Content-Length: 2\r\n", b"\r\n"]
    assert (response.status, response.read()) == (200, b"ok")


def test_a_header_block_the_input_ends_inside_is_taken_for_a_whole_one():
    response, lines = _begun(b"HTTP/1.1 200 OK\r\nX-Trace: ab")
    assert lines.lines[-2:] == [b"X-Trace: ab", b""]
    assert (response.status, response.getheader("X-Trace")) == (200, "ab")


def test_a_response_read_as_chunked_once_begin_set_chunked():
    """``_FinalAnswer`` reads ``identity, chunked`` as chunked by setting ``chunked``, ``chunk_left``
    and ``length`` after ``begin()``: ``read`` decodes by those attributes."""
    response, _ = _begun(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: identity, chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n")
    assert response.chunked is False  # http.client knows only "chunked" spelled alone
    response.chunked, response.chunk_left, response.length = True, None, None
    assert response.read() == b"ok"

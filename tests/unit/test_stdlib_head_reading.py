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


class _Calls:
    """A reader noting each call ``http.client`` makes on it, with what it returned."""

    def __init__(self, fp):
        self.fp, self.calls = fp, []

    def _noted(self, name, result):
        self.calls.append((name, result))
        return result

    def readline(self, limit=-1):
        return self._noted("readline", self.fp.readline(limit))

    def read(self, amt=-1):
        return self._noted("read", self.fp.read(amt))

    def read1(self, amt=-1):
        return self._noted("read1", self.fp.read1(amt))

    def peek(self, amt=0):
        return self.fp.peek(amt)

    def close(self):
        self.fp.close()

    def flush(self):
        self.fp.flush()


CHUNKED = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Sum: 1\r\n\r\n"


def test_a_chunked_body_is_read_by_readline_for_sizes_and_trailers_and_read_for_data_and_line_ends():
    """``_ChunkedBody`` hands ``http.client`` the chunks' framing as libcurl reads it: it relies on
    ``read`` and ``read1`` taking a size line and trailer lines by ``readline``, a chunk's data by
    ``read`` or ``read1`` within its size, and the line end after the data by ``read(2)``."""
    for method in ("read", "read1"):
        response, _ = _begun(CHUNKED)
        calls = response.fp = _Calls(response.fp)
        body = response.read() if method == "read" else response.read1(100) + response.read1(100)
        assert body == b"ok"
        assert calls.calls == [
            ("readline", b"2\r\n"),
            (method, b"ok"),
            ("read", b"\r\n"),
            ("readline", b"0\r\n"),
            ("readline", b"X-Sum: 1\r\n"),
            ("readline", b"\r\n"),
        ]

"""The run of CRs that may end a chunk's data (libcurl reads any CRs, then an LF) is read by
pieces of lines, not byte by byte: 10 MB of CRs cost 0.86 s of CPU in a Python loop per byte."""

import http.client
import io

import pytest

from websearch_sync.net import requests_adapter

HEAD = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"


class _CountingReader:
    """A socket file that counts the calls made to read from it."""

    def __init__(self, data: bytes) -> None:
        self.file = io.BufferedReader(io.BytesIO(data), 65536)
        self.calls = 0

    def __getattr__(self, name):
        method = getattr(self.file, name)
        if name.startswith(("read", "peek")):
            self.calls += 1
        return method


def test_a_run_of_crs_after_a_chunks_data_is_read_in_a_few_calls():
    crs = requests_adapter.MAX_SKIPPED_FRAMING - 10
    reader = _CountingReader(HEAD + b"5\r\nhello" + b"\r" * crs + b"\n0\r\n\r\n")

    class Socket:
        def makefile(self, mode):
            return reader

    answer = requests_adapter._FinalAnswer(Socket())
    answer.begin()
    before = reader.calls
    assert answer.read() == b"hello"
    assert reader.calls - before < 50  # a call per 64 KB of CRs, not one per CR (300 000)


@pytest.mark.parametrize("line_end", [b"\r\n", b"\n"], ids=["crlf", "lf"])
@pytest.mark.parametrize("length", [80, 300_000], ids=["short", "longer-than-a-line-read"])
def test_a_size_lines_extension_is_counted_to_the_byte_whatever_its_line_end(line_end, length, monkeypatch):
    """Before: the size line's end was taken as two bytes, so an LF-only line's extension counted a
    byte short of MAX_SKIPPED_FRAMING (one byte over it passed). An extension of exactly the bound
    is read; one byte more is refused."""
    monkeypatch.setattr(requests_adapter, "MAX_SKIPPED_FRAMING", length)

    def body_read(extension):
        reader = _CountingReader(HEAD + b"5;" + b"a" * (extension - 1) + line_end + b"hello\r\n0\r\n\r\n")

        class Socket:
            def makefile(self, mode):
                return reader

        answer = requests_adapter._FinalAnswer(Socket())
        answer.begin()
        return answer.read()

    assert body_read(length) == b"hello"
    with pytest.raises(http.client.IncompleteRead) as refused:  # http.client's report of the reader's refusal
        body_read(length + 1)
    # the reader's refusal is the context of http.client's (3.11 on also chains it as the cause; 3.10 does not)
    assert refused.value.__context__.why == "over %d bytes of chunk extensions and CRs" % length

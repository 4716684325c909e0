"""An answer whose socket file is closed first closes without an error: ``http.client`` flushed
that file from ``close()`` and raised ``ValueError: I/O operation on closed file``. Collected with
its file, the answer's finalizer met it: Python 3.13 reports what a finalizer's ``close()`` raises
(pytest's unraisable-exception warning in test_chunked_line_ends and test_cli_missing_streams)."""

import gc
import io

from websearch_sync.net import requests_adapter


def _answer_and_file():
    """A final answer whose head is read from a socket file (its body not yet), and that file."""
    file = io.BufferedReader(io.BytesIO(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))

    class Socket:
        def makefile(self, mode):
            return file

    answer = requests_adapter._FinalAnswer(Socket())
    answer.begin()
    assert answer.fp is file  # (a body read to its end would close the answer's hold of it)
    return answer, file


def test_an_answer_whose_file_is_closed_first_closes_without_an_error():
    answer, file = _answer_and_file()
    file.close()
    answer.close()
    assert answer.closed and answer.fp is None


def test_an_answer_collected_after_its_file_reports_nothing(monkeypatch):
    reported = []
    monkeypatch.setattr("sys.unraisablehook", reported.append)
    answer, file = _answer_and_file()
    file.close()
    del answer  # its finalizer closes it
    gc.collect()
    assert [(unraisable.exc_type, str(unraisable.exc_value)) for unraisable in reported] == []

"""``--queries-file -`` from a pipe is read a line at a time: a producer that streams queries
gets each answer as its query is run, not once its input ended (stdin was read to its end
before the first query ran, so ``tail -f queries | websearch-sync search --queries-file -``
never answered)."""

import io
import json
import os
import select
import sys
import threading
import tracemalloc
import types
from functools import partial

import pytest

from websearch_sync.cli import main, queries
from websearch_sync.errors import InvalidInput

#: How long the producer waits for the first answer before it gives up: only a batch that
#: waits for the input's end lets it run out (an answer of the stub takes milliseconds).
FIRST_ANSWER_WAIT_S = 10.0


class _Answers(io.StringIO):
    """A stdout that says when a first line was written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.first = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if "\n" in self.getvalue():
            self.first.set()
        return written


def _pipe_stdin(monkeypatch) -> int:
    """A pipe as stdin, as a shell gives a producer's output; the writing end returned."""
    read_end, write_end = os.pipe()
    monkeypatch.setattr(sys, "stdin", open(read_end, encoding="utf-8"))  # closed by the test
    return write_end


def _piped(monkeypatch, data: bytes, argv: list[str]) -> int:
    """``main(argv)``'s status with ``data`` on a pipe as stdin, its writer gone."""
    write_end = _pipe_stdin(monkeypatch)
    os.write(write_end, data)
    os.close(write_end)
    try:
        return main(argv)
    finally:
        sys.stdin.close()


def test_a_streamed_query_is_answered_before_the_next_line_arrives(monkeypatch, capsys):
    answers = _Answers()
    monkeypatch.setattr(sys, "stdout", answers)
    write_end = _pipe_stdin(monkeypatch)
    seen_before_second: list[bool] = []

    def producer() -> None:
        os.write(write_end, b"one\n")
        seen_before_second.append(answers.first.wait(FIRST_ANSWER_WAIT_S))
        os.write(write_end, b"two\n")
        os.close(write_end)

    thread = threading.Thread(target=producer)
    thread.start()
    try:
        status = main(["search", "--queries-file", "-", "--progress-every", "0"])
    finally:
        thread.join()
        sys.stdin.close()
    assert (status, seen_before_second) == (0, [True])
    assert [json.loads(line)["query"] for line in answers.getvalue().splitlines()] == ["one", "two"]
    err = capsys.readouterr().err
    assert "progress: [1/?] 1 ok, 0 failed" in err  # how many will come is not known
    assert err.splitlines()[-1] == "2 ok, 0 failed"


def test_a_streamed_line_that_is_not_utf8_ends_the_batch_after_the_queries_before_it(monkeypatch, capsys):
    assert _piped(monkeypatch, b"one\ntwo\n\xe9t\xe9\nthree\n", ["search", "--queries-file", "-"]) == 2
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line.get("query") for line in lines] == ["one", "two", None]
    assert lines[-1]["error"]["detail_code"] == "bad_arguments"
    assert captured.err.splitlines()[-2:] == [
        "the input failed: 2 ok, 0 failed, 0 not run",
        "error: InvalidInput/bad_arguments: cannot read --queries-file -: "
        "line 3 is not UTF-8 (byte 0xe9 at byte offset 8: invalid continuation byte)",
    ]


def test_a_streamed_batch_stopped_after_k_failures_says_so(monkeypatch, capsys):
    """Its summary counted the queries read, all run: "0 ok, 2 failed" said nothing of the stop. Each
    query fails on its own (a control character; ``-n 0``, shared by all, is refused before any runs)."""
    assert (
        _piped(
            monkeypatch,
            b"o\x01ne\ntw\x01o\nthre\x01e\n",
            ["search", "--queries-file", "-", "--stop-after-failures", "2"],
        )
        == 2
    )
    assert capsys.readouterr().err.splitlines()[-2] == (
        "0 ok, 2 failed; stopped after 2 consecutive failures, 0 not run, the rest of the input not read"
    )


class _LockingReader(io.BufferedReader):
    """stdin's buffered reader, whose ``readline`` a worker thread waiting on a pipe holds the lock of:
    the interpreter, closing stdin as it exits (``| head -1`` gone), aborted on that lock (status 134)."""

    def readline(self, size=-1):
        raise AssertionError("a piped query was read through stdin's buffered reader")


def test_piped_queries_are_not_read_through_stdins_buffered_reader(monkeypatch, capsys):
    """The process test (tests/sockets/test_cli_output.py) meets the abort when the interpreter's exit
    wins the race; this one checks its cause every time."""
    read_end, write_end = os.pipe()
    stdin = io.TextIOWrapper(_LockingReader(io.FileIO(read_end, "rb")), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    os.write(write_end, b"one\ntwo\n")
    os.close(write_end)
    try:
        assert main(["search", "--queries-file", "-"]) == 0
    finally:
        stdin.close()
    assert [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()] == ["one", "two"]


def test_a_streamed_batch_skips_the_queries_done_as_they_arrive(monkeypatch, capsys, tmp_path):
    done = tmp_path / "out.jsonl"
    done.write_text(json.dumps({"query": "one", "items": [], "provider_meta": {}}) + "\n", encoding="utf-8")
    assert _piped(monkeypatch, b"one\ntwo\n", ["search", "--queries-file", "-", "--skip-done", str(done)]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["query"] for line in captured.out.splitlines()] == ["two"]
    assert "skipping the 1 query done in %s as they arrive" % done in captured.err.splitlines()
    assert captured.err.splitlines()[-1] == "1 ok, 0 failed, 1 skipped as done"  # it said nothing of them


class _ConsoleIO(io.FileIO):
    """A Windows console's raw reader (``_WindowsConsoleIO``), which gives the text typed as UTF-8
    while the descriptor's own bytes (``os.read``) are the console's code page (here cp1252)."""

    def read(self, size=-1):
        return super().read(size).decode("cp1252").encode("utf-8")


def test_piped_queries_are_read_through_stdins_raw_reader(monkeypatch, capsys):
    """``os.read(0)`` on a Windows console read "café" as cp1252's ``caf\\xe9``: not UTF-8, the batch ended."""
    read_end, write_end = os.pipe()
    stdin = io.TextIOWrapper(io.BufferedReader(_ConsoleIO(read_end, "rb")), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    os.write(write_end, "café\n".encode("cp1252"))
    os.close(write_end)
    try:
        assert main(["search", "--queries-file", "-"]) == 0
    finally:
        stdin.close()
    assert [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()] == ["café"]


def test_a_non_blocking_pipe_is_waited_on(monkeypatch, capsys):
    """stdin left ``O_NONBLOCK`` by a parent: its first read, before the producer wrote, failed the
    batch at once ("Resource temporarily unavailable"). The producer writes once the batch waits."""
    write_end = _pipe_stdin(monkeypatch)
    os.set_blocking(sys.stdin.fileno(), False)
    waited = []

    def select_after_writing(readers, writers, errors):
        if not waited:
            os.write(write_end, b"one\n")
            os.close(write_end)
        waited.append(readers)
        return select.select(readers, writers, errors)

    monkeypatch.setattr(queries, "select", types.SimpleNamespace(select=select_after_writing), raising=False)
    try:
        assert main(["search", "--queries-file", "-"]) == 0
    finally:
        sys.stdin.close()
    assert [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()] == ["one"]


def test_a_streamed_line_over_the_cap_is_dropped_as_it_comes_and_refused_naming_it():
    """A producer that never sends a line end grew the batch's memory without bound (a 200 MB line: 1.27 GB)."""
    chunks = iter([b"one\n", *[b"x" * 65536] * 160, b"\r\n", b"two\n"])  # a line of 10 MiB
    lines = queries._queries(partial(next, queries._streamed_lines(partial(next, chunks, b"")), b""), "-", None)
    tracemalloc.start()
    try:
        first, long, second = next(lines), next(lines), next(lines)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (first, second, list(lines)) == ("one", "two", [])
    assert peak < 4 * queries.MAX_LINE_BYTES + 4 * 65536  # the cap and a read's chunk, not the line
    assert isinstance(long, queries.OverlongQuery) and long == "x" * queries.MAX_LINE_BYTES
    assert long.error().message == (
        "line 2 of --queries-file is 10485760 bytes long, over the 9024 read of a line (a query's limit is "
        "2000 characters): not searched"
    )


def test_a_streamed_line_over_the_cap_is_cut_at_a_characters_start():
    chunks = iter([b"a" + "é".encode() * 10000, b"\n"])
    (long,) = queries._queries(partial(next, queries._streamed_lines(partial(next, chunks, b"")), b""), "-", None)
    assert long == "a" + "é" * ((queries.MAX_LINE_BYTES - 1) // 2)


def test_a_failed_querys_line_repeats_its_first_characters_only(monkeypatch, capsys):
    assert _piped(monkeypatch, b"y" * 5000 + b"\n" + b"z" * 20000 + b"\n", ["search", "--queries-file", "-"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(record["query"], record["error"]["detail_code"]) for record in records] == [
        ("y" * 2000 + "\u2026", "query_too_long"),
        ("z" * 2000 + "\u2026", "query_too_long"),
    ]
    assert records[1]["error"]["message"].startswith("line 2 of --queries-file is 20000 bytes long")


def test_a_failed_querys_line_from_a_file_repeats_its_first_characters_only(tmp_path, capsys):
    path = tmp_path / "q.txt"
    path.write_text("y" * 5000 + "\n", encoding="utf-8")
    assert main(["search", "--queries-file", str(path)]) == 2
    (record,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (record["query"], record["error"]["message"]) == (
        "y" * 2000 + "\u2026",
        "query is 5000 characters long; the limit is 2000",
    )


def _reads(*chunks):
    """A pipe's reads giving ``chunks``, then its end; ``taken``: how many were read."""
    taken = []

    def read():
        taken.append(None)
        return chunks[len(taken) - 1] if len(taken) <= len(chunks) else b""

    return read, taken


def test_a_streamed_line_ended_by_a_lone_cr_is_given_before_the_next_byte():
    """It waited for the next read (the docs say LF, CRLF and CR end a line alike)."""
    read, taken = _reads(b"one\r", b"\ntwo\rthree\n")
    lines = queries._streamed_lines(read)
    assert (next(lines), len(taken)) == (b"one\r", 1)
    assert list(queries._queries(partial(next, lines, b""), "-", None)) == ["two", "three"]


def test_the_lf_of_a_crlf_split_between_reads_opens_no_line_and_counts_in_offsets():
    read, _ = _reads(b"one\r", b"\n\xe9\n")
    with pytest.raises(InvalidInput) as caught:
        list(queries._queries(partial(next, queries._streamed_lines(read), b""), "-", None))
    assert "line 2 is not UTF-8 (byte 0xe9 at byte offset 5: " in caught.value.message


def test_a_pipes_last_line_without_a_line_end_is_a_query(monkeypatch, capsys):
    assert _piped(monkeypatch, b"one\ntwo", ["search", "--queries-file", "-"]) == 0
    assert [json.loads(line)["query"] for line in capsys.readouterr().out.splitlines()] == ["one", "two"]


def test_a_streamed_input_of_blank_lines_only_is_a_usage_error(monkeypatch, capsys):
    """A pipe that gave no query ends as a file of blank lines does: nothing to search, exit 2."""
    assert _piped(monkeypatch, b"\n  \r\n\t\n", ["search", "--queries-file", "-"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == (
        "error: InvalidInput/bad_arguments: --queries-file - (stdin) holds no query (every line is blank): "
        "nothing to search"
    )


def test_the_progress_line_shows_a_query_without_its_direction_overrides(monkeypatch, capsys):
    """``last: abc\\u202eevil``: the right-to-left override went to the terminal as it was, so the line
    after it read reversed (and a query could restyle what the line says of it). The line shows the
    query's visible characters; its JSON line keeps the query as given."""
    assert (
        _piped(
            monkeypatch,
            "abc\u202eevil\u2066x\n".encode(),
            ["search", "--queries-file", "-", "-b", "stub", "--progress-every", "0"],
        )
        == 0
    )
    captured = capsys.readouterr()
    progress = [line for line in captured.err.splitlines() if line.startswith("progress: ")]
    assert progress and progress[-1].endswith("last: abcevilx"), progress
    assert "abc\\u202eevil" in captured.out or "abc\u202eevil" in captured.out

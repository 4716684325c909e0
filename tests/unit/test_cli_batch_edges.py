"""A batch at its edges: a reader that leaves the pipe (``| head -1``) ends it while a query is
still running, not once that query's answer fails to be written; one worker sends no request
after the batch stopped; a resume whose output is its --skip-done file opened with ``>``; the
summary's kinds of failure; SIGTERM to a single search."""

import io
import json
import os
import signal
import sys
import threading

import pytest
from forked import exit_codes, fork_running

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.cli.batch import refuse_overwriting_resume, run_batch
from websearch_sync.cli.output import error_form, terminate_as_interrupt
from websearch_sync.client.clock import CallCancelled, CancellableClock
from websearch_sync.client.search_client import SearchClient

ANSWER = {"items": [], "provider_meta": {"provider_name": "testjson"}}


class TerminalStderr(io.StringIO):
    """A stderr that is a terminal (``isatty``), holding what was written to it."""

    def isatty(self):
        return True


def test_a_reader_that_leaves_ends_the_batch_without_waiting_for_the_running_query(monkeypatch):
    """The batch waited for the query running when ``head -1`` exited (up to its deadline, a
    request spent upstream) and found the pipe closed only when it wrote that answer; on a
    terminal, its progress line stayed, the shell's prompt after it."""
    stderr = TerminalStderr()
    monkeypatch.setattr(sys, "stderr", stderr)
    read_end, write_end = os.pipe()
    release, answered = threading.Event(), []

    class HeadLeavesDuringTheSecondQuery:
        def search(self, query, **options):
            if query == "two":
                os.close(read_end)  # `| head -1` has its line and exits
                release.wait(60)  # bounded: without the fix the batch waits here for the answer
            answered.append(query)
            return ANSWER

    with open(write_end, "w", encoding="utf-8") as out:
        try:
            with pytest.raises(BrokenPipeError):
                run_batch(HeadLeavesDuringTheSecondQuery(), ["one", "two", "three"], {}, out)
            assert answered == ["one"]  # ended while "two" was still running
            assert stderr.getvalue().endswith("last: one\x1b[K\r\x1b[K"), repr(stderr.getvalue())
        finally:
            release.set()


def test_one_worker_sends_no_query_after_the_batch_stops(capsys):
    """One worker runs the next query only once the line before it is written: stopping after K
    failures sends K requests, not K + 1 (the work runs in a thread of its own, see above)."""
    asked = []

    class Failing:
        def search(self, query, **options):
            asked.append(query)
            raise ws.Timeout("slow", detail_code="read_timeout")

    assert run_batch(Failing(), ["a", "b", "c", "d"], {}, io.StringIO(), stop_after=2) == 4
    assert asked == ["a", "b"]


#: A wait of the query running when the batch stops (a retry's backoff): without the cancel, it is
#: waited out and the next request sent; cancelled, it ends at once.
BACKOFF_S = 30.0


class WaitsThenRequestsAgain:
    """A client whose query ``slow`` waits on ``clock`` before a second request; the others fail."""

    def __init__(self, clock):
        self.clock = clock
        self.second_request = []
        self.ended = threading.Event()
        self.started = threading.Event()

    def search(self, query, **options):
        if query != "slow":
            self.started.wait(BACKOFF_S)  # bounded: "slow" is running before the batch stops
            raise ws.Timeout("slow", detail_code="read_timeout")
        self.started.set()
        try:
            self.clock.sleep(BACKOFF_S)
            self.second_request.append(query)
        except CallCancelled:
            pass
        finally:
            self.ended.set()
        return ANSWER


def test_a_stopped_batch_cancels_its_running_query_before_its_next_request(capsys):
    """Stopping after K failures with another query running in its worker: that query waited out its
    backoff and sent its next request after the batch had ended (after ``main()`` returned, from Python)."""
    clock = CancellableClock()
    client = WaitsThenRequestsAgain(clock)
    assert run_batch(client, ["fails", "slow"], {}, io.StringIO(), workers=2, stop_after=1, clock=clock) == 4
    assert client.ended.wait(BACKOFF_S)  # the wait ends at once when cancelled
    assert client.second_request == []


def test_a_batch_whose_reader_left_cancels_its_one_running_query(capsys):
    """One worker: the query runs in a thread of its own; when the reader leaves (or Ctrl-C) the
    batch ends at once, and the query it left must not go on to its next request."""
    read_end, write_end = os.pipe()

    class ReaderLeavesDuringIt(WaitsThenRequestsAgain):
        def search(self, query, **options):
            os.close(read_end)  # `| head -1` exits
            return super().search(query, **options)

    clock = CancellableClock()
    client = ReaderLeavesDuringIt(clock)
    with open(write_end, "w", encoding="utf-8") as out, pytest.raises(BrokenPipeError):
        run_batch(client, ["slow"], {}, out, clock=clock)
    assert client.ended.wait(BACKOFF_S)
    assert client.second_request == []


def test_a_resume_writing_over_its_skip_done_file_is_refused(tmp_path, monkeypatch, capsys):
    """``--skip-done out.jsonl > out.jsonl`` (``>`` for ``>>``): the shell emptied the file before
    the batch began, which then skipped nothing and ran every query again, silently."""
    queries, out = tmp_path / "queries.txt", tmp_path / "out.jsonl"
    queries.write_text("one\ntwo\n", encoding="utf-8")
    argv = ["search", "--queries-file", str(queries), "--skip-done", str(out)]
    with open(out, "w", encoding="utf-8") as written, monkeypatch.context() as patched:
        patched.setattr("sys.stdout", written)
        assert main(argv) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: --skip-done %s is also the output, which does not append to it"
        " (> instead of >>): the shell emptied it before the batch began; resume with >> %s" % (out, out)
    )


def test_a_skip_done_file_holding_no_batch_line_is_refused(tmp_path, capsys):
    """``--skip-done queries.txt`` (the queries for the output) said "skipping 0 queries done" and ran
    every query again (a paid batch paid twice), and so did a JSON file of something else."""
    queries = tmp_path / "queries.txt"
    queries.write_text("one\ntwo\n", encoding="utf-8")
    other = tmp_path / "other.jsonl"
    other.write_text('{"foo": 1}\n', encoding="utf-8")
    for wrong in (queries, other):
        assert main(["search", "--queries-file", str(queries), "--skip-done", str(wrong), "-b", "stub"]) == 2
        captured = capsys.readouterr()
        assert captured.err.splitlines()[-1] == (
            "error: InvalidInput/bad_arguments: --skip-done %s holds no line a batch writes (line 1 is no JSON object"
            ' with a "query"): give the JSONL output of the earlier run (the file its answers were appended to),'
            " not its queries" % wrong
        )
        assert '"items"' not in captured.out  # no query ran


@pytest.mark.parametrize(
    "earlier",
    [
        "",  # a first run appending to a new file
        '{"query": "one", "ite',  # its only answer cut short
        '{"error": {"type": "InvalidInput", "message": "--workers must be in 1..64, got 0"}}\n',  # a refused run
        '{"query": "one", "error": {"type": "Timeout"}}\n',  # a failed query, run again
    ],
)
def test_a_skip_done_file_of_an_earlier_batch_is_taken(earlier, tmp_path, capsys):
    queries, out = tmp_path / "queries.txt", tmp_path / "out.jsonl"
    queries.write_text("one\ntwo\n", encoding="utf-8")
    out.write_text(earlier, encoding="utf-8")
    assert main(["search", "--queries-file", str(queries), "--skip-done", str(out), "-b", "stub"]) == 0
    assert "skipping 0 queries done in" in capsys.readouterr().err


def test_a_resume_from_a_device_that_is_also_the_output_is_not_refused():
    """``--skip-done /dev/null > /dev/null`` was refused as a file the shell emptied: a device is not."""
    with open(os.devnull, "w", encoding="utf-8") as out:
        refuse_overwriting_resume(os.devnull, out)
        assert not out.closed


def test_the_summary_names_each_kind_of_failure(capsys):
    """ "0 ok, 3 failed" alone sent the user to the JSON lines to learn why (a key not set fails every query)."""
    failures = {
        "a": ws.AuthError("brave needs an API key: set BRAVE_API_KEY", detail_code="missing_api_key"),
        "b": ws.Timeout("no answer within 15 s", detail_code="read_timeout"),
        "c": ws.AuthError("brave needs an API key: set BRAVE_API_KEY", detail_code="missing_api_key"),
    }

    class Failing:
        def search(self, query, **options):
            if query in failures:
                raise failures[query]
            return ANSWER

    assert run_batch(Failing(), ["a", "ok", "b", "c"], {}, io.StringIO()) == 3
    assert capsys.readouterr().err.splitlines()[-3:] == [
        "1 ok, 3 failed",
        "  2 failed: AuthError/missing_api_key: brave needs an API key: set BRAVE_API_KEY",
        "  1 failed: Timeout/read_timeout: no answer within 15 s",
    ]


@pytest.fixture
def sigterm_at_default():
    """SIGTERM at its default for the test (a test runner may handle it), restored after."""
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGTERM, previous)


def test_sigterm_ends_a_command_as_ctrl_c_does_with_its_own_word_and_status(monkeypatch, capsys, sigterm_at_default):
    """What the installed command does (tests/sockets/test_cli_output.py starts it for a batch): at
    the default the process was killed, no word said, status -15."""

    def search(self, query, **options):
        # no handler: the signal would kill the test runner, not fail this test
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
        os.kill(os.getpid(), signal.SIGTERM)  # the handler raises here, in the calling thread
        raise AssertionError("SIGTERM did not end the command")

    monkeypatch.setattr(SearchClient, "search", search)
    with terminate_as_interrupt():
        assert main(["search", "q"]) == 143
    assert capsys.readouterr().err.splitlines()[-1] == "terminated"
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # given back


def test_a_child_forked_while_sigterm_ends_the_command_is_killed_by_it(sigterm_at_default):
    """A plugin's ``multiprocessing`` pool forked with the command's handler: ``pool.terminate()``
    raised Terminated in each worker (a traceback on stderr) instead of ending it."""

    def terminated() -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        signal.pause()  # bounded by the parent's limit below

    with terminate_as_interrupt():
        child = fork_running(terminated)
    assert exit_codes([child], limit_s=60) == [-signal.SIGTERM]


@pytest.mark.parametrize("content", [b"", b"\n\n", "\ufeff  \r\n\t\r\n".encode()])
def test_a_queries_file_of_blank_lines_only_is_a_usage_error(content, capsys, tmp_path):
    """It ended ``0 ok, 0 failed``, exit 0: a batch of nothing read as one that ran (an empty file, the wrong one)."""
    path = tmp_path / "queries.txt"
    path.write_bytes(content)
    assert main(["search", "-b", "stub", "--queries-file", str(path)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: --queries-file %s holds no query (every line is blank): nothing to search"
        % path
    )


class _RateLimited(SearchClient):
    """A client whose every search meets a 429 with a 30 s Retry-After, then its cool-down."""

    def search(self, query, **options):
        raise ws.WebBlocked(
            "127.0.0.1 is rate-limiting us (HTTP 429)",
            provider="searxng",
            detail_code="http_429",
            status=429,
            retry_after=30,
        )


def test_a_batch_line_of_a_rate_limited_query_says_when_to_retry(capsys):
    """A batch's failed line said "retry after 30 s" in its message only: a script resuming the batch
    (``--skip-done``) had to parse the words to know when. The line's error now carries ``status`` and
    ``retry_after``, as the recipes of docs/scaling.md add them to ``to_dict()``."""
    out = io.StringIO()
    with _RateLimited("stub") as client:
        assert run_batch(client, ["a"], {}, out) == 3
    line = json.loads(out.getvalue())
    assert line["error"]["status"] == 429 and line["error"]["retry_after"] == 30
    assert {"type", "message", "retryable", "detail_code", "provider"} <= set(line["error"])


def test_the_error_form_leaves_out_what_the_error_does_not_have():
    form = error_form(ws.InvalidInput("bad", detail_code="bad_arguments"))
    assert "status" not in form and "retry_after" not in form

"""Long work shows progress (issue 23, point 17): a batch's progress line on stderr (redrawn on a
terminal, printed in a log file), the counts on Ctrl-C, resuming with ``--skip-done``, one stderr line per retry wait,
``--retries`` and ``--cache-ttl`` on the command line."""

import io
import json
import sys

import pytest
from clocks import FakeClock
from faults import respond, sequence
from servers import FaultServer, json_results

from websearch_sync.cli import main
from websearch_sync.cli.batch import run_batch
from websearch_sync.client.search_client import SearchClient


def batch(tmp_path, lines, *extra):
    queries = tmp_path / "queries.txt"
    queries.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ["search", "--queries-file", str(queries), "-n", "1", *extra]


def progress_lines(err):
    return [line for line in err.splitlines() if line.startswith("progress: ")]


def test_a_batch_prints_progress_lines_when_stderr_is_not_a_terminal(tmp_path, capsys):
    assert main(batch(tmp_path, ["one", "two", "three"], "--progress-every", "0")) == 0
    lines = progress_lines(capsys.readouterr().err)
    assert [line.split(" queries/s")[0].rsplit(",", 1)[0] for line in lines] == [
        "progress: [1/3] 1 ok, 0 failed",
        "progress: [2/3] 2 ok, 0 failed",
        "progress: [3/3] 3 ok, 0 failed",
    ]
    assert lines[-1].endswith("last: three")


class PacedClient:
    """A client whose every search takes ``seconds`` on a fake clock; ``fail`` queries fail."""

    def __init__(self, clock, seconds, fail=()):
        self.clock, self.seconds, self.fail = clock, seconds, set(fail)

    def search(self, query, **options):
        import websearch_sync as ws

        self.clock.advance(self.seconds)
        if query in self.fail:
            raise ws.Timeout("slow", detail_code="read_timeout")
        return {"items": [], "provider_meta": {"provider_name": "testjson"}}


class TerminalStderr(io.StringIO):
    """A stderr that is a terminal (``isatty``), holding what was written to it."""

    def isatty(self):
        return True


def test_on_a_terminal_the_progress_line_is_redrawn_in_place_then_cleared(tmp_path, monkeypatch, fake_clock):
    """docs/cli.md: redrawn after each query on a terminal. Its cursor controls reach the terminal
    (the command line removes every other control character: a query's escape among them, the query
    itself refused as bad_query), and the line is gone before the summary. The clock stands still: no rate yet."""
    stderr = TerminalStderr()
    monkeypatch.setattr(sys, "stderr", stderr)
    assert main(batch(tmp_path, ["one", "t\x1b]0;title\x07wo"])) == 2  # one query failed
    drawn = stderr.getvalue()
    assert drawn.startswith(
        "\r[1/2] 1 ok, 0 failed, - queries/s, last: one\x1b[K"
        "\r[2/2] 1 ok, 1 failed, - queries/s, last: t]0;titlewo\x1b[K"
        "\r\x1b[K"
    ), repr(drawn)
    assert drawn.endswith(
        "\n1 ok, 1 failed\n  1 failed: InvalidInput/bad_query: query holds the control character '\\x1b' at position 1:"
        " a query is text to search for\n"
    ), repr(drawn)
    assert drawn.count("\x1b") == 3, repr(drawn)


def test_progress_lines_come_every_interval_with_counts_and_rate(capsys):
    clock = FakeClock()
    queries = ["q%d" % i for i in range(7)]
    run_batch(PacedClient(clock, 4.0, fail={"q1"}), queries, {}, io.StringIO(), progress_every_s=10, clock=clock)
    assert progress_lines(capsys.readouterr().err) == [  # at 12 s and 24 s: every 10 s at most, one query of 4 s late
        "progress: [3/7] 2 ok, 1 failed, 0.2 queries/s, last: q2",
        "progress: [6/7] 5 ok, 1 failed, 0.2 queries/s, last: q5",
    ]


def test_ctrl_c_prints_the_counts(tmp_path, monkeypatch, capsys):
    real_search = SearchClient.search

    def search(self, query, **options):
        if query == "stop":
            raise KeyboardInterrupt
        return real_search(self, query, **options)

    monkeypatch.setattr(SearchClient, "search", search)
    assert main(batch(tmp_path, ["one", "two", "stop", "four", "five"])) == 130
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2
    assert "interrupted: 2 ok, 0 failed, 3 not run" in captured.err.splitlines()
    assert "interrupted" not in captured.err.splitlines()  # said once: no second, bare line after the summary


def test_skip_done_resumes_a_batch_from_its_jsonl_output(tmp_path, capsys):
    previous = tmp_path / "out.jsonl"
    previous.write_text(
        "\n".join(
            [
                json.dumps({"query": "one", "items": [], "provider_meta": {}}),
                json.dumps({"query": "two", "error": {"type": "Timeout"}}),  # failed: runs again
                '{"query": "three", "ite',  # cut short when the earlier run was killed: runs again
                "[" * 100_000,  # nested deeper than json can read (RecursionError): ignored
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    assert main(batch(tmp_path, ["one", "two", "three", "four"], "--skip-done", str(previous))) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["query"] for line in captured.out.splitlines()] == ["two", "three", "four"]
    assert "skipping 1 query done in %s" % previous in captured.err
    assert "3 ok, 0 failed" in captured.err.splitlines()


def test_a_resume_appended_to_a_line_cut_short_starts_a_new_line(tmp_path, monkeypatch, capsys):
    """The documented resume (``--skip-done out.jsonl >> out.jsonl``) after a batch killed mid-line:
    the first new answer is not glued onto the cut line (where no reader finds it)."""
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"query": "one", "items": [], "provider_meta": {}}) + '\n{"query": "two", "ite')
    with open(out, "a", encoding="utf-8") as appended, monkeypatch.context() as patched:
        patched.setattr("sys.stdout", appended)  # undone with the file closed: the next run writes to capsys
        assert main(batch(tmp_path, ["one", "two", "three"], "--skip-done", str(out))) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[1] == '{"query": "two", "ite'
    assert [json.loads(line)["query"] for line in lines[2:]] == ["two", "three"]
    capsys.readouterr()
    assert main(batch(tmp_path, ["one", "two", "three"], "--skip-done", str(out))) == 0
    assert capsys.readouterr().out == ""  # all three done: nothing runs again


def test_a_line_is_one_query_and_one_answer_whatever_unicode_calls_a_line_break(tmp_path, capsys):
    """U+2028 and a form feed inside a query were split into several queries, and a done line
    whose JSON holds a U+2028 (JSON keeps it as it is) was read as not done."""
    odd = "a\u2028b\x0cd"
    assert main(batch(tmp_path, [odd, "plain"], "--skip-done", str(_done(tmp_path, odd + " done")))) == 0
    assert [json.loads(line)["query"] for line in capsys.readouterr().out.split("\n") if line] == [
        odd,
        "plain",
    ]
    assert main(batch(tmp_path, [odd + " done"], "--skip-done", str(_done(tmp_path, odd + " done")))) == 0
    assert capsys.readouterr().out == ""


def test_json_lines_keep_del_and_c1_characters_escaped(tmp_path, capsys):
    """json.dumps leaves DEL and C1 (U+0085) as they are and the terminal filter dropped them: the
    line said another query than the file's, so --skip-done never found it done. (Such a query is
    refused, bad_query: its line, as the batch wrote it, is made a success's to be skipped.)"""
    odd = "a\x7fb\x85c"
    assert main(batch(tmp_path, [odd])) == 2
    out = capsys.readouterr().out
    assert "\\u007f" in out and "\\u0085" in out
    assert json.loads(out)["query"] == odd and json.loads(out)["error"]["detail_code"] == "bad_query"
    done = {key: value for key, value in json.loads(out).items() if key != "error"}
    done_line = json.dumps(dict(done, items=[]))  # escaped as the batch writes it: DEL and C1 as \u escapes
    assert "\\u007f" in done_line and "\\u0085" in done_line
    (tmp_path / "out.jsonl").write_text(done_line + "\n", encoding="utf-8")
    assert main(batch(tmp_path, [odd], "--skip-done", str(tmp_path / "out.jsonl"))) == 0
    assert capsys.readouterr().out == ""


def _done(tmp_path, query):
    out = tmp_path / "done.jsonl"
    out.write_text(json.dumps({"query": query, "items": []}, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def test_skip_done_names_a_file_it_cannot_read(tmp_path, capsys):
    assert main(batch(tmp_path, ["one"], "--skip-done", str(tmp_path / "missing.jsonl"))) == 2
    assert "InvalidInput/bad_arguments" in capsys.readouterr().err


def test_each_retry_wait_is_one_stderr_line(testjson, monkeypatch, capsys, fake_clock):
    flaky = sequence(respond(503, b"busy"), respond(503, b"busy"), json_results("https://a.example/"))
    with FaultServer({"/s": flaky}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTJSON", server.url("/s"))
        assert main(["search", "q", "-b", "testjson", "--retries", "2", "--timeout-ms", "10000"]) == 0
    retries = [line for line in capsys.readouterr().err.splitlines() if line.startswith("retry: ")]
    assert len(retries) == 2 == len(fake_clock.sleeps)
    assert retries[0].startswith("retry: testjson: BadGateway/http_503, retry 1 in ")


def test_retries_zero_on_the_command_line_sends_one_request(testjson, monkeypatch, capsys, fake_clock):
    with FaultServer({"/s": respond(503, b"busy")}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTJSON", server.url("/s"))
        assert main(["search", "q", "-b", "testjson", "--retries", "0"]) == 5
        assert len(server.requests) == 1
    assert "retry: " not in capsys.readouterr().err


@pytest.mark.parametrize("ttl, requests", [(None, 1), ("0", 2)])
def test_cache_ttl_on_the_command_line(tmp_path, testjson, monkeypatch, capsys, ttl, requests):
    with FaultServer({"/s": json_results("https://a.example/")}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTJSON", server.url("/s"))
        extra = ["--cache-ttl", ttl] if ttl is not None else []
        assert main(batch(tmp_path, ["same", "same"], "-b", "testjson", *extra)) == 0
        assert len(server.requests) == requests


@pytest.mark.parametrize("option", [["--retries", "11"], ["--cache-ttl", "-1"], ["--progress-every", "-1"]])
def test_the_new_options_are_checked(tmp_path, capsys, option):
    assert main(batch(tmp_path, ["one"], *option)) == 2

"""Batch mode: the summary line, stopping after consecutive failures, parallel workers in input order."""

import json
import threading
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from faults import head
from servers import FaultServer

from websearch_sync.cli import main

TOO_LONG = "x" * 2001


def batch(tmp_path, lines, *extra):
    queries = tmp_path / "queries.txt"
    queries.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ["search", "--queries-file", str(queries), "-n", "1", *extra]


def summary(err):
    return [line for line in err.splitlines() if " ok, " in line and not line.startswith("progress: ")]


def test_a_batch_ends_with_a_summary_line_on_stderr(tmp_path, capsys):
    assert main(batch(tmp_path, ["one", TOO_LONG, "three", TOO_LONG])) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 4
    assert summary(captured.err) == ["2 ok, 2 failed"]


def test_a_batch_without_failures_says_so(tmp_path, capsys):
    assert main(batch(tmp_path, ["one", "two"])) == 0
    assert summary(capsys.readouterr().err) == ["2 ok, 0 failed"]


def test_a_batch_stops_after_k_consecutive_failures(tmp_path, capsys):
    lines = ["one", TOO_LONG, TOO_LONG, "four", "five"]
    assert main(batch(tmp_path, lines, "--stop-after-failures", "2")) == 2
    captured = capsys.readouterr()
    written = [json.loads(line) for line in captured.out.splitlines()]
    assert ["error" in line for line in written] == [False, True, True]
    assert summary(captured.err)[0].startswith("1 ok, 2 failed")
    assert "stopped after 2 consecutive failures" in captured.err and "2 not run" in captured.err


def test_failures_that_are_not_consecutive_do_not_stop_a_batch(tmp_path, capsys):
    lines = [TOO_LONG, "two", TOO_LONG, "four", TOO_LONG]
    assert main(batch(tmp_path, lines, "--stop-after-failures", "2")) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 5 and summary(captured.err) == ["2 ok, 3 failed"]


@pytest.mark.parametrize("option", [["--workers", "0"], ["--workers", "-2"], ["--stop-after-failures", "0"]])
def test_batch_options_are_checked(tmp_path, capsys, option):
    assert main(batch(tmp_path, ["one"], *option)) == 2
    assert "InvalidInput/bad_arguments" in capsys.readouterr().err


def concurrent_server(expected, wait_s=10.0):
    """A JSON search server that answers only once ``expected`` requests are in flight together,
    the last-arrived first, so the answers complete out of input order."""
    barrier = threading.Barrier(expected, timeout=wait_s)
    order = []

    def handler(conn, request, server):
        query = parse_qs(urlsplit(request.path).query)["q"][0]
        try:
            position = barrier.wait()
        except threading.BrokenBarrierError:
            return  # not enough requests at once: no answer
        time.sleep(0.03 * (expected - 1 - position))
        order.append(query)
        body = json.dumps(
            {"results": [{"title": query, "url": "https://a.example/%s" % query.replace(" ", "-"), "snippet": ""}]}
        )
        conn.sendall(
            head(200, {"Content-Type": "application/json", "Content-Length": str(len(body)), "Connection": "close"})
            + body.encode()
        )

    return handler, order


def test_workers_run_queries_in_parallel_and_write_them_in_input_order(tmp_path, testjson, monkeypatch, capsys):
    handler, order = concurrent_server(4)
    queries = ["query %d" % i for i in range(8)]
    with FaultServer({"/s": handler}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTJSON", server.url("/s"))
        status = main(batch(tmp_path, queries, "-b", "testjson", "--workers", "4"))
    captured = capsys.readouterr()
    assert status == 0, captured.err
    written = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["query"] for line in written] == queries
    assert [line["items"][0]["title"] for line in written] == queries
    assert order != queries  # they did complete out of order
    assert summary(captured.err) == ["8 ok, 0 failed"]


def test_one_worker_never_runs_two_queries_at_once(tmp_path, testjson, monkeypatch, capsys):
    handler, _ = concurrent_server(2, wait_s=0.3)
    with FaultServer({"/s": handler}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTJSON", server.url("/s"))
        status = main(batch(tmp_path, ["a", "b"], "-b", "testjson", "--timeout-ms", "500"))
    assert status == 4  # the barrier never fills: each query times out alone
    assert summary(capsys.readouterr().err) == ["0 ok, 2 failed"]

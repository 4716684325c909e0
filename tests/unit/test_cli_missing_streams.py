"""A command started without stdout or stderr (``>&-``, ``2>&-``: Python sets the stream to
``None``). Without stdout the output cannot be written: one error line and status 5, as for a
full disk. Without stderr its notes are dropped and the command ends as it would: a search that
succeeded exited 1 on an ``AttributeError`` traceback in either case."""

import sys

from websearch_sync.cli import main


def test_without_stdout_the_command_says_it_cannot_write_and_exits_5(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["search", "q"]) == 5
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: cannot write the output: stdout is closed (the command was started without it)"
    )


def test_without_stderr_a_search_that_succeeds_exits_0_with_its_results(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["search", "q", "-n", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "1. q - Overview"


def test_without_stderr_a_failure_keeps_its_exit_status(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["search", " "]) == 2
    assert capsys.readouterr().out == ""


def test_without_stdout_a_batch_says_it_cannot_write_and_exits_5(monkeypatch, capsys, tmp_path):
    queries = tmp_path / "queries.txt"
    queries.write_text("alpha\nbeta\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["search", "--queries-file", str(queries)]) == 5
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: cannot write the output: stdout is closed (the command was started without it)"
    )


def test_without_stderr_the_command_alone_writes_no_help_to_stdout(monkeypatch, capsys):
    """``websearch-sync 2>&-``: argparse's ``print_help(None)`` writes to stdout, where a pipe reads
    output, not a usage; the status says it."""
    monkeypatch.setattr(sys, "stderr", None)
    assert main([]) == 2
    assert capsys.readouterr().out == ""


def test_without_stdout_no_search_is_sent(monkeypatch, capsys, tmp_path):
    """The single search and a batch's first query ran, their requests spent, before the first write failed.
    A command that writes nothing to stdout (``state show`` without a shared state) still runs."""
    from websearch_sync.client.search_client import SearchClient

    searched: list[str] = []
    search = SearchClient.search
    monkeypatch.setattr(
        SearchClient, "search", lambda self, query, **kw: searched.append(query) or search(self, query, **kw)
    )
    queries = tmp_path / "queries.txt"
    queries.write_text("alpha\nbeta\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", None)
    assert (main(["search", "q"]), main(["search", "--queries-file", str(queries)])) == (5, 5)
    assert searched == []
    assert "not written" not in capsys.readouterr().err  # the batch did not start
    monkeypatch.setattr(SearchClient, "fetch", lambda self, url, **kw: searched.append(url))
    assert main(["fetch", "https://example.com/"]) == 5
    assert searched == []
    assert main(["state", "show"]) == 0  # writes to stderr alone (no shared state): nothing refused it


def test_without_stdout_a_usage_mistake_is_said_first(monkeypatch, capsys):
    """``search -b stub >&-`` (no query) said stdout was closed (exit 5), not what was wrong with the command."""
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["search", "-b", "stub"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: give either a QUERY or --queries-file, not both or neither"
    )

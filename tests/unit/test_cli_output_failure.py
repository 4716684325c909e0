"""Output that cannot be written (a full disk: ``> /dev/full``) ends the command with one error
line and exit status 5, as every other failure; it was a traceback and status 1 (which means
"verify found a problem"). A reader closing the pipe keeps its quiet 141."""

import errno
import io
import sys

from websearch_sync.cli import main


class _Full(io.StringIO):
    """A stdout on a full disk."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


class _Closed(io.StringIO):
    """A stdout whose reader went away."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


def test_a_full_disk_is_one_error_line_and_status_5(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _Full())
    assert main(["search", "q"]) == 5
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: cannot write the output: [Errno 28] No space left on device"
    )


def test_a_closed_pipe_stays_quiet_with_141(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _Closed())
    assert main(["search", "q"]) == 141
    assert "error" not in capsys.readouterr().err


class _FullAfterOneLine(io.StringIO):
    """A stdout whose disk fills up once it holds one line."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(text)


def test_a_batch_on_a_full_disk_says_how_far_it_got(monkeypatch, capsys, tmp_path):
    """It said only "cannot write the output": not how many answers the file holds, nor how many to resume."""
    queries = tmp_path / "queries.txt"
    queries.write_text("one\ntwo\nthree\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", _FullAfterOneLine())
    assert main(["search", "--queries-file", str(queries)]) == 5
    assert capsys.readouterr().err.splitlines()[-2:] == [
        "the output failed: 1 ok, 0 failed, 2 not written",
        "error: cannot write the output: [Errno 28] No space left on device",
    ]


def test_a_full_stderr_drops_the_notes_and_the_command_ends_as_it_would(monkeypatch, capsys, tmp_path):
    """``2> log`` on a full disk: the offline note, the progress lines and the summary cannot be
    written; the answers were, so the search and the batch succeed (they ended with status 5,
    "output failed", every answer written). As without stderr (``2>&-``)."""
    queries = tmp_path / "queries.txt"
    queries.write_text("one\ntwo\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stderr", _Full())
    single = main(["search", "q", "--json"])
    batch = main(["search", "--queries-file", str(queries), "--progress-every", "0"])
    failed = main(["search", "q", "-n", "0"])  # the error line is dropped; the status still says it
    out = capsys.readouterr().out
    assert (single, batch, failed) == (0, 0, 2)
    assert out.count('"query": "one"') == out.count('"query": "two"') == 1

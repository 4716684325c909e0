"""``engine.stdout_claim`` on its own: a claim inside the holder's shares it, the private copy of a
file's stdout writes as that stream writes (its errors handler, its line buffering, after what it
held before the claim), stray output reaches ``sys.stderr``'s own file, and no descriptor is left open."""

import io
import os
import sys

from websearch_sync.engine.stdout_claim import claim_stdout, owner_stdout


def test_a_claim_inside_the_holders_own_shares_its_stream(monkeypatch):
    """The ``mcp`` command claims, then its server claims again: one claim, the first's stream."""
    real, stand_in = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", real)
    with claim_stdout(stand_in) as outer:
        with claim_stdout(io.StringIO()) as inner:
            assert inner is outer is real
            assert sys.stdout is stand_in
        assert owner_stdout() is real  # the inner block's end does not end the claim
        assert sys.stdout is stand_in
    assert sys.stdout is real


def open_descriptors():
    return set(os.listdir("/proc/self/fd"))


def test_a_files_stdout_is_copied_as_it_writes_and_stray_output_reaches_stderrs_file(monkeypatch, capfd, tmp_path):
    """``sys.stdout`` a file's text stream (ASCII with ``errors="replace"``, line-buffered, text
    pending), ``sys.stderr`` another file's: the writer's copy replaces what ASCII cannot hold and
    flushes at each line, after the text written before the claim; a write to descriptor 1 lands in
    ``sys.stderr``'s file; the copy is closed at the end and no descriptor stays open."""
    out_path, err_path = tmp_path / "out", tmp_path / "err"
    before = open_descriptors()
    with open(out_path, "wb") as out_file, open(err_path, "w", encoding="utf-8") as err_file:
        real = io.TextIOWrapper(out_file, encoding="ascii", errors="replace", line_buffering=True)
        real.write("before ")  # no newline: still in the stream's buffer as the claim starts
        monkeypatch.setattr(sys, "stdout", real)
        monkeypatch.setattr(sys, "stderr", err_file)
        opened = open_descriptors()
        with claim_stdout(io.StringIO()) as owner:
            owner.write("caf\u00e9\n")
            assert out_path.read_bytes() == b"before caf?\n"  # flushed at the line's end
            os.write(1, b"stray\n")
        assert owner.closed
        assert open_descriptors() == opened
        monkeypatch.undo()
        real.detach()
    assert err_path.read_text(encoding="utf-8") == "stray\n"
    assert open_descriptors() == before
    assert capfd.readouterr() == ("", "")


def test_stderr_without_a_descriptor_leaves_no_descriptor_open(monkeypatch, capfd, tmp_path):
    """``sys.stderr`` a capture (no ``fileno``): stray output goes to a copy of descriptor 2,
    closed once descriptor 1 points at it."""
    with open(tmp_path / "out", "w", encoding="utf-8") as real:
        monkeypatch.setattr(sys, "stdout", real)
        monkeypatch.setattr(sys, "stderr", io.StringIO())
        before = open_descriptors()
        with claim_stdout(io.StringIO()):
            os.write(1, b"stray\n")
        assert open_descriptors() == before
        monkeypatch.undo()
    assert capfd.readouterr() == ("", "stray\n")

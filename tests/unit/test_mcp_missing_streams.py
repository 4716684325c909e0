"""``websearch-sync mcp`` started without one of its standard streams. Without stdin or stdout (the
protocol's wire) it is a usage error saying which (exit 2); without stderr the stray output it sends
to stderr while it serves goes to the null device. Both were ``AttributeError`` tracebacks, exit 1."""

import os
import sys

import pytest

from websearch_sync.cli import main


@pytest.mark.parametrize("stream", ["stdin", "stdout"])
def test_without_its_wire_the_server_says_which_stream_is_missing(stream, monkeypatch, capsys):
    monkeypatch.setattr(sys, stream, None)
    assert main(["mcp"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: InvalidInput/bad_arguments: the MCP server talks to its client over stdin and stdout; "
        "it was started without %s" % stream
    )


def test_without_stderr_stray_output_goes_to_the_null_device(monkeypatch, tmp_path):
    from websearch_sync.mcp.transport import _claimed_stdio  # imports the MCP SDK: not at collection

    with open(tmp_path / "in", "w+b") as stdin, open(tmp_path / "out", "w+b") as stdout:
        monkeypatch.setattr(sys, "stdin", os.fdopen(os.dup(stdin.fileno()), "r"))
        monkeypatch.setattr(sys, "stdout", os.fdopen(os.dup(stdout.fileno()), "w"))
        monkeypatch.setattr(sys, "stderr", None)
        fd = sys.stdout.fileno()
        with _claimed_stdio() as (_wire_in, wire_out):
            os.write(fd, b"stray print\n")  # what a library writing to fd 1 would do
            print("stray print", flush=True)  # and Python's print: sys.stdout stands for the missing stderr
            wire_out.file.write(b'{"jsonrpc": "2.0"}\n')
        sys.stdin.close()
        sys.stdout.close()
    assert (tmp_path / "out").read_bytes() == b'{"jsonrpc": "2.0"}\n'


@pytest.mark.parametrize(
    "argv, missing",
    [(["mcp"], ["stdin", "stderr"]), (["mcp", "--max-concurrent", "0"], ["stderr"])],
    ids=["no-stdin-no-stderr", "bad-option-no-stderr"],
)
def test_an_error_without_stderr_keeps_its_exit_status(argv, missing, monkeypatch):
    for stream in missing:  # the error line has nowhere to go: dropped, not a crash writing to None (exit 1)
        monkeypatch.setattr(sys, stream, None)
    assert main(argv) == 2

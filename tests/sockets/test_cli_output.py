"""The command line's output: JSON errors, every backend's failure, notices, pipes, encodings, control characters.

The pipe and encoding tests run the command in a child process forked from a Python that has
imported the library, its CLI and engines (tests/python_forks.py ``shared_searching``): what they
check is how the command's output meets a closed pipe or a narrow encoding and how the process
then ends (through the interpreter's exit, as a started one), not how an interpreter starts; the
real command is started in tests/sockets/test_cli.py (``search``), test_interrupt.py and
test_plugin_packaging.py (``backends``).
"""

import json
import os
import re
from pathlib import Path

import pytest
from faults import respond
from python_forks import CLI, ForkedProcess, shared_searching
from servers import FaultServer

from websearch_sync.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def forks(request):
    """The fork server for this module's commands (see the module docstring)."""
    return shared_searching(request.config)


def command_env():
    """The environment of a child command: this test's, without search settings."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("WEB_SEARCH_", "WEB_FETCH_"))}


# -- JSON output of failures ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, status, detail",
    [
        (["search", "   ", "--json"], 2, "empty_query"),
        (["search", "q", "-n", "51", "--format", "json"], 2, "bad_max_results"),
        (["search", "q", "-b", "nope", "--format", "jsonl"], 2, "unknown_backend"),
        (["fetch", "ftp://example.com/file", "--json"], 2, "bad_url"),
    ],
)
def test_json_failures_print_the_error_form_on_stdout(capsys, argv, status, detail):
    assert main(argv) == status
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert set(data) == {"error"}
    assert data["error"]["type"] == "InvalidInput" and data["error"]["detail_code"] == detail
    assert data["error"]["retryable"] is False
    assert captured.err.startswith("error: InvalidInput/%s: " % detail)


def test_jsonl_failure_is_one_line(capsys):
    assert main(["search", "  ", "--format", "jsonl"]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and json.loads(out)["error"]["detail_code"] == "empty_query"


def test_text_failures_keep_stdout_empty(capsys):
    assert main(["search", "  "]) == 2
    assert capsys.readouterr().out == ""


# -- every backend's failure ---------------------------------------------------------------------


@pytest.fixture
def failing_chain(json_backends, monkeypatch):
    json_backends("aa", "bb", "cc")
    routes = {"/aa": respond(403, b""), "/bb": respond(200, b"<html>not json</html>"), "/cc": respond(401, b"")}
    with FaultServer(routes) as server:
        for name in ("aa", "bb", "cc"):
            monkeypatch.setenv("WEB_SEARCH_ENDPOINT_" + name.upper(), server.url("/" + name))
        yield server


def test_a_failed_chain_lists_every_backend_on_stderr(failing_chain, capsys):
    assert main(["search", "q", "-b", "aa,bb,cc"]) == 3
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert lines[0].startswith("error: WebBlocked/http_403: ")
    for name, code in (("aa", "WebBlocked/http_403"), ("bb", "WebParseError/not_json"), ("cc", "AuthError/http_401")):
        assert any(line.lstrip().startswith("%s: %s: " % (name, code)) for line in lines), (name, err)


def test_a_failed_chain_lists_every_backend_in_json(failing_chain, capsys):
    assert main(["search", "q", "-b", "aa,bb,cc", "--json"]) == 3
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["type"] == "WebBlocked"
    assert sorted((e["provider"], e["type"]) for e in error["errors"]) == [("bb", "WebParseError"), ("cc", "AuthError")]


# -- the offline stub says so --------------------------------------------------------------------


def test_stub_results_come_with_a_notice_on_stderr(capsys):
    assert main(["search", "q", "-n", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("1. ")
    notice = [line for line in captured.err.splitlines() if "stub" in line]
    assert len(notice) == 1 and "offline" in notice[0]


def test_real_backends_have_no_stub_notice(testjson, monkeypatch, capsys):
    body = json.dumps({"results": [{"title": "t", "url": "https://a.example/", "snippet": "s"}]}).encode()
    with FaultServer({"/s": respond(200, body, content_type="application/json")}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTJSON", server.url("/s"))
        assert main(["search", "q", "-b", "testjson"]) == 0
    assert "stub" not in capsys.readouterr().err


# -- pipes and encodings -------------------------------------------------------------------------


def test_a_closed_pipe_ends_the_batch_quietly(tmp_path, forks):
    queries = tmp_path / "q.txt"
    queries.write_text("".join("query number %d\n" % i for i in range(3000)), encoding="utf-8")
    proc = forks.popen(CLI, command_env(), "search", "--queries-file", str(queries), path0=os.getcwd())
    with proc:  # closes the pipes
        first = proc.readline(proc.stdout, 60)
        proc.stdout.close()
        err = proc.read(proc.stderr, 60).decode()
        proc.wait(60)
    assert json.loads(first)["query"] == "query number 0"
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    assert proc.returncode == 141


def test_a_reader_gone_while_the_batch_waits_for_a_piped_query_ends_it_with_141(forks):
    """A batch reads a pipe's queries a line at a time, the next one waited for in a worker thread:
    when the output's reader left (``producer | websearch-sync search --queries-file - | head -1``),
    the interpreter, closing stdin as it exited, met that thread's read and aborted ("Fatal Python
    error: _enter_buffered_busy", status 134)."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    fds = [in_read, out_write, err_write]
    argv = ["-c", "search", "--queries-file", "-"]
    try:
        spec = {"env": command_env(), "cwd": os.getcwd(), "path0": os.getcwd(), "argv": argv}
        conn = forks.server.send(fds, code=CLI, interpreter_exit=True, **spec)
    finally:
        for fd in fds:
            os.close(fd)
    proc = ForkedProcess(forks, conn, os.fdopen(out_read, "rb"), os.fdopen(err_read, "rb"))
    with proc, open(in_write, "wb", buffering=0) as producer:  # the producer stays, its next query to come
        producer.write(b"one\n")
        first = proc.readline(proc.stdout, 60)
        proc.stdout.close()
        err = proc.read(proc.stderr, 60).decode()
        proc.wait(60)
    assert json.loads(first)["query"] == "one"
    assert (proc.returncode, "Fatal Python error" in err) == (141, False), err


#: The installed command, whose search of "two" sends the process SIGTERM (as ``timeout`` or a
#: cancelled CI job does) and then waits (bounded: the signal is what ends the batch).
TERM_ON_TWO = (
    """import os, signal, threading
from websearch_sync.client.search_client import SearchClient
searched = SearchClient.search
def search(self, query, **options):
    if query == "two":
        os.kill(os.getpid(), signal.SIGTERM)
        threading.Event().wait(60)
    return searched(self, query, **options)
SearchClient.search = search
"""
    + CLI
)


def test_sigterm_ends_a_batch_with_its_summary(tmp_path, forks):
    """At the default, SIGTERM killed the batch without a word of how far it got (nor a status
    saying so: -15)."""
    queries = tmp_path / "q.txt"
    queries.write_text("one\ntwo\nthree\n", encoding="utf-8")
    done = forks.run(TERM_ON_TWO, command_env(), "search", "--queries-file", str(queries))
    assert done.returncode == 143, done.stderr
    assert [json.loads(line)["query"] for line in done.stdout.splitlines()] == ["one"]
    assert done.stderr.splitlines()[-1] == "terminated: 1 ok, 0 failed, 2 not run"


#: The command line's ``main`` run on each argv in turn in one process, each output followed by a
#: NUL and its exit status: how a stdout in an encoding meets the output. First the streams an
#: interpreter opens when ``PYTHONIOENCODING`` names the encoding (stdout strict, stderr with
#: backslash escapes and written through).
RUN_EACH = """import io, sys
sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding=%r, errors="strict")
sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), encoding=%r, errors="backslashreplace", write_through=True)
from websearch_sync.cli import main
for argv in %r:
    status = main(argv)
    sys.stdout.write("\\x00%%d" %% status)
    sys.stdout.flush()
"""


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
def test_a_stdout_that_cannot_encode_the_text_does_not_crash(encoding, forks):
    """A text and a JSON search in one process whose stdout encoding is ``encoding`` (as
    ``PYTHONIOENCODING`` sets it): the test is about the output, one process does for both."""
    text = ["search", "北京 天气 ☃", "-n", "1"]
    as_json = ["search", "北京 天气 ☃ \U0001f600", "-n", "1", "--json"]
    with forks.popen(RUN_EACH % (encoding, encoding, [text, as_json]), command_env()) as proc:
        stdout, stderr = proc.communicate()
    assert proc.returncode == 0, stderr.decode(encoding, "replace")
    text_out, text_status, json_out, json_status = re.split(rb"\x00(\d+)", stdout)[:4]
    assert text_status == b"0", stderr.decode(encoding, "replace")
    assert b"1. " in text_out
    assert json_status == b"0", stderr.decode(encoding, "replace")
    assert json.loads(json_out.decode(encoding))["items"][0]["title"].startswith("北京 天气 ☃ \U0001f600")


ESCAPES = "\x1b[31mRED\x1b[0m \x1b]0;pwned\x07 \x9b2J \x08\x7f\r"
ARTICLE = (
    "<html><head><title>Title \x1b[2J here</title></head><body><article><h1>Heading</h1>"
    + ("<p>Paragraph with %s and enough ordinary words to be kept as the article body text.</p>" % ESCAPES) * 4
    + "</article></body></html>"
).encode("utf-8")


def test_fetch_strips_control_characters_for_the_terminal(capsys):
    with FaultServer({"/a": respond(200, ARTICLE)}) as server:
        assert main(["fetch", server.url("/a"), "--allow-private", "--mode", "text"]) == 0
        out = capsys.readouterr().out
        assert "RED" in out and "Paragraph with" in out and "\n" in out
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", out), repr(out[:300])
        assert main(["fetch", server.url("/a"), "--allow-private", "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
    # extraction reads control characters as spaces (lxml cannot hold them); JSON keeps the rest of
    # the text, and its escaping makes any other character harmless
    assert "[31mRED" in data["text"] and "\x1b" not in data["text"]


def test_a_query_holding_terminal_escapes_is_refused_on_a_printable_line(capsys):
    assert main(["search", "a \x1b]0;x\x07 b", "-n", "1"]) != 0  # refused, its error line printable
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", "".join(capsys.readouterr()))


# -- help and hints ------------------------------------------------------------------------------


def test_timeout_help_says_it_bounds_the_whole_call():
    commands = build_parser()._subparsers._group_actions[0].choices
    for name in ("search", "fetch"):
        help_text = [a.help for a in commands[name]._actions if "--timeout-ms" in a.option_strings][0]
        assert "whole call" in help_text and "one request" not in help_text


def test_no_message_or_doc_names_the_unpublished_package():
    """``pip install websearch-sync[mcp]`` would ask PyPI, where the package is not published
    (or is someone else's); a requirement with extras is only shown with its repository
    (``websearch-sync[mcp] @ git+...``)."""
    files = list((ROOT / "websearch_sync").rglob("*.py")) + list((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    offenders = [
        "%s: %s" % (p.relative_to(ROOT), line.strip())
        for p in files
        for line in p.read_text(encoding="utf-8").splitlines()
        if "websearch-sync[" in line and not re.search(r"websearch-sync\[[a-z,]+\] @ git\+", line)
    ]
    assert offenders == []


@pytest.mark.parametrize("argv", [["search", "q"], ["search", "q", "--json"], ["backends"]])
def test_a_reader_gone_before_the_output_is_quiet_too(argv, forks):
    proc = forks.popen(CLI, command_env(), *argv, path0=os.getcwd())
    with proc:  # closes the pipes
        proc.stdout.close()
        err = proc.read(proc.stderr, 60).decode()
        proc.wait(60)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert proc.returncode == 141


def test_backends_still_lists_the_backends_when_the_environment_names_an_unknown_one(monkeypatch, capsys):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "nope")
    assert main(["backends"]) == 0
    captured = capsys.readouterr()
    assert "ddg_html" in captured.out
    assert "WEB_SEARCH_BACKEND" in captured.err and "nope" in captured.err

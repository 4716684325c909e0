"""What a backend plugin prints, wherever its code runs (loaded at the registry's first question,
its constructor, ``build_request``, parser, in a batch's worker threads), stays off the command
line's stdout and the MCP protocol, and is still seen on stderr; a library user's ``ws.search``
shows it on stdout, as any ``print``."""

import json
import os
import sys

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.backends import Backend, ParseResult, RequestSpec
from websearch_sync.cli import main
from websearch_sync.engine import registry

ANSWER = json.dumps({"results": [{"title": "Tokio", "url": "https://tokio.rs/"}]}).encode()


class PrintingSearch(Backend):
    """A plugin that talks on stdout: as it is built, builds its request and parses."""

    name = "printer"
    kind = "json"
    summary = "a plugin that prints"

    def __init__(self, settings):
        print("printer: built")
        super().__init__(settings)

    def build_request(self, params):
        print("printer: request for", params.query)
        return RequestSpec("GET", self.endpoint_url(), params={"q": params.query})

    def parse(self, response, params):
        print("printer: parsing")
        return ParseResult(items=[dict(item) for item in response.json()["results"]])


class _EntryPoint:
    """An installed plugin's entry point, whose import prints (the registry loads it lazily)."""

    name = value = "printer"

    def load(self):
        print("printer: imported")
        return PrintingSearch


@pytest.fixture
def printer(monkeypatch):
    """``printer`` installed as a plugin (loaded at the registry's next question), answered by a
    server on loopback."""
    monkeypatch.setattr(registry, "_entry_points", lambda: [_EntryPoint()])
    monkeypatch.setattr(registry, "_PLUGINS_LOADED", False)
    monkeypatch.setattr(registry, "_PLUGINS_DONE", set())
    with FaultServer({"/api": respond(200, ANSWER, content_type="application/json")}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_PRINTER", server.url("/api"))
        yield


def test_a_plugins_prints_stay_off_the_json_of_search(printer, capsys):
    assert main(["search", "rust", "-b", "printer", "--json", "--retries", "0"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["items"][0]["url"] == "https://tokio.rs/"
    for line in ("printer: imported", "printer: built", "printer: request for rust", "printer: parsing"):
        assert line in captured.err.splitlines()


def test_a_plugins_prints_stay_off_the_json_of_backends(printer, capsys):
    assert main(["backends", "--json"]) == 0
    captured = capsys.readouterr()
    assert "printer" in {row["name"] for row in json.loads(captured.out)}
    assert "printer: imported" in captured.err.splitlines()


def test_a_plugin_printing_in_a_batchs_threads_leaves_every_output_line_json(printer, capsys, tmp_path):
    """The queries run in worker threads while the main thread writes the lines: sys.stdout is
    stderr's stand-in for the whole command, never swapped around each call into the plugin."""
    queries = tmp_path / "queries.txt"
    queries.write_text("".join("query %d\n" % n for n in range(6)), encoding="utf-8")
    status = main(["search", "--queries-file", str(queries), "-b", "printer", "--workers", "3", "--retries", "0"])
    assert status == 0
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["query"] for line in lines] == ["query %d" % n for n in range(6)]
    assert captured.err.count("printer: parsing") == 6


def test_a_library_user_sees_a_plugins_prints_on_stdout(printer, capsys):
    assert ws.search("rust", backend="printer", retries=0)["items"][0]["url"] == "https://tokio.rs/"
    assert "printer: parsing" in capsys.readouterr().out.splitlines()


def test_the_mcp_transport_keeps_what_the_plugin_prints_off_the_protocol(monkeypatch, capsys):
    """A ``print`` while the server serves went into stdout's buffer: on the null device when it
    was flushed there, on the protocol's pipe when flushed after the server restored fd 1."""
    from websearch_sync.mcp.transport import _claimed_stdio

    read_in, write_in = os.pipe()
    read_out, write_out = os.pipe()
    os.close(write_in)
    protocol = open(write_out, "w", encoding="utf-8")  # noqa: SIM115 - closed below, after the block
    monkeypatch.setattr(sys, "stdin", open(read_in, encoding="utf-8"))  # noqa: SIM115 - the monkeypatch's
    monkeypatch.setattr(sys, "stdout", protocol)
    with _claimed_stdio() as (_, wire_out):
        print("printer: parsing")
        wire_out.file.write(b'{"jsonrpc":"2.0","id":1,"result":{}}\n')
        wire_out.file.flush()
    protocol.close()
    sys.stdin.close()
    with open(read_out, encoding="utf-8") as received:
        assert received.read() == '{"jsonrpc":"2.0","id":1,"result":{}}\n'
    assert "printer: parsing" in capsys.readouterr().err.splitlines()


def test_the_mcp_command_keeps_what_the_plugin_prints_before_it_serves_off_the_protocol(
    printer, monkeypatch, capsys, tmp_path
):
    """The command builds its client (and the plugin's engine) before the server claims stdout:
    the plugin's print came first on stdout, where the client reads the protocol."""
    pytest.importorskip("mcp")
    (tmp_path / "in").write_bytes(b"")  # the client closes at once: the server ends without a message
    with open(tmp_path / "in", "rb") as stdin, open(tmp_path / "out", "wb") as stdout:
        monkeypatch.setattr(sys, "stdin", open(os.dup(stdin.fileno()), encoding="utf-8"))  # noqa: SIM115 - closed below
        monkeypatch.setattr(sys, "stdout", open(os.dup(stdout.fileno()), "w", encoding="utf-8"))  # noqa: SIM115 - likewise
        monkeypatch.setenv("WEB_SEARCH_BACKEND", "printer")
        status = main(["mcp"])
        sys.stdin.close()
        sys.stdout.close()
    assert status == 0
    assert (tmp_path / "out").read_bytes() == b""
    assert "printer: built" in capsys.readouterr().err.splitlines()


class DescriptorWriter(PrintingSearch):
    """A plugin that writes to the stdout descriptor itself, past ``sys.stdout``: ``os.write(1)``
    as it is built, ``sys.__stdout__`` as it builds its request."""

    def __init__(self, settings):
        os.write(1, b"writer: built\n")
        super().__init__(settings)

    def build_request(self, params):
        sys.__stdout__.write("writer: request for %s\n" % params.query)
        sys.__stdout__.flush()
        return super().build_request(params)


class _WritingEntryPoint(_EntryPoint):
    def load(self):
        os.write(1, b"writer: imported\n")
        return DescriptorWriter


@pytest.fixture
def writer(printer, monkeypatch):
    """``printer`` as :class:`DescriptorWriter`."""
    monkeypatch.setattr(registry, "_entry_points", lambda: [_WritingEntryPoint()])


def test_a_plugins_writes_to_the_stdout_descriptor_stay_off_the_json_of_search(writer, capfd):
    """Descriptor 1 points at stderr for the command, and is given back to an in-process caller."""
    assert main(["search", "rust", "-b", "printer", "--json", "--retries", "0"]) == 0
    os.write(1, b"after the command\n")
    captured = capfd.readouterr()
    assert json.loads(captured.out.replace("after the command\n", ""))["items"][0]["url"] == "https://tokio.rs/"
    assert captured.out.endswith("}\nafter the command\n")
    for line in ("writer: imported", "writer: built", "writer: request for rust"):
        assert line in captured.err.splitlines()


def test_the_mcp_command_keeps_a_plugins_writes_to_the_descriptor_off_the_protocol(
    writer, monkeypatch, capfd, tmp_path
):
    """Its client is built before the server serves: descriptor 1 is stderr from the command's start."""
    pytest.importorskip("mcp")
    (tmp_path / "in").write_bytes(b"")  # the client closes at once: the server ends without a message
    with open(tmp_path / "in", encoding="utf-8") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        monkeypatch.setenv("WEB_SEARCH_BACKEND", "printer")
        assert main(["mcp"]) == 0
    captured = capfd.readouterr()
    assert captured.out == ""
    assert "writer: built" in captured.err.splitlines()


def test_the_console_command_keeps_stdout_claimed_after_it_returns(writer, monkeypatch, capfd):
    """What prints as the process ends (an ``atexit`` hook, a thread outliving the command) goes
    to stderr: ``sys.stdout`` and descriptor 1 are not given back (the test gives them back)."""
    from websearch_sync.cli import console_main

    monkeypatch.setattr(sys, "argv", ["websearch-sync", "search", "rust", "-b", "printer", "--json", "--retries", "0"])
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # restored by the monkeypatch
    fds = dict.fromkeys((1, sys.stdout.fileno()))
    saved = {fd: os.dup(fd) for fd in fds}
    try:
        assert console_main() == 0
        print("at exit")
        os.write(1, b"at exit, on the descriptor\n")
        sys.stdout.flush()
    finally:
        for fd, copy in saved.items():
            os.dup2(copy, fd)
            os.close(copy)
    captured = capfd.readouterr()
    assert json.loads(captured.out)["items"][0]["url"] == "https://tokio.rs/"
    assert captured.err.splitlines()[-2:] == ["at exit", "at exit, on the descriptor"]


def test_a_second_threads_command_is_refused_while_one_runs(capsys):
    """stdout and its descriptor are the process's: ``main`` is not re-entrant across threads."""
    import threading

    from websearch_sync.engine.stdout_claim import claim_stdout
    from websearch_sync.errors import StdoutClaimed  # its public name

    claimed, done = threading.Event(), threading.Event()

    def hold():
        with claim_stdout(sys.stderr):
            claimed.set()
            done.wait()

    stdout, stderr = sys.stdout, sys.stderr
    holder = threading.Thread(target=hold)
    holder.start()
    claimed.wait()
    try:
        with pytest.raises(StdoutClaimed, match="another thread's command"):
            main(["backends", "--json"])
        assert sys.stderr is stderr
    finally:
        done.set()
        holder.join()
    assert (sys.stdout, sys.stderr) == (stdout, stderr)


def test_an_in_process_command_writes_to_a_stdout_that_is_no_file_stream_through_it(monkeypatch, capfd):
    """A caller's ``sys.stdout`` that is no file's text stream but has a descriptor (a tee, a codecs
    writer, a notebook's stream, whose ``fileno`` is the kernel's terminal): the command writes
    through it, as before the claim took descriptors (it read the stream's encoding and failed with
    ``AttributeError``, leaking the descriptors it had copied), and leaves descriptor 1 alone."""
    import io as stdlib_io
    import json as stdlib_json
    import sys

    from websearch_sync.cli import main as cli_main

    class Tee(stdlib_io.TextIOBase):
        def __init__(self):
            self.parts = []

        def write(self, text):
            self.parts.append(text)
            return len(text)

        def fileno(self):
            return 1

    tee = Tee()
    monkeypatch.setattr(sys, "stdout", tee)
    assert cli_main(["search", "red panda", "--backend", "stub", "--json"]) == 0
    assert stdlib_json.loads("".join(tee.parts))["items"]
    assert capfd.readouterr().out == ""

"""The MCP server (``websearch-sync mcp``), driven by the official SDK's own stdio client.

Each server test talks to a server subprocess through ``mcp.client.stdio.stdio_client`` +
``ClientSession`` (or line by line, for what no client sends); every test is bounded in time.
The tests about the command's start, stdout and exit start the real command; the others get
their server forked from the module's ``zygote`` (mcp_zygote.py: the same CLI and server, on the
client's own pipes, without the 1.5 s of CPU a fresh interpreter spends importing them).
Expected texts and results come from the library itself (``call_tool`` and
``format_results`` on the same input), so the server is checked against the tool
adapter it promises to mirror.
"""

import base64
import gzip
import json
import os
import re
import signal
import struct
import subprocess
import sys
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest
from clocks import FakeClock, paced_budget_s
from faults import MAX_WAIT_S, gated, respond
from mcp_zygote import Zygote
from servers import FaultServer
from sigint import children_get_sigint

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.cli import main
from websearch_sync.client.search_client import SearchClient
from websearch_sync.mcp import McpTools, serve_stdio
from websearch_sync.mcp.outputs import output_schemas
from websearch_sync.mcp.tools import TOOL_NAMES, CancellableClock, nullable_optional
from websearch_sync.models import MEDIA_FILTERS

ROOT = Path(__file__).resolve().parents[2]
ARTICLE = ROOT / "tests" / "data" / "fetch" / "57b4dafd18cfd0531b69f81e87158648227c673ef159f8d8c87d34e34bdb21f2.html.gz"
SESSION_LIMIT_S = 30  # generous: a session normally takes about a second


def article_html() -> bytes:
    """A real recorded article page (provenance: tests/data/fetch/SOURCES.md)."""
    return gzip.decompress(ARTICLE.read_bytes())


def server_command(*args, zygote=None):
    """``websearch-sync mcp ARGS``: the real command (``python -m websearch_sync``), or a server
    forked from ``zygote``."""
    return zygote.command(*args) if zygote else [sys.executable, "-m", "websearch_sync", "mcp", *args]


@pytest.fixture(scope="module")
def zygote():
    """One process that has imported the server, forking one for each test that asks (mcp_zygote.py).
    Started taking SIGINT: its forked servers keep its handler, and the Ctrl-C tests send them one."""
    with children_get_sigint():
        forks = Zygote(str(ROOT), paced_budget_s(SESSION_LIMIT_S))
    with forks:
        yield forks


@asynccontextmanager
async def mcp_session(*args, modern=False, errlog=os.devnull, env=None, zygote=None):
    """A ready ClientSession with ``websearch-sync mcp ARGS`` (``python -m websearch_sync``, or forked
    from ``zygote``): the ``initialize`` handshake, or with ``modern`` the 2026-07-28
    ``server/discover``. The server's environment is the SDK's default (PATH, HOME ...) plus ``env``:
    no search settings unless given. The SDK is imported here, when a test runs: collecting the
    suite imports no SDK."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

    if env is not None:
        env = dict(get_default_environment(), **env)
    command, *arguments = server_command(*args, zygote=zygote)
    params = StdioServerParameters(command=command, args=arguments, cwd=str(ROOT), env=env)
    with open(errlog, "w") as log:
        async with stdio_client(params, errlog=log) as (read, write):
            async with ClientSession(read, write) as session:
                if modern:
                    session.adopt(await session.discover())
                else:
                    await session.initialize()
                yield session


def run_bounded(scenario, *args):
    """Run an async scenario with a hard time limit."""
    import anyio

    limit_s = paced_budget_s(SESSION_LIMIT_S)  # a loaded machine's session: as many times longer as it runs slower

    async def bounded():
        with anyio.fail_after(limit_s):
            return await scenario(*args)

    return anyio.run(bounded)


def text_of(result):
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


def same_wrapper(text):
    """``text`` with the untrusted-content block's random code (new for every rendering) replaced by a fixed one."""
    return re.sub(r"(untrusted-web-content-|the code )[0-9a-f]{16}", r"\g<1>CODE", text)


# -- through the official client ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def default_server(zygote, tmp_path_factory):
    """One ``websearch-sync mcp`` (the offline stub) for the three tests below, one server instead
    of three: the tools listed and the same search three times, then
    the failing calls, none of which is that search (its cache and lookup count stay the first
    test's). ``{"listed": (server_info, tools, first, again, third), "failures": [...], "stderr": text}``."""
    log = tmp_path_factory.mktemp("default_server") / "stderr.log"

    async def scenario():
        async with mcp_session(errlog=str(log), zygote=zygote) as session:
            listed = (await session.list_tools()).tools
            first = await session.call_tool("web_search", {"query": "mcp stub", "max_results": 2})
            again = await session.call_tool("web_search", {"query": "mcp stub", "max_results": 2})
            third = await session.call_tool("web_search", {"query": "MCP  Stub", "max_results": 2})
            failures = [
                await failing(session, "web_search", {"query": 5}),
                await failing(session, "web_search", {"query": "x", "max_results": 11}),
                await failing(session, "web_search", None),
                await failing(session, "web_fetch", {"url": "http://127.0.0.1:9/"}),
                await failing(session, "web_lookup", {"query": "x"}),
                await failing(session, "web.search", {"query": "x"}),
            ]
            return {"listed": (session.server_info, listed, first, again, third), "failures": failures}

    async def failing(session, name, arguments):
        """The call's result, or the protocol error it raised (which the failures test reports
        as its own failure, not the listing test's)."""
        try:
            return await session.call_tool(name, arguments)
        except Exception as error:  # kept as the call's outcome: the failures test asserts there is none
            return error

    return dict(run_bounded(scenario), stderr=log.read_text())


def test_lists_both_tools_with_the_adapters_schemas_and_searches_the_stub(default_server):
    expected_definitions = tool.tool_definitions("json_schema", names=TOOL_NAMES, settings=ws.Settings(), images=True)
    with SearchClient() as client:
        expected = tool.call_tool("web_search", {"query": "mcp stub", "max_results": 2}, client=client)

    server_info, listed, first, again, third = default_server["listed"]
    assert (server_info.name, server_info.version) == ("websearch-sync", ws.__version__)
    assert [t.name for t in listed] == ["web_search", "web_fetch"]
    for mcp_tool, definition in zip(listed, expected_definitions):
        assert mcp_tool.description == definition["description"]
        assert mcp_tool.input_schema == nullable_optional(definition["parameters"])
        # the SDK's client validated each structured result below against it (a mismatch raises)
        assert mcp_tool.output_schema == output_schemas()[{v: k for k, v in TOOL_NAMES.items()}[mcp_tool.name]]
        assert mcp_tool.annotations.read_only_hint is True
    assert first.is_error is False
    assert same_wrapper(text_of(first)) == same_wrapper(tool.format_results(expected))
    assert text_of(first).startswith("1. mcp stub - Overview\n   URL: https://example.com/search?q=mcp+stub\n")
    assert first.structured_content["items"] == expected["items"]
    assert first.structured_content["provider_meta"]["cached"] is False
    # one SearchClient for the server's lifetime: the second call is answered from its cache
    assert again.is_error is False and again.structured_content["provider_meta"]["cached"] is True
    # one ToolSession: the third lookup of the same normalised query is the answer already given, with a note
    assert third.is_error is False and third.structured_content["items"] == again.structured_content["items"]
    assert text_of(third).startswith(
        "Note: these tools already looked this query up 2 times in the last 600 s; here is that answer again"
    )
    assert third.structured_content["note"] in text_of(third)


def test_failures_are_error_results_never_protocol_errors(default_server):
    results = default_server["failures"]
    assert not [r for r in results if isinstance(r, Exception)], "protocol errors: %r" % results
    assert all(result.is_error is True and result.structured_content is None for result in results)
    # plain text, not JSON inside text: one line naming the type and detail code
    assert [text_of(result).split(":")[1].strip() for result in results] == [
        "InvalidInput (bad_arguments)",
        "InvalidInput (bad_arguments)",
        "InvalidInput (bad_arguments)",
        "InvalidInput (private_address)",  # --allow-private is off by default
        "ToolNotFound (unknown_tool)",
        "ToolNotFound (unknown_tool)",  # only the listed names are served
    ]
    advice = ["Correct the arguments and call again."] * 3 + ["Retrying the same call will not help."] * 3
    assert [text_of(result).endswith(said) for result, said in zip(results, advice)] == [True] * 6
    assert (
        text_of(results[0])
        == "Error: InvalidInput (bad_arguments): argument 'query' must be of type string, got a number (5). "
        "Correct the arguments and call again."
    )
    assert "web_search, web_fetch" in text_of(results[4])


@pytest.fixture(scope="module")
def allow_private_server(zygote):
    """One ``websearch-sync mcp --allow-private`` for the fetch tests below (one server start fewer,
    about a second of CPU): its tools listed, the article fetched, eight fetches at once (each
    answered only once all eight wait at the page: the server runs them side by side), then a PNG
    and a JPEG. ``{"url": the page server's url(), "listed", "single", "parallel", "images":
    {media type: (body, (width, height), result)}}``."""
    import anyio
    from images import pillow_image, png

    html = article_html()
    gate = threading.Barrier(8, timeout=10)

    def gated_page(conn, request, server):
        gate.wait()  # answers only once 8 requests are waiting at the same time
        respond(200, html)(conn, request, server)

    routes = {
        "/article": respond(200, html),
        "*": gated_page,
    }
    pictures = {"image/png": (png(20, 10), (20, 10)), "image/jpeg": (pillow_image(120, 90, "JPEG"), (120, 90))}
    paths = {"image/png": "/i.png", "image/jpeg": "/i.jpg"}
    routes.update({paths[media]: respond(200, body, content_type=media) for media, (body, _) in pictures.items()})
    with FaultServer(routes) as server:

        async def scenario():
            async with mcp_session("--allow-private", zygote=zygote) as session:
                listed = {t.name: t.description for t in (await session.list_tools()).tools}
                single = await session.call_tool("web_fetch", {"url": server.url("/article")})
                parallel = [None] * 8

                async def fetch(index):
                    parallel[index] = await session.call_tool(
                        "web_fetch", {"url": server.url("/gate/%d" % index), "max_chars": 500}
                    )

                async with anyio.create_task_group() as group:
                    for index in range(8):
                        group.start_soon(fetch, index)
                images = {
                    media: await session.call_tool("web_fetch", {"url": server.url(paths[media])}) for media in paths
                }
                return {"listed": listed, "single": single, "parallel": parallel, "images": images}

        answers = run_bounded(scenario)
        with SearchClient(settings=ws.Settings(allow_private=True)) as client:
            expected = tool.call_tool("web_fetch", {"url": server.url("/article")}, client=client)
    images = {media: (body, size, answers["images"][media]) for media, (body, size) in pictures.items()}
    return dict(answers, images=images, url=server.url, expected=expected, gate_broken=gate.broken)


def test_fetch_and_eight_concurrent_calls_with_allow_private(allow_private_server):
    url, expected = allow_private_server["url"], allow_private_server["expected"]
    single, parallel = allow_private_server["single"], allow_private_server["parallel"]
    assert "error" not in expected
    assert single.is_error is False
    assert same_wrapper(text_of(single)) == same_wrapper(tool.format_results(expected))
    assert text_of(single).startswith("Die elektronische Patientenakte (ePA)")
    assert '<untrusted-web-content-CODE source="%s">' % url("/article") in same_wrapper(text_of(single))
    # the structured channel carries the same untrusted-content block, under the same tag, as the text
    tag = re.search(r"<(untrusted-web-content-[0-9a-f]{16}) ", text_of(single)).group(1)
    assert single.structured_content["text"].startswith('<%s source="%s">\n' % (tag, url("/article")))
    assert single.structured_content["text"].endswith(expected["text"] + "\n</%s>" % tag)
    assert dict(single.structured_content, text=None) == dict(expected, text=None)
    assert [result.is_error for result in parallel] == [False] * 8, [text_of(r) for r in parallel if r.is_error]
    assert [result.structured_content["url"] for result in parallel] == [url("/gate/%d" % i) for i in range(8)]
    assert all(result.structured_content["truncated"] for result in parallel)
    assert not allow_private_server["gate_broken"]


@pytest.mark.parametrize("media", ["image/png", "image/jpeg"])
def test_mcp_web_fetch_returns_an_image_block(media, allow_private_server):
    """web_fetch of an image (the tool adapter's side: tests/sockets/test_tool_images.py): a text
    block and the image block, the structured result without the image's data."""
    body, size, result = allow_private_server["images"][media]
    assert result.is_error is False
    kinds = [block.type for block in result.content]
    assert kinds == ["text", "image"]
    assert "[image: %s, %dx%d pixels" % (media, *size) in result.content[0].text
    image = result.content[1]
    assert (image.mime_type, base64.b64decode(image.data)) == (media, body)
    assert "data" not in result.structured_content and result.structured_content["width"] == size[0]


def test_the_mcp_text_block_of_an_image_is_its_one_line(allow_private_server):
    """Issue 35 item 2 (with tests/sockets/test_tool_image_text.py): the text block of an image
    is the library's one line, the same as the structured result's text."""
    result = allow_private_server["images"]["image/png"][2]
    text, image = result.content
    assert text.text.startswith("[image: image/png, 20x10 pixels, ") and "\n" not in text.text
    assert text.text == result.structured_content["text"] and image.type == "image"


def test_the_server_says_on_stderr_when_it_serves_offline_stub_results(default_server, zygote, tmp_path):
    """The stub server (``default_server``: its searches and failed calls) says it once on stderr,
    and nothing else; a server of a real engine does not say it."""
    from websearch_sync.backends.stub import OFFLINE_WARNING

    async def scenario(log, *args):
        async with mcp_session(*args, errlog=log, zygote=zygote) as session:
            return await session.list_tools()

    run_bounded(scenario, str(tmp_path / "web.log"), "--backend", "ddg_html")  # nothing searched: no network
    assert default_server["stderr"].splitlines() == [
        "websearch-sync mcp: warning: %s (backend: stub)" % OFFLINE_WARNING
    ]
    assert OFFLINE_WARNING not in (tmp_path / "web.log").read_text()
    assert text_of(default_server["listed"][2]).endswith(tool.OFFLINE_NOTE)


def test_modern_protocol_discovery_serves_the_same_tools(zygote):
    """A client of the 2026-07-28 protocol (``server/discover``, no handshake) gets the same tools and results."""

    async def scenario():
        async with mcp_session(modern=True, zygote=zygote) as session:
            listed = (await session.list_tools()).tools
            return (
                session.protocol_version,
                listed,
                await session.call_tool("web_search", {"query": "x", "max_results": 1}),
            )

    version, listed, result = run_bounded(scenario)
    assert version == "2026-07-28"
    assert [t.name for t in listed] == ["web_search", "web_fetch"]
    assert result.is_error is False and result.structured_content["items"][0]["title"] == "x - Overview"


# -- the raw protocol on stdio -----------------------------------------------------------------------


def _jsonrpc(*messages):
    return "".join(json.dumps(message) + "\n" for message in messages)


#: The first message of a raw MCP session (id 1), as a client sends it.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    },
}


def read_lines(stream, count, limit_s):
    """The next ``count`` lines of ``stream`` (fewer when it ends first), read within ``limit_s``:
    a server that hangs fails the test instead of hanging it (the caller then kills it)."""
    lines = []

    def read():
        while len(lines) < count and (line := stream.readline()):
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(limit_s)
    assert not reader.is_alive(), "no %d lines within %s s: %r" % (count, limit_s, lines)
    return lines


def test_the_started_command_serves_protocol_only_and_ends_cleanly_at_eof(tmp_path):
    """The real command (its interpreter's start and exit, which the forked servers skip): an
    unconfigured search backend is left out and named on stderr; stdout carries the answers and
    nothing else until the server ends, which it does cleanly (status 0) once its stdin closes
    with no call in flight and its stdout still read (whatever the interpreter's exit wrote there
    would show)."""
    env = {"PATH": os.environ.get("PATH", ""), "WEB_SEARCH_BACKEND": "brave"}  # no BRAVE_API_KEY
    with open(tmp_path / "stderr", "wb") as err_file:
        server = RawServer(server_command(), env=env, stderr=err_file)
    try:
        server.send(json.dumps(INITIALIZE))
        server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        server.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}')
        server.send(call_line(3, '{"query":"x"}'))
        answers = {answer["id"]: answer for answer in server.next_answers(3)}
    finally:
        server.close()  # stdin closed: nothing more on stdout, status 0
    err = (tmp_path / "stderr").read_text(encoding="utf-8")
    assert sorted(answers) == [1, 2, 3]
    assert [t["name"] for t in answers[2]["result"]["tools"]] == ["web_fetch"]
    assert answers[3]["result"]["isError"] is True
    assert "structuredContent" not in answers[3]["result"]
    assert answers[3]["result"]["content"][0]["text"].startswith("Error: ToolNotFound (unknown_tool): ")
    # what to set, as `websearch-sync backends` says it (before: the backend's name alone)
    assert "not offering the search tool: backend brave is not configured (brave: set BRAVE_API_KEY)" in err
    assert all(line.startswith("websearch-sync mcp: ") for line in err.splitlines()), err


def test_the_started_command_ends_cleanly_when_its_client_disconnects_mid_call():
    """The real command, its client's process dying while a fetch runs (stdin and stdout both
    close): the answer has no reader and the server ends as on a closed stdin (status 0, the
    closing line), not on a broken pipe's traceback; stderr holds the server's own lines only
    (output at the interpreter's exit on the closed stdout would add Python's). It ends while the
    page still holds the fetch: the interpreter's exit joined the call's worker thread, which
    kept the process up to the fetch's deadline after its client had gone. The wait for its end
    (the session's limit, paced) is half the page's hold and a quarter of the fetch's deadline: it
    ends before either could have ended the call (a fixed 15 s, half of MAX_WAIT_S, was a bound a
    loaded machine's exit could outlast)."""
    limit_s = paced_budget_s(SESSION_LIMIT_S)
    with fetch_held_by_its_page(2 * limit_s) as (url, arrived, release):
        process = subprocess.Popen(
            server_command("--allow-private", "--log-level", "info"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(ROOT),
            env={"PATH": os.environ.get("PATH", ""), "WEB_SEARCH_TIMEOUT_MS": str(int(4000 * limit_s))},
            text=True,
        )
        try:
            process.stdin.write(
                _jsonrpc(
                    INITIALIZE,
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {
                        "jsonrpc": "2.0",
                        "id": 2,
                        "method": "tools/call",
                        "params": {"name": "web_fetch", "arguments": {"url": url}},
                    },
                )
            )
            process.stdin.flush()
            # the fetch's answer waits for the page, which waits for the release
            [line] = read_lines(process.stdout, 1, limit_s)
            assert json.loads(line)["id"] == 1
            assert arrived.wait(limit_s), "the fetch did not reach the page"
            process.stdout.close()  # the client is gone: nothing reads the answer
            process.stdin.close()
            process.wait(timeout=limit_s)  # the page still holds the fetch
            err = process.stderr.read()  # the server has ended: its stderr is at its end
        finally:
            release.set()
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stderr.close()
    assert "MCP client closed the connection" in err
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert process.returncode == 0
    # a fresh interpreter's start and exit add nothing of their own (what the forked servers do not go through)
    assert all(line.startswith("websearch-sync mcp: ") for line in err.splitlines()), err


class StderrLines:
    """A server's stderr, read line by line in a thread, for a test to wait for one of its lines."""

    def __init__(self, stream):
        self.lines = []
        self.arrived = threading.Condition()
        self._stream = stream
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self):
        for line in self._stream:
            with self.arrived:
                self.lines.append(line.decode("utf-8", "replace"))
                self.arrived.notify_all()

    def wait_for(self, text, limit_s):
        """Whether a line holding ``text`` arrived within ``limit_s``."""
        with self.arrived:
            return self.arrived.wait_for(lambda: any(text in line for line in self.lines), limit_s)


#: What the server logs (``--log-level info``) once it has read the end of its input with requests still owed.
OWED_AT_EOF = "MCP client closed stdin: answering the "


@contextmanager
def fetch_held_by_its_page(hold_s):
    """``(url, arrived, release)``: a loopback page (a recorded article) that holds every fetch of it
    until ``release`` is set (at most ``hold_s``: longer than the test waits for what happens while
    it holds), ``arrived`` set when a fetch reaches it."""
    arrived, release = threading.Event(), threading.Event()

    def page(conn, request, server):
        arrived.set()
        release.wait(hold_s)  # set at the block's end: the server stopping needs no poll
        respond(200, article_html())(conn, request, server)

    with FaultServer({"*": page}) as site:
        try:
            yield site.url("/page"), arrived, release
        finally:
            release.set()  # before the server joins the page's thread


def _fetch_call(request_id, url):
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "web_fetch", "arguments": {"url": url}},
    }


@contextmanager
def server_with_a_held_fetch(zygote, *more):
    """A forked server (``--allow-private``, info logs on a piped stderr: :class:`StderrLines`) sent
    ``initialize``, ``notifications/initialized``, a fetch (id 2) of a page that holds it and the
    messages ``more``, all at once; ``(process, log, release, limit_s)`` once the fetch has reached the
    page. Its stdout is read by the test alone, with nothing left blocked on it (a thread blocked
    reading it keeps the pipe open after the test closes it). Killed at the end if it still runs."""
    limit_s = paced_budget_s(SESSION_LIMIT_S)
    with fetch_held_by_its_page(2 * limit_s) as (url, arrived, release):
        process = subprocess.Popen(
            zygote.command("--allow-private", "--log-level", "info"),
            cwd=str(ROOT),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            log = StderrLines(process.stderr)
            initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            process.stdin.write(_jsonrpc(INITIALIZE, initialized, _fetch_call(2, url), *more).encode())
            process.stdin.flush()
            assert arrived.wait(limit_s), "the fetch did not reach the page"
            yield process, log, release, limit_s
        finally:
            release.set()
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()


def test_every_request_read_before_stdin_closes_is_answered_before_the_server_ends(zygote):
    """A client that writes its requests and closes stdin at once (``printf '...' | websearch-sync mcp``)
    gets an answer to each, the call still running at the end of input included, and the server then
    ends (status 0). Before, the end of input ended the SDK's connection, which cancelled the fetch
    and answered it ``-32000`` "Connection closed". The page is released only once the server has
    read the end of input (its info line says so)."""
    more = [{"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, json.loads(call_line(4, '{"query":"eof"}'))]
    with server_with_a_held_fetch(zygote, *more) as (process, log, release, limit_s):
        process.stdin.close()
        read_the_end = log.wait_for(OWED_AT_EOF, limit_s)  # asserted below, after the answers it is about
        release.set()
        lines = read_lines(process.stdout, 5, limit_s)  # four answers, then the end of stdout
        assert process.wait(limit_s) == 0
    answers = {answer["id"]: answer for answer in map(json.loads, lines)}
    assert sorted(answers) == [1, 2, 3, 4] and len(lines) == 4
    assert "error" not in answers[2], answers[2]
    assert read_the_end, log.lines
    assert answers[2]["result"]["isError"] is False
    assert answers[2]["result"]["structuredContent"]["title"]
    assert answers[4]["result"]["structuredContent"]["items"][0]["title"] == "eof - Overview"


def test_a_server_owing_answers_after_stdin_closed_ends_at_once_when_its_client_goes(zygote):
    """Once stdin has closed the server waits for the calls it read, but not for a client that has
    gone (its end of stdout closed: the answers have no reader): it ends while the page still holds
    the fetch, status 0, its closing line on stderr."""
    with server_with_a_held_fetch(zygote) as (process, log, release, limit_s):
        process.stdin.close()
        assert log.wait_for(OWED_AT_EOF, limit_s), log.lines
        process.stdout.close()
        assert process.wait(limit_s) == 0  # the page holds the fetch twice as long
        assert log.wait_for("MCP client closed the connection", limit_s), log.lines


def test_a_server_whose_client_closed_stdout_ends_at_once_with_stdin_still_open(zygote):
    """A client gone (its end of stdout closed) while a call runs and stdin is still open: nothing can
    reach it any more, and the server ends at once (status 0), while the page still holds the fetch.
    Before, it served on until stdin closed, its answers going to the null device."""
    with server_with_a_held_fetch(zygote) as (process, log, release, limit_s):
        process.stdout.close()
        assert process.wait(limit_s) == 0  # the page holds the fetch twice as long
        assert log.wait_for("MCP client closed the connection", limit_s), log.lines


def test_a_forked_server_ends_on_the_sigterm_a_client_ends_its_server_with(zygote):
    """The MCP SDK's client ends a server its stdin's close did not end with SIGTERM to the server's
    process group (``mcp.client.stdio``: ``terminate_posix_process_tree``); the started command dies
    of it (status -15: it keeps Python's default for SIGTERM). A forked server is in the zygote's
    process group, not its launcher's: before, the launcher died and the server served on, its
    stdout still open (mcp_zygote.py now passes the signal on). Its stdin stays open here: the
    signal alone must end it."""
    with forked_server(zygote) as server:
        os.kill(server.process.pid, signal.SIGTERM)
        assert server.process.wait(server.limit_s) == -signal.SIGTERM
        assert server.rest() == []  # stdout at its end: the server, which shared it, has ended


def test_ctrl_c_ends_a_server_waiting_for_its_client_at_once(zygote, tmp_path):
    """SIGINT (Ctrl-C in the terminal a server was started from, which reaches a host's servers in
    its process group too) ends the server as it ends any command: ``interrupted`` on stderr, status
    130, no traceback. Before, the first Ctrl-C closed the server's stdout but left the process
    waiting for one more line from its client (its stdin reader was a worker thread a cancellation
    waits for): it served no one and ended only at the next line, or at a second Ctrl-C."""
    with open(tmp_path / "stderr", "wb") as err_file:
        server = RawServer(zygote.command(), stderr=err_file)
    try:
        server.send(json.dumps(INITIALIZE))
        assert server.next_answers(1)[0]["id"] == 1
        os.kill(server.process.pid, signal.SIGINT)
        assert server.process.wait(server.limit_s) == 130
        assert server.rest() == []
    finally:
        server.process.stdin.close()
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
    err = (tmp_path / "stderr").read_text(encoding="utf-8").splitlines()
    assert err[-1] == "interrupted"
    assert all(line.startswith("websearch-sync mcp: ") for line in err[:-1]), err  # the stub's warning, no traceback


def test_ctrl_c_ends_a_server_still_reading_its_clients_lines(zygote):
    """Ctrl-C while the client's lines are still coming in and being answered ends the server as
    any Ctrl-C does (status 130): before, about half such runs ended with status 1 and an
    ``ExceptionGroup(BrokenResourceError)`` traceback, the reader sending on a stream the
    cancellation had closed."""
    server = RawServer(zygote.command())
    try:
        server.send(json.dumps(INITIALIZE))
        assert server.next_answers(1)[0]["id"] == 1
        server.send(_jsonrpc(*({"jsonrpc": "2.0", "id": 2 + n, "method": "tools/list"} for n in range(200))))
        os.kill(server.process.pid, signal.SIGINT)
        assert server.process.wait(server.limit_s) == 130
    finally:
        server.process.stdin.close()
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="reads the pipe's size and fill with fcntl/termios (F_GETPIPE_SZ: Linux)",
)
def test_ctrl_c_ends_a_server_whose_client_has_stopped_reading(zygote):
    """Ctrl-C ends a server whose answers fill its stdout pipe, its client reading none of them (a hung
    host): before, the cancelled server waited for the write under way, which waited for a reader,
    and the process never ended. The test waits for the pipe to be full (the server's writer
    then blocked), not for a time."""
    import fcntl
    import termios

    process = subprocess.Popen(
        zygote.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    limit_s = paced_budget_s(SESSION_LIMIT_S)
    try:
        process.stdin.write(_jsonrpc(INITIALIZE, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).encode())
        process.stdin.flush()
        [_, listed] = read_lines(process.stdout, 2, limit_s)  # one answer's size: how many fill the pipe
        capacity = fcntl.fcntl(process.stdout.fileno(), fcntl.F_GETPIPE_SZ)
        calls = capacity // len(listed) + 2
        process.stdin.write(
            _jsonrpc(*({"jsonrpc": "2.0", "id": 3 + n, "method": "tools/list"} for n in range(calls))).encode()
        )
        process.stdin.flush()

        def waiting_in_pipe():
            return struct.unpack("i", fcntl.ioctl(process.stdout.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]

        deadline = time.monotonic() + limit_s
        while waiting_in_pipe() + len(listed) <= capacity and time.monotonic() < deadline:
            time.sleep(0.01)
        assert waiting_in_pipe() + len(listed) > capacity, "the pipe did not fill: %d bytes" % waiting_in_pipe()
        os.kill(process.pid, signal.SIGINT)
        assert process.wait(limit_s) == 130
    finally:
        process.stdin.close()
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()


def test_ctrl_c_is_a_keyboard_interrupt_where_the_event_loop_reports_it_as_a_cancellation(monkeypatch):
    """On Python 3.10 anyio's event loop runner ends a Ctrl-C'd run with ``CancelledError`` (its
    tasks cannot be uncancelled there; 3.11's runner raises ``KeyboardInterrupt``): the server then
    ended with that traceback and status 1 instead of ``interrupted``, 130. Measured with the real
    command on 3.10.13; here the runner's report is stood in for, as the suite runs on one Python."""
    import asyncio

    import anyio

    from websearch_sync.mcp import server

    def cancelled_run(func, *args, **kwargs):
        func().close()  # the coroutine the runner would have run
        raise asyncio.CancelledError()

    monkeypatch.setattr(anyio, "run", cancelled_run)
    with pytest.raises(KeyboardInterrupt):
        server.run_stdio(McpTools(SearchClient("stub")), max_concurrent=1)


def test_any_failure_after_a_ctrl_c_ends_the_server_as_a_keyboard_interrupt(monkeypatch):
    """A Ctrl-C'd server busy answering ended, in about half the runs, with the
    ``BrokenResourceError`` of a stream the cancellation had closed under a task (status 1, a
    traceback; measured with the real command, 200 lines then SIGINT). Here the server's run
    takes a real SIGINT and fails so, deterministically."""
    import anyio

    from websearch_sync.mcp import server

    async def failing_after_sigint(tools, max_concurrent):
        signal.raise_signal(signal.SIGINT)  # the event loop's runner cancels the run
        try:
            await anyio.sleep(MAX_WAIT_S)  # bounded: an unhandled SIGINT fails the test instead of hanging it
        finally:
            raise anyio.BrokenResourceError()

    monkeypatch.setattr(server, "serve", failing_after_sigint)
    # A run started in the background by a script ignores SIGINT, and so would the server; the
    # runner then installs no handler and the signal would end nothing.
    with children_get_sigint():
        found = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            server.run_stdio(McpTools(SearchClient("stub")), max_concurrent=1)
        assert signal.getsignal(signal.SIGINT) is found  # left as it was found


def test_a_forked_server_killed_outright_ends_its_launcher_by_the_same_signal(zygote):
    """The OOM killer or ``kill -9`` ends the forked server with SIGKILL: the started command would
    show -9. Before, the launcher's ``signal.signal(SIGKILL, SIG_DFL)`` raised OSError (SIGKILL's
    action cannot be set) and it exited 1, as if the server had failed."""
    with forked_server(zygote) as server:
        [child] = _children(zygote.server.process.pid)  # serving: the zygote's one child
        os.kill(child, signal.SIGKILL)
        assert server.process.wait(server.limit_s) == -signal.SIGKILL


@contextmanager
def forked_server(zygote):
    """A server forked from ``zygote``, serving (its ``initialize`` answered); its stdin stays open
    (a signal alone must end it), and it is killed at the end if it still runs."""
    server = RawServer(zygote.command())
    try:
        server.send(json.dumps(INITIALIZE))
        assert server.next_answers(1)[0]["id"] == 1
        yield server
    finally:
        server.process.stdin.close()
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def _children(pid):
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path("/proc", entry, "stat").read_text() if entry.isdigit() else ""
        except OSError:  # ended meanwhile
            continue
        if stat and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry))
    return found


# -- without the SDK, and the pieces ------------------------------------------------------------------


def test_without_the_mcp_extra_the_command_exits_2_with_one_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp -> ImportError
    assert main(["mcp"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: InvalidInput/missing_mcp_extra: ")
    assert "the `mcp` extra: pip install 'mcp" in captured.err and captured.err.count("\n") == 1
    assert "(from a checkout: pip install -e '.[mcp]')" in captured.err


@pytest.fixture(autouse=True)
def _sdk_imported_before_capsys():
    """The MCP SDK imported before a test's ``capsys`` takes ``sys.stderr``: ``import mcp`` imports
    ``mcp.client.stdio``, whose ``stdio_client`` binds its ``errlog`` default to the ``sys.stderr``
    of that moment. Imported first under ``capsys`` (a stream without a file descriptor: the
    old-SDK and bad-concurrency tests reach ``import mcp``), every later client in the worker
    relying on that default (openai-agents' ``MCPServerStdio``) failed to start its server:
    ``io.UnsupportedOperation: fileno``."""
    import mcp  # noqa: F401


def test_an_old_sdk_is_refused_with_the_same_line(monkeypatch, capsys):
    from importlib import metadata

    real_version = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "1.26.0" if name == "mcp" else real_version(name))
    assert main(["mcp"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: InvalidInput/missing_mcp_extra: the MCP server needs mcp>=2.3, found 1.26.0: ")
    assert err.count("\n") == 1


def test_importing_the_library_and_its_cli_does_not_import_the_sdk():
    code = (
        "import sys, websearch_sync, websearch_sync.cli, websearch_sync.mcp; "
        "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types', 'anyio'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_bad_concurrency_is_invalid_input(capsys):
    with SearchClient() as client:
        with pytest.raises(ws.InvalidInput) as caught:
            serve_stdio(McpTools(client), max_concurrent=0)
    assert caught.value.detail_code == "bad_max_concurrent"
    assert main(["mcp", "--max-repeats", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: InvalidInput/bad_max_repeats: ")
    assert main(["mcp", "--repeat-window", "-1"]) == 2
    assert capsys.readouterr().err.startswith("error: InvalidInput/bad_repeat_window: ")


def test_optional_arguments_are_nullable_and_the_schema_stays_valid():
    """Issue 33.19: smolagents' MCP adapter requires every argument whose schema does not say
    ``"nullable": true``. Optional ones say it; required ones do not; the schema is still a valid
    JSON Schema (draft 2020-12 ignores the keyword), and a call without them still validates."""
    jsonschema = pytest.importorskip("jsonschema")
    with SearchClient() as client:
        definitions = {d["name"]: d["parameters"] for d in McpTools(client).definitions()}
    for schema in definitions.values():
        required = set(schema["required"])
        assert required and all(
            ("nullable" in spec) != (prop in required) for prop, spec in schema["properties"].items()
        )
        jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate({"query": "q"}, definitions["web_search"])
    jsonschema.validate({"url": "https://example.com/"}, definitions["web_fetch"])
    assert set(definitions["web_search"]["properties"]) - set(definitions["web_search"]["required"]) == {
        "max_results",
        "locale",
        "time_range",
        "include_content",
        "vertical",
        *MEDIA_FILTERS,
    }


def test_mcp_tools_mirror_the_tool_adapter():
    with SearchClient() as client:
        tools = McpTools(client)
        adapter = tool.tool_definitions("json_schema", names=TOOL_NAMES, settings=ws.Settings(), images=True)
        assert tools.definitions() == [dict(d, parameters=nullable_optional(d["parameters"])) for d in adapter]
        outcome = tools.call("web_search", {"query": "q", "max_results": 1})
        assert outcome.is_error is False and same_wrapper(outcome.text) == same_wrapper(
            tool.format_results(outcome.result)
        )
        assert outcome.result["items"][0]["url"] == "https://example.com/search?q=q"
        refused = tools.call("web_fetch", '{"url": "ftp://example.com/"}')
        assert refused.is_error is True and refused.result["error"]["detail_code"] == "bad_url"
    with SearchClient(settings=ws.Settings(backend="brave")) as client:
        assert [d["name"] for d in McpTools(client).definitions()] == ["web_fetch"]


# -- every line gets an answer (issue 23, point 11) ---------------------------------------------------


class RawServer:
    """``websearch-sync mcp`` (or the ``command`` of one) driven line by line, for input no
    well-behaved client sends. Every line of its stdout must be a JSON-RPC message: another
    fails the test at the next :meth:`answer`, :meth:`rest` or :meth:`close`."""

    def __init__(self, command=None, env=None, stderr=subprocess.DEVNULL):
        self.process = subprocess.Popen(
            command or server_command(),
            cwd=str(ROOT),
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
        )
        self.lines = []
        self.taken = 0  # how many of them :meth:`next_answers` gave out
        self.ended = False  # stdout at its end (or unreadable: ``error``)
        self.error = None  # what made a line of stdout no protocol message
        self.arrived = threading.Condition()
        # the server imports the MCP SDK first (seconds of CPU): as many times longer as the machine runs slower
        self.limit_s = paced_budget_s(SESSION_LIMIT_S)
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self):
        try:
            for line in self.process.stdout:
                message = json.loads(line)
                members = message if isinstance(message, list) and message else [message]  # a batch's answer
                assert all(isinstance(m, dict) and m.get("jsonrpc") == "2.0" for m in members), line
                with self.arrived:
                    self.lines.append(message)
                    self.arrived.notify_all()
        except (ValueError, AssertionError) as error:  # not JSON-RPC: raised in the test by _checked
            self.error = error
        finally:
            with self.arrived:
                self.ended = True
                self.arrived.notify_all()

    def _checked(self):
        if self.error is not None:
            raise AssertionError("not a protocol message on stdout") from self.error

    def send(self, text):
        self.process.stdin.write(text.encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def answer(self, count):
        """The ``count``-th message from the server (1-based), waiting up to ``limit_s`` for it."""
        with self.arrived:
            arrived = self.arrived.wait_for(lambda: len(self.lines) >= count or self.ended, self.limit_s)
            self._checked()
            assert arrived and len(self.lines) >= count, "no answer: %s" % self.lines
            return self.lines[count - 1]

    def next_answers(self, count):
        """The next ``count`` messages from the server after those this method already gave out."""
        answers = [self.answer(self.taken + n) for n in range(1, count + 1)]
        self.taken += count
        return answers

    def rest(self):
        """The messages after those :meth:`next_answers` gave out, once stdout has ended (within ``limit_s``)."""
        with self.arrived:
            assert self.arrived.wait_for(lambda: self.ended, self.limit_s), "stdout still open: %s" % self.lines
            self._checked()
            return self.lines[self.taken :]

    def close(self):
        """Close stdin: the server writes nothing more on stdout and ends with status 0."""
        try:
            self.process.stdin.close()
            assert self.rest() == []
            assert self.process.wait(self.limit_s) == 0
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def raw_server(zygote):
    """One initialized :class:`RawServer` for the tests of this module that send it what no client
    should (a server's start is a second of CPU): each sends its lines and reads its answers with
    :meth:`RawServer.next_answers`, and the server still serves the next test. It must then end
    cleanly when its stdin closes (status 0)."""
    server = RawServer(zygote.command())
    try:
        server.send(json.dumps(INITIALIZE))
        assert server.next_answers(1)[0]["id"] == 1
        server.send('{"jsonrpc":"2.0","method":"notifications/initialized"}')
        yield server
    finally:
        server.close()


def call_line(request_id, arguments_json):
    return '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"web_search","arguments":%s}}' % (
        request_id,
        arguments_json,
    )


NOT_A_MESSAGE = "Invalid Request: not a JSON-RPC 2.0 message"


def test_every_request_gets_an_answer_even_one_the_sdk_cannot_parse(raw_server):
    server = raw_server
    server.send(call_line(2, '{"query":"a\\ud800b"}'))  # a lone surrogate escape
    server.send(call_line(3, '{"query":"x","locale":%s}' % ("[" * 300 + "]" * 300)))  # nested 300 deep
    server.send("this line is not JSON")
    server.send('{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"web_search",}')  # cut short
    server.send('{"not": "a message"}')
    server.send(call_line(5, '{"query":"still serving"}'))
    server.send(call_line(6, '{"query":"x"}').replace("web_search", "web_s\\ud800"))  # in the name: the client's
    answers = server.next_answers(7)  # tool calls run in threads: answers come in any order
    by_id = {answer["id"]: answer for answer in answers if answer["id"] is not None}
    anonymous = sorted(
        (answer["error"]["code"], answer["error"]["message"]) for answer in answers if answer["id"] is None
    )
    assert sorted(by_id) == [2, 3, 5, 6]
    assert by_id[6]["error"]["code"] == -32602  # a lone surrogate outside the arguments: the client built it
    # the lone surrogate in the arguments a model wrote: a tool result it reads, naming the argument
    assert by_id[2]["result"]["isError"] is True
    assert by_id[2]["result"]["content"][0]["text"].startswith(
        "Error: InvalidInput (bad_arguments): argument 'query' is not valid Unicode text: a lone surrogate at position 1."
    )
    assert by_id[3]["result"]["isError"] is True  # nested 300 deep: the tool's own answer
    assert "Error: InvalidInput (bad_arguments): argument 'locale'" in by_id[3]["result"]["content"][0]["text"]
    assert by_id[5]["result"]["isError"] is False  # and the server still serves
    assert anonymous == [(-32700, "Parse error: the line is not JSON")] * 2 + [
        (-32600, "Invalid Request: not a JSON-RPC 2.0 message")
    ]


BATCH_REFUSED = (
    "Invalid Request: JSON-RPC batches are served only under protocol version 2025-03-26, the one that has "
    "them; send each message on its own line"
)


def test_a_batch_is_answered_with_one_array_refusing_each_request_under_its_id(raw_server):
    """A JSON-RPC batch (an array of messages; MCP had them in 2025-03-26 only) gets, as JSON-RPC
    shapes a batch's answer, one array: each request refused under its own id, a notification
    unanswered. Before, the whole batch got one ``-32600`` with ``id: null``, and the client waited
    for each of its requests' answers until its own timeout."""
    raw_server.send(
        _jsonrpc(
            [
                {"jsonrpc": "2.0", "id": 20, "method": "ping"},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": "b", "method": "tools/list"},
            ]
        ).rstrip("\n")
    )
    raw_server.send('{"jsonrpc":"2.0","id":22,"method":"ping"}')
    batch, after = raw_server.next_answers(2)
    assert batch == [
        {"jsonrpc": "2.0", "id": 20, "error": {"code": -32600, "message": BATCH_REFUSED}},
        {"jsonrpc": "2.0", "id": "b", "error": {"code": -32600, "message": BATCH_REFUSED}},
    ]
    assert after == {"jsonrpc": "2.0", "id": 22, "result": {}}  # and the server still serves


def test_under_2025_03_26_a_batch_is_served_and_answered_with_one_array(zygote):
    """2025-03-26, the one version with batches, says a server must receive them: each member is
    served as on a line of its own and the answers come back in one array (``initialize`` refused
    in it, as that version says; a notification unanswered; a member that is no message ``-32600``);
    a request of a batch that the client cancels goes unanswered and the batch's array comes
    without it. Before, any batch got one ``-32600`` with ``id: null``."""
    arrived, release = threading.Event(), threading.Event()

    def page(conn, request, site):
        arrived.set()
        gated(release, respond(200, article_html()))(conn, request, site)

    with FaultServer({"*": page}) as site:
        server = RawServer(zygote.command("--allow-private"))
        try:
            server.send(json.dumps(dict(INITIALIZE, params=dict(INITIALIZE["params"], protocolVersion="2025-03-26"))))
            assert server.next_answers(1)[0]["result"]["protocolVersion"] == "2025-03-26"
            search = {"name": "web_search", "arguments": {"query": "x"}}
            batch = [
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 10, "method": "ping"},
                {"jsonrpc": "2.0", "id": "list", "method": "tools/list"},
                {"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": search},
                {"jsonrpc": "2.0", "id": 13, "method": "initialize", "params": INITIALIZE["params"]},
                "not a message",
            ]
            server.send(json.dumps(batch))
            server.send('{"jsonrpc":"2.0","id":20,"method":"ping"}')
            answers = server.next_answers(2)  # the single ping's answer may come first: the batch waits for its search
            [answer] = [a for a in answers if isinstance(a, list)]
            [after] = [a for a in answers if isinstance(a, dict)]
            by_id = {member["id"]: member for member in answer}
            assert sorted(by_id, key=str) == sorted([10, "list", 12, 13, None], key=str)
            assert by_id[10]["result"] == {}
            assert [tool["name"] for tool in by_id["list"]["result"]["tools"]] == ["web_search", "web_fetch"]
            assert by_id[12]["result"]["isError"] is False
            assert by_id[13]["error"] == {
                "code": -32600,
                "message": "Invalid Request: initialize must not be in a batch",
            }
            assert by_id[None]["error"] == {"code": -32600, "message": NOT_A_MESSAGE}
            assert after == {"jsonrpc": "2.0", "id": 20, "result": {}}  # a message of its own line, alone

            fetch = {"name": "web_fetch", "arguments": {"url": site.url("/page")}}
            server.send(json.dumps([{"jsonrpc": "2.0", "id": 30, "method": "tools/call", "params": fetch}, batch[1]]))
            assert arrived.wait(server.limit_s), "the fetch did not reach the page"
            # the id as a string: the SDK reads "30" as 30 and cancels the call (before, the batch waited for ever)
            server.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"30"}}')
            assert server.next_answers(1) == [[{"jsonrpc": "2.0", "id": 10, "result": {}}]]
        finally:
            release.set()
            server.close()


@pytest.mark.parametrize(
    "line, answer",
    [
        ("[1, 2]", [{"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": NOT_A_MESSAGE}}] * 2),
        ('[{"jsonrpc": "2.0", "method": "notifications/initialized"}]', None),
        ('[{"jsonrpc": "2.0", "id": 3, "result": {}}]', None),
        ("[]", {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": NOT_A_MESSAGE}}),
    ],
    ids=["members-no-messages", "notifications-only", "responses-only", "empty"],
)
def test_a_batch_is_answered_as_json_rpc_answers_one(line, answer):
    """JSON-RPC 2.0's rules for a batch: a member that is no message gets ``-32600`` with ``id: null``;
    a batch of notifications (or of responses) gets no answer at all; an empty array is no batch, one error."""
    assert parse_line(line) == (None, answer)


def test_a_line_over_the_cap_is_refused_unread_and_the_next_line_served():
    """A line longer than any request to this server needs (``MAX_LINE_CHARS``) is skipped to its end
    and answered ``-32600`` (``id: null``: it is not parsed), the next line served as usual. Before,
    any line was read whole and parsed: a 100 MB line took the server's memory from 84 to 443 MB."""
    import io

    import anyio

    from websearch_sync.mcp import transport

    over = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"%s"}}' % ("x" * transport.MAX_LINE_CHARS)
    wire = io.BytesIO((over + "\n" + '{"jsonrpc":"2.0","id":2,"method":"ping"}\n').encode())

    async def read():
        messages, received = anyio.create_memory_object_stream(2)
        answers, answered = anyio.create_memory_object_stream(2)
        await transport._read(
            transport._Wire(wire, owned=False), messages, answers, transport.Batches(), answers, transport.Pending()
        )
        return [m.message.id async for m in received], [a async for a in answered]

    passed_on, answered = anyio.run(read)
    assert passed_on == [2]
    assert answered == [
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32600,
                "message": "Invalid Request: the line is over %d characters, more than any request to this server needs"
                % transport.MAX_LINE_CHARS,
            },
        }
    ]


#: An integer longer than Python reads by default (sys.int_info.default_max_str_digits: 4300).
HUGE_INTEGER = "9" * 5000


def test_a_request_holding_an_integer_of_thousands_of_digits_is_json_and_goes_to_the_server():
    message, answer = parse_line(call_line(7, '{"query": "x", "max_results": %s}' % HUGE_INTEGER))
    assert message is not None and answer is None


def test_an_argument_of_thousands_of_digits_is_refused_as_a_number_out_of_range_answering_its_call(raw_server):
    raw_server.send(call_line(15, '{"query": "x", "max_results": %s}' % HUGE_INTEGER))
    (answer,) = raw_server.next_answers(1)
    assert answer["id"] == 15 and answer["result"]["isError"] is True
    text = answer["result"]["content"][0]["text"]
    assert text.startswith("Error: InvalidInput (bad_arguments): argument 'max_results' must be an integer in 1..")
    assert "got an integer of %d digits" % len(HUGE_INTEGER) in text


def test_a_request_whose_id_is_not_a_string_or_an_integer_gets_an_invalid_request_answer(raw_server):
    """Issue 33.8: the SDK took these for notifications and never answered."""
    ids = ["1.5", "true", "null", "[1]", '{"n": 1}']
    for request_id in ids:
        raw_server.send('{"jsonrpc":"2.0","id":%s,"method":"tools/list"}' % request_id)
    raw_server.send('{"jsonrpc":"2.0","id":7,"method":"tools/list"}')
    answers = raw_server.next_answers(len(ids) + 1)
    assert [answer["id"] for answer in answers] == [None] * len(ids) + [7]
    assert all(answer["error"]["code"] == -32600 for answer in answers[:-1])
    assert answers[-1]["result"]["tools"]  # and the server still serves


def test_a_cursor_the_server_never_gave_is_invalid_params(raw_server):
    """The server lists its tools on one page (no ``nextCursor``), so any cursor is one it never gave:
    ``-32602``, as the MCP specification's pagination says of an invalid cursor. Before, the whole
    list came back again, and a client paging with a made-up or stale cursor would loop on it."""
    raw_server.send('{"jsonrpc":"2.0","id":30,"method":"tools/list","params":{"cursor":"page-2"}}')
    raw_server.send('{"jsonrpc":"2.0","id":31,"method":"tools/list","params":{}}')
    refused, listed = raw_server.next_answers(2)
    assert refused == {
        "jsonrpc": "2.0",
        "id": 30,
        "error": {
            "code": -32602,
            "message": "Invalid params: no such cursor: the tools are listed on one page, with no nextCursor",
        },
    }
    assert "nextCursor" not in listed["result"] and listed["result"]["tools"]


@pytest.mark.parametrize(
    "cursor, got",
    [("5", "a number (5)"), ('["page-2"]', "an array"), ('{"page": 2}', "an object"), ("true", "a boolean")],
)
def test_a_cursor_that_is_no_string_is_invalid_params_saying_so(cursor, got):
    """The SDK answered a cursor of another type with ``-32602`` "Invalid request parameters" and empty
    data: neither the cursor nor what it must be was named."""
    line = '{"jsonrpc":"2.0","id":30,"method":"tools/list","params":{"cursor":%s}}' % cursor
    message, answer = parse_line(line)
    assert message is None
    assert answer["id"] == 30 and answer["error"]["code"] == -32602
    assert answer["error"]["message"].startswith("Invalid params: a tools/list cursor is a string")
    assert ("got cursor as " + got) in answer["error"]["message"]


@pytest.mark.parametrize(
    "method, params, said",
    [
        ("tools/list", '{"_meta":5}', "params._meta is an object (or null); got a number (5)"),
        ("tools/list", '{"_meta":"x"}', "params._meta is an object (or null); got a string ('x')"),
        (
            "tools/list",
            '{"_meta":{"progressToken":1.5}}',
            "params._meta.progressToken is a string or an integer; got a number (1.5)",
        ),
        (
            "tools/list",
            '{"_meta":{"progressToken":null}}',
            "params._meta.progressToken is a string or an integer; got null",
        ),
        ("tools/call", '{"name":"web_fetch","_meta":[]}', "params._meta is an object (or null); got an array"),
        ("tools/call", '{"name":"web_fetch","task":5}', "params.task is an object (or null); got a number (5)"),
        (
            "tools/call",
            '{"name":"web_fetch","task":{"ttl":"x"}}',
            "params.task.ttl is not what MCP allows there (Input should be a valid integer",
        ),
        (
            "tools/call",
            '{"name":"web_fetch","requestState":5}',
            "params.requestState is a string (or null); got a number (5)",
        ),
        ("tools/call", '{"name":"web_fetch","inputResponses":[]}', "params.inputResponses is an object mapping"),
        (
            "tools/call",
            '{"name":"web_fetch","inputResponses":{"a":{}}}',
            "params.inputResponses['a'] is not what MCP allows there (Field required); got an object",
        ),
    ],
)
def test_a_params_member_of_a_type_the_sdk_refuses_is_invalid_params_naming_it(method, params, said):
    """The SDK refused these with ``-32602`` "Invalid request parameters" and empty data (a raw server
    answered each so): neither the member, nor what it must be, nor what was sent was named."""
    message, answer = parse_line('{"jsonrpc":"2.0","id":31,"method":"%s","params":%s}' % (method, params))
    assert message is None
    assert answer["id"] == 31 and answer["error"]["code"] == -32602
    assert answer["error"]["message"].startswith("Invalid params: a %s request's " % method)
    assert said in answer["error"]["message"], answer["error"]["message"]


@pytest.mark.parametrize(
    "method, params",
    [
        ("tools/list", '{"_meta":null}'),
        ("tools/list", '{"_meta":{"progressToken":"t","vendor/key":[1]}}'),
        ("tools/list", '{"_meta":{"progressToken":7}}'),
        ("tools/list", '{"_meta":{"progressToken":1.0}}'),  # the SDK reads a whole number so
        ("tools/call", '{"name":"web_fetch","_meta":{"progressToken":true}}'),  # and a boolean (lax)
        ("tools/call", '{"name":"web_fetch","task":{"ttl":"5"}}'),
        ("tools/call", '{"name":"web_fetch","task":null,"requestState":null,"inputResponses":null}'),
    ],
)
def test_params_members_the_sdk_accepts_reach_it(method, params):
    """The control: what the SDK's models accept is not refused here (nothing stricter than the SDK)."""
    message, answer = parse_line('{"jsonrpc":"2.0","id":31,"method":"%s","params":%s}' % (method, params))
    assert answer is None and message is not None


@pytest.mark.parametrize("params", ['{"cursor":null}', "{}", '{"cursor":"page-2"}'])
def test_a_null_or_string_cursor_is_the_servers_to_answer(params):
    """The control: a string cursor (refused by the server, as never given) and none reach the SDK."""
    message, answer = parse_line('{"jsonrpc":"2.0","id":30,"method":"tools/list","params":%s}' % params)
    assert answer is None and message is not None


# -- a tools/call whose arguments are not an object --------------------------------------------------
# (a string, an array, a number: a client passing a model's arguments on as the model wrote them) is
# answered as any wrong argument is, with a tool result the model reads (``isError``, our one line),
# not with the SDK's protocol error -32602 "Invalid request parameters", which the model never sees.


def parse_line(line):
    """``websearch_sync.mcp.transport.parse_line``, imported when a test runs: the transport
    imports the MCP SDK (a second of CPU), which collecting the suite must not pay in every worker."""
    from websearch_sync.mcp.transport import parse_line

    return parse_line(line)


MALFORMED = [
    ('"rust"', "a string ('rust')"),
    ('["rust", 3]', "an array"),
    ("5", "a number (5)"),
    ("true", "a boolean (true)"),
]


@pytest.mark.parametrize("arguments, said", MALFORMED)
def test_the_transport_answers_arguments_not_an_object_with_an_error_result(arguments, said):
    message, answer = parse_line(call_line(7, arguments))
    assert message is None
    assert answer == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": {
            "content": [
                {
                    "type": "text",
                    "text": "Error: InvalidInput (bad_arguments): arguments must be a JSON object, got %s. "
                    "Correct the arguments and call again." % said,
                }
            ],
            "isError": True,
        },
    }


def modern_call_line(request_id, arguments_json, version="2026-07-28"):
    """A 2026-07-28 ``tools/call`` (the per-request ``_meta`` envelope) of ``web_search``."""
    envelope = {"io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {}}
    return (
        '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":%s,"name":"web_search","arguments":%s}}'
        % (
            request_id,
            json.dumps(envelope),
            arguments_json,
        )
    )


def test_the_answer_to_a_2026_request_with_arguments_not_an_object_says_its_result_type():
    """2026-07-28 requires ``resultType`` on every result: the transport's own tool result for
    arguments that are no object had none, which a client of that version may refuse."""
    message, answer = parse_line(modern_call_line(7, '"rust"'))
    assert message is None
    assert answer["result"]["resultType"] == "complete" and answer["result"]["isError"] is True


def test_a_request_of_a_protocol_version_the_server_does_not_speak_is_left_to_the_sdk():
    """Its answer is the SDK's ``-32022`` naming the versions it speaks, not a tool result of ours."""
    message, answer = parse_line(modern_call_line(7, '"rust"', version="1900-01-01"))
    assert message is not None and answer is None


def test_arguments_that_are_an_object_or_null_still_go_to_the_server():
    for arguments in ('{"query": "rust"}', "null"):
        message, answer = parse_line(call_line(7, arguments))
        assert message is not None and answer is None


def test_the_server_answers_arguments_not_an_object_and_goes_on_serving(raw_server):
    raw_server.send(call_line(12, '"rust"'))
    raw_server.send(call_line(13, '{"query": "still serving"}'))
    answers = {answer["id"]: answer for answer in raw_server.next_answers(2)}
    assert answers[12]["result"]["isError"] is True
    assert "arguments must be a JSON object, got a string ('rust')" in answers[12]["result"]["content"][0]["text"]
    assert answers[13]["result"]["isError"] is False


# -- a tools/call without a tool name -----------------------------------------------------------------
# fails CallToolRequest's schema: a protocol error (-32602), as the MCP specification (2025-11-25) says,
# since the client built that request and the model could not correct it; the SDK said only "Invalid
# request parameters" with empty data, now what is missing.

UNNAMED = [
    ('{"arguments": {"query": "rust"}}', "no name"),
    ('{"name": 5, "arguments": {"query": "rust"}}', "name as a number (5)"),
    ('{"name": null}', "no name"),
    ('"web_search"', "params as a string ('web_search')"),
    (None, "no params"),
]


@pytest.mark.parametrize("params, got", UNNAMED)
def test_a_tools_call_without_a_tool_name_is_invalid_params_saying_what_is_missing(params, got):
    line = '{"jsonrpc":"2.0","id":9,"method":"tools/call"%s}' % ("" if params is None else ',"params":' + params)
    assert parse_line(line) == (
        None,
        {
            "jsonrpc": "2.0",
            "id": 9,
            "error": {
                "code": -32602,
                "message": "Invalid params: a tools/call needs params.name, the name of a tool tools/list gives,"
                " as a string; got %s" % got,
            },
        },
    )


def test_a_notification_tools_call_without_a_name_gets_no_answer():
    assert parse_line('{"jsonrpc":"2.0","method":"tools/call","params":{}}')[1] is None


@pytest.mark.parametrize(
    "line",
    [
        '{"id":9,"method":"tools/call"}',  # no jsonrpc
        '{"jsonrpc":"1.0","id":9,"method":"tools/call","params":{}}',
        '{"id":9,"method":"tools/call","params":{"name":"web_search","arguments":"rust"}}',  # arguments checked too
    ],
)
def test_a_message_that_is_no_json_rpc_2_request_stays_invalid_request_not_a_params_check(line):
    """The params checks apply to JSON-RPC 2.0 requests only: a message without ``"jsonrpc": "2.0"``
    was answered "needs params.name" (or a tool result) instead of ``-32600`` Invalid Request."""
    assert parse_line(line) == (
        None,
        {
            "jsonrpc": "2.0",
            "id": 9,
            "error": {"code": -32600, "message": "Invalid Request: not a JSON-RPC 2.0 message"},
        },
    )


def test_a_response_shaped_tools_call_is_left_to_the_sdk():
    """A message holding ``result`` is no request this reader checks: the SDK reads it as it did before."""
    message, answer = parse_line('{"jsonrpc":"2.0","id":9,"method":"tools/call","result":{}}')
    assert answer is None and message is not None


def test_the_server_answers_a_tools_call_without_a_name_and_goes_on_serving(raw_server):
    raw_server.send('{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"arguments":{"query":"x"}}}')
    raw_server.send(call_line(15, '{"query": "still serving"}'))
    answers = {answer["id"]: answer for answer in raw_server.next_answers(2)}
    assert answers[14]["error"]["code"] == -32602 and answers[14]["error"]["message"].endswith("got no name")
    assert answers[15]["result"]["isError"] is False


# -- cancelled and failed calls (issue 25, point 7) ---------------------------------------------------


#: Brave's pace in the test below: long against an MCP round trip on a loaded machine (a call measured
#: 0.7 s+ there), so a free worker reaches the site well inside the slot the cancelled call waited for.
CANCELLED_SLOT_S = 3.0


def test_a_cancelled_call_stops_before_the_upstream_and_frees_its_worker(zygote):
    import anyio

    arrivals = {"engine": [], "site": []}

    def recorded(name, handler):
        def record(conn, request, server):
            arrivals[name].append(time.monotonic())
            handler(conn, request, server)

        return record

    engine_answer = respond(200, b'{"type": "search", "web": {"results": []}}', content_type="application/json")
    with (
        FaultServer({"*": recorded("engine", engine_answer)}) as engine,
        FaultServer({"*": recorded("site", respond(200, article_html()))}) as site,
    ):
        env = {
            "WEB_SEARCH_BACKEND": "brave",
            "BRAVE_API_KEY": "test-key",
            "WEB_SEARCH_ENDPOINT_BRAVE": engine.url("/search"),
            "WEB_SEARCH_MIN_INTERVAL_S_BRAVE": str(CANCELLED_SLOT_S),
        }

        async def scenario():
            async with mcp_session("--max-concurrent", "1", "--allow-private", env=env, zygote=zygote) as session:
                first = await session.call_tool("web_search", {"query": "first"})  # takes Brave's slot
                with anyio.move_on_after(0.3):  # the next call waits for the next slot: cancel it while it waits
                    await session.call_tool("web_search", {"query": "second"})
                page = await session.call_tool("web_fetch", {"url": site.url("/page")})
                # past the slot the cancelled call was waiting for, with half a slot to spare
                await anyio.sleep(max(0.0, arrivals["engine"][0] + 1.5 * CANCELLED_SLOT_S - time.monotonic()))
                return first, page

        first, page = run_bounded(scenario)
    assert first.is_error is False and page.is_error is False
    assert len(arrivals["engine"]) == 1, "the cancelled search reached the engine"
    # the only worker was free for the fetch at once, not when the cancelled call's slot came
    assert arrivals["site"][0] < arrivals["engine"][0] + CANCELLED_SLOT_S


def test_a_cancelled_call_keeps_its_place_until_its_upstream_request_ends(zygote):
    """Issue 33.8: with ``--max-concurrent 1``, a call cancelled while its request to the upstream is
    under way answers at once, but the next call reaches its upstream only once that request ended."""
    import anyio

    release, seen = threading.Event(), {}

    def slow(conn, request, server):
        seen["slow"] = time.monotonic()
        gated(release, respond(200, article_html()))(conn, request, server)
        seen["slow done"] = time.monotonic()

    def quick(conn, request, server):
        seen["quick"] = time.monotonic()
        respond(200, article_html())(conn, request, server)

    with FaultServer({"/slow": slow, "/quick": quick}) as site:

        async def scenario():
            async with mcp_session("--max-concurrent", "1", "--allow-private", zygote=zygote) as session:
                with anyio.move_on_after(10):
                    while "slow" not in seen:  # cancel the first call once its request is under way
                        with anyio.move_on_after(0.2):
                            await session.call_tool("web_fetch", {"url": site.url("/slow")})
                threading.Timer(1.0, release.set).start()
                return await session.call_tool("web_fetch", {"url": site.url("/quick")})

        page = run_bounded(scenario)
    assert page.is_error is False
    assert seen["quick"] >= seen["slow done"], "the next call reached the upstream while the cancelled one ran"


def test_a_cancelled_merge_stops_every_backend_before_the_upstream(zygote):
    """With ``--strategy merge`` each backend waits in a thread of its own: the cancellation reaches them too.

    Both engines keep one pace, 1 s on an idle machine and as many times more as it runs slower now:
    the second call must still wait for its slots when it is cancelled 0.3 s in. With a fixed 1 s
    (Brave's own, SearXNG's set), a loaded machine spent it between the first call's requests and
    the second call's turn (the first answer parsed, sent back, the next call sent): both engines
    were asked twice with nothing left to cancel (4 CPU burners, load 11-16)."""
    import anyio

    interval_s = paced_budget_s(1.0)

    arrivals = {"brave": [], "searxng": []}

    def recorded(name, fixture, content_type):
        body = (ROOT / "fixtures" / name / fixture).read_bytes()
        answer = respond(200, body, content_type=content_type)

        def record(conn, request, server):
            arrivals[name].append(time.monotonic())
            answer(conn, request, server)

        return record

    with (
        FaultServer({"*": recorded("brave", "larallama__1.json", "application/json")}) as brave,
        FaultServer({"*": recorded("searxng", "shortlist__1.json", "application/json")}) as searxng,
    ):
        env = {
            "BRAVE_API_KEY": "test-key",
            "WEB_SEARCH_ENDPOINT_BRAVE": brave.url("/search"),
            "WEB_SEARCH_ENDPOINT_SEARXNG": searxng.url("/search"),
            "WEB_SEARCH_MIN_INTERVAL_S_BRAVE": "%.3f" % interval_s,
            "WEB_SEARCH_MIN_INTERVAL_S_SEARXNG": "%.3f" % interval_s,
        }

        async def scenario():
            merge = ("--backend", "brave,searxng", "--strategy", "merge")
            async with mcp_session(*merge, env=env, zygote=zygote) as session:
                first = await session.call_tool("web_search", {"query": "first"})  # takes both engines' 1 s slots
                with anyio.move_on_after(0.3):  # the next call's backends wait for their slots: cancel it
                    await session.call_tool("web_search", {"query": "second"})
                await anyio.sleep(interval_s + 0.5)  # past the slots the cancelled call's backends were waiting for
                return first

        first = run_bounded(scenario)
    assert first.is_error is False, first
    assert (len(arrivals["brave"]), len(arrivals["searxng"])) == (1, 1), "the cancelled merge reached an engine"


def test_a_later_conversation_on_the_same_server_looks_up_again():
    """Issue 33.18: the guard lasted the server's whole life, so a third conversation asking what the
    first two asked was refused. Repeats count within the window (the client's clock), and within it
    a repeat gets the answer already given instead of an error."""
    with FaultServer({"*": respond(200, article_html())}) as site:
        clock = FakeClock()
        with SearchClient(settings=ws.Settings(allow_private=True), clock=clock, cache_ttl_s=0) as client:
            tools = McpTools(client)  # the server's defaults: 2 lookups within 600 s
            conversations = []
            for _ in range(3):
                conversations.append(tools.call("web_fetch", {"url": site.url("/page")}))
                clock.advance(60)
            clock.advance(600)
            later = tools.call("web_fetch", {"url": site.url("/page")})
        assert len(site.requests) == 3  # the third conversation's lookup came from the server's memory
    assert [outcome.is_error for outcome in conversations + [later]] == [False] * 4
    assert conversations[2].text.startswith(
        "Note: these tools already looked this page up 2 times in the last 600 s; here is that answer again"
    )
    assert conversations[2].result["text"] == conversations[1].result["text"]
    assert "note" not in later.result and not later.text.startswith("Note:")


def test_failed_lookups_do_not_use_up_max_repeats():
    with FaultServer({"*": respond(500, b"upstream broke")}) as broken:
        with SearchClient(settings=ws.Settings(allow_private=True), retries=0) as client:  # one request a lookup
            tools = McpTools(client, max_repeats=1)
            failures = [tools.call("web_fetch", {"url": broken.url("/page")}) for _ in range(2)]
        assert len(broken.requests) == 2  # the second lookup was made, not refused as a repeat
    assert [(outcome.is_error, outcome.result["error"]["detail_code"]) for outcome in failures] == [
        (True, "http_500")
    ] * 2


def test_a_call_cancelled_while_its_request_ran_does_not_use_up_max_repeats():
    """Issue 33.18: the call was cancelled while its request was under way; it ended without a
    wait to stop at, and the SDK dropped its answer: the model never saw it, so it is no repeat."""
    cancel = threading.Event()

    def cancelled_meanwhile(conn, request, server):
        cancel.set()
        respond(200, article_html())(conn, request, server)

    with FaultServer({"*": cancelled_meanwhile}) as site:
        clock = CancellableClock()
        with SearchClient(settings=ws.Settings(allow_private=True), clock=clock, cache_ttl_s=0) as client:
            tools = McpTools(client, max_repeats=1, clock=clock)
            tools.call("web_fetch", {"url": site.url("/page")}, cancel)
            again = tools.call("web_fetch", {"url": site.url("/page")}, threading.Event())
    assert again.is_error is False and len(site.requests) == 2


def test_no_images_refuses_an_image_and_the_fetch_tool_says_nothing_of_images(allow_private_server, zygote):
    """``mcp --no-images``, for a host whose model reads text only: an image is refused, as
    ``fetch`` refuses it, and web_fetch's description does not offer what it will not return
    (against the same server without it: ``allow_private_server``)."""
    from images import png

    with FaultServer({"/i.png": respond(200, png(20, 10), content_type="image/png")}) as server:

        async def scenario(*args):
            async with mcp_session("--allow-private", *args, zygote=zygote) as session:
                listed = {t.name: t.description for t in (await session.list_tools()).tools}
                return listed["web_fetch"], await session.call_tool("web_fetch", {"url": server.url("/i.png")})

        text_only, refused = run_bounded(scenario, "--no-images")
    offered, image = allow_private_server["listed"]["web_fetch"], allow_private_server["images"]["image/png"][2]
    assert "returns the image itself" in offered and [c.type for c in image.content] == ["text", "image"]
    assert "image" not in text_only.lower()
    assert refused.is_error is True and "unsupported_content" in text_of(refused)
    assert "an image; this tool returns text, not images" in text_of(refused)  # not "only when asked": it cannot ask


def test_the_answer_to_a_result_holding_a_services_lone_surrogate_serialises():
    """The MCP server's answer (``types.CallToolResult`` of the call's outcome, as the server builds it) to a
    search whose SearXNG engine name held a ``\\ud83d`` escape could not be written: the server ended,
    every call unanswered (tests/hostile_searxng.py)."""
    import mcp.types as types
    from hostile_searxng import answered

    outcome = answered(lambda client: McpTools(client).call("web_search", {"query": "q"}))
    answer = types.CallToolResult(
        content=[types.TextContent(text=outcome.text)], structured_content=outcome.structured, is_error=outcome.is_error
    )
    assert json.loads(answer.model_dump_json())["content"][0]["text"] == outcome.text

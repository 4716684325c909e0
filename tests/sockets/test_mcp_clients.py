"""The MCP server through the client libraries of agent frameworks, with docs/mcp.md's settings.

One test per client library that installs beside the server's SDK (openai-agents'
``MCPServerStdio``, LlamaIndex's ``McpToolSpec`` over one ``ClientSession``, pydantic-ai's
``MCPToolset``): one server for the session, so the second identical search is answered from the
server's cache and a captcha's cool-down keeps later searches off the engine; a client timeout
longer than our deadline; an error that reaches the client (and the model) as one plain line.
Clients on SDK 1.x (langchain-mcp-adapters, smolagents' mcpadapt) run from an environment of
their own, one after the other in one process of it. A client library that is not installed skips its test. The servers the clients talk to
are forked from the ``zygote`` the client modules share (mcp_zygote.py; test_mcp.py starts the real command).
"""

import os
import sys
from pathlib import Path

import mcp_zygote
import pytest
from agent_engine import CAPTCHA_PAGE, ddg_engine, scripted_pydantic_model, searches
from clocks import paced_budget_s

import websearch_sync as ws
from websearch_sync import tool

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 60
#: docs/mcp.md: a client timeout longer than the server's deadline (WEB_SEARCH_TIMEOUT_MS, 15 s by default).
CLIENT_TIMEOUT_S = 30


def run_bounded(scenario):
    import anyio  # here, not at module level: collecting the suite imports no MCP dependency

    async def bounded():
        with anyio.fail_after(LIMIT_S):
            return await scenario()

    return anyio.run(bounded)


@pytest.fixture(scope="module")
def zygote(request):
    """A process that has imported the server, forking one for each test that asks: the one this
    pytest process's MCP client modules share. Every server it forked must have ended once the
    module's clients have gone (mcp_zygote.servers_of)."""
    with mcp_zygote.servers_of(request.config, str(ROOT), paced_budget_s(LIMIT_S)) as zygote:
        yield zygote


def server_command(zygote):
    """``websearch-sync mcp`` forked from ``zygote``, as the stdio parameters a client takes."""
    command, *args = zygote.command()
    return {"command": command, "args": args, "cwd": str(ROOT)}


def engine_env(engine):
    """The server's environment: ``ddg_html`` at the loopback engine, unpaced (a client passes only this)."""
    return {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": str(ROOT),
        "WEB_SEARCH_BACKEND": "ddg_html",
        "WEB_SEARCH_ENDPOINT_DDG_HTML": engine.url("/html/"),
        "WEB_SEARCH_MIN_INTERVAL_S": "0",
    }


def blocked_line():
    """The line the model must read for the first blocked search: the library's own, in process."""
    with ddg_engine(CAPTCHA_PAGE) as (_, client):
        return tool.format_results(tool.call_tool("web_search", {"query": "rust"}, client=client))


#: The start of the line for the searches the cool-down then refuses.
COOLING_DOWN = "Error: WebBlocked (captcha_required): ddg_html is cooling down"
BLOCKED_SEARCHES = [
    ("web_search", {"query": "rust"}),
    ("web_search", {"query": "rust"}),
    ("web_search", {"query": "go"}),
]


def test_client_timeout_in_the_docs_is_longer_than_the_deadline():
    assert CLIENT_TIMEOUT_S * 1000 > ws.Settings().timeout_ms
    assert "client_session_timeout_seconds=%d" % CLIENT_TIMEOUT_S in (ROOT / "docs" / "mcp.md").read_text()


def test_the_docs_give_openai_agents_default_timeout_as_it_is():
    """Issue 33.19: openai-agents' MCPServerStdio gives up on a call after 5 s unless told otherwise,
    shorter than a search's deadline; docs/mcp.md says so, with the figure the installed version has."""
    import inspect

    stdio = pytest.importorskip("agents.mcp").MCPServerStdio
    default = inspect.signature(stdio.__init__).parameters["client_session_timeout_seconds"].default
    assert default * 1000 < ws.Settings().timeout_ms
    assert (
        "`client_session_timeout_seconds=30` (its default, %g s, is shorter than our deadline)" % default
        in (ROOT / "docs" / "mcp.md").read_text()
    )


def test_the_docs_say_why_openai_agents_strict_conversion_stays_off():
    """openai-agents' ``convert_schemas_to_strict`` makes every argument of the listed schemas
    required and keeps each one's type: a strict model must then send a time range and every media
    filter with each search (the server refuses a filter with vertical web) and ``minLength``,
    which strict mode refuses, stays. docs/mcp.md says to leave it off; this is what the installed
    SDK does with the server's tools/list."""
    agents_mcp = pytest.importorskip("agents.mcp")
    from websearch_sync.mcp.server import mcp_tools  # imports the MCP SDK: not at collection
    from websearch_sync.mcp.tools import McpTools

    with ws.SearchClient() as client:
        listed = {t.name: t for t in mcp_tools(McpTools(client))}
        forced_filter = {"query": "q", "vertical": "web", "image_size": "small"}
        refused = tool.call_tool("web_search", forced_filter, client=client)
    server = agents_mcp.MCPServerStdio(params={"command": "websearch-sync"}, name="websearch")  # never started
    converted = agents_mcp.MCPUtil.to_function_tool(listed["web_search"], server, True)
    schema = converted.params_json_schema
    assert converted.strict_json_schema is True
    assert set(schema["required"]) == set(schema["properties"])
    assert "null" not in schema["properties"]["time_range"]["enum"] + [schema["properties"]["time_range"]["type"]]
    assert "minLength" in schema["properties"]["query"]
    assert forced_filter["image_size"] in schema["properties"]["image_size"]["enum"]
    assert refused["error"]["detail_code"] == "bad_filter"
    assert (
        '`Agent(mcp_config={"convert_schemas_to_strict": ...})` off (its default)'
        in (ROOT / "docs" / "mcp.md").read_text()
    )


def test_openai_agents_mcp_server_stdio(zygote, monkeypatch):
    agents_mcp = pytest.importorskip("agents.mcp")
    mcp_zygote.stderr_for_sdk_clients(monkeypatch)  # MCPServerStdio relies on stdio_client's errlog default

    async def scenario():
        server = agents_mcp.MCPServerStdio(
            params=server_command(zygote), client_session_timeout_seconds=CLIENT_TIMEOUT_S, cache_tools_list=True
        )
        async with server:  # one server for the agent's whole life
            names = [t.name for t in await server.list_tools()]
            first = await server.call_tool("web_search", {"query": "agents stub"})
            again = await server.call_tool("web_search", {"query": "agents stub"})
            error = await server.call_tool("web_fetch", {"url": "ftp://example.com/"})
            return names, first, again, error

    names, first, again, error = run_bounded(scenario)
    assert names == ["web_search", "web_fetch"]
    assert first.structured_content["provider_meta"]["cached"] is False
    assert again.structured_content["provider_meta"]["cached"] is True  # same server: its cache and cool-downs
    assert error.is_error is True and error.structured_content is None
    assert [c.text for c in error.content] == [
        tool.format_results(tool.call_tool("web_fetch", {"url": "ftp://example.com/"}))
    ]


def test_llama_index_mcp_tool_spec_over_one_session(zygote):
    mcp_tools = pytest.importorskip("llama_index.tools.mcp")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def scenario():
        params = StdioServerParameters(**server_command(zygote))
        with open(os.devnull, "w") as log:
            async with stdio_client(params, errlog=log) as streams:
                async with ClientSession(*streams) as session:  # one session, not BasicMCPClient (a server per call)
                    await session.initialize()
                    tools = {t.metadata.name: t for t in await mcp_tools.McpToolSpec(session).to_tool_list_async()}
                    first = await tools["web_search"].acall(query="llama stub")
                    again = await tools["web_search"].acall(query="llama stub")
                    return sorted(tools), first.raw_output, again.raw_output

    names, first, again = run_bounded(scenario)
    assert names == ["web_fetch", "web_search"]
    assert first.structured_content["provider_meta"]["cached"] is False
    assert again.structured_content["provider_meta"]["cached"] is True


def pydantic_ai_run(zygote, engine, **toolset_options):
    """An agent run over ``MCPToolset`` (one server, entered once with ``async with agent``) whose
    FunctionModel asks for three blocked searches; returns its output (or the exception that
    ended it) and the tool results the model was shown."""
    pytest.importorskip("fastmcp")
    pydantic_ai_mcp = pytest.importorskip("pydantic_ai.mcp")
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai import Agent
    from pydantic_ai.messages import RetryPromptPart

    model, seen = scripted_pydantic_model(BLOCKED_SEARCHES, also_seen=(RetryPromptPart,))

    command, *args = zygote.command()
    transport = StdioTransport(command, args, env=engine_env(engine), cwd=str(ROOT))
    # init_timeout: starting the server takes ~1-3 s, more on a loaded machine; pydantic-ai allows 5 s.
    toolset = pydantic_ai_mcp.MCPToolset(transport, init_timeout=CLIENT_TIMEOUT_S, **toolset_options)
    agent = Agent(model, toolsets=[toolset])

    async def scenario():
        async with agent:  # one server for all the agent's runs
            try:
                return (await agent.run("find rust")).output
            except Exception as ended:  # what ends the run is the subject here
                return ended

    return run_bounded(scenario), seen


def test_pydantic_ai_mcp_toolset_with_failed_tool_errors_keeps_the_run_going(zygote):
    with ddg_engine(CAPTCHA_PAGE) as (engine, _):
        output, seen = pydantic_ai_run(zygote, engine, tool_error_behavior="failed")
        assert (
            searches(engine) == 1
        )  # the captcha's cool-down held in the one server: later searches stayed off the engine
    assert output == "done"
    assert [part.outcome for part in seen] == ["failed"] * 3  # ToolFailed: the model reads the line, no retry spent
    assert seen[0].content == blocked_line() and seen[1].content.startswith(COOLING_DOWN)
    assert all("\n" not in part.content for part in seen)  # one plain line, not our JSON
    assert seen[0].content in seen[0].model_response_str()  # what the model is shown


def test_pydantic_ai_mcp_toolset_default_retry_ends_the_run_on_the_second_blocked_search(zygote):
    """docs/mcp.md's warning: with the default ``tool_error_behavior='retry'`` and one retry, the run ends."""
    unexpected = pytest.importorskip("pydantic_ai.exceptions").UnexpectedModelBehavior
    with ddg_engine(CAPTCHA_PAGE) as (engine, _):
        output, seen = pydantic_ai_run(zygote, engine)
    assert isinstance(output, unexpected) and "exceeded max retries" in str(output)
    assert [part.content for part in seen] == [blocked_line()]


#: A Python whose environment holds the MCP clients on SDK 1.x (langchain-mcp-adapters pins ``mcp<2``;
#: smolagents' mcpadapt imports names SDK 2.x removed), kept apart from the server's as docs/mcp.md
#: says; .ci/run builds it. Without it these tests skip.
MCP1_CLIENT_PYTHON = os.environ.get("WEBSEARCH_MCP1_CLIENT_PYTHON")

LANGCHAIN_CLIENT = r"""
import asyncio, json, sys
from datetime import timedelta
from importlib.metadata import version
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools

server_command, cwd, path = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]

async def main():
    client = MultiServerMCPClient({"websearch": {
        "transport": "stdio", "command": server_command[0], "args": server_command[1:], "cwd": cwd,
        "env": {"PYTHONPATH": cwd, "PATH": path}, "session_kwargs": {"read_timeout_seconds": timedelta(seconds=30)}}})
    async with client.session("websearch") as session:  # one server for the session
        tools = {t.name: t for t in await load_mcp_tools(session)}
        calls = [("web_search", {"query": "sdk one"}), ("web_search", {"query": "sdk one"}), ("web_fetch", {"url": "ftp://x/"})]
        answers = []
        for number, (name, args) in enumerate(calls):
            message = await tools[name].ainvoke({"type": "tool_call", "name": name, "args": args, "id": str(number)})
            structured = (message.artifact or {}).get("structured_content") or {}
            answers.append({"status": message.status, "text": message.content[0]["text"],
                            "cached": structured.get("provider_meta", {}).get("cached")})
    print(json.dumps({"mcp": version("mcp"), "tools": sorted(tools), "answers": answers}))

asyncio.run(main())
"""


needs_mcp1_client = pytest.mark.skipif(
    not MCP1_CLIENT_PYTHON, reason="no SDK 1.x client environment (WEBSEARCH_MCP1_CLIENT_PYTHON; .ci/run builds one)"
)


#: Runs each ``[script, argv]`` of the JSON list in ``sys.argv[1]`` in turn, as ``python -c script
#: argv...`` would (in ``__main__``, with that ``sys.argv``), a NUL line after each one's output: the
#: two SDK 1.x clients in one process of their environment, whose start and SDK import (about
#: 0.8 s of CPU) they share.
EACH_SCRIPT = r"""
import json, sys
for script, argv in json.loads(sys.argv[1]):
    sys.argv = ["-c", *argv]
    exec(compile(script, "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
    print("\x00", flush=True)
"""


def run_mcp1_clients(*clients):
    """Run each ``(server_command, script, *arguments)`` in turn in one process of the SDK 1.x client
    environment, with the server ``server_command`` starts (the script's argv: its command line,
    the working directory, then ``arguments``); each one's JSON report (the last line of its
    output: smolagents prints)."""
    import json
    import subprocess

    runs = [[script, [json.dumps(command), str(ROOT), *arguments]] for command, script, *arguments in clients]
    done = subprocess.run(
        [MCP1_CLIENT_PYTHON, "-c", EACH_SCRIPT, json.dumps(runs)],
        capture_output=True,
        text=True,
        timeout=LIMIT_S * len(clients),
    )
    assert done.returncode == 0, done.stderr
    outputs = done.stdout.split("\x00\n")
    assert len(outputs) == len(clients) + 1 and outputs[-1] == "", done.stdout
    reports = [json.loads(output.splitlines()[-1]) for output in outputs[:-1]]
    assert all(report["mcp"].startswith("1.") for report in reports)  # the client's SDK is 1.x; the server's 2.x
    return reports


@pytest.fixture(scope="module")
def mcp1_reports(zygote):
    """The SDK 1.x clients' reports, from one process (:func:`run_mcp1_clients`):
    ``{"langchain": report, "smolagents": (report, searches the engine got)}``."""
    import json

    with ddg_engine(CAPTCHA_PAGE) as (engine, _):
        langchain, smolagents = run_mcp1_clients(
            # the real command, not a forked server: the server starts in the environment the client
            # gives it (its PYTHONPATH and PATH only), which a fork from this environment would skip
            ([sys.executable, "-m", "websearch_sync", "mcp"], LANGCHAIN_CLIENT, os.environ["PATH"]),
            (zygote.command(), SMOLAGENTS_CLIENT, json.dumps(engine_env(engine)), json.dumps(BLOCKED_SEARCHES)),
        )
        return {"langchain": langchain, "smolagents": (smolagents, searches(engine))}


@needs_mcp1_client
def test_langchain_mcp_adapters_on_sdk_1_drives_the_server_from_its_own_environment(mcp1_reports):
    """The real command, not a forked server: the server starts in an environment the client
    gives it (its PYTHONPATH and PATH only), which a fork from this environment would skip."""
    report = mcp1_reports["langchain"]
    assert report["tools"] == ["web_fetch", "web_search"]
    first, again, error = report["answers"]
    assert (first["status"], first["cached"], again["cached"]) == ("success", False, True)
    assert first["text"].startswith("1. sdk one - Overview\n")
    assert error == {
        "status": "error",
        "cached": None,
        "text": tool.format_results(tool.call_tool("web_fetch", {"url": "ftp://x/"})),
    }


SMOLAGENTS_CLIENT = r"""
import json, sys
from importlib.metadata import version
from mcp import StdioServerParameters
from smolagents import MCPClient, Model, ToolCallingAgent
from smolagents.memory import ActionStep
from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole

server_command, cwd, env, calls = json.loads(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3]), json.loads(sys.argv[4])

class ScriptedModel(Model):
    def __init__(self):
        super().__init__(model_id="scripted")
        self.calls = calls + [["final_answer", {"answer": "done"}]]

    def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
        name, arguments = self.calls.pop(0)
        call = ChatMessageToolCall(ChatMessageToolCallFunction(arguments, name), id=str(len(self.calls)), type="function")
        return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])

params = StdioServerParameters(command=server_command[0], args=server_command[1:], env=env, cwd=cwd)
client = MCPClient(params, structured_output=False, adapter_kwargs={"client_session_timeout_seconds": 30.0})
with client as tools:  # one server for the agent's runs
    timeout = client._adapter.sessions[0]._session_read_timeout_seconds
    agent = ToolCallingAgent(tools=tools, model=ScriptedModel(), max_steps=len(calls) + 2, verbosity_level=0)
    final = agent.run("find rust")
steps = [step for step in agent.memory.steps if isinstance(step, ActionStep)]
print(json.dumps({"mcp": version("mcp"), "tools": sorted(t.name for t in tools), "final": final,
                  "timeout_s": timeout and timeout.total_seconds(), "observations": [step.observations for step in steps], "errors": [str(step.error) if step.error else None for step in steps]}))
"""


@needs_mcp1_client
def test_smolagents_mcp_client_on_sdk_1_keeps_the_run_going_on_blocked_searches(mcp1_reports):
    """smolagents takes an argument as optional only when its schema says ``"nullable": true``
    (mcpadapt passes the MCP ``inputSchema`` through); the server's optional arguments say so
    (issue 33.19), so a model that gives only the query is not refused (it was:
    ``Argument max_results is required``)."""
    report, searched = mcp1_reports["smolagents"]
    assert searched == 1  # one server for the agent: the captcha's cool-down held
    assert report["tools"] == ["web_fetch", "web_search"]
    assert report["timeout_s"] == CLIENT_TIMEOUT_S  # mcpadapt's read timeout, as docs/mcp.md sets it (a float)
    assert report["final"] == "done"
    assert report["errors"] == [None] * 4  # no call refused by smolagents for a missing optional argument
    blocked, cooling, other, final = report["observations"]
    assert blocked == blocked_line() and cooling.startswith(COOLING_DOWN) and other.startswith(COOLING_DOWN)
    assert "\n" not in blocked + cooling + other  # our line as the tool's observation

"""The MCP server through the client libraries of agent frameworks, with docs/mcp.md's settings.

One test per client library that installs beside the server's SDK (openai-agents'
``MCPServerStdio``, LlamaIndex's ``McpToolSpec`` over one ``ClientSession``): one server for the
session, so the second identical search is answered from the server's cache (cool-downs survive
the same way); a client timeout longer than our deadline; an error that reaches the client as
one plain line with ``isError``. A client library that is not installed skips its test.
"""

import os
import sys
from pathlib import Path

import pytest

if sys.version_info < (3, 10):
    pytest.skip("the MCP SDK needs Python 3.10 or later", allow_module_level=True)

import anyio

import websearch_sync as ws
from websearch_sync import tool

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 60
#: docs/mcp.md: a client timeout longer than the server's deadline (WEB_SEARCH_TIMEOUT_MS, 15 s by default).
CLIENT_TIMEOUT_S = 30


def run_bounded(scenario):
    async def bounded():
        with anyio.fail_after(LIMIT_S):
            return await scenario()

    return anyio.run(bounded)


def server_command():
    return {"command": sys.executable, "args": ["-m", "websearch_sync", "mcp"], "cwd": str(ROOT)}


def test_client_timeout_in_the_docs_is_longer_than_the_deadline():
    assert CLIENT_TIMEOUT_S * 1000 > ws.Settings().timeout_ms
    assert "client_session_timeout_seconds=%d" % CLIENT_TIMEOUT_S in (ROOT / "docs" / "mcp.md").read_text()


def test_openai_agents_mcp_server_stdio():
    agents_mcp = pytest.importorskip("agents.mcp")

    async def scenario():
        server = agents_mcp.MCPServerStdio(params=server_command(), client_session_timeout_seconds=CLIENT_TIMEOUT_S,
                                           cache_tools_list=True)
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
    assert [c.text for c in error.content] == [tool.format_results(tool.call_tool("web_fetch", {"url": "ftp://example.com/"}))]


def test_llama_index_mcp_tool_spec_over_one_session():
    mcp_tools = pytest.importorskip("llama_index.tools.mcp")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def scenario():
        params = StdioServerParameters(**server_command())
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


#: A Python whose environment holds an MCP client on SDK 1.x (langchain-mcp-adapters pins ``mcp<2``),
#: kept apart from the server's as docs/mcp.md says; .ci/run builds it. Without it the test skips.
MCP1_CLIENT_PYTHON = os.environ.get("WEBSEARCH_MCP1_CLIENT_PYTHON")

LANGCHAIN_CLIENT = r'''
import asyncio, json, sys
from datetime import timedelta
from importlib.metadata import version
from langchain_mcp_adapters.client import MultiServerMCPClient
from langchain_mcp_adapters.tools import load_mcp_tools

server_python, cwd, path = sys.argv[1:4]

async def main():
    client = MultiServerMCPClient({"websearch": {
        "transport": "stdio", "command": server_python, "args": ["-m", "websearch_sync", "mcp"], "cwd": cwd,
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
'''


@pytest.mark.skipif(not MCP1_CLIENT_PYTHON, reason="no SDK 1.x client environment (WEBSEARCH_MCP1_CLIENT_PYTHON; .ci/run builds one)")
def test_langchain_mcp_adapters_on_sdk_1_drives_the_server_from_its_own_environment():
    import json
    import subprocess

    done = subprocess.run([MCP1_CLIENT_PYTHON, "-c", LANGCHAIN_CLIENT, sys.executable, str(ROOT), os.environ["PATH"]],
                          capture_output=True, text=True, timeout=LIMIT_S)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["mcp"].startswith("1.")  # the client's SDK is 1.x; the server's (this environment) is 2.x
    assert report["tools"] == ["web_fetch", "web_search"]
    first, again, error = report["answers"]
    assert (first["status"], first["cached"], again["cached"]) == ("success", False, True)
    assert first["text"].startswith("1. sdk one - Overview\n")
    assert error == {"status": "error", "cached": None,
                     "text": tool.format_results(tool.call_tool("web_fetch", {"url": "ftp://x/"}))}

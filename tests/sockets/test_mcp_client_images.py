"""A fetched image through the MCP server reaches the model through the client libraries that
install beside the server's SDK 2.x: pydantic-ai's ``MCPToolset`` hands the model our one line
and the image (``BinaryImage``), openai-agents' ``MCPServerStdio`` a ``function_call_output``
of ``input_text`` (our line) and ``input_image`` (a data URL of the same bytes). The servers are
forked from the ``zygote`` the client modules share (mcp_zygote.py)."""

import base64
import os
from pathlib import Path

import mcp_zygote
import pytest
from agent_engine import scripted_pydantic_model
from clocks import paced_budget_s
from faults import respond
from images import png
from servers import FaultServer
from test_mcp import SESSION_LIMIT_S, run_bounded

ROOT = Path(__file__).resolve().parents[2]
PNG = png(64, 48)
LINE = "[image: image/png, 64x48 pixels, "


@pytest.fixture(scope="module")
def zygote(request):
    """A process that has imported the server, forking one for each test that asks: the one this
    pytest process's MCP client modules share. Every server it forked must have ended once the
    module's clients have gone (mcp_zygote.servers_of)."""
    with mcp_zygote.servers_of(request.config, str(ROOT), paced_budget_s(SESSION_LIMIT_S)) as zygote:
        yield zygote


@pytest.fixture
def image_url():
    with FaultServer({"/i.png": respond(200, PNG, content_type="image/png")}) as server:
        yield server.url("/i.png")


def test_pydantic_ai_mcp_toolset_gives_the_model_the_line_and_the_image(zygote, image_url):
    pytest.importorskip("fastmcp")
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset

    model, returned = scripted_pydantic_model([("web_fetch", {"url": image_url})])

    command, *args = zygote.command("--allow-private")
    transport = StdioTransport(command, args, env={"PATH": os.environ["PATH"]}, cwd=str(ROOT))
    agent = Agent(model, toolsets=[MCPToolset(transport, init_timeout=30)])

    async def scenario():
        async with agent:
            return (await agent.run("look")).output

    assert run_bounded(scenario) == "done"
    [(line, image)] = [part.content for part in returned]
    assert line.startswith(LINE) and "\n" not in line
    assert (image.media_type, image.data) == ("image/png", PNG)


def test_openai_agents_mcp_server_gives_the_model_input_text_and_input_image(zygote, image_url, monkeypatch):
    from agents import Agent, RunConfig, Runner
    from agents.mcp import MCPServerStdio
    from agents.testing import ScriptedModel, assistant_message, function_call

    mcp_zygote.stderr_for_sdk_clients(monkeypatch)  # MCPServerStdio relies on stdio_client's errlog default

    model = ScriptedModel(
        [[function_call("web_fetch", {"url": image_url}, call_id="call_0")], [assistant_message("done")]]
    )
    command, *args = zygote.command("--allow-private")
    params = {"command": command, "args": args, "cwd": str(ROOT)}

    async def scenario():
        async with MCPServerStdio(params=params, client_session_timeout_seconds=30, cache_tools_list=True) as server:
            agent = Agent(name="researcher", model=model, mcp_servers=[server])
            return await Runner.run(agent, "look", run_config=RunConfig(tracing_disabled=True))

    assert run_bounded(scenario).final_output == "done"
    [answer] = [item for item in model.calls[1].input if item.get("type") == "function_call_output"]
    text, image = answer["output"]
    assert text["type"] == "input_text" and text["text"].startswith(LINE)
    assert image == {"type": "input_image", "image_url": "data:image/png;base64,%s" % base64.b64encode(PNG).decode()}

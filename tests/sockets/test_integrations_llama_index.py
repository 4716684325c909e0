"""LlamaIndex: ``llama_index.tools()`` driven by a FunctionAgent with LlamaIndex's own
MockFunctionCallingLLM, and by ``call``, against the loopback engine (no network, no model)."""

import asyncio

import pytest
from agent_engine import CAPTCHA_PAGE, FIRST_TITLE, ddg_engine, integration, searches

#: LlamaIndex's workflow lists its agent's members with ``inspect.getmembers``, which touches
#: pydantic's deprecated attributes (``__fields__``): their warnings are the framework's, not ours.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect")


@pytest.fixture(scope="module")
def llama_index():
    """Our LlamaIndex module, imported by the first test that runs (collection imports no framework)."""
    return integration("llama_index", "llama_index.core")


def agent_run(tools, *calls):
    """A FunctionAgent whose mock LLM asks for ``calls`` (name, arguments) one per turn, then says
    "done"; returns the run's tool outputs and what the LLM was shown as tool messages."""
    from llama_index.core.agent.workflow import FunctionAgent, ToolCallResult
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLM

    shown = []

    def respond(messages, **kwargs):
        shown.extend(m.content for m in messages if m.role == MessageRole.TOOL and m.content not in shown)
        turn = sum(1 for m in messages if m.role == MessageRole.ASSISTANT)
        if turn < len(calls):
            name, arguments = calls[turn]
            return ChatMessage(
                role="assistant",
                blocks=[ToolCallBlock(tool_call_id="call_%d" % turn, tool_name=name, tool_kwargs=arguments)],
            )
        return ChatMessage(role="assistant", content="done")

    agent = FunctionAgent(tools=tools, llm=MockFunctionCallingLLM(response_generator=respond))

    async def run():
        handler = agent.run("find rust")
        outputs = [event.tool_output async for event in handler.stream_events() if isinstance(event, ToolCallResult)]
        return outputs, str(await handler)

    outputs, final = asyncio.run(run())
    return outputs, shown, final


def test_a_search_through_the_agent(llama_index):
    with ddg_engine() as (server, client):
        outputs, shown, final = agent_run(
            llama_index.tools(client), ("web_search", {"query": "rust programming language", "max_results": 2})
        )
    assert final == "done"
    assert not outputs[0].is_error
    assert outputs[0].content.startswith("1. %s" % FIRST_TITLE) and "\n\n3. " not in outputs[0].content
    assert shown == [outputs[0].content]


def test_a_blocked_search_is_an_error_output_with_our_line(llama_index):
    with ddg_engine(CAPTCHA_PAGE) as (server, client):
        outputs, shown, final = agent_run(
            llama_index.tools(client), ("web_search", {"query": "rust"}), ("web_search", {"query": "go"})
        )
        assert searches(server) == 1
    assert final == "done"
    assert [o.is_error for o in outputs] == [True, True]
    assert outputs[0].content.startswith(
        "Error: WebBlocked (captcha_required): 127.0.0.1 answered with a bot wall (DuckDuckGo anomaly (bot check) page)"
    )
    assert outputs[1].content.startswith("Error: WebBlocked (captcha_required): ddg_html is cooling down")
    assert shown == [o.content for o in outputs]


def test_call_and_the_schema_the_llm_gets(llama_index):
    with ddg_engine() as (server, client):
        search, fetch = llama_index.tools(client)
        fetched = fetch.call(url=server.url("/article"), extract_mode=None)
        refused = fetch.call(url="ftp://example.com/")
    assert not fetched.is_error and "<untrusted-web-content" in fetched.content
    assert refused.is_error and refused.content.startswith("Error: InvalidInput (bad_url): ")
    parameters = search.metadata.to_openai_tool()["function"]["parameters"]
    assert parameters["additionalProperties"] is False and parameters["required"] == ["query"]
    strict = llama_index.tools(client, strict=True)[0].metadata.to_openai_tool()["function"]["parameters"]
    assert strict["required"] == list(strict["properties"])


def test_an_argument_named_self_is_refused_as_unknown(llama_index):
    """The agent calls ``tool.acall(**arguments)``: a model's ``self`` raised TypeError (``got multiple
    values for argument 'self'``), which the model read instead of our line."""
    import websearch_sync as ws

    with ws.SearchClient(backend="stub") as client:  # refused before any search
        search = llama_index.tools(client)[0]
        outputs = [search.call(query="rust", self=1), asyncio.run(search.acall(query="rust", self=1))]
    for output in outputs:
        assert output.is_error and output.content.startswith(
            "Error: InvalidInput (bad_arguments): unknown argument 'self'"
        )

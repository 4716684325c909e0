"""docs/agent-tools.md's framework examples run as written: each ``agent = ...`` line of each
block, with the block's own imports, with a scripted model in place of the user's ``model`` /
``llm`` (pydantic-ai's and the OpenAI Agents SDK's examples name theirs: the run is given the
scripted one), and the tools' default client on the offline stub backend; one agent run asks
``web_search`` for "rust" and the stub's first result reaches the model."""

import asyncio
import re
from pathlib import Path

import pytest
from agent_engine import scripted_pydantic_model

from websearch_sync.client.default_client import close_default_client

#: LlamaIndex's workflow lists its agent's members with ``inspect.getmembers``, which touches
#: pydantic's deprecated attributes (``__fields__``): their warnings are the framework's, not ours.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:inspect")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "agent-tools.md"
QUERY = "rust"
#: The stub's first result for QUERY, as the tools render it (what the model reads).
FIRST_LINE = "1. rust - Overview"


def examples():
    """``(framework, imports, line)`` for every ``agent = ...`` line of the page's framework blocks."""
    blocks = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)
    found = []
    for block in (b for b in blocks if "websearch_sync.integrations import" in b):
        framework = re.search(r"^from websearch_sync\.integrations import (\w+)$", block, re.M).group(1)
        lines = block.splitlines()
        imports = "\n".join(line for line in lines if line.startswith(("from ", "import ")))
        found += [(framework, imports, line) for line in lines if line.startswith("agent = ")]
    return found


EXAMPLES = examples()


def test_every_framework_has_its_example():
    assert sorted({framework for framework, _, _ in EXAMPLES}) == [
        "langchain",
        "llama_index",
        "openai_agents",
        "pydantic_ai",
        "smolagents",
    ]


@pytest.fixture
def stub_environment(monkeypatch):
    """The tools' default client built from an environment naming no backend (the stub), and an
    OpenAI key for the examples that name an OpenAI model (never used: the run's model is scripted)."""
    import os

    for name in [name for name in os.environ if name.startswith(("WEB_SEARCH_", "WEB_FETCH_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-used")
    close_default_client()
    yield
    close_default_client()


def langchain_model():
    """langchain-core's fake chat model (made to accept ``bind_tools``): one search, then "done"."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    class ToolCallingFake(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            return self

    call = {"name": "web_search", "args": {"query": QUERY}, "id": "call_0", "type": "tool_call"}
    return ToolCallingFake(messages=iter([AIMessage(content="", tool_calls=[call]), AIMessage(content="done")]))


def run_langchain(agent):
    messages = agent.invoke({"messages": [("user", "find rust")]})["messages"]
    return [m.content for m in messages if m.type == "tool"]


def llama_index_llm():
    """LlamaIndex's MockFunctionCallingLLM: one search, then "done"."""
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms.mock import MockFunctionCallingLLM

    def respond(messages, **kwargs):
        if not any(m.role == MessageRole.ASSISTANT for m in messages):
            block = ToolCallBlock(tool_call_id="call_0", tool_name="web_search", tool_kwargs={"query": QUERY})
            return ChatMessage(role="assistant", blocks=[block])
        return ChatMessage(role="assistant", content="done")

    return MockFunctionCallingLLM(response_generator=respond)


def run_llama_index(agent):
    from llama_index.core.agent.workflow import ToolCallResult

    async def run():
        handler = agent.run("find rust")
        outputs = [e.tool_output.content async for e in handler.stream_events() if isinstance(e, ToolCallResult)]
        await handler
        return outputs

    return asyncio.run(run())


def smolagents_model():
    """A smolagents ``Model`` that searches, then gives the search's text as its final answer: by
    a tool call to a ToolCallingAgent, in code to a CodeAgent."""
    from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole, Model

    class Scripted(Model):
        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            if tools_to_call_from is None:  # a CodeAgent: its code calls the tool as a function
                code = "found = web_search(%r)\nfinal_answer(found)" % QUERY
                return ChatMessage(role=MessageRole.ASSISTANT, content="Thought: search.\n<code>\n%s\n</code>" % code)
            step = sum(1 for m in messages if m.role == MessageRole.TOOL_RESPONSE)
            name, arguments = ("web_search", {"query": QUERY}) if step == 0 else ("final_answer", {"answer": "done"})
            call = ChatMessageToolCall(
                ChatMessageToolCallFunction(arguments, name), id="call_%d" % step, type="function"
            )
            return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])

    return Scripted(model_id="scripted")


def run_smolagents(agent):
    from smolagents.memory import ActionStep

    agent.max_steps, agent.verbosity_level = 3, 0
    final = agent.run("find rust")
    observations = [step.observations or "" for step in agent.memory.steps if isinstance(step, ActionStep)]
    return [str(final)] + observations


def run_pydantic_ai(agent):
    model, seen = scripted_pydantic_model([("web_search", {"query": QUERY})])
    assert agent.run_sync("find rust", model=model).output == "done"
    return [part.content for part in seen]


def run_openai_agents(agent):
    from agents import RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    model = ScriptedModel(
        [[function_call("web_search", {"query": QUERY}, call_id="call_0")], [assistant_message("done")]]
    )
    result = Runner.run_sync(agent, "find rust", run_config=RunConfig(model=model, tracing_disabled=True))
    assert result.final_output == "done"
    return [item.output for item in result.new_items if item.type == "tool_call_output_item"]


#: Per framework: the names the example leaves to the user, and how one run goes.
FRAMEWORKS = {
    "langchain": ({"model": langchain_model}, run_langchain),
    "llama_index": ({"llm": llama_index_llm}, run_llama_index),
    "smolagents": ({"model": smolagents_model}, run_smolagents),
    "pydantic_ai": ({}, run_pydantic_ai),
    "openai_agents": ({}, run_openai_agents),
}


@pytest.mark.parametrize(
    "framework, imports, line", EXAMPLES, ids=["%s-%d" % (e[0], n) for n, e in enumerate(EXAMPLES)]
)
def test_the_example_runs_as_written_and_its_agent_searches(stub_environment, framework, imports, line):
    given, run = FRAMEWORKS[framework]
    namespace = {name: make() for name, make in given.items()}
    exec(compile(imports + "\n" + line, str(PAGE), "exec"), namespace)  # noqa: S102 - the docs' own example
    texts = run(namespace["agent"])
    assert any(str(text).startswith(FIRST_LINE) for text in texts), texts

"""smolagents: ``smolagents.tools()`` driven by a ToolCallingAgent run with a scripted model
(a ``smolagents.Model`` answering with tool calls), against the loopback engine (no network,
no model)."""

import copy
import pickle
import re
from pathlib import Path

import pytest
from agent_engine import CAPTCHA_PAGE, FIRST_TITLE, ddg_engine, integration, searches


@pytest.fixture(scope="module")
def smolagents():
    """Our smolagents module, imported by the first test that runs (collection imports no framework)."""
    return integration("smolagents", "smolagents")


def scripted_model(*calls):
    """A ``smolagents.Model`` answering each step with the next tool call of ``calls``, then with
    ``final_answer("done")``."""
    from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole, Model

    class ScriptedModel(Model):
        def __init__(self):
            super().__init__(model_id="scripted")
            self.calls = list(calls) + [("final_answer", {"answer": "done"})]
            self.step = 0

        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            name, arguments = self.calls[self.step]
            self.step += 1
            call = ChatMessageToolCall(
                ChatMessageToolCallFunction(arguments, name), id="call_%d" % self.step, type="function"
            )
            return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])

    return ScriptedModel()


def agent_run(tools, *calls):
    """The run's final answer and its action steps (observations or errors, as the model reads them)."""
    from smolagents import ToolCallingAgent
    from smolagents.memory import ActionStep

    agent = ToolCallingAgent(tools=tools, model=scripted_model(*calls), max_steps=len(calls) + 2, verbosity_level=0)
    final = agent.run("find rust")
    return final, [step for step in agent.memory.steps if isinstance(step, ActionStep)]


def test_a_search_with_none_arguments_through_the_agent(smolagents):
    with ddg_engine() as (server, client):
        final, steps = agent_run(
            smolagents.tools(client),
            (
                "web_search",
                {"query": "rust programming language", "max_results": 2, "locale": None, "time_range": None},
            ),
        )
    assert final == "done"
    assert steps[0].error is None
    assert steps[0].observations.startswith("1. %s" % FIRST_TITLE) and "\n\n3. " not in steps[0].observations


def test_a_blocked_search_reaches_the_model_as_a_tool_error_with_our_line(smolagents):
    with ddg_engine(CAPTCHA_PAGE) as (server, client):
        final, steps = agent_run(
            smolagents.tools(client), ("web_search", {"query": "rust"}), ("web_search", {"query": "go"})
        )
        assert searches(server) == 1
    assert final == "done"  # the agent went on
    errors = [str(step.error) for step in steps[:2]]
    assert type(steps[0].error).__name__ == "AgentToolExecutionError"
    assert (
        "WebToolError: Error: WebBlocked (captcha_required): 127.0.0.1 answered with a bot wall (DuckDuckGo anomaly (bot check) page)"
        in errors[0]
    )
    assert "WebToolError: Error: WebBlocked (captcha_required): ddg_html is cooling down" in errors[1]
    shown = "\n".join(str(m) for step in steps[:2] for m in step.to_messages())
    assert (
        "Error: WebBlocked (captcha_required): 127.0.0.1 answered with a bot wall" in shown
    )  # what the model is sent next


def test_fetch_directly_and_the_schema_the_model_gets(smolagents):
    from smolagents.models import get_tool_json_schema

    with ddg_engine() as (server, client):
        search, fetch = smolagents.tools(client)
        assert "<untrusted-web-content" in fetch(url=server.url("/article"), extract_mode=None)
        with pytest.raises(smolagents.WebToolError) as caught:
            fetch(url="ftp://example.com/")
    assert str(caught.value).startswith("Error: InvalidInput (bad_url): ")
    assert caught.value.outcome.detail_code == "bad_url"
    assert _documented_error_forms(caught.value) == [("InvalidInput", False, "bad_url")] * 3
    for again in (pickle.loads(pickle.dumps(caught.value)), copy.deepcopy(caught.value)):  # a process pool's way back
        assert (type(again), str(again), again.outcome) == (type(caught.value), str(caught.value), caught.value.outcome)
    parameters = get_tool_json_schema(search)["function"]["parameters"]
    assert parameters["required"] == ["query"]
    assert parameters["properties"]["time_range"]["enum"] == ["day", "week", "month", "year"]


def _documented_error_forms(error):
    """``(type, retryable, detail_code)`` of each attribute path docs/errors.md calls a ``WebToolError``'s
    error form (a backquoted ``.outcome...`` before "the error form"), read from ``error`` as written.
    It said ``.outcome.result``, which is ``{"error": {...}}``: no ``type`` of its own."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
    forms = []
    for path in re.findall(r"`\.outcome((?:\.\w+|\[\"\w+\"\])+)` (?:is )?the error form", page):
        form = error.outcome
        for step in re.findall(r"\.(\w+)|\[\"(\w+)\"\]", path):
            form = getattr(form, step[0]) if step[0] else form[step[1]]
        forms.append((form.get("type"), form.get("retryable"), form.get("detail_code")))
    return forms


def test_an_argument_named_self_is_refused_as_unknown(smolagents):
    """A CodeAgent's code calls the tool itself (``web_search(query="rust", self=1)``): smolagents'
    ``Tool.__call__(self, ...)`` raised ``TypeError`` ("got multiple values for argument 'self'")
    where any other unknown argument gets our line."""
    import websearch_sync as ws

    with ws.SearchClient(backend="stub") as client:  # refused before any search
        search = smolagents.tools(client)[0]
        for call in (
            lambda: search(query="rust", self=1),
            lambda: search(query="rust", self=1, sanitize_inputs_outputs=True),
        ):
            with pytest.raises(smolagents.WebToolError) as caught:
                call()
            assert str(caught.value).startswith("Error: InvalidInput (bad_arguments): unknown argument 'self'")


def test_a_code_agent_calls_the_tools_with_positional_arguments(smolagents):
    """A CodeAgent shows the model each tool as a Python function (``def web_search(query: string,
    max_results: integer, ...)``), so its code calls ``web_search("rust", 2)``: that is a search."""
    from smolagents import CodeAgent
    from smolagents.models import ChatMessage, MessageRole, Model

    class CodeModel(Model):
        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            code = 'found = web_search("rust programming language", 2)\nfinal_answer(found)'
            return ChatMessage(role=MessageRole.ASSISTANT, content="Thought: search.\n<code>\n%s\n</code>" % code)

    with ddg_engine() as (server, client):
        search, fetch = smolagents.tools(client)
        final = CodeAgent(tools=[search, fetch], model=CodeModel(model_id="code"), max_steps=1, verbosity_level=0).run(
            "find rust"
        )
        with pytest.raises(TypeError, match="several values for query"):
            search("rust", query="go")
        declared = len(search.inputs)  # the search tool's arguments, the image and video filters among them
        with pytest.raises(TypeError, match="takes %d arguments, %d given" % (declared, declared + 1)):
            search("rust", 2, *[None] * (declared - 1))
    assert final.startswith("1. %s" % FIRST_TITLE) and "\n\n3. " not in final

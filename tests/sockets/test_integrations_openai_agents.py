"""openai-agents: ``openai_agents.tools()`` driven by the SDK's own Runner and its
ScriptedModel test double, against the loopback engine (no network, no model)."""

import json

import pytest
from agent_engine import CAPTCHA_PAGE, FIRST_TITLE, FIRST_URL, ddg_engine, integration, searches


@pytest.fixture(scope="module")
def openai_agents():
    """Our openai-agents module, imported by the first test that runs (collection imports no framework)."""
    return integration("openai_agents", "agents")


STRICT_CALL = {
    "query": "rust programming language",
    "max_results": 2,
    "locale": None,
    "time_range": None,
    "include_content": None,
}


@pytest.fixture(autouse=True)
def span_errors(openai_agents):
    """Every run's spans go to a collector of the errors set on finished spans (the SDK's non-fatal
    tool-error signal), not to the exporter, which would want an API key."""
    from agents.tracing import TracingProcessor, set_trace_processors
    from agents.tracing.processors import default_processor

    class SpanErrors(TracingProcessor):
        def __init__(self):
            self.errors = []

        def on_trace_start(self, trace):
            pass

        def on_trace_end(self, trace):
            pass

        def on_span_start(self, span):
            pass

        def on_span_end(self, span):
            if span.error is not None:
                self.errors.append(span.error)

        def shutdown(self):
            pass

        def force_flush(self):
            pass

    collector = SpanErrors()
    set_trace_processors([collector])
    yield collector.errors
    set_trace_processors([default_processor()])


def run(tools, *calls):
    """One run with ``tools``: the scripted model asks for ``calls`` (name, arguments), then answers "done"."""
    from agents import Agent, Runner
    from agents.testing import ScriptedModel, assistant_message, function_call

    model = ScriptedModel(
        [[function_call(name, arguments, call_id="call_%d" % i)] for i, (name, arguments) in enumerate(calls)]
        + [[assistant_message("done")]]
    )
    agent = Agent(name="researcher", model=model, tools=tools)
    result = Runner.run_sync(agent, "find rust")
    outputs = [item.output for item in result.new_items if item.type == "tool_call_output_item"]
    return result, outputs, model


def test_a_strict_search_through_the_runner_reaches_the_model(openai_agents):
    from agents.strict_schema import ensure_strict_json_schema

    with ddg_engine() as (server, client):
        result, outputs, model = run(openai_agents.tools(client), ("web_search", STRICT_CALL))
    assert result.final_output == "done"
    assert outputs[0].startswith("1. %s\n   URL: %s" % (FIRST_TITLE, FIRST_URL))
    assert "\n\n3. " not in outputs[0]  # max_results=2; the nulls counted as not given
    sent = model.calls[0].tools
    assert [t.name for t in sent] == ["web_search", "web_fetch"] and all(t.strict_json_schema for t in sent)
    assert ensure_strict_json_schema(json.loads(json.dumps(sent[0].params_json_schema))) == sent[0].params_json_schema


def test_a_blocked_search_reaches_the_model_as_our_line_and_the_run_goes_on(openai_agents, span_errors):
    with ddg_engine(CAPTCHA_PAGE) as (server, client):
        result, outputs, model = run(
            openai_agents.tools(client), ("web_search", STRICT_CALL), ("web_search", STRICT_CALL)
        )
        assert searches(server) == 1  # the second was refused by the shared client's cool-down
    assert result.final_output == "done"
    assert outputs[0].startswith(
        "Error: WebBlocked (captcha_required): 127.0.0.1 answered with a bot wall (DuckDuckGo anomaly (bot check) page)"
    )
    assert outputs[1].startswith("Error: WebBlocked (captcha_required): ddg_html is cooling down")
    # what the model is sent next holds the line as the call's output
    replayed = [
        item for item in model.calls[1].input if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]
    assert replayed[0]["output"] == outputs[0]
    assert [(e["message"], e["data"]["tool_name"], e["data"]["error"]) for e in span_errors] == [
        ("Error running tool (non-fatal)", "web_search", outputs[0]),
        ("Error running tool (non-fatal)", "web_search", outputs[1]),
    ]


def test_fetch_through_the_runner(openai_agents):
    with ddg_engine() as (server, client):
        result, outputs, model = run(
            openai_agents.tools(client),
            ("web_fetch", {"url": server.url("/article"), "extract_mode": None, "max_chars": None}),
        )
    assert outputs[0].startswith("Loopback article\nURL: %s" % server.url("/article"))
    assert "<untrusted-web-content" in outputs[0]

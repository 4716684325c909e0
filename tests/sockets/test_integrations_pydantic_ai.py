"""pydantic-ai: ``pydantic_ai.tools()`` driven by an Agent run with pydantic-ai's own
FunctionModel test double, against the loopback engine (no network, no model)."""

import pytest
from agent_engine import CAPTCHA_PAGE, FIRST_TITLE, ddg_engine, integration, scripted_pydantic_model, searches


@pytest.fixture(scope="module")
def pydantic_ai():
    """Our pydantic-ai module, imported by the first test that runs (collection imports no framework)."""
    return integration("pydantic_ai", "pydantic_ai")


def scripted(*calls):
    """A FunctionModel asking for ``calls`` (name, arguments) one per turn, then answering "done";
    ``seen`` collects the tool results each turn showed the model."""
    return scripted_pydantic_model(calls)


def test_the_tools_are_strict_compatible_for_openai(pydantic_ai):
    from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

    for tool in pydantic_ai.tools():
        definition = tool.tool_def
        transformer = OpenAIJsonSchemaTransformer(dict(definition.parameters_json_schema), strict=definition.strict)
        assert transformer.walk() == definition.parameters_json_schema
        assert transformer.is_strict_compatible


def test_a_search_with_nulls_through_an_agent_run(pydantic_ai):
    from pydantic_ai import Agent

    model, seen = scripted(
        (
            "web_search",
            {
                "query": "rust programming language",
                "max_results": 2,
                "locale": None,
                "time_range": None,
                "include_content": None,
            },
        )
    )
    with ddg_engine() as (server, client):
        result = Agent(model, tools=pydantic_ai.tools(client)).run_sync("find rust")
    assert result.output == "done"
    assert seen[0].outcome == "success"
    assert seen[0].content.startswith("1. %s" % FIRST_TITLE) and "\n\n3. " not in seen[0].content


def test_blocked_searches_reach_the_model_as_our_line_and_do_not_end_the_run(pydantic_ai):
    from pydantic_ai import Agent

    """Two blocked searches in a row (the issue's default-retry failure) and the run still ends normally."""
    model, seen = scripted(
        ("web_search", {"query": "rust"}), ("web_search", {"query": "rust"}), ("web_search", {"query": "go"})
    )
    with ddg_engine(CAPTCHA_PAGE) as (server, client):
        result = Agent(model, tools=pydantic_ai.tools(client)).run_sync("find rust")
        assert searches(server) == 1
    assert result.output == "done"
    assert len(seen) == 3
    assert [part.outcome for part in seen] == ["failed"] * 3  # ToolFailed: no retry budget spent
    assert seen[0].content.startswith(
        "Error: WebBlocked (captcha_required): 127.0.0.1 answered with a bot wall (DuckDuckGo anomaly (bot check) page)"
    )
    assert seen[1].content.startswith("Error: WebBlocked (captcha_required): ddg_html is cooling down")
    assert seen[0].content in seen[0].model_response_str()  # what the model is shown


def test_bad_arguments_ask_the_model_to_correct_them(pydantic_ai):
    from pydantic_ai import Agent

    model, seen = scripted(
        ("web_search", {"query": "rust", "max_results": 50}), ("web_search", {"query": "rust", "max_results": 5})
    )
    with ddg_engine() as (server, client):
        result = Agent(model, tools=pydantic_ai.tools(client)).run_sync("find rust")
    assert result.output == "done"
    assert seen[0].outcome == "retried"
    assert (
        "Error: InvalidInput (bad_arguments): argument 'max_results' must be in 1..10" in seen[0].model_response_str()
    )
    assert seen[1].outcome == "success" and seen[1].content.startswith("1. ")


def test_two_bad_calls_in_a_row_do_not_end_the_run(pydantic_ai):
    """Issue 33.19: under pydantic-ai's default retries (1) the second bad call ended the run."""
    from pydantic_ai import Agent

    model, seen = scripted(
        ("web_search", {"query": "rust", "max_results": 50}),
        ("web_search", {"query": "rust", "locale": "not a locale!"}),
        ("web_search", {"query": "rust", "max_results": 5}),
    )
    with ddg_engine() as (server, client):
        result = Agent(model, tools=pydantic_ai.tools(client)).run_sync("find rust")
    assert result.output == "done"
    assert [one.outcome for one in seen] == ["retried", "retried", "success"]


def test_pydantic_ais_test_model_reads_the_nullable_schema(pydantic_ai):
    """TestModel makes arguments up from the schema: with seed 1 it picks ``null`` for every option."""
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    with ddg_engine() as (server, client):
        result = Agent(TestModel(call_tools=["web_search"], seed=1), tools=pydantic_ai.tools(client)).run_sync(
            "find rust"
        )
        assert searches(server) == 1
    assert result.output.startswith('{"web_search":"1. %s' % FIRST_TITLE)


def test_arguments_that_are_json_but_no_object_ask_the_model_to_correct_them(pydantic_ai):
    """``Tool.from_schema`` validates nothing: ``"rust"``, ``[1]`` or ``null`` as the arguments raised
    TypeError at ``run(**arguments)``, ending the agent run."""
    from pydantic_ai import Agent

    import websearch_sync as ws

    model, seen = scripted(("web_search", '"rust"'), ("web_search", "[1]"), ("web_search", "null"))
    with ws.SearchClient(backend="stub") as client:
        result = Agent(model, tools=pydantic_ai.tools(client)).run_sync("find rust")
    assert result.output == "done"
    assert [one.outcome for one in seen] == ["retried"] * 3

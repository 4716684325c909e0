"""``tool_definitions("anthropic", strict=True)``: Anthropic's strict tool use (``"strict": true`` on
the tool, grammar-constrained inputs), whose JSON Schema subset has no numeric or length bounds.
The oracle is the Anthropic SDK's own ``transform_schema``, which rewrites a schema into that
subset (moving what it refuses into descriptions): our schema must come out of it unchanged
(but for the ``type`` beside an ``enum``, which it drops)."""

import pytest

import websearch_sync as ws
from websearch_sync import tool

SETTINGS = ws.Settings(backend="ddg_html")


@pytest.fixture(scope="module")
def anthropic_sdk():
    """The SDK's transform and its ToolParam type, imported when a test runs (collection imports no SDK)."""
    from anthropic.lib._parse._transform import transform_schema
    from anthropic.types import ToolParam
    from pydantic import TypeAdapter

    return transform_schema, TypeAdapter(ToolParam)


def enum_untyped(schema):
    """``schema`` without the ``type`` beside an ``enum``: the SDK's transform drops it (the values
    say the type), the one rewrite it makes of a schema already in the strict subset."""
    if isinstance(schema, dict):
        return {k: enum_untyped(v) for k, v in schema.items() if not (k == "type" and "enum" in schema)}
    return [enum_untyped(v) for v in schema] if isinstance(schema, list) else schema


def test_strict_anthropic_definitions_ask_for_strict_tool_use_in_its_schema_subset(anthropic_sdk):
    transform_schema, tool_param = anthropic_sdk
    definitions = tool.tool_definitions("anthropic", strict=True, settings=SETTINGS)
    assert [d["name"] for d in definitions] == ["web_search", "web_fetch"]
    for definition in definitions:
        assert definition["strict"] is True
        assert tool_param.validate_python(definition, strict=True) == definition
        assert transform_schema(definition["input_schema"]) == enum_untyped(definition["input_schema"])
    # optional arguments stay optional: a nullable one (anyOf with null) would count against
    # Anthropic's 16 union-typed parameters a request, shared with the caller's other strict tools
    assert [d["input_schema"]["required"] for d in definitions] == [["query"], ["url"]]
    assert not any("anyOf" in spec for d in definitions for spec in d["input_schema"]["properties"].values())
    search = definitions[0]["input_schema"]["properties"]
    # the bounds are still read by the model, in words, and still checked by call_tool
    assert search["max_results"]["description"] == "How many results (1-10, default 5). At least 1, at most 10."
    assert search["query"]["description"] == "What to search for. Not empty, at most 499 characters."


def test_plain_anthropic_definitions_keep_their_bounds_and_say_nothing_of_strict():
    [search, fetch] = tool.tool_definitions("anthropic", settings=SETTINGS)
    assert "strict" not in search
    assert search["input_schema"]["properties"]["max_results"]["maximum"] == 10


def test_langchains_strict_tools_are_in_anthropics_subset_too(anthropic_sdk):
    """LangChain binds one tool list to any chat model: ``ChatAnthropic.bind_tools(tools,
    strict=True)`` sends each tool's schema as LangChain's OpenAI conversion gives it, so the
    schemas ``langchain.tools(strict=True)`` makes must be in the subset both strict modes take."""
    from agent_engine import integration
    from langchain_core.utils.function_calling import convert_to_openai_tool

    transform_schema, _ = anthropic_sdk
    langchain = integration("langchain", "langchain_core")
    for built in langchain.tools(settings=SETTINGS, strict=True):
        schema = convert_to_openai_tool(built, strict=True)["function"]["parameters"]
        assert transform_schema(schema) == enum_untyped(schema), built.name
        assert sorted(schema["required"]) == sorted(schema["properties"]) and schema["additionalProperties"] is False
    # the bounds Anthropic's strict mode refuses are words in the description (call_tool checks them)
    search = langchain.tools(settings=SETTINGS, strict=True)[0].args_schema["properties"]
    assert search["max_results"]["description"] == "How many results (1-10, default 5). At least 1, at most 10."

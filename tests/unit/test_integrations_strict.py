"""Strict tool schemas (issue 27 point 2): OpenAI's strict mode accepts them as they are,
pydantic-ai's and openai-agents' strict transformers leave them unchanged, ``null`` means
"not given", and the schema states the configured backends' query limit (issue 23 point 14).

``strict_problems`` is OpenAI's documented strict-mode subset (Structured Outputs,
"Supported schemas"): the root is an object; every object lists all its properties in
``required`` and sets ``additionalProperties: false``; an optional field is a union with
``null``; only these keywords: type, properties, required, additionalProperties, items,
anyOf, $defs/$ref, enum, const, description, title; for strings pattern and format (one of
the listed formats); for numbers multipleOf, minimum, maximum, exclusiveMinimum,
exclusiveMaximum; for arrays minItems, maxItems; at most 10 levels of nesting and 5000
properties; enum values of the declared types.
"""

import copy
import json

import pytest

import websearch_sync as ws
from websearch_sync import tool

STRUCTURE = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "$defs",
    "$ref",
    "enum",
    "const",
    "description",
    "title",
}
BY_TYPE = {
    "string": {"pattern", "format"},
    "number": {"multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
    "integer": {"multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"},
    "array": {"minItems", "maxItems"},
    "object": set(),
    "boolean": set(),
    "null": set(),
}
FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
PYTHON_TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "null": type(None)}


def strict_problems(schema, path="$", depth=1, counts=None):
    """Every way ``schema`` breaks OpenAI's strict-mode rules (empty: accepted as it is)."""
    counts = counts if counts is not None else {"properties": 0}
    problems = []
    if path == "$" and (schema.get("type") != "object" or "anyOf" in schema):
        problems.append("$: the root must be an object, not anyOf")
    if depth > 10:
        problems.append("%s: more than 10 levels of nesting" % path)
    kinds = schema.get("type", [])
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    allowed = set(STRUCTURE)
    for kind in kinds:
        if kind not in BY_TYPE:
            problems.append("%s: type %r is not supported" % (path, kind))
        allowed |= BY_TYPE.get(kind, set())
    problems += ["%s: keyword %r is not supported in strict mode" % (path, key) for key in schema if key not in allowed]
    if "format" in schema and schema["format"] not in FORMATS:
        problems.append("%s: format %r is not supported" % (path, schema["format"]))
    for value in schema.get("enum", []):
        if not any(
            isinstance(value, PYTHON_TYPES[k]) and not (k in ("integer", "number") and isinstance(value, bool))
            for k in kinds
            if k in PYTHON_TYPES
        ):
            problems.append("%s: enum value %r is not of type %s" % (path, value, kinds))
    if "object" in kinds:
        properties = schema.get("properties", {})
        counts["properties"] += len(properties)
        if schema.get("additionalProperties") is not False:
            problems.append("%s: additionalProperties must be false" % path)
        if sorted(schema.get("required", [])) != sorted(properties):
            problems.append("%s: every property must be required" % path)
        for name, spec in properties.items():
            problems += strict_problems(spec, "%s.%s" % (path, name), depth + 1, counts)
    if "items" in schema:
        problems += strict_problems(schema["items"], path + "[]", depth + 1, counts)
    for index, option in enumerate(schema.get("anyOf", [])):
        problems += strict_problems(option, "%s|%d" % (path, index), depth, counts)
    if path == "$" and counts["properties"] > 5000:
        problems.append("$: more than 5000 properties")
    return problems


def strict_definitions(**options):
    return tool.tool_definitions("openai", strict=True, settings=ws.Settings(**options))


def test_strict_definitions_pass_openais_rules_as_they_are():
    definitions = strict_definitions(backend="ddg_html")
    assert [d["function"]["name"] for d in definitions] == ["web_search", "web_fetch"]
    for definition in definitions:
        assert definition["function"]["strict"] is True
        assert strict_problems(definition["function"]["parameters"]) == []


def test_the_rule_check_rejects_the_plain_schemas():
    """The check can fail: the default (non-strict) schemas break three of its rules."""
    problems = strict_problems(tool.tool_schema("web.search"))
    assert "$: every property must be required" in problems
    assert "$.query: keyword 'minLength' is not supported in strict mode" in problems
    assert "$.query: keyword 'maxLength' is not supported in strict mode" in problems
    assert strict_problems(
        {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", None]}}, "required": ["a"]}
    ) == ["$: additionalProperties must be false", "$.a: enum value None is not of type ['string']"]


def test_optional_arguments_become_nullable_and_refused_keywords_move_into_descriptions():
    search = tool.tool_schema("web.search", strict=True)
    plain = tool.tool_schema("web.search")
    assert search["required"] == list(plain["properties"])
    assert search["properties"]["query"] == {
        "type": "string",
        "description": "What to search for. Not empty, at most 2000 characters.",
    }
    assert search["properties"]["max_results"] == {
        "anyOf": [{"type": "integer", "minimum": 1, "maximum": 10}, {"type": "null"}],
        "description": "How many results (1-10, default 5).",
    }
    assert search["properties"]["time_range"]["anyOf"] == [
        {"type": "string", "enum": ["day", "week", "month", "year"]},
        {"type": "null"},
    ]
    fetch = tool.tool_schema("web.fetch", strict=True)
    assert fetch["properties"]["url"]["type"] == "string"  # required: not nullable
    assert fetch["properties"]["extract_mode"]["anyOf"][1] == {"type": "null"}


def test_the_other_styles_take_strict_schemas_too():
    # Anthropic's strict mode takes optional properties: there they stay optional, not nullable
    # (tests/sockets/test_tool_anthropic_strict.py), and otherwise keep OpenAI's rules
    anthropic = tool.tool_definitions("anthropic", strict=True, settings=ws.Settings())[0]["input_schema"]
    assert anthropic["required"] == ["query"]
    assert strict_problems(dict(anthropic, required=list(anthropic["properties"]))) == []
    plain = tool.tool_definitions("json_schema", strict=True, settings=ws.Settings())
    assert plain[0]["parameters"]["$schema"].startswith("https://json-schema.org/")
    assert strict_problems({k: v for k, v in plain[0]["parameters"].items() if k != "$schema"}) == []
    assert "strict" not in tool.tool_definitions("openai", settings=ws.Settings())[0]["function"]


def test_null_counts_as_not_given():
    strict_call = {"query": "python", "max_results": None, "locale": None, "time_range": None, "include_content": None}
    with ws.SearchClient("stub", cache_ttl_s=0) as client:
        result = tool.call_tool("web_search", json.dumps(strict_call), client=client)
        assert result["items"] == tool.call_tool("web_search", {"query": "python"}, client=client)["items"]
        missing = tool.call_tool("web_fetch", {"url": None, "extract_mode": None, "max_chars": None}, client=client)
    assert missing["error"]["message"] == "missing required argument 'url'"


@pytest.mark.parametrize("backend, limit", [("ddg_html", 499), ("brave", 400), ("brave,ddg_html", 499), ("stub", 2000)])
def test_the_search_schema_states_the_configured_query_limit(backend, limit):
    settings = ws.Settings(backend=backend, providers={"brave": {"api_key": "k"}})
    schema = tool.tool_definitions("openai", settings=settings)[0]["function"]["parameters"]
    assert schema["properties"]["query"]["maxLength"] == limit
    strict = tool.tool_definitions("openai", settings=settings, strict=True)[0]["function"]["parameters"]
    assert strict["properties"]["query"]["description"].endswith("at most %d characters." % limit)


def test_the_stated_limit_is_what_the_backend_takes():
    """A query at the stated limit passes ddg's own check; one character more is refused."""
    limit = tool.query_limit(ws.Settings(backend="ddg_html"))
    backend = ws.engine.registry.backend_class("ddg_html")(ws.Settings())
    from websearch_sync.validate import search_params

    backend.check_params(search_params("q" * limit, None, {}, ws.Settings(), ()))
    with pytest.raises(ws.InvalidInput):
        backend.check_params(search_params("q" * (limit + 1), None, {}, ws.Settings(), ()))


def test_pydantic_ais_openai_transformer_rates_the_strict_schemas_compatible_and_keeps_them():
    pytest.importorskip("pydantic_ai")
    from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

    for definition in strict_definitions():
        schema = definition["function"]["parameters"]
        transformer = OpenAIJsonSchemaTransformer(copy.deepcopy(schema), strict=None)
        assert transformer.walk() == schema
        assert transformer.is_strict_compatible is True
    plain = OpenAIJsonSchemaTransformer(tool.tool_schema("web.search"), strict=None)
    plain.walk()
    assert plain.is_strict_compatible is False  # what the issue found before


def test_openai_agents_ensure_strict_json_schema_leaves_the_strict_schemas_unchanged():
    pytest.importorskip("agents")
    from agents.strict_schema import ensure_strict_json_schema

    for definition in strict_definitions():
        schema = definition["function"]["parameters"]
        assert ensure_strict_json_schema(copy.deepcopy(schema)) == schema


def test_langchains_strict_conversion_keeps_the_strict_schemas():
    pytest.importorskip("langchain_core")
    from langchain_core.utils.function_calling import convert_to_openai_tool

    for definition in strict_definitions():
        converted = convert_to_openai_tool(definition["function"], strict=True)
        assert converted["function"]["parameters"] == definition["function"]["parameters"]
        assert strict_problems(converted["function"]["parameters"]) == []

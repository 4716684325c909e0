"""Our tool definitions against the official OpenAI and Anthropic SDKs (test dependencies only).

Two proofs per vendor: the definitions validate, strictly, against the SDK's own
request types (``ChatCompletionToolParam``, ``ToolParam``) without pydantic
dropping or coercing anything; and the SDK's client sends them to the API
unchanged (a local server on 127.0.0.1 captures the request and refuses it).
"""

import json
from types import SimpleNamespace

import pytest
from faults import respond
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool

REFUSAL = json.dumps({"error": {"type": "invalid_request_error", "message": "captured by the test"}}).encode()


@pytest.fixture(scope="module")
def sdk_types():
    """pydantic adapters for the SDKs' request types, built when a test runs (collection imports no SDK)."""
    from anthropic.types import ToolParam
    from anthropic.types.tool_param import InputSchemaTyped
    from openai.types.chat import ChatCompletionToolParam
    from pydantic import TypeAdapter

    return SimpleNamespace(
        openai_tool=TypeAdapter(ChatCompletionToolParam),
        anthropic_tool=TypeAdapter(ToolParam),
        anthropic_input_schema=TypeAdapter(InputSchemaTyped),  # the typed arm: an object schema
    )


VARIANTS = [
    pytest.param({}, ws.Settings(), id="default"),
    pytest.param({"names": {"search": "search_the_web", "fetch": "read-page"}}, ws.Settings(), id="renamed"),
    pytest.param({}, ws.Settings(backend="brave"), id="search-unconfigured"),
    pytest.param({"strict": True}, ws.Settings(backend="ddg_html"), id="strict"),
]


def strictly(adapter, value):
    """Validate in strict mode and insist nothing was dropped or converted on the way."""
    validated = adapter.validate_python(value, strict=True)
    assert validated == value
    return validated


def sdk_checks(sdk_types, style, definition):
    """What each SDK type checks: (adapter, part of a definition)."""
    if style == "openai":
        return [(sdk_types.openai_tool, definition)]
    return [(sdk_types.anthropic_tool, definition), (sdk_types.anthropic_input_schema, definition["input_schema"])]


@pytest.mark.parametrize("style", ["openai", "anthropic"])
@pytest.mark.parametrize("options, settings", VARIANTS)
def test_definitions_are_the_sdks_own_tool_params(sdk_types, style, options, settings):
    definitions = tool.tool_definitions(style, settings=settings, **options)
    assert definitions
    for definition in definitions:
        for adapter, value in sdk_checks(sdk_types, style, definition):
            strictly(adapter, value)


def test_the_validation_above_can_fail(sdk_types):
    """What the SDK types reject (or pydantic would silently drop) is caught by ``strictly``."""
    from pydantic import ValidationError

    openai_tool = tool.tool_definitions("openai", settings=ws.Settings())[0]
    anthropic_tool = tool.tool_definitions("anthropic", settings=ws.Settings())[0]
    rejected = [
        (sdk_types.openai_tool, dict(openai_tool, type="tool")),
        (sdk_types.openai_tool, {"type": "function", "function": dict(openai_tool["function"], parameters=[])}),
        (sdk_types.anthropic_tool, {"name": "web_search", "parameters": anthropic_tool["input_schema"]}),
        (sdk_types.anthropic_tool, dict(anthropic_tool, name=7)),
        (sdk_types.anthropic_input_schema, dict(anthropic_tool["input_schema"], type="array")),
        (sdk_types.anthropic_input_schema, dict(anthropic_tool["input_schema"], required="query")),
    ]
    for adapter, value in rejected:
        with pytest.raises(ValidationError):
            strictly(adapter, value)
    dropped = {"type": "function", "function": dict(openai_tool["function"], params={})}  # a misspelt key
    with pytest.raises(AssertionError):
        strictly(sdk_types.openai_tool, dropped)


def test_the_openai_client_sends_the_definitions_unchanged():
    import openai

    definitions = tool.tool_definitions("openai", settings=ws.Settings())
    with FaultServer({"/v1/chat/completions": respond(400, REFUSAL, content_type="application/json")}) as server:
        client = openai.OpenAI(api_key="test-key", base_url=server.url("/v1"), max_retries=0, timeout=10)
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(
                model="test-model", messages=[{"role": "user", "content": "search for mcp"}], tools=definitions
            )
        client.close()
    body = json.loads(server.requests[-1].body)
    assert body["tools"] == definitions


def test_the_anthropic_client_sends_the_definitions_unchanged():
    import anthropic

    definitions = tool.tool_definitions("anthropic", settings=ws.Settings())
    with FaultServer({"/v1/messages": respond(400, REFUSAL, content_type="application/json")}) as server:
        client = anthropic.Anthropic(api_key="test-key", base_url=server.url(""), max_retries=0, timeout=10)
        with pytest.raises(anthropic.BadRequestError):
            client.messages.create(
                model="test-model",
                max_tokens=64,
                messages=[{"role": "user", "content": "search for mcp"}],
                tools=definitions,
            )
        client.close()
    body = json.loads(server.requests[-1].body)
    assert body["tools"] == definitions

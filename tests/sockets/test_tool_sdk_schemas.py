"""Our tool definitions against the official OpenAI and Anthropic SDKs (test dependencies only).

Two proofs per vendor: the definitions validate, strictly, against the SDK's own
request types (``ChatCompletionToolParam``, ``ToolParam``) without pydantic
dropping or coercing anything; and the SDK's client sends them to the API
unchanged (a local server on 127.0.0.1 captures the request and refuses it).
"""

import json
import sys

import pytest

if sys.version_info < (3, 10):  # the current SDKs need Python 3.10+
    pytest.skip("the OpenAI and Anthropic SDKs need Python 3.10 or later", allow_module_level=True)

import anthropic
import openai
from anthropic.types import ToolParam
from anthropic.types.tool_param import InputSchemaTyped
from faults import respond
from openai.types.chat import ChatCompletionToolParam
from pydantic import TypeAdapter, ValidationError
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool

OPENAI_TOOL = TypeAdapter(ChatCompletionToolParam)
ANTHROPIC_TOOL = TypeAdapter(ToolParam)
ANTHROPIC_INPUT_SCHEMA = TypeAdapter(InputSchemaTyped)  # the typed arm: an object schema
REFUSAL = json.dumps({"error": {"type": "invalid_request_error", "message": "captured by the test"}}).encode()

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


#: What each SDK type checks: (adapter, part of a definition).
SDK_CHECKS = {
    "openai": lambda definition: [(OPENAI_TOOL, definition)],
    "anthropic": lambda definition: [
        (ANTHROPIC_TOOL, definition),
        (ANTHROPIC_INPUT_SCHEMA, definition["input_schema"]),
    ],
}


@pytest.mark.parametrize("style", ["openai", "anthropic"])
@pytest.mark.parametrize("options, settings", VARIANTS)
def test_definitions_are_the_sdks_own_tool_params(style, options, settings):
    definitions = tool.tool_definitions(style, settings=settings, **options)
    assert definitions
    for definition in definitions:
        for adapter, value in SDK_CHECKS[style](definition):
            strictly(adapter, value)


def test_the_validation_above_can_fail():
    """What the SDK types reject (or pydantic would silently drop) is caught by ``strictly``."""
    openai_tool = tool.tool_definitions("openai", settings=ws.Settings())[0]
    anthropic_tool = tool.tool_definitions("anthropic", settings=ws.Settings())[0]
    rejected = [
        (OPENAI_TOOL, dict(openai_tool, type="tool")),
        (OPENAI_TOOL, {"type": "function", "function": dict(openai_tool["function"], parameters=[])}),
        (ANTHROPIC_TOOL, {"name": "web_search", "parameters": anthropic_tool["input_schema"]}),
        (ANTHROPIC_TOOL, dict(anthropic_tool, name=7)),
        (ANTHROPIC_INPUT_SCHEMA, dict(anthropic_tool["input_schema"], type="array")),
        (ANTHROPIC_INPUT_SCHEMA, dict(anthropic_tool["input_schema"], required="query")),
    ]
    for adapter, value in rejected:
        with pytest.raises(ValidationError):
            strictly(adapter, value)
    dropped = {"type": "function", "function": dict(openai_tool["function"], params={})}  # a misspelt key
    with pytest.raises(AssertionError):
        strictly(OPENAI_TOOL, dropped)


def test_the_openai_client_sends_the_definitions_unchanged():
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

"""docs/agent-tools.md's image answers run as written: with ``url`` a PNG served on 127.0.0.1
(the default client reading it, as WEB_FETCH_ALLOW_PRIVATE lets it), each block's ``answer``
validates, strictly, as the SDK's own type of what it stands for (Anthropic's
``ToolResultBlockParam``, the OpenAI Responses API's ``function_call_output`` item) and holds
the image; a page that is not an image answers with its text alone."""

import re
from pathlib import Path

import pytest
from faults import respond
from images import png
from servers import FaultServer

from websearch_sync.client.default_client import close_default_client

PAGE = Path(__file__).resolve().parents[2] / "docs" / "agent-tools.md"
BLOCKS = [
    block
    for block in re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)
    if "tool.image_block(result" in block
]
HTML = (
    b"<html><head><title>T</title></head><body><article><p>"
    + b"Words of a page. " * 30
    + b"</p></article></body></html>"
)


@pytest.fixture
def served(monkeypatch):
    """The PNG and a page on 127.0.0.1, read by a default client that may read loopback addresses."""
    monkeypatch.setenv("WEB_FETCH_ALLOW_PRIVATE", "1")
    close_default_client()
    routes = {"/i.png": respond(200, png(64, 48), content_type="image/png"), "/page": respond(200, HTML)}
    with FaultServer(routes) as server:
        yield server
    close_default_client()


def adapter(block):
    """The SDK type of the block's ``answer``, as a strict pydantic adapter."""
    from pydantic import TypeAdapter

    if "tool_result" in block:
        from anthropic.types import ToolResultBlockParam

        return TypeAdapter(ToolResultBlockParam)
    from openai.types.responses.response_input_item_param import FunctionCallOutput

    return TypeAdapter(FunctionCallOutput)


def materialized(value):
    """``value`` with the lazy iterators pydantic validates ``Iterable`` fields into read out as lists."""
    if isinstance(value, dict):
        return {key: materialized(item) for key, item in value.items()}
    if isinstance(value, (str, bytes)):
        return value
    try:
        return [materialized(item) for item in value]
    except TypeError:  # not iterable: a number, a bool
        return value


def test_both_providers_have_their_example():
    assert len(BLOCKS) == 2 and "tool_result" in BLOCKS[0] and "function_call_output" in BLOCKS[1]


@pytest.mark.parametrize("block", BLOCKS, ids=["anthropic", "openai_responses"])
@pytest.mark.parametrize("path, parts", [("/i.png", ["text", "image"]), ("/page", ["text"])])
def test_the_example_answers_with_the_providers_own_shape(served, block, path, parts):
    namespace = {"url": served.url(path), "tool_use_id": "toolu_01", "call_id": "call_01"}
    exec(compile(block, str(PAGE), "exec"), namespace)  # noqa: S102 - the docs' own example
    answer = namespace["answer"]
    assert materialized(adapter(block).validate_python(answer, strict=True)) == answer
    blocks = answer.get("content") or answer.get("output")
    assert [part["type"].replace("input_", "") for part in blocks] == parts
    assert answer.get("is_error", False) is False

"""Images through the tool adapter: call_tool(images=True) returns the image, image_block gives
the model API's own block (checked against the OpenAI and Anthropic SDKs' types), format_results
one line. The MCP web_fetch's image block is checked in tests/sockets/test_mcp.py, on the
session of the ``--allow-private`` server its fetch tests share (no server start of its own)."""

import base64
import sys

import pytest
from faults import respond
from images import pillow_image, png
from servers import FaultServer

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.client.search_client import SearchClient
from websearch_sync.reader import image as image_reader

PNG = png(64, 48)
JPEG = pillow_image(120, 90, "JPEG")
IMAGES = [pytest.param(PNG, "image/png", (64, 48), id="png"), pytest.param(JPEG, "image/jpeg", (120, 90), id="jpeg")]


def strictly(adapter, value):
    """Validate with pydantic in strict mode; nothing dropped or converted."""
    assert adapter.validate_python(value, strict=True) == value


@pytest.fixture
def client():
    with SearchClient(settings=ws.Settings(allow_private=True)) as client:
        yield client


@pytest.mark.parametrize("body, media, size", IMAGES)
def test_call_tool_returns_an_image_and_the_providers_image_blocks(client, body, media, size):
    from anthropic.types import ImageBlockParam
    from openai.types.chat import ChatCompletionContentPartImageParam
    from openai.types.responses import ResponseInputImageParam
    from pydantic import TypeAdapter

    with FaultServer({"/i": respond(200, body, content_type=media)}) as server:
        result = tool.call_tool("web_fetch", {"url": server.url("/i")}, client=client, images=True)
    assert (result["extractor"], result["content_type"], (result["width"], result["height"])) == ("image", media, size)
    data = base64.b64encode(body).decode()
    anthropic = tool.image_block(result, "anthropic")
    assert anthropic == {"type": "image", "source": {"type": "base64", "media_type": media, "data": data}}
    strictly(TypeAdapter(ImageBlockParam), anthropic)
    openai = tool.image_block(result, "openai")
    assert openai == {"type": "image_url", "image_url": {"url": "data:%s;base64,%s" % (media, data)}}
    strictly(TypeAdapter(ChatCompletionContentPartImageParam), openai)
    responses = tool.image_block(result, "openai_responses")
    assert responses == {"type": "input_image", "image_url": "data:%s;base64,%s" % (media, data), "detail": "auto"}
    strictly(TypeAdapter(ResponseInputImageParam), responses)
    # a text-only consumer reads one line describing the image, never its bytes
    text = tool.format_results(result, untrusted_notice=False)
    assert "[image: %s, %dx%d pixels" % (media, *size) in text and data not in text
    assert len(result["text"].splitlines()) == 1


def test_call_tool_refuses_an_image_unless_asked_and_image_block_is_none_for_text(client):
    with FaultServer({"/i": respond(200, PNG, content_type="image/png")}) as server:
        refused = tool.call_tool("web_fetch", {"url": server.url("/i")}, client=client)
    assert refused["error"]["detail_code"] == "unsupported_content"
    # the model is told what the page is, never a Python parameter it has no way to pass
    line = tool.format_results(refused)
    assert "image/png" in line and "images=True" not in line, line
    assert tool.image_block(refused, "anthropic") is None
    assert tool.image_block({"url": "u", "text": "page", "content_type": "text/html"}, "openai") is None
    with pytest.raises(ws.InvalidInput):
        tool.image_block(refused, "gemini")


def test_call_tool_over_the_cap_is_a_clear_error(client, monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # no images extra: no downscaling
    body = png(image_reader.MAX_IMAGE_SIDE + 100, 20)
    with FaultServer({"/i": respond(200, body, content_type="image/png")}) as server:
        result = tool.call_tool("web_fetch", {"url": server.url("/i")}, client=client, images=True)
    error = result["error"]
    assert (error["type"], error["detail_code"]) == ("WebProviderError", "image_too_large")
    assert "%dx20" % (image_reader.MAX_IMAGE_SIDE + 100) in error["message"]
    assert tool.format_results(result).startswith("Error")

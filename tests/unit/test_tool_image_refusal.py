"""An image the host did not ask for, refused through the agent tools: the model has no argument
to ask for images with (the MCP server's ``--no-images``, ``call_tool``'s default), so the
refusal says the tool returns text, not "fetch returns images only when asked", which sent a
model asking in vain; a Python caller, who can ask, keeps that wording and its hint."""

import pytest
from images import png
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.mcp.tools import McpTools
from websearch_sync.net.response import HttpResponse
from websearch_sync.reader.image import image_text

_SERVED = "files.example served image/png content, an image"


def _client(monkeypatch):
    """A client whose fetch meets a PNG, read as the reader reads it (``images`` as passed)."""
    client = ws.SearchClient(settings=ws.Settings(backend="stub"))
    response = HttpResponse(
        200, CaseInsensitiveDict({"Content-Type": "image/png"}), png(3, 2), "https://files.example/a", truncated=False
    )

    def fetch(url, *, images=False, **options):
        image_text(response, provider="fetch", images=images)
        raise AssertionError("an image asked for is no refusal")

    monkeypatch.setattr(client, "fetch", fetch)
    return client


def test_the_fetch_tool_says_it_returns_no_images(monkeypatch):
    client = _client(monkeypatch)
    error = tool.call_tool("web_fetch", {"url": "https://files.example/a"}, client=client)["error"]
    assert error["detail_code"] == "unsupported_content"
    assert error["message"] == _SERVED + "; this tool returns text, not images (its host passes no images to the model)"


def test_the_mcp_servers_fetch_under_no_images_says_so(monkeypatch):
    outcome = McpTools(_client(monkeypatch), images=False).call("web_fetch", {"url": "https://files.example/a"})
    assert outcome.is_error and "only when asked" not in outcome.text
    assert _SERVED + "; this tool returns text, not images" in outcome.text


def test_a_python_caller_is_still_told_to_ask(monkeypatch):
    with pytest.raises(ws.WebProviderError) as caught:
        _client(monkeypatch).fetch("https://files.example/a")
    assert caught.value.message == _SERVED + "; fetch returns images only when asked"
    assert caught.value.hint == "pass images=True to receive it as base64 data with its size"

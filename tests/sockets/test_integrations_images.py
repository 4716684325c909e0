"""Images through each agent framework (``tools(..., images=True)``), driven the way each
framework runs tools, against a loopback PNG: the framework's own image type where it has
one (LangChain content blocks, LlamaIndex ImageBlock, pydantic-ai BinaryContent, the OpenAI
Agents SDK's ToolOutputImage), the one line describing the image where it has none
(smolagents), and the refusal when images are not asked for."""

import base64
from contextlib import contextmanager

import pytest
from agent_engine import integration
from faults import respond
from images import png
from servers import FaultServer
from test_integrations_langchain import model_asking, run_tool_calls
from test_integrations_openai_agents import run
from test_integrations_pydantic_ai import scripted

import websearch_sync as ws

PNG = png(40, 30)
DATA = base64.b64encode(PNG).decode()
LINE = "[image: image/png, 40x30 pixels, %.1f KB, from " % (len(PNG) / 1000)


@contextmanager
def image_site():
    with FaultServer({"/i.png": respond(200, PNG, content_type="image/png")}) as server:
        with ws.SearchClient(settings=ws.Settings(allow_private=True)) as client:
            yield server.url("/i.png"), client


def test_langchain_returns_a_standard_image_block():
    langchain = integration("langchain", "langchain_core")
    with image_site() as (url, client):
        [message] = run_tool_calls(langchain.tools(client, images=True), model_asking(("web_fetch", {"url": url})))
        [refused] = run_tool_calls(langchain.tools(client), model_asking(("web_fetch", {"url": url})))
    assert message.status == "success"
    text, image = message.content
    assert text["type"] == "text" and LINE in text["text"]
    assert image == {"type": "image", "base64": DATA, "mime_type": "image/png"}
    assert refused.status == "error" and "unsupported_content" in refused.content


def test_llama_index_returns_an_image_block():
    llama_index = integration("llama_index", "llama_index.core")
    from llama_index.core.base.llms.types import ImageBlock, TextBlock

    with image_site() as (url, client):
        fetch = llama_index.tools(client, images=True)[-1]
        output = fetch.call(url=url)
    assert not output.is_error
    text, image = output.blocks
    assert isinstance(text, TextBlock) and LINE in text.text
    assert isinstance(image, ImageBlock) and image.image_mimetype == "image/png"
    assert base64.b64decode(image.image) == PNG


def test_pydantic_ai_sends_the_image_to_the_model():
    pydantic_ai = integration("pydantic_ai", "pydantic_ai")
    from pydantic_ai import Agent, BinaryContent
    from pydantic_ai.messages import ModelRequest, UserPromptPart

    with image_site() as (url, client):
        model, seen = scripted(("web_fetch", {"url": url}))
        result = Agent(model, tools=pydantic_ai.tools(client, images=True)).run_sync("look at it")
    assert result.output == "done" and LINE in seen[0].content
    shown = [
        item
        for message in result.all_messages()
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, UserPromptPart) and not isinstance(part.content, str)
        for item in part.content
        if isinstance(item, BinaryContent)
    ]
    assert [(item.media_type, item.data) for item in shown] == [("image/png", PNG)]


def test_openai_agents_returns_its_image_tool_output():
    openai_agents = integration("openai_agents", "agents")
    from agents import set_tracing_disabled

    set_tracing_disabled(True)  # no exporter (it would want an API key)
    try:
        with image_site() as (url, client):
            result, outputs, model = run(
                openai_agents.tools(client, images=True),
                ("web_fetch", {"url": url, "extract_mode": None, "max_chars": None, "include_comments": None}),
            )
    finally:
        set_tracing_disabled(False)
    [output] = outputs
    text, image = output
    assert LINE in text.text
    assert image.image_url == "data:image/png;base64,%s" % DATA


def test_smolagents_has_no_image_output_and_gets_the_line():
    smolagents = integration("smolagents", "smolagents")
    with image_site() as (url, client):
        fetch = smolagents.tools(client, images=True)[-1]
        assert LINE in fetch(url=url)
        with pytest.raises(smolagents.WebToolError, match="unsupported_content"):
            smolagents.tools(client)[-1](url=url)


def test_each_frameworks_fetch_tool_says_what_it_returns_of_an_image():
    """The description the model reads matches what the tool does: the image itself where the
    framework passes it on, the line where it has no image type, nothing when images are refused."""
    client = ws.SearchClient(settings=ws.Settings(backend="stub"))
    shown = {"langchain": "langchain_core", "llama_index": "llama_index.core", "pydantic_ai": "pydantic_ai"}
    shown.update(openai_agents="agents", smolagents="smolagents")
    for name, package in shown.items():
        module = integration(name, package)
        with_images = _fetch_description(module.tools(client, images=True)[-1])
        without = _fetch_description(module.tools(client)[-1])
        said = "returns one line describing the image" if name == "smolagents" else "returns the image itself"
        assert said in with_images, name
        assert "image" not in without.lower(), name


def _fetch_description(tool):
    """A framework tool's description, wherever the framework keeps it."""
    metadata = getattr(tool, "metadata", None)  # LlamaIndex
    return metadata.description if metadata is not None else tool.description

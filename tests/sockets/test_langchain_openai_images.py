"""What a fetched image becomes in the request LangChain's ChatOpenAI sends (langchain-openai,
in the test extra), captured offline by an httpx transport of the test's own (the requests never
leave the process): the agent asks ``web_fetch`` for a loopback PNG, and the test reads the
second request, the one that carries the tool's answer.

- Chat Completions: ChatOpenAI puts the image block in the tool message as an ``image_url``
  part, which the API's tool message does not take (the OpenAI SDK's
  ``ChatCompletionToolMessageParam``: text parts only); with
  ``langchain.images_after_tool_messages()`` the tool message keeps its text and the image
  goes in a user message after it (``ChatCompletionUserMessageParam`` takes image parts).
- Responses API (``use_responses_api=True``): the image is an ``input_image`` of the
  ``function_call_output``, which that API takes; the middleware is not needed there.
"""

import asyncio
import json
import typing

import pytest
from agent_engine import integration
from test_integrations_images import DATA, LINE, image_site

CALL = {"id": "call_1", "type": "function", "function": {"name": "web_fetch", "arguments": ""}}


def _completion(message):
    return {
        "id": "c",
        "object": "chat.completion",
        "created": 0,
        "model": "gpt-test",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _response(output):
    return {
        "id": "r",
        "object": "response",
        "created_at": 0,
        "model": "gpt-test",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
    }


def _agent_requests(url, client, *, responses, middleware, asynchronous=False):
    """The JSON bodies of the requests ChatOpenAI sent in an agent run that fetches ``url`` once."""
    httpx = pytest.importorskip("httpx")
    langchain = integration("langchain", "langchain_openai")
    from langchain.agents import create_agent
    from langchain_openai import ChatOpenAI

    sent = []
    arguments = json.dumps({"url": url})

    def answer(request):
        sent.append(json.loads(request.content))
        first = len(sent) == 1
        if responses:
            call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "web_fetch"}
            text = {"type": "output_text", "text": "A grey image.", "annotations": []}
            said = {"type": "message", "id": "m", "role": "assistant", "status": "completed", "content": [text]}
            output = [{**call, "arguments": arguments, "status": "completed"}] if first else [said]
            return httpx.Response(200, json=_response(output))
        called = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{**CALL, "function": {**CALL["function"], "arguments": arguments}}],
        }
        return httpx.Response(
            200, json=_completion(called if first else {"role": "assistant", "content": "A grey image."})
        )

    model = ChatOpenAI(
        model="gpt-test",
        api_key="sk-test",
        base_url="http://openai.invalid/v1",
        use_responses_api=responses,
        http_client=httpx.Client(transport=httpx.MockTransport(answer)),
        http_async_client=httpx.AsyncClient(transport=httpx.MockTransport(answer)),
    )
    chosen = [langchain.images_after_tool_messages()] if middleware else []
    agent = create_agent(model, tools=langchain.tools(client, images=True), middleware=chosen)
    question = {"messages": [{"role": "user", "content": "What does %s show?" % url}]}
    if asynchronous:
        asyncio.run(agent.ainvoke(question))
    else:
        agent.invoke(question)
    assert len(sent) == 2
    return sent


def test_chat_completions_gets_the_image_in_the_tool_message_which_its_api_takes_as_text_only():
    from openai.types.chat import ChatCompletionToolMessageParam

    with image_site() as (url, client):
        second = _agent_requests(url, client, responses=False, middleware=False)[1]
    tool = second["messages"][-1]
    assert tool["role"] == "tool" and [part["type"] for part in tool["content"]] == ["text", "image_url"]
    # the SDK's type of a tool message: a string or text parts, no image part
    assert "ChatCompletionContentPartTextParam" in str(typing.get_type_hints(ChatCompletionToolMessageParam)["content"])
    assert "Image" not in str(typing.get_type_hints(ChatCompletionToolMessageParam)["content"])


@pytest.mark.parametrize("asynchronous", [False, True], ids=["invoke", "ainvoke"])
def test_with_the_middleware_the_image_follows_the_tool_message_in_a_user_message(asynchronous):
    langchain = integration("langchain", "langchain_openai")
    with image_site() as (url, client):
        second = _agent_requests(url, client, responses=False, middleware=True, asynchronous=asynchronous)[1]
    tool, user = second["messages"][-2:]
    assert tool["role"] == "tool" and [part["type"] for part in tool["content"]] == ["text"]
    assert LINE in tool["content"][0]["text"]
    assert user["role"] == "user"
    assert user["content"][0] == {"type": "text", "text": langchain.IMAGES_NOTE}
    assert user["content"][1] == {"type": "image_url", "image_url": {"url": "data:image/png;base64," + DATA}}


def test_the_responses_api_gets_the_image_in_the_function_call_output():
    with image_site() as (url, client):
        second = _agent_requests(url, client, responses=True, middleware=False)[1]
    [output] = [item for item in second["input"] if item.get("type") == "function_call_output"]
    text, image = output["output"]
    assert text["type"] == "input_text" and LINE in text["text"]
    assert image == {"type": "input_image", "image_url": "data:image/png;base64," + DATA}

"""A manual check, not collected by pytest: what a fetched image becomes in the requests of
LlamaIndex's OpenAI LLMs. llama-index-llms-openai pins openai<3 while the OpenAI Agents SDK needs
openai>=3, so it cannot join the test extra; run this in a venv of its own:

    python -m venv /tmp/li && /tmp/li/bin/pip install -e '.[llama-index]' llama-index-llms-openai
    /tmp/li/bin/python tests/manual_llama_index_openai_images.py

It fetches a loopback PNG with ``llama_index.tools(images=True)``, builds the tool message a
``FunctionAgent`` builds from the tool's output (role ``tool``, the output's blocks) and converts
it with the package's own converters: ``to_openai_message_dicts`` (``OpenAI``, Chat Completions)
and ``to_openai_responses_message_dict`` (``OpenAIResponses``). Offline: no request is sent.
It also converts the other shape LlamaIndex's converter reads an image in, an ``ImageBlock`` with
a ``url`` (here the image's ``data:`` URL), to see whether a tool output of another shape would
pass. Printed with llama-index-llms-openai 0.8.3, llama-index-core 0.14.25 (docs/agent-tools.md):
Chat Completions gets the tool message's text alone, the image dropped without a word, in either
shape (``to_openai_message_dict`` sends a ``tool`` message as the text of its ``TextBlock``s: no
block of ours can pass); the Responses API gets ``input_text`` and ``input_image`` in the
``function_call_output``.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from faults import respond  # noqa: E402
from images import png  # noqa: E402
from servers import FaultServer  # noqa: E402

import websearch_sync as ws  # noqa: E402
from websearch_sync.integrations import llama_index  # noqa: E402


def main() -> None:
    """Print the two conversions of a tool message carrying a fetched image."""
    from llama_index.core.base.llms.types import ChatMessage, ImageBlock
    from llama_index.llms.openai.utils import to_openai_message_dicts, to_openai_responses_message_dict

    with FaultServer({"/i.png": respond(200, png(40, 30), content_type="image/png")}) as server:
        with ws.SearchClient(settings=ws.Settings(allow_private=True)) as client:
            output = llama_index.tools(client, images=True)[-1].call(url=server.url("/i.png"))
    message = ChatMessage(role="tool", blocks=output.blocks, additional_kwargs={"tool_call_id": "call_1"})
    print("Chat Completions:", json.dumps(to_openai_message_dicts([message]), default=str)[:400])
    print("Responses API:", json.dumps(to_openai_responses_message_dict(message), default=str)[:400])
    text, image = output.blocks
    data_url = "data:%s;base64,%s" % (image.image_mimetype, image.image.decode("ascii"))
    by_url = message.model_copy(update={"blocks": [text, ImageBlock(url=data_url)]})
    print("Chat Completions, ImageBlock(url=...):", json.dumps(to_openai_message_dicts([by_url]), default=str)[:400])


if __name__ == "__main__":
    main()

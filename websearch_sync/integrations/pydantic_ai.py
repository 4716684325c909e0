"""pydantic-ai tools: ``tools()`` gives ``web_search`` and ``web_fetch`` as ``pydantic_ai.Tool``s.

    from websearch_sync.integrations import pydantic_ai
    agent = Agent(model, tools=pydantic_ai.tools())

The schemas are in OpenAI's strict form, which pydantic-ai's OpenAI transformer
rates strict-compatible (so OpenAI models call the tools in strict mode); ``null``
arguments count as not given. Arguments the model got wrong (a malformed call, a bad
locale or URL, an overlong query) raise ``ModelRetry``
(the model is asked to correct them, up to :data:`BAD_ARGUMENT_RETRIES` times in a row); every other
failure — a block, a timeout, a page that cannot be read — raises ``ToolFailed``:
the model reads our one-line error and adapts, and the run goes on instead of
ending when the retry budget is spent. Calls run in a worker thread. With ``images=True``
a fetched image is returned as ``ToolReturn(our one-line description, content=[BinaryContent])``,
which pydantic-ai sends to the model as an image.
Needs the ``pydantic_ai`` extra (pydantic-ai-slim).
"""

import base64
import dataclasses
from typing import Any, Optional, Union

from ..client.search_client import SearchClient
from ..config import DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S, Settings
from ..tool import CLIENT_ARGUMENTS
from ..validate import suggesting_keywords
from .agent_tool import AgentTool, agent_tools, missing_extra

try:
    from pydantic_ai import BinaryContent, Tool, ToolReturn
    from pydantic_ai.exceptions import ModelRetry, ToolFailed
    from pydantic_core import SchemaValidator, core_schema
except ImportError as error:  # pragma: no cover - exercised with the module hidden
    raise missing_extra("pydantic_ai", "pydantic-ai-slim", python=(3, 11)) from error  # pydantic-ai-slim 2.68

__all__ = ["tools"]

#: How many calls with wrong arguments in a row the model may correct before pydantic-ai ends the
#: run; its default, one, ended a run at the second malformed call.
BAD_ARGUMENT_RETRIES = 5


@suggesting_keywords(CLIENT_ARGUMENTS)  # tools(backend='brave'): it is given as client=SearchClient(...)
def tools(
    client: Optional[SearchClient] = None,
    settings: Optional[Settings] = None,
    style: str = "text",
    *,
    strict: bool = True,
    images: bool = False,
    max_repeats: int = DEFAULT_MAX_REPEATS,
    repeat_window_s: Optional[float] = DEFAULT_REPEAT_WINDOW_S,
) -> list["Tool[Any]"]:
    """``web_search`` and ``web_fetch`` as pydantic-ai tools sharing one client.

    Args:
        client, settings, style, images, max_repeats, repeat_window_s: see
            :func:`websearch_sync.integrations.agent_tool.agent_tools` (the repeat guard).
        strict: schemas in OpenAI's strict form (default, as pydantic-ai uses strict
            mode with OpenAI whenever the schema allows it).
    """
    return [
        _pydantic_tool(tool)
        for tool in agent_tools(
            client,
            settings,
            style,
            strict=strict,
            images=images,
            max_repeats=max_repeats,
            repeat_window_s=repeat_window_s,
        )
    ]


def _pydantic_tool(tool: AgentTool) -> "Tool[Any]":
    async def run(**arguments: Any) -> Union[str, ToolReturn]:
        outcome = await tool.arun(arguments)
        if outcome.bad_arguments:
            raise ModelRetry(outcome.text)
        if outcome.is_error:
            raise ToolFailed(outcome.text)
        if outcome.image is not None:
            data, media = outcome.image
            return ToolReturn(outcome.text, content=[BinaryContent(base64.b64decode(data), media_type=media)])
        return outcome.text

    made: Tool[Any] = Tool.from_schema(run, name=tool.name, description=tool.description, json_schema=tool.parameters)
    made.max_retries = BAD_ARGUMENT_RETRIES  # the agent's default (1) ended a run at the second bad call
    # from_schema validates nothing, and a model's arguments that are JSON but no object ("rust", [1],
    # null) then ended the run (TypeError at run(**...)): refused as arguments, the model corrects them
    made.function_schema = dataclasses.replace(made.function_schema, validator=_OBJECT)
    return made


#: The arguments' validator: a JSON object (what ``run(**arguments)`` takes), checked no further.
_OBJECT = SchemaValidator(core_schema.dict_schema(keys_schema=core_schema.str_schema()))

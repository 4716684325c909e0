"""LlamaIndex tools: ``tools()`` gives ``web_search`` and ``web_fetch`` as LlamaIndex tools.

    from websearch_sync.integrations import llama_index
    agent = FunctionAgent(tools=llama_index.tools(), llm=llm)

Each tool's ``ToolOutput`` carries our text and ``is_error=True`` when the call
failed (the agent shows the model the same one-line error either way). The
metadata hands LLMs our JSON Schema as it is, ``additionalProperties: false``
included (LlamaIndex's own metadata keeps only a few keys of a pydantic schema).
``acall`` (what the agents use) runs the search in a worker thread. With ``images=True``
a fetched image is an ``ImageBlock`` after our one-line description in the output's blocks.
Needs the ``llama-index`` extra (llama-index-core).
"""

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Optional

from ..client.search_client import SearchClient
from ..config import DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S, Settings
from ..tool import CLIENT_ARGUMENTS
from ..validate import suggesting_keywords
from .agent_tool import AgentTool, ToolOutcome, agent_tools, missing_extra

try:
    from llama_index.core.base.llms.types import ImageBlock, TextBlock
    from llama_index.core.tools import AsyncBaseTool, ToolMetadata, ToolOutput
except ImportError as error:  # pragma: no cover - exercised with the module hidden
    raise missing_extra("llama_index", "llama-index-core") from error

__all__ = ["tools"]


@dataclass
class _SchemaMetadata(ToolMetadata):
    """Tool metadata whose parameters are a JSON Schema given as it is (no pydantic model)."""

    parameters: dict[str, Any] = field(default_factory=dict)

    def get_parameters_dict(self) -> dict[str, Any]:
        """The tool's JSON Schema, a copy."""
        return copy.deepcopy(self.parameters)

    @property
    def fn_schema_str(self) -> str:
        """The JSON Schema as text (what ReAct prompts show)."""
        return json.dumps(self.parameters, ensure_ascii=False)


class WebTool(AsyncBaseTool):
    """One of our tools as a LlamaIndex tool (keyword arguments as the schema names them)."""

    def __init__(self, tool: AgentTool) -> None:
        self._tool = tool
        self._metadata = _SchemaMetadata(
            description=tool.description, name=tool.name, fn_schema=None, parameters=tool.parameters
        )

    @property
    def metadata(self) -> ToolMetadata:
        """Name, description and JSON Schema."""
        return self._metadata

    # self is positional-only: a model's argument named self is one of its keywords, which call_tool refuses
    def call(self, /, *args: Any, **kwargs: Any) -> ToolOutput:
        """Run the call in this thread."""
        return self._output(kwargs, self._tool.run(_arguments(args, kwargs)))

    async def acall(self, /, *args: Any, **kwargs: Any) -> ToolOutput:
        """Run the call in a worker thread."""
        return self._output(kwargs, await self._tool.arun(_arguments(args, kwargs)))

    def _output(self, kwargs: dict[str, Any], outcome: ToolOutcome) -> ToolOutput:
        if outcome.image is not None:
            data, media = outcome.image
            return ToolOutput(
                blocks=[TextBlock(text=outcome.text), ImageBlock(image=data.encode("ascii"), image_mimetype=media)],
                tool_name=self._tool.name,
                raw_input=kwargs,
                raw_output=outcome.result,
                is_error=False,
            )
        return ToolOutput(
            content=outcome.text,
            tool_name=self._tool.name,
            raw_input=kwargs,
            raw_output=outcome.result,
            is_error=outcome.is_error,
        )


def _arguments(args: Any, kwargs: dict[str, Any]) -> Any:
    """The call's arguments: keywords, or one positional dict / JSON text (as ``BaseTool.__call__`` allows)."""
    return args[0] if len(args) == 1 and not kwargs else (kwargs if not args else list(args))


@suggesting_keywords(CLIENT_ARGUMENTS)  # tools(backend='brave'): it is given as client=SearchClient(...)
def tools(
    client: Optional[SearchClient] = None,
    settings: Optional[Settings] = None,
    style: str = "text",
    *,
    strict: bool = False,
    images: bool = False,
    max_repeats: int = DEFAULT_MAX_REPEATS,
    repeat_window_s: Optional[float] = DEFAULT_REPEAT_WINDOW_S,
) -> list[WebTool]:
    """``web_search`` and ``web_fetch`` as LlamaIndex tools sharing one client.

    Args:
        client, settings, style, images, max_repeats, repeat_window_s: see
            :func:`websearch_sync.integrations.agent_tool.agent_tools` (the repeat guard).
        strict: schemas in OpenAI's strict form (for ``OpenAI(..., strict=True)``).
    """
    return [
        WebTool(tool)
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

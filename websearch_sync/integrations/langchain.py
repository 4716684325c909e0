"""LangChain tools: ``tools()`` gives ``web_search`` and ``web_fetch`` as ``StructuredTool``s.

    from websearch_sync.integrations import langchain
    tools = langchain.tools()          # model.bind_tools(tools), create_agent(model, tools), ToolNode(tools)

A failed call raises ``ToolException`` with our one-line error, which the tool
turns into a ``ToolMessage`` with ``status="error"`` and that line as content.
The async path (``ainvoke``, LangGraph) runs the search in a worker thread. With
``images=True`` a fetched image comes back as the ``ToolMessage``'s content blocks: our
one-line description and a standard image block (``{"type": "image", "base64", "mime_type"}``).
Needs the ``langchain`` extra (langchain-core).
"""

from typing import Any, Optional, Union

from ..client.search_client import SearchClient
from ..config import Settings
from .agent_tool import AgentTool, ToolOutcome, agent_tools, missing_extra

try:
    from langchain_core.tools import StructuredTool, ToolException
except ImportError as error:  # pragma: no cover - exercised with the module hidden
    raise missing_extra("langchain", "langchain-core") from error

__all__ = ["tools"]


def tools(
    client: Optional[SearchClient] = None,
    settings: Optional[Settings] = None,
    style: str = "text",
    *,
    strict: bool = False,
    images: bool = False,
) -> list[StructuredTool]:
    """``web_search`` and ``web_fetch`` as LangChain tools sharing one client.

    Args:
        client, settings, style, images: see :func:`websearch_sync.integrations.agent_tool.agent_tools`.
        strict: schemas in strict form (use with ``bind_tools(..., strict=True)``, where LangChain
            would otherwise make every argument required and non-null), in the subset both OpenAI's
            strict mode and Anthropic's strict tool use take: LangChain passes them to either model
            as they are, and Anthropic's refuses ``minimum`` and ``maximum`` (they are in the
            descriptions instead; ``call_tool`` still checks them).
    """
    chosen = agent_tools(client, settings, style, strict=strict, portable=True, images=images)
    return [_structured_tool(tool) for tool in chosen]


def _answer(outcome: ToolOutcome) -> Union[str, list[dict[str, Any]]]:
    if outcome.is_error:
        raise ToolException(outcome.text)
    if outcome.image is not None:
        data, media = outcome.image
        return [{"type": "text", "text": outcome.text}, {"type": "image", "base64": data, "mime_type": media}]
    return outcome.text


def _structured_tool(tool: AgentTool) -> StructuredTool:
    def run(**arguments: Any) -> Union[str, list[dict[str, Any]]]:
        return _answer(tool.run(arguments))

    async def arun(**arguments: Any) -> Union[str, list[dict[str, Any]]]:
        return _answer(await tool.arun(arguments))

    return StructuredTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.parameters,
        func=run,
        coroutine=arun,
        handle_tool_error=True,  # the ToolException's message (our line) becomes the error ToolMessage
    )

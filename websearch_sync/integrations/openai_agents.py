"""OpenAI Agents SDK tools: ``tools()`` gives ``web_search`` and ``web_fetch`` as ``FunctionTool``s.

    from websearch_sync.integrations import openai_agents
    agent = Agent(name="researcher", tools=openai_agents.tools())

The SDK calls tools in strict mode by default, so the schemas are in OpenAI's
strict form: the model sends ``null`` for an option it does not want (read as not
given) rather than inventing a locale or a time range. A failed call returns our
one-line error as the tool output, the SDK's way of telling the model a tool
failed without ending the run, and records it on the current tracing span as a
non-fatal tool error. Calls run in a worker thread, so the event loop (and the
agent's other tool calls) keep going during a search. With ``images=True`` a fetched image
is returned as ``[ToolOutputText(our one-line description), ToolOutputImage(data URL)]``,
the SDK's image tool output.
Needs the ``openai-agents`` extra.
"""

from typing import Any, Optional, Union

from ..client.search_client import SearchClient
from ..config import DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S, Settings
from ..tool import CLIENT_ARGUMENTS
from ..validate import suggesting_keywords
from .agent_tool import AgentTool, agent_tools, missing_extra

try:
    from agents import FunctionTool, RunContextWrapper, ToolOutputImage, ToolOutputText
    from agents.tracing import SpanError, get_current_span
except ImportError as error:  # pragma: no cover - exercised with the module hidden
    raise missing_extra("openai_agents", "openai-agents") from error

__all__ = ["tools"]


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
) -> list[FunctionTool]:
    """``web_search`` and ``web_fetch`` as OpenAI Agents SDK tools sharing one client.

    Args:
        client, settings, style, images, max_repeats, repeat_window_s: see
            :func:`websearch_sync.integrations.agent_tool.agent_tools` (the repeat guard).
        strict: strict-mode schemas (default, as the SDK's own tools are).
    """
    return [
        _function_tool(tool, strict)
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


def _function_tool(tool: AgentTool, strict: bool) -> FunctionTool:
    async def invoke(context: RunContextWrapper[Any], arguments: str) -> Union[str, list[Any]]:
        outcome = await tool.arun(arguments)
        span = get_current_span()
        if outcome.is_error and span is not None:
            span.set_error(
                SpanError(
                    message="Error running tool (non-fatal)", data={"tool_name": tool.name, "error": outcome.text}
                )
            )
        if outcome.image is not None:
            data, media = outcome.image
            url = "data:%s;base64,%s" % (media, data)
            return [ToolOutputText(text=outcome.text), ToolOutputImage(image_url=url)]
        return outcome.text

    return FunctionTool(
        name=tool.name,
        description=tool.description,
        params_json_schema=tool.parameters,
        on_invoke_tool=invoke,
        strict_json_schema=strict,
    )

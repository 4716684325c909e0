"""LangChain tools: ``tools()`` gives ``web_search`` and ``web_fetch`` as ``StructuredTool``s.

    from websearch_sync.integrations import langchain
    tools = langchain.tools()          # model.bind_tools(tools), create_agent(model, tools), ToolNode(tools)

A failed call raises ``ToolException`` with our one-line error, which the tool
turns into a ``ToolMessage`` with ``status="error"`` and that line as content.
The async path (``ainvoke``, LangGraph) runs the search in a worker thread. With
``images=True`` a fetched image comes back as the ``ToolMessage``'s content blocks: our
one-line description and a standard image block (``{"type": "image", "base64", "mime_type"}``).
OpenAI's Chat Completions API takes a tool message as text only (``ChatOpenAI`` sends the block
there as it is): :func:`images_after_tool_messages` is the agent middleware that moves such
images into a user message after the tool messages, where that API takes them.
Needs the ``langchain`` extra (langchain-core; the middleware, langchain's agents).
"""

from typing import Any, Optional, Union

from ..client.search_client import SearchClient
from ..config import DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S, Settings
from ..tool import CLIENT_ARGUMENTS
from ..validate import suggesting_keywords
from .agent_tool import AgentTool, ToolOutcome, agent_tools, missing_extra

try:
    from langchain_core.tools import StructuredTool, ToolException
except ImportError as error:  # pragma: no cover - exercised with the module hidden
    raise missing_extra("langchain", "langchain-core", python=(3, 11)) from error  # langchain-core 1.8

__all__ = ["tools", "images_after_tool_messages", "move_tool_images"]


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
) -> list[StructuredTool]:
    """``web_search`` and ``web_fetch`` as LangChain tools sharing one client.

    Args:
        client, settings, style, images, max_repeats, repeat_window_s: see
            :func:`websearch_sync.integrations.agent_tool.agent_tools` (the repeat guard).
        strict: schemas in strict form (use with ``bind_tools(..., strict=True)``, where LangChain
            would otherwise make every argument required and non-null), in the subset both OpenAI's
            strict mode and Anthropic's strict tool use take: LangChain passes them to either model
            as they are, and Anthropic's refuses ``minimum`` and ``maximum`` (they are in the
            descriptions instead; ``call_tool`` still checks them).
    """
    chosen = agent_tools(
        client,
        settings,
        style,
        strict=strict,
        portable=True,
        images=images,
        max_repeats=max_repeats,
        repeat_window_s=repeat_window_s,
    )
    return [_structured_tool(tool) for tool in chosen]


def _answer(outcome: ToolOutcome) -> Union[str, list[dict[str, Any]]]:
    if outcome.is_error:
        raise ToolException(outcome.text)
    if outcome.image is not None:
        data, media = outcome.image
        return [{"type": "text", "text": outcome.text}, {"type": "image", "base64": data, "mime_type": media}]
    return outcome.text


class _ArgumentsAsOne(StructuredTool):
    """A ``StructuredTool`` handing the model's arguments to its function as one dict, not as keywords:
    LangChain passes keywords on to its own ``_run(self, *args, config, run_manager, **kwargs)``,
    where a model's ``self`` raised ``TypeError`` out of the agent run, and a ``config`` or
    ``run_manager`` was replaced by LangChain's own without a word; as a dict each is an argument
    :func:`~websearch_sync.tool.call_tool` refuses, as any unknown one."""

    def _to_args_and_kwargs(
        self, tool_input: Any, tool_call_id: Optional[str]
    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args, kwargs = super()._to_args_and_kwargs(tool_input, tool_call_id)
        return (args or (kwargs,)), {}


def _structured_tool(tool: AgentTool) -> StructuredTool:
    def run(arguments: Any) -> Union[str, list[dict[str, Any]]]:
        return _answer(tool.run(arguments))

    async def arun(arguments: Any) -> Union[str, list[dict[str, Any]]]:
        return _answer(await tool.arun(arguments))

    return _ArgumentsAsOne(
        name=tool.name,
        description=tool.description,
        args_schema=tool.parameters,
        func=run,
        coroutine=arun,
        handle_tool_error=True,  # the ToolException's message (our line) becomes the error ToolMessage
    )


#: The text of the user message :func:`images_after_tool_messages` adds, before the images.
IMAGES_NOTE = "The images the tool calls above returned, in order:"
#: What a tool message that held only images says once they are moved (an empty content list
#: is no message a chat API takes).
MOVED_NOTE = "[its image is in the user message after the tool results]"


def images_after_tool_messages() -> Any:
    """A ``create_agent`` middleware for OpenAI's Chat Completions API (``ChatOpenAI`` without
    ``use_responses_api``), which takes a tool message as text only: in each request to the
    model, the image blocks of tool messages are moved into one user message after the run of
    tool messages that answer one model turn (the API wants those right after the turn), its
    text :data:`IMAGES_NOTE`; each tool message keeps its text (our line describing its image).
    The agent's own message history is left as it is. Other models take images in a tool
    result (Anthropic's, the Responses API's): they need no middleware.

        agent = create_agent(ChatOpenAI(model=...), tools=langchain.tools(images=True),
                             middleware=[langchain.images_after_tool_messages()])
    """
    from langchain.agents.middleware import AgentMiddleware

    class ImagesAfterToolMessages(AgentMiddleware):
        """Moves tool messages' images into a user message (see :func:`images_after_tool_messages`)."""

        def wrap_model_call(self, request: Any, handler: Any) -> Any:
            return handler(request.override(messages=move_tool_images(request.messages)))

        async def awrap_model_call(self, request: Any, handler: Any) -> Any:
            return await handler(request.override(messages=move_tool_images(request.messages)))

    return ImagesAfterToolMessages()


def move_tool_images(messages: list[Any]) -> list[Any]:
    """``messages`` with each run of tool messages' image blocks (LangChain's standard ``"image"``
    blocks, what this library's tools return) moved into a user message after the run (see
    :func:`images_after_tool_messages`), a new list (``messages`` and its messages are left as
    they are; a tool message that held only images says :data:`MOVED_NOTE`): in a LangGraph
    graph of your own, call the model with ``move_tool_images(state["messages"])``."""
    from langchain_core.messages import HumanMessage, ToolMessage

    moved: list[Any] = []
    images: list[dict[str, Any]] = []
    for message in [*messages, None]:
        if images and not isinstance(message, ToolMessage):  # the run of tool messages ended
            moved.append(HumanMessage(content=[{"type": "text", "text": IMAGES_NOTE}, *images]))
            images = []
        if isinstance(message, ToolMessage) and isinstance(message.content, list):
            blocks = [block for block in message.content if isinstance(block, dict) and block.get("type") == "image"]
            if blocks:
                images.extend(blocks)
                rest = [block for block in message.content if block not in blocks]
                message = message.model_copy(update={"content": rest or [{"type": "text", "text": MOVED_NOTE}]})
        if message is not None:
            moved.append(message)
    return moved

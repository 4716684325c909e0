"""smolagents tools: ``tools()`` gives ``web_search`` and ``web_fetch`` as smolagents ``Tool``s.

    from websearch_sync.integrations import smolagents
    agent = ToolCallingAgent(tools=smolagents.tools(), model=model)   # or CodeAgent

Optional inputs are ``nullable``: the ``None`` an agent passes for them counts as
not given. A failed call raises :class:`WebToolError`, whose message is our
one-line error: smolagents reports a raising tool to the model as a tool error
(``AgentToolExecutionError``, that line included) and lets the agent go on; a
``CodeAgent``'s code can catch it, and may pass the arguments by position, as the
function signature it is shown reads (``web_search("rust", 3)``).
A smolagents tool returns one output type (text here), so with ``images=True`` a fetched
image reaches the model as the one line describing it (type, size in pixels and bytes).
Needs the ``smolagents`` extra.
"""

from typing import Any, Optional

from ..client.search_client import SearchClient
from ..config import DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S, Settings
from ..tool import CLIENT_ARGUMENTS, IMAGE_LINE
from ..validate import suggesting_keywords
from .agent_tool import AgentTool, ToolOutcome, agent_tools, missing_extra

try:
    from smolagents import Tool  # type: ignore[import-untyped]
except ImportError as error:  # pragma: no cover - exercised with the module hidden
    raise missing_extra("smolagents", "smolagents") from error

__all__ = ["tools", "WebToolError"]


class WebToolError(RuntimeError):
    """A failed search or fetch; ``str()`` is the line the model reads, ``outcome`` the whole result."""

    def __init__(self, outcome: ToolOutcome) -> None:
        super().__init__(outcome.text)
        self.outcome = outcome

    def __reduce__(self) -> tuple[Any, ...]:
        """Built again from ``outcome`` (its one argument; the default would pass the message): a
        copy, or a pickle a process pool sends back to the agent's process, keeps it."""
        return (type(self), (self.outcome,), self.__dict__.copy())


class WebTool(Tool):  # type: ignore[misc]  # smolagents is not typed
    """One of our tools as a smolagents tool."""

    skip_forward_signature_validation = True  # forward takes the schema's arguments as keywords
    output_type = "string"

    def __init__(self, tool: AgentTool) -> None:
        self.name = tool.name
        self.description = tool.description
        self.inputs = _inputs(tool.parameters)
        self._tool = tool
        super().__init__()

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:
        """smolagents' call (which a ``CodeAgent``'s code makes), but for a model's argument named
        ``self``: smolagents' own ``__call__(self, ...)`` raised ``TypeError`` ("got multiple values
        for argument 'self'") there, where any other unknown argument gets our line; so does this one."""
        if "self" in kwargs:
            kwargs.pop("sanitize_inputs_outputs", None)  # smolagents' own keyword, not the model's
            return self.forward(*args, **kwargs)
        return super().__call__(*args, **kwargs)

    def forward(self, /, *args: Any, **arguments: Any) -> str:
        """Run the call; raises :class:`WebToolError` when it failed.

        A ``CodeAgent`` shows the model each tool as a Python function of its ``inputs``, so its
        code passes them by position too (``web_search("rust", 3)``): in the order of ``inputs``.
        """
        if len(args) > len(self.inputs):
            raise TypeError("%s() takes %d arguments, %d given" % (self.name, len(self.inputs), len(args)))
        named = dict(zip(self.inputs, args))
        twice = sorted(set(named) & set(arguments))
        if twice:
            raise TypeError("%s() got several values for %s" % (self.name, ", ".join(twice)))
        outcome = self._tool.run({**named, **arguments})
        if outcome.is_error:
            raise WebToolError(outcome)
        return outcome.text


def _inputs(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """smolagents ``inputs`` from a JSON Schema: each property as it is, optional ones ``nullable``."""
    required = set(schema["required"])
    return {
        name: dict(spec, **({} if name in required else {"nullable": True}))
        for name, spec in schema["properties"].items()
    }


@suggesting_keywords(CLIENT_ARGUMENTS)  # tools(backend='brave'): it is given as client=SearchClient(...)
def tools(
    client: Optional[SearchClient] = None,
    settings: Optional[Settings] = None,
    style: str = "text",
    *,
    images: bool = False,
    max_repeats: int = DEFAULT_MAX_REPEATS,
    repeat_window_s: Optional[float] = DEFAULT_REPEAT_WINDOW_S,
) -> list[WebTool]:
    """``web_search`` and ``web_fetch`` as smolagents tools sharing one client.

    See :func:`websearch_sync.integrations.agent_tool.agent_tools` for the arguments.
    """
    # one output type (text): the model reads the line describing an image, and the description says so
    return [
        WebTool(tool)
        for tool in agent_tools(
            client,
            settings,
            style,
            images=IMAGE_LINE if images else False,
            max_repeats=max_repeats,
            repeat_window_s=repeat_window_s,
        )
    ]

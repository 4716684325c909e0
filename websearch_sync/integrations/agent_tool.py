"""What every integration shares: the tools as plain objects over one client.

An :class:`AgentTool` is one tool (name, description, JSON Schema of its
arguments) bound to a :class:`~websearch_sync.client.search_client.SearchClient`.
:meth:`AgentTool.run` is ``tool.call_tool`` plus ``tool.format_results``: it never
raises for anything a model or the network can do and returns the text the model
reads together with whether the call failed; each framework module turns that
into the framework's own success or error signal. :meth:`AgentTool.arun` runs the
same blocking call in a daemon thread, so an async agent's event loop keeps going
during a search, and a call the agent gave up on does not hold up its end.
"""

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Optional, Union

from ..client.default_client import default_client
from ..client.search_client import SearchClient
from ..config import Settings
from ..errors import BAD_STYLE, InvalidInput, install_hint
from ..net.workers import run_awaited
from ..tool import (
    ANTHROPIC_STRICT_KEYWORDS,
    FETCH_TOOL,
    SEARCH_TOOL,
    call_tool,
    fetched_image,
    format_results,
    is_argument_error,
    tool_definitions,
    tool_schema,
)

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_CANONICAL = {"web_search": SEARCH_TOOL, "web_fetch": FETCH_TOOL}


@dataclass(frozen=True)
class ToolOutcome:
    """One finished call: the text for the model, the JSON result, and whether it failed."""

    text: str
    result: Mapping[str, Any]  #: a ``websearch_sync.models.ToolResult``
    is_error: bool

    @property
    def detail_code(self) -> Optional[str]:
        """The error's ``detail_code`` (``None`` on success)."""
        return self.result["error"].get("detail_code") if self.is_error else None

    @property
    def image(self) -> Optional[tuple[str, str]]:
        """``(base64 data, media type)`` of a fetched image (a tool made with ``images=True``)."""
        return fetched_image(self.result)

    @property
    def bad_arguments(self) -> bool:
        """Whether the call failed on the model's arguments (see :data:`websearch_sync.tool.ARGUMENT_ERRORS`)."""
        return self.is_error and is_argument_error(self.result["error"])


@dataclass(frozen=True)
class AgentTool:
    """One tool (``web_search`` or ``web_fetch``) over a shared client.

    ``parameters`` is the JSON Schema of the arguments (the strict form when the
    integration asked for it); ``style`` is :func:`~websearch_sync.tool.format_results`'s;
    ``images``: fetch returns images (:func:`~websearch_sync.tool.call_tool`'s).
    """

    name: str
    description: str
    parameters: dict[str, Any]
    client: SearchClient
    style: str = "text"
    images: bool = False

    def run(self, arguments: Any) -> ToolOutcome:
        """Call the tool with the model's arguments (a dict or JSON text; ``None`` values count as absent)."""
        result = call_tool(_CANONICAL[self.name], arguments, client=self.client, images=self.images)
        return ToolOutcome(format_results(result, self.style), result, "error" in result)

    async def arun(self, arguments: Any) -> ToolOutcome:
        """:meth:`run` in a daemon thread, so the event loop is not held up by the search; an agent
        that gives up on the call (a timeout, a cancelled run) does not wait for it at its end."""
        return await run_awaited(lambda: self.run(arguments), "websearch-agent-tool")


def agent_tools(
    client: Optional[SearchClient] = None,
    settings: Optional[Settings] = None,
    style: str = "text",
    *,
    strict: bool = False,
    portable: bool = False,
    images: Union[bool, str] = False,
) -> list[AgentTool]:
    """The tools that can work with the configuration, all over one client.

    Args:
        client: the client every call uses (not closed here). Default: a new client
            with ``settings`` when given, else the process's shared
            :func:`~websearch_sync.client.default_client.default_client`.
        settings: the configuration deciding which tools are offered and the query
            limit stated in the schema (default: the client's settings).
        style: ``"text"`` or ``"markdown"`` output (see ``format_results``).
        strict: OpenAI strict-mode schemas (every property required, optional ones nullable).
        portable: with ``strict``, schemas in the subset Anthropic's strict tool use takes too (the
            numeric bounds in the descriptions), for a framework that binds one tool list to
            either provider's model.
        images: ``web_fetch`` returns an image to the model in the framework's own image type;
            ``"line"`` (:data:`~websearch_sync.tool.IMAGE_LINE`, a framework without one): the
            one line describing it; refused when false. The fetch tool's description says which.
    """
    if style not in ("text", "markdown"):  # refused here rather than at the model's first call
        raise InvalidInput("style must be 'text' or 'markdown', got %r" % (style,), detail_code=BAD_STYLE)
    if client is None:
        client = SearchClient(settings=settings) if settings is not None else default_client()
    settings = settings if settings is not None else client.settings
    definitions = [d["function"] for d in tool_definitions("openai", settings=settings, strict=strict, images=images)]
    tools = []
    for d in definitions:
        parameters = d["parameters"]
        if strict and portable:  # Anthropic's strict keywords are a subset of OpenAI's, every argument required
            parameters = tool_schema(d["name"], strict=True, settings=settings, keywords=ANTHROPIC_STRICT_KEYWORDS)
        tools.append(AgentTool(d["name"], d["description"], parameters, client, style, bool(images)))
    return tools


def missing_extra(integration: str, package: str, python: tuple[int, int] = (3, 10)) -> ImportError:
    """The ``ImportError`` for an integration whose framework is not installed, naming the extra
    (the integration's name spelt with dashes, as pip spells extras). ``python``: the oldest
    Python the extra's releases install on; on an older one the message says so, since the
    extra's ``pip install`` line would only fail there (no release of the package for it)."""
    extra = integration.replace("_", "-")
    if sys.version_info[:2] < python:
        return ImportError(
            "websearch_sync.integrations.%s needs %s, which needs Python %s or newer: this is Python %s, "
            "where the `%s` extra does not install"
            % (integration, package, "%d.%d" % python, "%d.%d" % sys.version_info[:2], extra)
        )
    return ImportError(
        "websearch_sync.integrations.%s needs %s, which is not installed: %s"
        % (integration, package, install_hint(extra))
    )

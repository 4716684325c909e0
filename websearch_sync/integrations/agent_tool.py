"""What every integration shares: the tools as plain objects over one client.

An :class:`AgentTool` is one tool (name, description, JSON Schema of its
arguments) bound to a :class:`~websearch_sync.client.search_client.SearchClient`.
:meth:`AgentTool.run` is ``ToolSession.call_tool`` plus ``tool.format_results``: it never
raises for anything a model or the network can do and returns the text the model
reads together with whether the call failed. The tools of one :func:`agent_tools` share a
:class:`~websearch_sync.tool.ToolSession`, the MCP server's guard against an agent repeating a
lookup (a repeat past ``max_repeats`` within ``repeat_window_s`` gets the answer already given,
with a note); each framework module turns that
into the framework's own success or error signal. :meth:`AgentTool.arun` runs the
same blocking call in a daemon thread, so an async agent's event loop keeps going
during a search, and a call the agent gave up on does not hold up its end.
"""

import asyncio
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Optional, Union, cast

from ..client.default_client import default_client
from ..client.search_client import SearchClient
from ..config import DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S, Settings, check_settings
from ..errors import install_hint
from ..forks import module_global
from ..net.workers import run_awaited
from ..tool import (
    ANTHROPIC_STRICT_KEYWORDS,
    FETCH_TOOL,
    SEARCH_TOOL,
    TEXT_STYLES,
    ToolSession,
    check_client,
    chosen_style,
    fetched_image,
    format_results,
    is_argument_error,
    tool_definitions,
    tool_schema,
)

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_CANONICAL = {"web_search": SEARCH_TOOL, "web_fetch": FETCH_TOOL}

#: :meth:`AgentTool.arun` calls running at once in the process (more wait their turn): the MCP
#: server's default ``--max-concurrent``. A call the agent gave up on keeps its place until its
#: thread ends (its request is still under way), so an agent that times out and retries does not
#: pile up upstream requests; ``asyncio.to_thread`` capped them at its executor's size.
ARUN_AT_ONCE = 8

#: Fresh in a forked child: the parent's calls holding slots at the fork are not there to free them.
_arun_slots = module_global(__name__, "_arun_slots", partial(threading.BoundedSemaphore, ARUN_AT_ONCE))


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
    """One tool (``web_search`` or ``web_fetch``) over a session its sibling shares.

    ``parameters`` is the JSON Schema of the arguments (the strict form when the
    integration asked for it); ``session`` holds the client, ``images`` (fetch returns
    images: :func:`~websearch_sync.tool.call_tool`'s) and the repeat guard;
    ``style`` is :func:`~websearch_sync.tool.format_results`'s.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    session: ToolSession
    style: str = "text"

    @property
    def client(self) -> SearchClient:
        """The client every call of the tool uses."""
        return cast(SearchClient, self.session.client)  # agent_tools always gives the session one

    def run(self, arguments: Any) -> ToolOutcome:
        """Call the tool with the model's arguments (a dict or JSON text; ``None`` values count as absent)."""
        return self._outcome(arguments)

    async def arun(self, arguments: Any) -> ToolOutcome:
        """:meth:`run` in a daemon thread, so the event loop is not held up by the search; an agent
        that gives up on the call (a timeout, a cancelled run) does not wait for it at its end, and
        its lookup, whose answer the model never got, is no repeat of the next one. At most
        :data:`ARUN_AT_ONCE` run at once in the process, abandoned ones until they end."""
        given_up = threading.Event()
        try:
            return await run_awaited(
                lambda: self._outcome(arguments, lambda: not given_up.is_set()), "websearch-agent-tool", _arun_slots
            )
        except asyncio.CancelledError:
            given_up.set()
            raise

    def _outcome(self, arguments: Any, delivered: Optional[Callable[[], bool]] = None) -> ToolOutcome:
        """The call through the session's guard; ``delivered``: whether its answer reaches the model."""
        result = self.session.call_tool(_CANONICAL[self.name], arguments, delivered)
        return ToolOutcome(format_results(result, self.style), result, "error" in result)


def agent_tools(
    client: Optional[SearchClient] = None,
    settings: Optional[Settings] = None,
    style: str = "text",
    *,
    strict: bool = False,
    portable: bool = False,
    images: Union[bool, str] = False,
    max_repeats: int = DEFAULT_MAX_REPEATS,
    repeat_window_s: Optional[float] = DEFAULT_REPEAT_WINDOW_S,
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
        max_repeats, repeat_window_s: the repeat guard, as the MCP server's (``ToolSession``): one
            query or URL is looked up at most ``max_repeats`` times within ``repeat_window_s``
            seconds (default 600; ``None``: the tools' whole life; ``0``: no guard), a repeat past
            that answered with the answer already given and a note. The tools count together:
            tools shared by several conversations at once count their lookups together too.
    """
    style = chosen_style(style, TEXT_STYLES)  # refused here rather than at the model's first call
    check_client(client)  # tools("brave") was an AttributeError on 'str' (client.settings)
    check_settings(settings)
    if client is None:
        client = SearchClient(settings=settings) if settings is not None else default_client()
    settings = settings if settings is not None else client.settings
    session = ToolSession(client, max_repeats=max_repeats, repeat_window_s=repeat_window_s, images=bool(images))
    definitions = [d["function"] for d in tool_definitions("openai", settings=settings, strict=strict, images=images)]
    tools = []
    for d in definitions:
        parameters = d["parameters"]
        if strict and portable:  # Anthropic's strict keywords are a subset of OpenAI's, every argument required
            parameters = tool_schema(d["name"], strict=True, settings=settings, keywords=ANTHROPIC_STRICT_KEYWORDS)
        tools.append(AgentTool(d["name"], d["description"], parameters, session, style))
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

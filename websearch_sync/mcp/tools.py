"""The MCP server's tools as plain synchronous code (no MCP SDK here).

One :class:`McpTools` lives as long as the server: it owns the server's
:class:`~websearch_sync.client.search_client.SearchClient` (so cache, rate limits
and cool-downs carry over between calls) and a
:class:`~websearch_sync.tool.ToolSession` (the repeated-lookup guard). Definitions
and results are exactly the tool adapter's: the ``json_schema`` definitions, and
``format_for_model``: the ``format_results`` text and the ``call_tool`` result as
structured content, page text wrapped in the untrusted-content block on both.
"""

import threading
from dataclasses import dataclass
from typing import Any, Optional

from ..client.clock import CallCancelled as CallCancelled  # re-exported: the server and mcp import them here
from ..client.clock import CancellableClock as CancellableClock
from ..client.search_client import SearchClient
from ..forks import instance_lock
from ..models import ToolResult
from ..tool import ToolSession, fetched_image, format_for_model, tool_definitions, unknown_tool
from . import DEFAULT_MAX_REPEATS, DEFAULT_REPEAT_WINDOW_S  # in the package: `mcp --help` reads it without the client

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: MCP tool names (the vendor spelling, which every MCP client accepts).
TOOL_NAMES = {"search": "web_search", "fetch": "web_fetch"}


def nullable_optional(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a tool's arguments) with ``"nullable": true`` on each optional property, a copy.

    smolagents' MCP adapter takes an argument as optional only when its schema says so (the
    OpenAPI keyword); without it every argument is required of the model. JSON Schema ignores
    keywords it does not define, so other clients read the schema as before, and the server
    reads ``null`` as "not given" (:func:`~websearch_sync.tool.call_tool`).
    """
    required = set(schema.get("required", ()))
    properties = {
        name: spec if name in required else dict(spec, nullable=True)
        for name, spec in schema.get("properties", {}).items()
    }
    return dict(schema, properties=properties)


@dataclass(frozen=True)
class ToolOutcome:
    """What one tool call gives back: the text for the model, the JSON result (``call_tool``'s,
    as it is), whether it failed, and ``structured``: the JSON a client may show the model, page
    text wrapped like in ``text`` (None for an error, whose text is the whole answer; an
    image's bytes left out: they are the call's image block)."""

    text: str
    result: ToolResult
    is_error: bool
    structured: Optional[dict[str, Any]] = None

    @property
    def image(self) -> Optional[tuple[str, str]]:
        """``(base64 data, media type)`` of a fetched image (MCP sends it as an image block)."""
        return fetched_image(self.result)


class McpTools:
    """The tools one MCP server offers, over one client for the server's lifetime.

    Args:
        client: the :class:`SearchClient` every call uses (not closed here).
        max_repeats: how often one query or URL is looked up within ``repeat_window_s``; a
            repeat past that gets the answer already given (see :class:`ToolSession`).
        repeat_window_s: seconds within which lookups count as repeats (None: the server's life).
        clock: the :class:`CancellableClock` ``client`` was built with, so that a cancelled
            call stops at its next wait (without it a cancelled call runs to its end).
        images: ``web_fetch`` returns an image as an MCP image block (default); false: it refuses
            images, as for a text-only model. ``web_fetch``'s description says which.

    Thread-safe: the server calls :meth:`call` from several worker threads at once.
    """

    def __init__(
        self,
        client: SearchClient,
        *,
        max_repeats: int = DEFAULT_MAX_REPEATS,
        repeat_window_s: Optional[float] = DEFAULT_REPEAT_WINDOW_S,
        clock: Optional[CancellableClock] = None,
        images: bool = True,
    ) -> None:
        self.client = client
        self.clock = clock
        # web_fetch returns an image as an MCP image block (with its one-line description as text)
        self.session = ToolSession(
            client, max_repeats=max_repeats, repeat_window_s=repeat_window_s, names=TOOL_NAMES, images=images
        )
        self._definitions: Optional[list[dict[str, Any]]] = None
        self._lock = instance_lock(self)

    def definitions(self) -> list[dict[str, Any]]:
        """``tool_definitions("json_schema")`` under the MCP names, decided once per server, each
        optional argument marked ``"nullable": true`` (see :func:`nullable_optional`).

        The search tool is left out when its backend is not configured (logged once);
        that is decided by ``client.settings.backend``, so give the backend there
        (as ``websearch-sync mcp --backend`` does), not only as ``SearchClient(backend)``.
        """
        with self._lock:
            if self._definitions is None:
                self._definitions = [
                    dict(definition, parameters=nullable_optional(definition["parameters"]))
                    for definition in tool_definitions(
                        "json_schema", names=TOOL_NAMES, settings=self.client.settings, images=self.session.images
                    )
                ]
            return [dict(definition) for definition in self._definitions]

    def call(
        self, name: str, arguments: Optional[dict[str, Any]], cancelled: Optional[threading.Event] = None
    ) -> ToolOutcome:
        """Run one tool call; every failure (bad arguments, unknown tool, search or fetch error) is an outcome.

        ``cancelled``: set when the client cancels the call; with ``clock`` given (the
        client's clock) the call then stops at its next wait and raises
        :class:`CallCancelled` (a lookup that did not happen: it does not count as a repeat).
        """
        offered = [definition["name"] for definition in self.definitions()]
        if name not in offered:
            result: ToolResult = {"error": unknown_tool(name, offered).to_dict()}
        elif cancelled is not None and self.clock is not None:
            if cancelled.is_set():  # cancelled while it waited for a worker thread
                raise CallCancelled()
            with self.clock.cancellable(cancelled):
                result = self.session.call_tool(name, arguments, delivered=lambda: not cancelled.is_set())
        else:
            result = self.session.call_tool(name, arguments)
        text, structured = format_for_model(result)
        return ToolOutcome(text, result, "error" in result, structured)

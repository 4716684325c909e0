"""The MCP server's tools as plain synchronous code (no MCP SDK here).

One :class:`McpTools` lives as long as the server: it owns the server's
:class:`~websearch_sync.client.search_client.SearchClient` (so cache, rate limits
and cool-downs carry over between calls) and a
:class:`~websearch_sync.tool.ToolSession` (the repeated-lookup guard). Definitions
and results are exactly the tool adapter's: the ``json_schema`` definitions, the
``call_tool`` result as structured content, and ``format_results`` text.
"""

import threading
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from ..client.search_client import SearchClient
from ..errors import ToolNotFound
from ..models import ToolResult
from ..tool import ToolSession, format_results, tool_definitions

__all__ = ["McpTools", "ToolOutcome", "TOOL_NAMES"]

#: MCP tool names (the vendor spelling, which every MCP client accepts).
TOOL_NAMES = {"search": "web_search", "fetch": "web_fetch"}


@dataclass(frozen=True)
class ToolOutcome:
    """What one tool call gives back: the text for the model, the JSON result, and whether it failed."""

    text: str
    result: ToolResult
    is_error: bool


class McpTools:
    """The tools one MCP server offers, over one client for the server's lifetime.

    Args:
        client: the :class:`SearchClient` every call uses (not closed here).
        max_repeats: how often one query or URL may be looked up (see :class:`ToolSession`).

    Thread-safe: the server calls :meth:`call` from several worker threads at once.
    """

    def __init__(self, client: SearchClient, *, max_repeats: int = 2) -> None:
        self.client = client
        self.session = ToolSession(client, max_repeats=max_repeats, names=TOOL_NAMES)
        self._definitions: Optional[List[Dict[str, Any]]] = None
        self._lock = threading.Lock()

    def definitions(self) -> List[Dict[str, Any]]:
        """``tool_definitions("json_schema")`` under the MCP names, decided once per server.

        The search tool is left out when its backend is not configured (logged once);
        that is decided by ``client.settings.backend``, so give the backend there
        (as ``websearch-sync mcp --backend`` does), not only as ``SearchClient(backend)``.
        """
        with self._lock:
            if self._definitions is None:
                self._definitions = tool_definitions("json_schema", names=TOOL_NAMES, settings=self.client.settings)
            return [dict(definition) for definition in self._definitions]

    def call(self, name: str, arguments: Optional[Dict[str, Any]]) -> ToolOutcome:
        """Run one tool call; every failure (bad arguments, unknown tool, search or fetch error) is an outcome."""
        offered = [definition["name"] for definition in self.definitions()]
        if name in offered:
            result = self.session.call_tool(name, arguments)
        else:
            error = ToolNotFound("no tool named %r; available: %s" % (name, ", ".join(offered)), detail_code="unknown_tool")
            result = {"error": error.to_dict()}
        return ToolOutcome(format_results(result), result, "error" in result)

"""An MCP server offering ``web_search`` and ``web_fetch`` over stdio (``websearch-sync mcp``).

The server is built on the official MCP Python SDK, an optional extra
(``pip install -e '.[mcp]'`` from a checkout). Importing this package does not import
the SDK: :mod:`.tools` is plain synchronous code, and only :func:`serve_stdio`
loads :mod:`.server`, after :func:`require_mcp` has checked that the SDK is there.
"""

from typing import TYPE_CHECKING

from ..config import DEFAULT_MAX_REPEATS as DEFAULT_MAX_REPEATS  # the server's default, read by `mcp --help`
from ..config import DEFAULT_REPEAT_WINDOW_S as DEFAULT_REPEAT_WINDOW_S  # the server's default, read by `mcp --help`
from ..errors import BAD_MAX_CONCURRENT, MISSING_MCP_EXTRA, InvalidInput, install_hint
from ..validate import check_number

if TYPE_CHECKING:
    from .tools import CancellableClock, McpTools
else:  # the tools need the client (requests, the engines): loaded when first read, not by ``mcp --help``
    from ..engine.lazy import lazy_exports as _lazy_exports

    __getattr__, __dir__ = _lazy_exports(__name__, {"CancellableClock": ".tools", "McpTools": ".tools"})

__all__ = ["McpTools", "CancellableClock", "serve_stdio"]

#: The SDK generation the server is written for (its low-level ``Server`` API changed in 2.0).
MIN_MCP_VERSION = (2, 3)
#: Tool calls running at once; more wait for a free worker thread.
DEFAULT_MAX_CONCURRENT = 8


def require_mcp() -> None:
    """Check that the MCP SDK (``mcp>=2.3``) is installed.

    Raises:
        InvalidInput: ``missing_mcp_extra``, with the command that installs it.
    """
    try:
        import mcp  # noqa: F401  (the official SDK, not this package: imports are absolute)
    except ImportError:
        raise InvalidInput(
            "the MCP server needs the 'mcp' package: " + install_hint("mcp"), detail_code=MISSING_MCP_EXTRA
        ) from None
    from importlib import metadata

    try:
        found = tuple(int(part) for part in metadata.version("mcp").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return  # a source checkout or an unusual version string: let the import decide
    if found < MIN_MCP_VERSION:
        raise InvalidInput(
            "the MCP server needs mcp>=%d.%d, found %s: %s"
            % (MIN_MCP_VERSION + (metadata.version("mcp"), install_hint("mcp"))),
            detail_code=MISSING_MCP_EXTRA,
        )


def check_max_concurrent(max_concurrent: object) -> None:
    """``InvalidInput(bad_max_concurrent)`` unless ``max_concurrent`` is a whole number >= 1: checked
    by the CLI before it says anything else, and by :func:`serve_stdio`."""
    check_number("max_concurrent", max_concurrent, detail=BAD_MAX_CONCURRENT)


def serve_stdio(tools: "McpTools", *, max_concurrent: int = DEFAULT_MAX_CONCURRENT) -> None:
    """Serve ``tools`` to one MCP client over stdin/stdout until the client closes stdin (the requests
    read before that answered first) or stdout.

    Each tool call runs the synchronous library in a worker thread, at most
    ``max_concurrent`` at once. Raises ``InvalidInput``: ``bad_max_concurrent``,
    or ``missing_mcp_extra`` when the SDK is not installed.
    """
    check_max_concurrent(max_concurrent)
    require_mcp()
    from .server import run_stdio

    run_stdio(tools, max_concurrent=max_concurrent)

"""The process's shared :class:`SearchClient` for tool calls that name none.

``tool.call_tool(client=None)`` and the agent-framework integrations use it, so the
pacing between requests, the cool-down after a block (a captcha, HTTP 429) and the
cache carry over from one tool call to the next instead of being lost with a
throw-away client: three blocked searches in a row reach the engine once.

It is configured from the environment when first used. :func:`close_default_client`
closes it; the next use builds a new one (reading the environment again). A child
process (after ``fork``) builds its own rather than share the parent's connections.
"""

import os
from typing import Optional

from .forks import module_lock
from .search_client import SearchClient

__all__ = ["default_client", "close_default_client"]

_lock = module_lock(__name__, "_lock")
_current: Optional[tuple[int, SearchClient]] = None  # (the owning process id, its client)


def default_client() -> SearchClient:
    """The shared client of this process, built from the environment on first use. Thread-safe."""
    global _current
    with _lock:
        if _current is None or _current[0] != os.getpid():
            _current = (os.getpid(), SearchClient())
        return _current[1]


def close_default_client() -> None:
    """Close the shared client (if one was built in this process); the next use builds a new one.

    Call it when no tool call is under way (at shutdown, or after changing the environment):
    a call still running on the closed client may fail with a ``NetworkError``, and one that
    got the client before and starts after is ``InvalidInput(client_closed)``."""
    global _current
    with _lock:
        current, _current = _current, None
    if current is not None and current[0] == os.getpid():
        current[1].close()

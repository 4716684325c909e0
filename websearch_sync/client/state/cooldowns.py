"""Cool-downs in Redis: a block one process met makes every process leave that backend alone.

The value holds what :meth:`~websearch_sync.client.cooldown.Cooldowns.check` raises
again (detail code, status, until when); the key's expiry is the cool-down itself.
"""

import json
from typing import Any, NamedTuple, Optional

from .server import SharedState

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class SharedBlock(NamedTuple):
    """A cool-down read from Redis."""

    detail_code: Optional[str]
    status: Optional[int]
    until: float  #: wall-clock end (seconds since the epoch), for messages
    left_s: float  #: seconds left, from the key's expiry


def _block(value: Any, left_s: float) -> Optional[SharedBlock]:
    if value is None:
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    detail, status, until = data.get("detail_code"), data.get("status"), data.get("until")
    return SharedBlock(
        detail if isinstance(detail, str) else None,
        status if isinstance(status, int) and not isinstance(status, bool) else None,
        float(until) if isinstance(until, (int, float)) else 0.0,
        left_s,
    )


class SharedCooldowns:
    """Writes and reads backends' cool-downs in Redis (one round trip each)."""

    def __init__(self, state: SharedState) -> None:
        self.state = state

    def record(self, name: str, detail_code: Optional[str], status: Optional[int], duration_s: float, until: float) -> None:
        """Suspend ``name`` for every process for ``duration_s`` seconds (nothing when Redis is down)."""
        key = self.state.key("cooldown", name)
        value = json.dumps({"detail_code": detail_code, "status": status, "until": until})
        self.state.set_for(key, value, duration_s)

    def lookup(self, name: str) -> Optional[SharedBlock]:
        """The cool-down of ``name`` another process (or this one) recorded; ``None`` if none or Redis is down."""
        return _block(*self.state.get_with_ttl(self.state.key("cooldown", name)))

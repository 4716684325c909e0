"""Cool-downs in Redis: a block one process met makes every process leave that backend alone.

The value holds what :meth:`~websearch_sync.client.cooldown.Cooldowns.check` raises
again (detail code, status, until when, the block's advice: retryable and hint) and the
token of the record; the key's expiry
is the cool-down itself. A record is untrusted input: anything but the expected
shape, or a time no clock can hold, is ignored; what is left is capped at one day.
"""

import json
import math
from collections.abc import Sequence
from typing import Optional

from ...errors import WebSearchError
from ..tiers import SharedBlock
from .records import MAX_HINT_CHARS, json_object, line_field, status_field, text_field
from .server import SharedState, glob

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: No shared cool-down lasts longer than a local one may (one day).
MAX_SHARED_COOLDOWN_S = 86400.0
#: A wall-clock time a message can show (year 1970..9999).
_MAX_WALL_S = 253402300799.0


#: A record is a few short fields: anything longer is not one (and is read no further).
MAX_RECORD_BYTES = 4096


def read_block(value: Optional[bytes], left_s: float) -> Optional[SharedBlock]:
    """The cool-down a record read from Redis holds, ``left_s`` its key's time left; ``None`` for one that does not parse."""
    data = json_object(value)
    if data is None:
        return None
    until = data.get("until")
    if not (
        isinstance(until, (int, float))
        and not isinstance(until, bool)
        and (isinstance(until, int) or math.isfinite(until))  # a JSON integer may be past any float
        and 0 <= until <= _MAX_WALL_S
    ):
        return None
    return SharedBlock(
        text_field(data.get("detail_code")),
        status_field(data.get("status")),
        float(until),
        min(left_s, MAX_SHARED_COOLDOWN_S),
        text_field(data.get("token")),
        data["retryable"] if isinstance(data.get("retryable"), bool) else None,
        line_field(data.get("hint")),
    )


class SharedCooldowns:
    """Writes and reads backends' cool-downs in Redis (one round trip each)."""

    def __init__(self, state: SharedState) -> None:
        self.state = state

    def record(
        self,
        name: str,
        detail_code: Optional[str],
        status: Optional[int],
        duration_s: float,
        until: float,
        token: str,
        left_s: Optional[float] = None,
        retryable: Optional[bool] = None,
        hint: Optional[str] = None,
    ) -> bool:
        """Suspend ``name`` for every process for ``duration_s`` seconds (at most a day; nothing
        when Redis is down: then false), with the block's advice (``retryable``, ``hint``) for the refusals."""
        key = self.state.key("cooldown", name)
        record = {"detail_code": detail_code, "status": status, "until": until, "token": token}
        record.update({"retryable": retryable, "hint": hint[:MAX_HINT_CHARS] if hint else None})
        value = json.dumps(record)
        return self.state.set_for(key, value, min(duration_s, MAX_SHARED_COOLDOWN_S), left_s)

    def lookup(self, name: str, left_s: Optional[float] = None) -> Optional[SharedBlock]:
        """The cool-down of ``name`` another process (or this one) recorded; ``None`` if none, unreadable or Redis is down."""
        return read_block(*self.state.get_with_ttl(self.state.key("cooldown", name), left_s, MAX_RECORD_BYTES))

    def absent(self, name: str, left_s: Optional[float] = None) -> bool:
        """True only when Redis answers that ``name`` has no cool-down (lifted, or over); false
        when it has one or Redis cannot tell (down, or no time left to ask)."""
        key = self.state.key("cooldown", name)
        try:
            return bool(self.state.run(lambda redis: redis.exists(key), None, left_s) == 0)
        except WebSearchError:  # state_required and Redis down: it cannot tell
            return False

    def clear(self, names: Optional[Sequence[str]] = None) -> list[str]:
        """Delete the cool-downs of ``names`` (backends, and hosts ``host:<host>``; their parts
        too), or of every backend and host, for every process, in one command (one deadline for
        all of its scans); the names deleted.

        Raises:
            NetworkError: ``state_unavailable`` when Redis cannot be reached (an operator asked:
                nothing here falls back silently).
            Timeout: ``deadline_exceeded`` when the scans went on past the deadline.
        """
        if names is None:
            patterns = ["*"]
        else:  # each name's endpoints and parts
            patterns = [pattern for name in names for pattern in (glob(name), glob(name) + "@*", glob(name) + "\\[*")]
        return self.state.delete_matching("cooldown", patterns, "no cool-down was cleared there")

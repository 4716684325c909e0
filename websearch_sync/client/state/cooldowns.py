"""Cool-downs in Redis: a block one process met makes every process leave that backend alone.

The value holds what :meth:`~websearch_sync.client.cooldown.Cooldowns.check` raises
again (detail code, status, until when, the block's advice: retryable and hint) and the
token of the record; the key's expiry
is the cool-down itself. A record is untrusted input: anything but the expected
shape, or a time no clock can hold, is ignored; what is left is capped at one day.

An operator's lift (``state clear``) replaces each record with :data:`LIFTED` for what was left of
it, rather than deleting it: a record that vanished (Redis restarted, evicted it) lifts nothing in
the processes that remember it, only the marker does (:meth:`SharedCooldowns.lifted`).
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
#: What ``state clear`` leaves in a cool-down's key, for the time the cool-down had left: lifted by an
#: operator, not vanished. No record (it parses as none: obeyed by no one, older versions included).
LIFTED = b'{"lifted": true}'

#: KEYS[1]: a cool-down key; ARGV[1]: :data:`LIFTED`. 2 when the key holds the marker, 1 when it
#: holds anything else (a value of another type included: STRLEN's error), 0 when there is none
#: (or an empty string). The value is read only when it is as long as the marker.
_STANDING = """
local length = redis.pcall('STRLEN', KEYS[1])
if length == 0 then return 0 end
if length == #ARGV[1] and redis.call('GET', KEYS[1]) == ARGV[1] then return 2 end
return 1
"""

#: KEYS: cool-down keys an operator's scan found; ARGV[1]: :data:`LIFTED`. Each key holding a
#: cool-down with an expiry is set to the marker for the time it had left; one of another type or
#: without an expiry (no record this package writes) is deleted; one holding the marker already
#: (lifted before) or gone since the scan is left. Answers the keys lifted.
_LIFT = """
local lifted = {}
for _, key in ipairs(KEYS) do
  local value = redis.pcall('GET', key)
  if type(value) == 'table' and value.err then
    redis.call('DEL', key)
    table.insert(lifted, key)
  elseif value and value ~= ARGV[1] then
    local left = redis.call('PTTL', key)
    if left > 0 then
      redis.call('SET', key, ARGV[1], 'PX', left)
    else
      redis.call('DEL', key)
    end
    table.insert(lifted, key)
  end
end
return lifted
"""


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
        self._standing = state.server.redis.register_script(_STANDING)
        self._lift = state.server.redis.register_script(_LIFT)

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

    def lifted(self, name: str, left_s: Optional[float] = None) -> bool:
        """True only when Redis answers that an operator lifted the cool-down of ``name`` (its key
        holds :data:`LIFTED`); false when it holds one, holds none (over, or vanished: a Redis
        restarted or evicting keys lifts nothing), or Redis cannot tell (down, or no time left to ask)."""
        key = self.state.key("cooldown", name)
        try:
            return bool(self.state.run(lambda redis: self._standing(keys=[key], args=[LIFTED]), None, left_s) == 2)
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
        return self.state.delete_matching(
            "cooldown",
            patterns,
            "no cool-down was cleared there",
            lambda redis, keys: self._lift(keys=keys, args=[LIFTED]),
        )

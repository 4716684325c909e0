"""Rate-limit slots in Redis: each backend's next free slot, booked atomically for every process."""

from typing import Any, Optional

from .server import BadReply, SharedState

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: KEYS[1]: the backend's next free slot, in microseconds on the Redis clock (the one
#: clock every process agrees on). ARGV[1]: the interval, ARGV[2]: the longest wait
#: allowed (microseconds). Books the slot and answers {1, wait} when the wait fits;
#: books nothing and answers {0, wait} when it does not. The key expires one second
#: after the slot it holds has passed.
_BOOK = """
if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local slot = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if slot < now then slot = now end
local wait = slot - now
if wait > tonumber(ARGV[2]) then return {0, wait} end
local after = slot + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f', after), 'PX', math.ceil((after - now) / 1000) + 1000)
return {1, wait}
"""

#: Waits are bounded anyway by the call's budget (at most ten minutes).
_MAX_WAIT_US = 3600 * 1000000


def _answer(reply: Any, max_wait_us: int) -> tuple[bool, float]:
    """The script's ``{booked, wait}``; a reply of another shape, or a booked wait longer than
    the caller allowed, is a failing Redis (never a wait past the budget)."""
    if not isinstance(reply, list) or len(reply) != 2 or not all(type(part) is int for part in reply):
        raise BadReply("the slot script answered %r" % (reply,))
    booked, wait_us = reply
    if booked not in (0, 1) or wait_us < 0 or (booked and wait_us > max_wait_us):
        raise BadReply(
            "the slot script answered booked=%r wait=%r us (at most %d allowed)" % (booked, wait_us, max_wait_us)
        )
    return bool(booked), wait_us / 1e6


class SharedSlots:
    """Books rate-limit slots in Redis, in one round trip (a Lua script)."""

    def __init__(self, state: SharedState) -> None:
        self.state = state
        self._book = state.server.redis.register_script(_BOOK)

    def reserve(self, name: str, interval: float, max_wait_s: float) -> Optional[tuple[bool, float]]:
        """``(booked, seconds to wait for the slot)``; ``None`` when Redis cannot be used
        (the call's budget, ``max_wait_s``, bounds the command too)."""
        key = self.state.key("slot", name)
        max_wait_us = int(min(max(0.0, max_wait_s) * 1e6, _MAX_WAIT_US))
        args = [int(round(interval * 1e6)), max_wait_us]
        return self.state.run(lambda redis: _answer(self._book(keys=[key], args=args), max_wait_us), None, max_wait_s)

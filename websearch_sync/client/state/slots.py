"""Rate-limit slots in Redis: each upstream's next free slot (a backend at its endpoint,
:meth:`~websearch_sync.engine.base.Backend.upstream_key`), booked atomically for every process,
and the fleet sharing it: each booking notes its process, so every process knows how many
share the pace and, while Redis cannot be reached, keeps its share of it alone."""

import os
import uuid
from typing import Any, Optional

from ...config import MAX_PACE_S
from ...once import Once
from ...validate import MAX_TIMEOUT_MS
from ..tiers import SharedBooking
from .server import BadReply, SharedState, logger

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: ``ours(command, key, ...)``: ``redis.call`` on one of this upstream's keys, which another program
#: may have written with another type (a hash, a list): such a key is deleted and the command runs
#: again. A key of the wrong type made every booking fail (a failing Redis for that upstream only,
#: logged at DEBUG), and, written without an expiry, for ever: every process paced it alone, the
#: fleet at its size times the rate. Any other error (a full Redis refusing the write) is raised as it
#: came, the command not run again. The scripts' other commands write the key (SET, any type) or
#: follow this on it.
_OURS = """
local function ours(command, key, ...)
  local reply = redis.pcall(command, key, ...)
  if type(reply) == 'table' and reply.err then
    if not string.find(reply.err, 'WRONGTYPE', 1, true) then error(reply) end
    redis.call('DEL', key)
    return redis.call(command, key, ...)
  end
  return reply
end
"""

#: ``count_fleet(members, me)``: how a fleet's members are counted, by the booking and by ``state show``
#: alike (:data:`FLEET_SIZE`): those of this package's format (``<pid>-<12 hex>``) other than ``me``,
#: and the list of those of another format (planted, or a bug's: they count for none, and the booking
#: drops them).
_COUNT_FLEET = """
local function count_fleet(members, me)
  local counted, foreign = 0, {}
  for _, member in ipairs(members) do
    if not string.match(member, '^%d+%-%x%x%x%x%x%x%x%x%x%x%x%x$') then
      table.insert(foreign, member)
    elseif member ~= me then
      counted = counted + 1
    end
  end
  return counted, foreign
end
"""

#: The slot key's value: ``<next free slot> <interval of the process that set it>`` (microseconds).
_READ_SLOT = """
local stored = ours('GET', KEYS[1]) or ''
local slot = tonumber(string.match(stored, '^(%d+)')) or 0
local paced = tonumber(string.match(stored, ' (%d+)$')) or 0
"""

#: KEYS[1]: the upstream's next free slot, in microseconds on the Redis clock (the one
#: clock every process agrees on), with the interval of the process that booked it; KEYS[2]: the
#: fleet, the processes that booked a slot of that upstream lately (a sorted set: process id ->
#: when). ARGV[1]: the interval, ARGV[2]: the longest wait allowed, ARGV[3]: this process's id,
#: ARGV[4]: how long a process stays in the fleet after its last booking, ARGV[5]: the earliest
#: slot this process may take, from now, ARGV[6]: the longest wait any call may book (microseconds):
#: a slot further ahead than that and its booker's interval was booked on another clock (a
#: failover to a server whose clock is behind) or planted, and is taken for none; ARGV[7]: the
#: longest interval a booker's value is believed to hold (a day, the most ``Settings`` take; this
#: booker's own counts whatever it is): a planted value's interval of years held every booking for
#: as long as its key lived, and one past what a reply's integer holds came back as a negative wait
#: (a failing Redis); ARGV[8]: the largest fleet counted (:data:`MAX_FLEET`). Notes the process in
#: the fleet (a member noted further ahead of now than ARGV[4] was noted on another clock or planted:
#: dropped, else it counted for ever, each one shrinking every process's share of the pace while
#: Redis is down; one a little ahead, a Redis clock stepped back a few ms, is a member), counts the
#: fleet: this process and the other members of this package's format (``<pid>-<12 hex>``, among the
#: latest ``4 * ARGV[8]`` noted: a bounded read, whatever a planted set holds; a member of another
#: format, planted or a bug's, counts for none and is dropped, a bounded number a booking), at most
#: ARGV[8], then
#: books the slot and answers {1, wait, fleet size, the interval of the slot's last booker (0:
#: none), the next free slot it wrote} when the wait fits; books nothing and answers {0, wait,
#: fleet size, that interval, 0} when it does not. The slot key expires one second after the slot it holds has passed.
_BOOK = (
    _OURS
    + _COUNT_FLEET
    + """
if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
ours('ZADD', KEYS[2], now, ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - tonumber(ARGV[4]))
redis.call('ZREMRANGEBYSCORE', KEYS[2], string.format('(%.0f', now + tonumber(ARGV[4])), '+inf')
redis.call('PEXPIRE', KEYS[2], math.ceil(tonumber(ARGV[4]) / 1000))
local fleet, foreign = count_fleet(redis.call('ZREVRANGE', KEYS[2], 0, 4 * tonumber(ARGV[8]) - 1), ARGV[3])
for _, member in ipairs(foreign) do redis.call('ZREM', KEYS[2], member) end
fleet = math.min(fleet + 1, tonumber(ARGV[8]))
"""
    + _READ_SLOT
    + """
if paced > tonumber(ARGV[7]) then paced = tonumber(ARGV[7]) end
if slot > now + tonumber(ARGV[6]) + math.max(paced, tonumber(ARGV[1])) then slot = 0 end
if slot < now + tonumber(ARGV[5]) then slot = now + tonumber(ARGV[5]) end
local wait = slot - now
if wait > tonumber(ARGV[2]) then return {0, wait, fleet, paced, 0} end
local after = slot + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f %s', after, ARGV[1]), 'PX', math.ceil((after - now) / 1000) + 1000)
return {1, wait, fleet, paced, after}
"""
)

#: KEYS[1]: an upstream's fleet. ARGV[1]: how long a process stays in it after its last booking,
#: ARGV[2]: the largest fleet counted (:data:`MAX_FLEET`), both as the booking is given them. Reads
#: only, for ``state show``: of the latest ``4 * ARGV[2]`` members (the booking's bounded read) those
#: noted within ARGV[1] of now, counted by ``count_fleet``; answers {the processes a booking counts,
#: at most ARGV[2] (the booker not among them), the members of another format it drops}. (A member
#: noted ahead of now past ARGV[1], on another clock or planted, which a booking drops first, takes a
#: place among those read here: then fewer are counted.)
FLEET_SIZE = (
    _COUNT_FLEET
    + """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local window, most = tonumber(ARGV[1]), tonumber(ARGV[2])
local read = redis.call('ZREVRANGE', KEYS[1], 0, 4 * most - 1, 'WITHSCORES')
local members = {}
for index = 1, #read, 2 do
  local noted = tonumber(read[index + 1])
  if noted > now - window and noted <= now + window then table.insert(members, read[index]) end
end
local counted, foreign = count_fleet(members, '')
return {math.min(counted, most), #foreign}
"""
)

#: KEYS[1]: the upstream's next free slot, KEYS[2]: when its last request left (microseconds on
#: the Redis clock). ARGV[1]: the interval. Right before a request leaves: when the last one
#: left less than an interval ago (it left late, after its slot), answers the microseconds
#: to wait; else notes this one as leaving now, keeps the next free slot an interval away,
#: and answers 0. A departure later than now was noted on another clock (a failover to a server
#: whose clock is behind) or planted: it is taken for none.
_SENDING = (
    _OURS
    + """
if redis.replicate_commands then redis.replicate_commands() end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local interval = tonumber(ARGV[1])
local last = tonumber(ours('GET', KEYS[2]) or '0') or 0
if last > now then last = 0 end
if now < last + interval then return last + interval - now end
local expiry = math.ceil(interval / 1000) + 1000
redis.call('SET', KEYS[2], string.format('%.0f', now), 'PX', expiry)
"""
    + _READ_SLOT
    + """
if slot < now + interval then
  redis.call('SET', KEYS[1], string.format('%.0f %s', now + interval, ARGV[1]), 'PX', expiry)
end
return 0
"""
)

#: KEYS[1]: the upstream's next free slot. ARGV[1]: the next free slot a booking wrote, ARGV[2]:
#: its interval (microseconds). The booking's request gave up before leaving: when the key still
#: holds what the booking wrote (no later booking, no departure moved it), the slot it booked is
#: the next free one again; answers 1, else 0 (the slot stays taken: a later request has its turn).
_RELEASE = (
    _OURS
    + """
if redis.replicate_commands then redis.replicate_commands() end
"""
    + _READ_SLOT
    + """
if slot ~= tonumber(ARGV[1]) or paced ~= tonumber(ARGV[2]) then return 0 end
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local freed = slot - paced
redis.call('SET', KEYS[1], string.format('%.0f %s', freed, ARGV[2]), 'PX', math.max(0, math.ceil((freed - now) / 1000)) + 1000)
return 1
"""
)

#: Waits are bounded anyway by the call's budget (at most ten minutes).
_MAX_WAIT_US = 3600 * 1000000
#: No call books a slot further away than its budget, at most this (microseconds).
_LONGEST_WAIT_US = MAX_TIMEOUT_MS * 1000
#: The longest interval another booker's slot value is believed to hold (microseconds): ``Settings``'s most.
_LONGEST_PACE_US = int(MAX_PACE_S * 1e6)
#: A process counts in an upstream's fleet for so long after it last booked one of its slots.
FLEET_WINDOW_S = 30.0
#: The largest fleet a booking counts, whatever the fleet key holds: while Redis is down each process
#: paces its upstreams at ``min_interval_s`` times the fleet, so a fleet key that counts every process
#: seen in the last 30 s (a fork per job: one process each; a planted set) made each process wait
#: that many intervals between requests, and refuse its calls for their budget. 64 intervals already
#: refuse a paced call of a 30 s budget at 0.5 s a request; a fleet of more processes than that
#: sends, during an outage, up to its size / 64 times the rate.
MAX_FLEET = 64
#: This process in every fleet: its pid (forked workers share what was imported before the fork) and a
#: random part (two machines may run the same pid).
_BOOT = uuid.uuid4().hex[:12]


def slot_time_us(value: Any) -> int:
    """The next free slot a slot key's value holds (microseconds on the Redis clock; 0 for a
    value that is not one: read as the scripts read it)."""
    head = value.split(b" ", 1)[0] if isinstance(value, bytes) else b""
    return int(head) if head.isdigit() else 0


def slot_interval_us(value: Any) -> int:
    """The interval of the process that booked a slot key's value (microseconds; 0 for none, as
    in a value another version wrote without it; at most a day: read as the scripts read it)."""
    _, space, tail = value.rpartition(b" ") if isinstance(value, bytes) else (b"", b"", b"")
    return min(int(tail), _LONGEST_PACE_US) if space and tail.isdigit() else 0


def process_id() -> str:
    """This process's member name in the fleets."""
    return "%d-%s" % (os.getpid(), _BOOT)


def _answer(reply: Any, max_wait_us: int) -> tuple[bool, float, int, float, int]:
    """The script's ``{booked, wait, fleet, paced, after}`` (``paced``: the interval of the slot's
    last booker, seconds; ``after``: the next free slot it wrote, microseconds); a reply of
    another shape, or a booked wait longer than the caller allowed, is a failing Redis (never a
    wait past the budget)."""
    if not isinstance(reply, list) or len(reply) != 5 or not all(type(part) is int for part in reply):
        raise BadReply("the slot script answered %r" % (reply,))
    booked, wait_us, fleet, paced_us, after_us = reply
    if (
        booked not in (0, 1)
        or wait_us < 0
        or (booked and wait_us > max_wait_us)
        or not 1 <= fleet <= MAX_FLEET
        or paced_us < 0
    ):
        raise BadReply(
            "the slot script answered booked=%r wait=%r us fleet=%r paced=%r us (at most %d us allowed)"
            % (booked, wait_us, fleet, paced_us, max_wait_us)
        )
    return bool(booked), wait_us / 1e6, fleet, paced_us / 1e6, after_us


#: The (upstream, this process's interval, the other's) already warned of: once each per process.
_UNEVEN = Once()


def _warn_uneven(name: str, interval: float, paced: float) -> None:
    """Warn (once) that another process paces ``name`` at another interval than this one: the
    slots are booked by each booker's own interval, so the upstream sees the shortest one."""
    if not paced or abs(paced - interval) < 1e-6 or not _UNEVEN.first((name, interval, paced)):
        return
    logger.warning(
        "the fleet paces %s unevenly: this process waits %g s between requests, another %g s"
        " (min_interval_s differs between processes); the upstream sees the shorter pace:"
        " give every process of the fleet the same min_interval_s",
        name,
        interval,
        paced,
    )


class SharedSlots:
    """Books rate-limit slots in Redis, in one round trip (a Lua script), and remembers how many
    processes share each upstream's pace (the fleet), for when Redis cannot be reached."""

    def __init__(self, state: SharedState) -> None:
        self.state = state
        self._book = state.server.redis.register_script(_BOOK)
        self._sending = state.server.redis.register_script(_SENDING)
        self._release = state.server.redis.register_script(_RELEASE)
        self._fleets: dict[str, int] = {}

    def reserve(
        self,
        name: str,
        interval: float,
        max_wait_s: float,
        not_before_s: float = 0.0,
        left_s: Optional[float] = None,
    ) -> Optional[tuple[bool, float, Optional[SharedBooking]]]:
        """``(booked, seconds to wait for the slot, the booking)`` (the booking: what :meth:`release`
        hands on; ``None`` when not booked); ``None`` when Redis cannot be used. The
        call's time left, ``left_s`` (default ``max_wait_s``), bounds the command, not the longest
        wait: a request that waits for no slot (``max_wait_s`` 0) still asks Redis for a free one.
        ``not_before_s``: no slot sooner than that from now (slots this process booked alone are
        still to come)."""
        keys = self.state.script_keys(name, "slot", "fleet")
        max_wait_us = int(min(max(0.0, max_wait_s) * 1e6, _MAX_WAIT_US))
        not_before_us = int(min(max(0.0, not_before_s) * 1e6, _MAX_WAIT_US))
        interval_us = int(round(interval * 1e6))
        args = [interval_us, max_wait_us, process_id(), int(FLEET_WINDOW_S * 1e6), not_before_us, _LONGEST_WAIT_US]
        args += [_LONGEST_PACE_US, MAX_FLEET]
        answer = self.state.run(
            lambda redis: _answer(self._book(keys=keys, args=args), max_wait_us),
            None,
            max_wait_s if left_s is None else left_s,
        )
        if answer is None:
            return None
        booked, wait, self._fleets[name], paced, after_us = answer
        _warn_uneven(name, interval_us / 1e6, paced)
        return booked, wait, (after_us, interval_us) if booked else None

    def release(self, name: str, booking: SharedBooking, left_s: Optional[float] = None) -> None:
        """Hand on the slot of ``booking`` (its request gave up before leaving), unless a later
        booking or departure moved the next free slot since (a failing Redis: the slot stays taken,
        as an unused one did before; with ``state_required`` that raises ``NetworkError``, which
        :meth:`~..ratelimit.RateLimiter.release` takes for the same). A write: skipped when the
        call's time left does not hold one command."""
        keys = self.state.script_keys(name, "slot")
        self.state.run(lambda redis: self._release(keys=keys, args=list(booking)), None, left_s, write=True)

    @property
    def timeout_s(self) -> float:
        """The longest one command may take (:attr:`SharedState.timeout_s`)."""
        return self.state.timeout_s

    def fits(self, left_s: Optional[float]) -> bool:
        """Whether the call's time left holds one command (:meth:`SharedState.fits`)."""
        return self.state.fits(left_s)

    def look(self, name: str, left_s: Optional[float] = None) -> None:
        """For a process that does not pace ``name`` (``min_interval_s`` 0), which books no slot
        and so never learns the fleet's pace: read the slot's last booker's interval, and warn
        (once) when the fleet paces it (this process's requests go around that pace)."""
        (key,) = self.state.script_keys(name, "slot")
        paced_us = self.state.run(lambda redis: slot_interval_us(redis.get(key)), None, left_s)
        if paced_us:
            _warn_uneven(name, 0.0, paced_us / 1e6)

    def sending(self, name: str, interval: float, left_s: Optional[float] = None) -> Optional[float]:
        """Right before a request to ``name`` leaves: 0 when it may leave now (noted in Redis),
        else the seconds to wait first; ``None`` when Redis cannot be used."""
        keys = self.state.script_keys(name, "slot", "sent")
        interval_us = int(round(interval * 1e6))

        def ask(redis: Any) -> float:
            reply = self._sending(keys=keys, args=[interval_us])
            if type(reply) is not int or not 0 <= reply <= interval_us:
                raise BadReply("the sending script answered %r" % (reply,))
            return reply / 1e6

        return self.state.run(ask, None, left_s)

    def fleet(self, name: str) -> int:
        """How many processes shared ``name``'s pace when Redis last answered (1 before that)."""
        return self._fleets.get(name, 1)

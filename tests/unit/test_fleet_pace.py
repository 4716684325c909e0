"""A fleet's pace as the upstream sees it, through a Redis outage and its end (fake clock).

Four processes, each a :class:`RateLimiter` with its own view of one simulated Redis (the slot
and sending scripts' arithmetic, the fleet, the 5 s rest after a failure), each sending as fast
as its limiter lets it. The upstream's log must show one request per interval at most, in every
phase: Redis answering, Redis gone, Redis back (each process finds out at its own retry time).
"""

import heapq
from typing import Optional

import pytest
from clocks import FakeClock

from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.client.state.server import RETRY_AFTER_S

INTERVAL = 0.2
WORKERS = 4
#: Less than this is the arithmetic's rounding, not a gap (the scripts count whole microseconds).
ROUNDING_S = 1e-6


class Redis:
    """The keys the slot scripts keep: the next free slot, when the last request left, the fleet."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.up = True
        self.restart()

    def restart(self) -> None:
        """An empty Redis (restarted without persistence)."""
        self.slot, self.sent, self.members = 0.0, float("-inf"), {}


class ProcessView:
    """One process's shared slots tier (``SharedSlotsTier``) on :class:`Redis`: unusable while it
    is down and for 5 s after this process last found it down, as ``StateServer`` does."""

    def __init__(self, redis: Redis, pid: int) -> None:
        self.redis, self.pid = redis, pid
        self.retry_at: Optional[float] = None
        self.known_fleet = 1

    def _usable(self) -> bool:
        now = self.redis.clock.monotonic()
        if self.retry_at is not None and now < self.retry_at:
            return False
        if not self.redis.up:
            self.retry_at = now + RETRY_AFTER_S
            return False
        self.retry_at = None
        return True

    def reserve(self, name, interval, max_wait_s, not_before_s=0.0, left_s=None):
        if not self._usable():
            return None
        redis, now = self.redis, self.redis.clock.monotonic()
        redis.members[self.pid] = now
        redis.members = {pid: at for pid, at in redis.members.items() if at > now - 30}
        self.known_fleet = len(redis.members)
        slot = max(redis.slot, now + not_before_s)
        if slot - now > max_wait_s:
            return False, slot - now, None
        redis.slot = slot + interval
        return True, slot - now, None

    def sending(self, name, interval, left_s=None):
        if not self._usable():
            return None
        redis, now = self.redis, self.redis.clock.monotonic()
        if redis.sent + interval - now > ROUNDING_S:  # the script counts whole microseconds
            return redis.sent + interval - now
        redis.sent = now
        redis.slot = max(redis.slot, now + interval)
        return 0.0

    def fits(self, left_s):
        """These processes always have the time for a round trip."""
        return True

    def look(self, name, left_s=None):
        """Reads no pace: every process of these tests paces its upstream."""

    def fleet(self, name):
        return self.known_fleet


def _run(clock: FakeClock, redis: Redis, until: float, events: list, limiters, sent: list) -> None:
    """Each process books, waits for its slot, asks to leave, leaves (noted in ``sent``), books again."""
    while events and events[0][0] < until:
        at, pid, step = heapq.heappop(events)
        clock.advance(at - clock.monotonic())
        limiter = limiters[pid]
        if step == "book":
            wait = limiter.reserve("b", INTERVAL, 60.0)
            assert wait is not None
            heapq.heappush(events, (at + wait, pid, "send"))
            continue
        wait = limiter.sending("b", INTERVAL)
        if wait > 0:
            heapq.heappush(events, (at + wait, pid, "send"))
            continue
        sent.append((at, pid))
        heapq.heappush(events, (at, pid, "book"))


def test_four_processes_keep_one_pace_before_during_and_after_an_outage():
    """While Redis answers, the four share its slots; when it goes, each keeps a quarter of the
    pace; when it is back (empty), the processes find out one after another over 5 s, and those
    back keep their quarter until the others can be back too: without that, the first ones back
    took the whole pace while the others still sent their quarters (two requests at once, every
    interval, for seconds: the 2-2.5x of issue 33.16 after Redis returns)."""
    clock = FakeClock(start=0.0)
    redis = Redis(clock)
    limiters = [RateLimiter(clock, shared=ProcessView(redis, pid)) for pid in range(WORKERS)]
    events = [(0.001 * pid, pid, "book") for pid in range(WORKERS)]
    heapq.heapify(events)
    sent: list[tuple[float, int]] = []
    _run(clock, redis, 10.0, events, limiters, sent)
    redis.up = False
    _run(clock, redis, 22.0, events, limiters, sent)
    redis.restart()
    redis.up = True
    _run(clock, redis, 40.0, events, limiters, sent)
    times = [at for at, _ in sent]
    assert len(times) > 150  # the pace is used, not only held: about five a second
    gaps = [(round(later, 3), round(later - earlier, 3)) for earlier, later in zip(times, times[1:])]
    short = [(at, gap) for at, gap in gaps if gap < INTERVAL - ROUNDING_S]
    assert short == [], "(time, gap) of requests closer than %g s: %r" % (INTERVAL, short)
    for start, end in ((10.0, 22.0), (22.0, 40.0)):  # the outage and the return keep the whole pace in use
        phase = [at for at in times if start <= at < end]
        assert len(phase) >= (end - start) / INTERVAL * 0.9, (start, len(phase))


@pytest.mark.parametrize("fleet", [1, 4])
def test_one_busy_process_of_an_idle_fleet_uses_the_whole_shared_pace(fleet):
    """Keeping a share is for an outage and its end: while Redis answers, a process books every
    free slot, however many processes the fleet counts (the others may be idle)."""
    clock = FakeClock(start=0.0)
    redis = Redis(clock)
    redis.members = {100 + other: 0.0 for other in range(fleet - 1)}  # idle members
    limiter = RateLimiter(clock, shared=ProcessView(redis, 0))
    sent: list[tuple[float, int]] = []
    _run(clock, redis, 5.0, [(0.0, 0, "book")], [limiter], sent)
    assert len(sent) == pytest.approx(5.0 / INTERVAL, abs=1)

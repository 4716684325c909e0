"""Clocks for tests. :class:`FakeClock`: ``sleep()`` records the wait and moves the clock's
time on at once. :class:`ThreadClock`: the real clock, remembering what each thread read last.

Give it to a client (``SearchClient(clock=FakeClock())``), or use the ``fake_clock``
fixture of ``tests/conftest.py``, which also puts it behind the default clock so that
``websearch_sync.search`` and the CLI use it. Retries, Retry-After, rate-limit slots and
cool-downs then cost no real time, and a test asserts on what was waited
(:attr:`FakeClock.sleeps`) instead of on elapsed wall time. Deadlines
(``websearch_sync.net.deadline``) are not the client's clock: they stay real.
"""

import threading
from typing import Callable, Dict, List, Optional, Tuple

from websearch_sync.client.clock import Clock

__all__ = ["FakeClock", "ThreadClock"]


class FakeClock(Clock):
    """Monotonic and wall time that only move when something sleeps or :meth:`advance` is called.

    ``sleeps`` lists every positive wait in order; ``wakeups`` lists ``(asleep_at, wakes_at)``
    of every call to :meth:`sleep`, zero waits included (a rate-limit slot that was free).
    Thread-safe: threads sharing a client share the clock.
    """

    def __init__(self, start: float = 1000.0, wall_start: float = 1_700_000_000.0,
                 on_sleep: Optional[Callable[[float], None]] = None) -> None:
        self._now = start
        self.on_sleep = on_sleep  #: called with every positive wait before the time moves on (to order threads)
        self._wall_offset = wall_start - start
        self._lock = threading.Lock()
        self.sleeps: List[float] = []
        self.wakeups: List[Tuple[float, float]] = []

    def monotonic(self) -> float:
        """The fake monotonic time."""
        with self._lock:
            return self._now

    def time(self) -> float:
        """The fake wall time (moves with the monotonic time)."""
        with self._lock:
            return self._now + self._wall_offset

    def sleep(self, seconds: float) -> None:
        """Record the wait and move the time on by it, without sleeping (``on_sleep`` runs first)."""
        if seconds > 0 and self.on_sleep is not None:
            self.on_sleep(seconds)
        with self._lock:
            wait = max(0.0, seconds)
            self.wakeups.append((self._now, self._now + wait))
            if wait > 0:
                self.sleeps.append(wait)
                self._now += wait

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass (what a test does instead of ``time.sleep``)."""
        with self._lock:
            self._now += seconds

    @property
    def slept(self) -> float:
        """Seconds waited in all."""
        with self._lock:
            return sum(self.sleeps)


class ThreadClock(Clock):
    """The system clock (real time, real sleeps) that remembers each thread's last monotonic reading.

    A white-box test reads :meth:`last` right after a client part read the clock once
    (``RateLimiter.reserve``), to know the exact time that part worked with.
    """

    def __init__(self) -> None:
        self._last: Dict[int, float] = {}

    def monotonic(self) -> float:
        """Real monotonic time, remembered for the calling thread."""
        now = super().monotonic()
        self._last[threading.get_ident()] = now
        return now

    def last(self) -> float:
        """The calling thread's last reading."""
        return self._last[threading.get_ident()]

"""Clocks for tests. :class:`FakeClock`: ``sleep()`` records the wait and moves the clock's
time on at once. :class:`ThreadClock`: the real clock, remembering what each thread read last.

Give it to a client (``SearchClient(clock=FakeClock())``), or use the ``fake_clock``
fixture of ``tests/conftest.py``, which also puts it behind the default clock so that
``websearch_sync.search`` and the CLI use it. Retries, Retry-After, rate-limit slots and
cool-downs then cost no real time, and a test asserts on what was waited
(:attr:`FakeClock.sleeps`) instead of on elapsed wall time. Deadlines
(``websearch_sync.net.deadline``) are not the client's clock: they stay real.
"""

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Callable, NoReturn, Optional

from websearch_sync.checkpoints import checkpoint
from websearch_sync.client.clock import Clock

__all__ = [
    "FakeClock",
    "ThreadClock",
    "Pace",
    "PaceMonitor",
    "machine_pace",
    "pace_throughout",
    "slowdown",
    "deadline_margin_s",
]


class FakeClock(Clock):
    """Monotonic and wall time that only move when something sleeps or :meth:`advance` is called.

    ``sleeps`` lists every positive wait in order; ``wakeups`` lists ``(asleep_at, wakes_at)``
    of every call to :meth:`sleep`, zero waits included (a rate-limit slot that was free).
    Thread-safe: threads sharing a client share the clock.
    """

    def __init__(
        self,
        start: float = 1000.0,
        wall_start: float = 1_700_000_000.0,
        on_sleep: Optional[Callable[[float], None]] = None,
    ) -> None:
        self._now = start
        self.on_sleep = on_sleep  #: called with every positive wait before the time moves on (to order threads)
        self._wall_offset = wall_start - start
        self._lock = threading.Lock()
        self.sleeps: list[float] = []
        self.wakeups: list[tuple[float, float]] = []

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
        self._last: dict[int, float] = {}

    def monotonic(self) -> float:
        """Real monotonic time, remembered for the calling thread."""
        now = super().monotonic()
        self._last[threading.get_ident()] = now
        return now

    def last(self) -> float:
        """The calling thread's last reading."""
        return self._last[threading.get_ident()]


# -- where real time is the subject: a margin from the machine, not a guess ------------------------

#: What a call may add to its deadline on an idle machine: noticing the deadline, closing the
#: connection, building the error.
IDLE_MARGIN_S = 0.3
#: CPU time spun to measure the machine's pace (see :func:`slowdown`): long enough that the
#: scheduler's head start for a thread that just slept (a few ms) does not hide the load.
_PACE_CPU_S = 0.01


def slowdown(cpu_s: float = _PACE_CPU_S) -> float:
    """How many times slower than an idle CPU this thread runs right now (1.0 at best).

    Spins until the thread has used ``cpu_s`` of CPU and divides the wall time that took by
    it: on 2 cores shared by 6 busy processes about 3, on an idle machine 1. The work a call
    does after its deadline (waking up, closing, raising) is slowed alike.
    """
    wall, cpu = time.perf_counter(), time.thread_time()
    while time.thread_time() - cpu < cpu_s:
        pass
    return max(1.0, (time.perf_counter() - wall) / max(time.thread_time() - cpu, 1e-9))


class Pace:
    """What :func:`machine_pace` measured: ``slowdown``, the higher of before and after the block."""

    slowdown = 1.0


@contextlib.contextmanager
def machine_pace() -> Iterator[Pace]:
    """``with machine_pace() as pace: <timed call>``; then ``deadline_margin_s(pace.slowdown)``.

    Measured before and after the call, keeping the higher (one sample is noisy; the load
    that slowed the call may have come and gone on either side of it).
    """
    pace = Pace()
    before = slowdown()
    yield pace
    pace.slowdown = max(before, slowdown())


class PaceMonitor:
    """The machine's pace for many timed calls at once, sampled by one thread while any of them runs.

    ``with PaceMonitor() as monitor:`` then ``with monitor.watch() as pace: <timed call>`` in any
    number of threads; ``pace.slowdown`` is the highest :func:`slowdown` sampled from just before
    the call to just after it (every ``every_s`` while a call runs; one taken at its end when
    none fell within it). :func:`machine_pace` spins two samples of its own per call: a matrix of
    sixteen threads each timing its calls spun a second of CPU that one sampler spends a fraction
    of, while sampling each call more often than twice.
    """

    def __init__(self, every_s: float = 0.1) -> None:
        self.every_s = every_s
        self._samples: list[tuple[float, float, float]] = []  #: (started, ended, slowdown), in order
        self._watching = 0
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._stopped = False
        self._thread = threading.Thread(target=self._sample, name="pace-monitor", daemon=True)

    def __enter__(self) -> "PaceMonitor":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._stopped = True
            self._wake.notify()
        self._thread.join()

    def _sample(self) -> None:
        while True:
            with self._lock:
                while not self._watching and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
            started = time.monotonic()
            measured = slowdown()
            with self._lock:
                self._samples.append((started, time.monotonic(), measured))
            time.sleep(self.every_s)

    @contextlib.contextmanager
    def watch(self) -> Iterator[Pace]:
        """Around one timed call: its :class:`Pace` (the samples from one period before it to one after)."""
        pace = Pace()
        with self._lock:
            self._watching += 1
            self._wake.notify()
        started = time.monotonic()
        try:
            yield pace
        finally:
            ended = time.monotonic()
            with self._lock:
                self._watching -= 1
                seen = [s for begun, done, s in self._samples if done >= started - self.every_s and begun <= ended]
            pace.slowdown = max(seen + [slowdown()]) if len(seen) < 2 else max(seen)


@contextlib.contextmanager
def pace_throughout(every_s: float = 0.1) -> Iterator[Pace]:
    """``with pace_throughout() as pace: <timed call>``; then ``deadline_margin_s(pace.slowdown)``.

    :func:`machine_pace` with samples taken while the call runs too (:meth:`PaceMonitor.watch`):
    a burst of load that came and went within a call of a second slowed it unseen before and after."""
    with PaceMonitor(every_s) as monitor, monitor.watch() as pace:
        yield pace


def paced_budget_s(idle_budget_s: float) -> float:
    """A call's budget: ``idle_budget_s`` on an idle machine, as many times more as it runs slower
    now. A short budget is a share of it: the call's own set-up on a loaded machine could spend
    enough of it that the client refuses to send the request (``budget_exhausted``, nothing sent),
    where the test is about what the request meets."""
    return idle_budget_s * max(1.0, slowdown())


def deadline_margin_s(pace_slowdown: float, idle_margin_s: float = IDLE_MARGIN_S) -> float:
    """What a call may take beyond its deadline: ``idle_margin_s`` on an idle machine, that many
    times more on a machine running ``pace_slowdown`` times slower. A call that ignores its
    deadline overruns by far more (the bugs these tests caught ran seconds to minutes late)."""
    return idle_margin_s * max(1.0, pace_slowdown)


def running(thread_name: str) -> int:
    """How many threads carry ``thread_name`` right now: the library's work threads are reused
    (``websearch_sync.net.workers``) and carry a job's name only while they run it."""
    return sum(1 for thread in threading.enumerate() if thread.name == thread_name)


def wait_for_work(thread_name: str, timeout_s: float) -> bool:
    """Wait up to ``timeout_s`` for no thread to run ``thread_name`` work; whether none does."""
    ends = time.monotonic() + timeout_s
    while running(thread_name) and time.monotonic() < ends:
        time.sleep(0.01)
    return not running(thread_name)


def work_until_stopped(what: str, seconds: float = 10.0) -> NoReturn:
    """Work as the library's parsers and extractors do, reaching a checkpoint every millisecond,
    for ``seconds``: the stop a checkpoint raises (the deadline passed, the work abandoned) ends
    it; ``AssertionError`` naming ``what`` when nothing did."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        checkpoint()
        time.sleep(0.001)
    raise AssertionError("%s was not stopped" % what)


def abandoned_work_left(thread_name: str, idle_margin_s: float) -> tuple[int, float]:
    """After a call gave up on work it ran in threads named ``thread_name``: how many still run it
    once the margin (``idle_margin_s`` on an idle machine, scaled by the measured slowdown) has
    passed, and the seconds waited. Work still running then is waited for (up to a minute), so it
    does not slow the next tests."""
    started = time.monotonic()
    wait_for_work(thread_name, deadline_margin_s(slowdown(), idle_margin_s))
    waited, left = time.monotonic() - started, running(thread_name)
    if left:  # the old behaviour: let it finish before the next tests
        wait_for_work(thread_name, 60)
    return left, waited

"""Clocks for tests. :class:`FakeClock`: ``sleep()`` records the wait and moves the clock's
time on at once. :class:`ThreadClock`: the real clock, remembering what each thread read last.

Give it to a client (``SearchClient(clock=FakeClock())``), or use the ``fake_clock``
fixture of ``tests/conftest.py``, which also puts it behind the default clock so that
``websearch_sync.search`` and the CLI use it. Retries, Retry-After, rate-limit slots and
cool-downs then cost no real time, and a test asserts on what was waited
(:attr:`FakeClock.sleeps`) instead of on elapsed wall time. Deadlines
(``websearch_sync.net.deadline``) are not the client's clock: they stay real, unless a test
puts them on a fake clock too (:func:`deadlines_on`).
"""

import contextlib
import functools
import threading
import time
import types
from collections.abc import Iterator
from typing import Any, Callable, NoReturn, Optional, TypeVar

from websearch_sync.checkpoints import checkpoint
from websearch_sync.client.clock import Clock

__all__ = [
    "FakeClock",
    "deadlines_on",
    "ThreadClock",
    "Pace",
    "PaceMonitor",
    "machine_pace",
    "pace_throughout",
    "slowdown",
    "deadline_margin_s",
    "download_s",
    "WorkUnits",
]

T = TypeVar("T")


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

    def sleep_unless(self, cancelled: threading.Event, seconds: float) -> bool:
        """:meth:`sleep` unless ``cancelled`` is set; whether it is set (a cancellable wait takes no real time)."""
        if not cancelled.is_set():
            self.sleep(seconds)
        return cancelled.is_set()

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass (what a test does instead of ``time.sleep``)."""
        with self._lock:
            self._now += seconds

    @property
    def slept(self) -> float:
        """Seconds waited in all."""
        with self._lock:
            return sum(self.sleeps)


def deadlines_on(clock: FakeClock, monkeypatch: Any) -> None:
    """Every :class:`~websearch_sync.net.deadline.Deadline` made or read from now on (for the rest of
    the test) counts ``clock``'s time instead of the real one: what is left of a call's budget is
    then exact, whatever the request took on a loaded machine (a test of a decision made on the
    time left, e.g. whether a wait leaves a retry time to be sent, is no race with the machine).
    A one-call ``websearch_sync.search`` counts its deadline from its client's making
    (``Deadline.since``): that reading is the clock's too. Checked at once: a deadline module that
    no longer reads ``time.monotonic`` fails here loudly, not in a test that then races real time
    again."""
    from websearch_sync import api
    from websearch_sync.net import deadline

    fake_time = types.SimpleNamespace(monotonic=clock.monotonic)
    monkeypatch.setattr(deadline, "time", fake_time)
    monkeypatch.setattr(api, "time", fake_time)
    probe = deadline.Deadline(1000)
    clock.advance(0.25)
    assert abs(probe.remaining_s() - 0.75) < 1e-6, "Deadline does not read the fake clock: see deadlines_on"
    clock.advance(-0.25)


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
    """What :func:`machine_pace` measured: ``slowdown``, the higher of before and after the block.
    :meth:`PaceMonitor.watch` also gives ``late_s``: how late its sampler woke from a sleep around
    the call, at worst (0 elsewhere)."""

    slowdown = 1.0
    late_s = 0.0


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
    of, while sampling each call more often than twice. ``pace.late_s`` is how much later than
    asked the sampler woke from its sleeps in that time (or is overdue as the call ends), at worst:
    a burst of load that held the process's threads off the CPU or the GIL between two samples
    (any burst longer than ``every_s`` overlaps a wake-up or a sample), which woke the call as late
    from its deadline while every sample ran fast.
    """

    def __init__(self, every_s: float = 0.1) -> None:
        self.every_s = every_s
        #: (started, ended, slowdown, late_s), in order; ``late_s``: how much later than asked the
        #: sampler woke from the sleep before the sample (0 for the first of a watch)
        self._samples: list[tuple[float, float, float, float]] = []
        self._watching = 0
        self._asleep: Optional[float] = None  #: when the sampler went to sleep for ``every_s`` (None: not asleep so)
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
                if not self._watching:
                    self._asleep = None  # waiting for a watch is no lateness
                while not self._watching and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                started = time.monotonic()
                late, self._asleep = self._overdue(started), None
            measured = slowdown()
            with self._lock:
                self._samples.append((started, time.monotonic(), measured, late))
                self._asleep = time.monotonic()
            time.sleep(self.every_s)

    def _overdue(self, now: float) -> float:
        """How much later than asked the sampler is, at ``now``, waking from its sleep (under the lock)."""
        return 0.0 if self._asleep is None else max(0.0, now - self._asleep - self.every_s)

    def recent(self, window_s: float = 1.0) -> float:
        """The highest :func:`slowdown` sampled in the last ``window_s`` (1.0 before any sample; sampled
        only while a :meth:`watch` block is open): the pace right now, for a budget made many times
        over a long run (one measured at its start is a calmer moment's when the load rises later)."""
        since = time.monotonic() - window_s
        with self._lock:
            seen = [measured for _begun, done, measured, _late in self._samples if done >= since]
        return max(seen, default=1.0)

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
                seen = [
                    (s, late)
                    for begun, done, s, late in self._samples
                    if done >= started - self.every_s and begun <= ended
                ]
                overdue = self._overdue(ended)  # a burst the call ended in, which the sampler has not woken from yet
            paces = [s for s, _late in seen]
            pace.slowdown = max(paces + [slowdown()]) if len(seen) < 2 else max(paces)
            pace.late_s = max([late for _s, late in seen] + [overdue])


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


def download_s(url: str) -> float:
    """Seconds one plain download of ``url`` takes right now (nothing parsed): what a deadline must
    leave for the download before the work a test is about (the parse, the extraction) begins."""
    import requests  # here: the clocks themselves need no HTTP client

    started = time.monotonic()
    assert requests.get(url, timeout=30).content
    return time.monotonic() - started


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


class WorkUnits:
    """When work running in threads named ``thread_name`` did each unit of its work (a page, a
    read of a file, a result block, a step), to count the units it did after its call returned.

    Whether work a call abandoned stops is a count, not a time: a stop that works leaves at most
    the units up to the work's next checkpoint, one that does not leaves the rest of the work,
    thousands of units. A time cannot say it as surely: a margin from the machine's pace sampled
    while the abandoned work runs is slowed by that work itself (it holds the GIL in this
    process), and stretches by as much as a run that does not stop; sampled at one instant it
    misses the bursts of load that delay the thread's end. Count the units with :meth:`done` or
    :meth:`counted`, note ``returned = time.monotonic()`` as the call returns, then
    :meth:`after`."""

    def __init__(self, thread_name: str) -> None:
        self.thread_name = thread_name
        self._times: list[float] = []  # list.append is atomic: threads may record at once

    def done(self) -> None:
        """One unit done now (ignored outside threads named ``thread_name``)."""
        if threading.current_thread().name == self.thread_name:
            self._times.append(time.monotonic())

    def counted(self, function: Callable[..., T]) -> Callable[..., T]:
        """``function``, each call of it a unit begun."""

        @functools.wraps(function)
        def counting(*args: Any, **kwargs: Any) -> T:
            self.done()
            return function(*args, **kwargs)

        return counting

    def after(self, returned: float) -> int:
        """The units done after ``returned``, once no thread runs ``thread_name`` work any more
        (it is waited for, up to a minute: work that does not stop runs to its end, a few seconds)."""
        assert wait_for_work(self.thread_name, 60), "the %s work was still running a minute after its call returned" % (
            self.thread_name
        )
        return sum(1 for when in self._times if when > returned)

    def __len__(self) -> int:
        """The units done so far."""
        return len(self._times)


class AbandonedAfter:
    """What abandons work (``checkpoints.abandonable``) at its ``checks``-th checkpoint, counting
    the checkpoints reached in ``seen``: a long call shown cut without the wall clock."""

    def __init__(self, checks: int) -> None:
        self.checks, self.seen = checks, 0

    def is_set(self) -> bool:
        """True from the ``checks``-th checkpoint on."""
        self.seen += 1
        return self.seen >= self.checks

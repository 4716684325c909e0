"""The client's clock: where it reads the time and how it waits.

Retries, rate-limit slots and cool-downs wait through a :class:`Clock`, so a test
(or a caller with its own scheduler) can pass one that does not really sleep.
"""

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Optional

from ..forks import instance_lock
from ..net import waits

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class SkippedTime:
    """The waits a clock skipped: instead of sleeping, its time moved on by them. A replay's own clock
    (``always``) keeps its offset; the process's (:func:`waits_skipped`) is real time again once the last
    block closes: readings of ``time.monotonic()`` (a server's log, a test's) and of the clock agree
    outside the blocks, and a cool-down or pace slot a search inside one left lasts the skipped time longer
    after it (``websearch_sync.testing.reset()``, run before each test, forgets them)."""

    def __init__(self, always: bool = False) -> None:
        self.offset_s = 0.0
        self.always = always  #: skip every wait (a replay's own clock), not only within :func:`waits_skipped`
        self.depth = 0  #: the :func:`waits_skipped` blocks open
        self._lock = instance_lock(self)

    def skip(self, seconds: float) -> bool:
        """Whether a wait of ``seconds`` is skipped now (the time then moves on by it)."""
        with self._lock:
            if not (self.always or self.depth):
                return False
            self.offset_s += max(0.0, seconds)
            return True

    def enter(self, opened: int) -> None:
        """Count ``opened`` (1 or -1) :func:`waits_skipped` blocks; the last one out ends the offset."""
        with self._lock:
            self.depth += opened
            if not (self.depth or self.always):
                self.offset_s = 0.0


#: The waits :class:`Clock` skipped within the :func:`waits_skipped` blocks open, for the whole process.
PROCESS_SKIPS = SkippedTime()


class Clock:
    """Monotonic time, wall time and sleeping, from the ``time`` module (moved on by the waits it
    skipped: :func:`waits_skipped`)."""

    skipped = PROCESS_SKIPS

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (but by the waits it skipped, as the last
        :func:`waits_skipped` block closes)."""
        return time.monotonic() + self.skipped.offset_s

    def time(self) -> float:
        """Seconds since the epoch (for messages that show a time of day)."""
        return time.time() + self.skipped.offset_s

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (nothing for zero or less), in slices (:func:`~websearch_sync.net.waits.sleep`):
        a Ctrl-C that came just before a sleep began interrupts none, and is raised when the
        thread next wakes."""
        if not self.skipped.skip(seconds):
            waits.sleep(seconds)

    def sleep_unless(self, cancelled: threading.Event, seconds: float) -> bool:
        """Wait ``seconds``, or less when ``cancelled`` is set meanwhile; whether it is set
        (:class:`CancellableClock`'s wait, so that it waits on the clock it wraps)."""
        if self.skipped.skip(seconds):
            return cancelled.is_set()
        return cancelled.wait(max(0.0, seconds))


@contextmanager
def waits_skipped() -> Iterator[None]:
    """Within the block, every wait of a :class:`Clock` (the default clock of every client, of
    ``websearch_sync.search`` and the tools) takes no real time: the clock moves on by it at once,
    as a replay's (:func:`websearch_sync.testing.replay_fixtures`: a recorded 429's ``Retry-After``
    and the retries after it, a pace slot, protect no server), until the last block closes (see
    :class:`SkippedTime`). Blocks nest and overlap across threads; a fake clock a test put behind the
    default one keeps counting its waits itself."""
    PROCESS_SKIPS.enter(1)
    try:
        yield
    finally:
        PROCESS_SKIPS.enter(-1)


class CallCancelled(BaseException):
    """Raised inside a call that was cancelled (an MCP request cancelled, a batch that stopped),
    at its next wait.

    A ``BaseException`` (like ``KeyboardInterrupt``), so the library's error handling
    passes it through instead of turning it into a search error.
    """


class CancellableClock(Clock):
    """The system clock, except that inside :meth:`cancellable` a call ends once its event is set:
    a cancelled call stops at its next rate-limit, retry or cool-down wait, and before each
    request it would send (:meth:`raise_if_cancelled`), instead of reaching the upstream. The MCP
    server cancels a call its client cancelled; a batch of the command line the query running when
    it stops (Ctrl-C, K failures, a reader that left). The event lives in a context variable, so
    it reaches the threads a call hands work to (a merge's backends, the pages ``include_content``
    reads: each runs in a copy of the caller's context); waits of other calls, and outside
    :meth:`cancellable`, are ordinary sleeps. It reads and waits on :data:`SYSTEM_CLOCK`, looked up
    at each call (a test's fake clock behind it holds)."""

    def __init__(self) -> None:
        self._cancelled: ContextVar[Optional[threading.Event]] = ContextVar("websearch_sync_cancelled", default=None)

    def monotonic(self) -> float:
        """The system clock's monotonic time."""
        return SYSTEM_CLOCK.monotonic()

    def time(self) -> float:
        """The system clock's wall time."""
        return SYSTEM_CLOCK.time()

    @contextmanager
    def cancellable(self, cancelled: threading.Event) -> Iterator[None]:
        """Waits and requests of this call inside the block raise :class:`CallCancelled` once ``cancelled`` is set."""
        token = self._cancelled.set(cancelled)
        try:
            yield
        finally:
            self._cancelled.reset(token)

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or raise :class:`CallCancelled` as soon as this call is cancelled."""
        cancelled = self._cancelled.get()
        if cancelled is None:
            SYSTEM_CLOCK.sleep(seconds)
        elif SYSTEM_CLOCK.sleep_unless(cancelled, seconds):
            raise CallCancelled()

    def raise_if_cancelled(self) -> None:
        """Raise :class:`CallCancelled` when this call is cancelled."""
        cancelled = self._cancelled.get()
        if cancelled is not None and cancelled.is_set():
            raise CallCancelled()


def raise_if_cancelled(clock: object) -> None:
    """Raise :class:`CallCancelled` when ``clock`` is a :class:`CancellableClock` whose call is
    cancelled (checked before every request a client sends, so that a cancelled call sends none).
    Any other clock never cancels: a caller's own clock needs only ``monotonic``, ``time`` and
    ``sleep``, subclass of :class:`Clock` or not."""
    if isinstance(clock, CancellableClock):
        clock.raise_if_cancelled()


def time_of_day(wall: float) -> str:
    """``HH:MM:SS`` of a wall-clock time (local), or ``?`` for one no clock can show (for messages)."""
    try:
        return time.strftime("%H:%M:%S", time.localtime(wall))
    except (OverflowError, ValueError, OSError):
        return "?"


#: The clock every client uses unless it is given another.
SYSTEM_CLOCK = Clock()

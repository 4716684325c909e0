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
    """The waits skipped within one outermost :func:`waits_skipped` block (or by a replay's own clock):
    instead of sleeping, the clock's monotonic time moved on by them. The offset only grows: a reading
    taken inside and one taken after, in the same context or in a thread started inside, never go
    back. Once the block closes it skips no more waits (``open`` is false) but keeps its offset."""

    def __init__(self, offset_s: float = 0.0) -> None:
        self.offset_s = offset_s
        self.open = True  #: waits are skipped (until its block closes; a replay's clock: always)
        self._lock = instance_lock(self)

    def skip(self, seconds: float) -> bool:
        """Whether a wait of ``seconds`` is skipped now (the time then moves on by it)."""
        with self._lock:
            if not self.open:
                return False
            self.offset_s += max(0.0, seconds)
            return True

    def close(self) -> None:
        """Skip no more waits (the offset stays)."""
        with self._lock:
            self.open = False


#: The skipped time of the context's :func:`waits_skipped` blocks: in the context that opened one and
#: the library's work threads (each runs in a copy of its caller's context), never other threads.
_BLOCK_SKIPS: ContextVar[Optional[SkippedTime]] = ContextVar("websearch_sync_skipped_waits", default=None)


class Clock:
    """Monotonic time, wall time and sleeping, from the ``time`` module (the monotonic time moved on
    by the waits it skipped: :func:`waits_skipped`)."""

    #: A clock's own skipped time (a replay's: every wait skipped); ``None``: the context's blocks'.
    skipped: Optional[SkippedTime] = None

    def _skips(self) -> Optional[SkippedTime]:
        return self.skipped if self.skipped is not None else _BLOCK_SKIPS.get()

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (ahead of ``time.monotonic()`` by the waits
        skipped in this context)."""
        skips = self._skips()
        return time.monotonic() + (skips.offset_s if skips is not None else 0.0)

    def time(self) -> float:
        """Seconds since the epoch (for messages that show a time of day, and what files and other
        processes read: never moved by skipped waits)."""
        return time.time()

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (nothing for zero or less), in slices (:func:`~websearch_sync.net.waits.sleep`):
        a Ctrl-C that came just before a sleep began interrupts none, and is raised when the
        thread next wakes."""
        skips = self._skips()
        if skips is None or not skips.skip(seconds):
            waits.sleep(seconds)

    def sleep_unless(self, cancelled: threading.Event, seconds: float) -> bool:
        """Wait ``seconds``, or less when ``cancelled`` is set meanwhile; whether it is set
        (:class:`CancellableClock`'s wait, so that it waits on the clock it wraps)."""
        skips = self._skips()
        if skips is not None and skips.skip(seconds):
            return cancelled.is_set()
        return cancelled.wait(max(0.0, seconds))


@contextmanager
def waits_skipped() -> Iterator[None]:
    """Within the block, every wait of a :class:`Clock` (the default clock of every client, of
    ``websearch_sync.search`` and the tools) in this context takes no real time: the clock's monotonic
    time moves on by it at once, as a replay's (:func:`websearch_sync.testing.replay_fixtures`: a
    recorded 429's ``Retry-After`` and the retries after it, a pace slot, protect no server). Only the
    context that opened the block skips, and the library's work threads it hands work to (a merge's
    backends, ``include_content``'s pages); an application's other threads wait for real. Blocks nest
    (the outermost one's :class:`SkippedTime`); once the outermost closes, waits are real again but the
    context's clock stays ahead by the time skipped (it never goes back) until
    :func:`forget_skipped_time`. A fake clock a test put behind the default one counts its waits itself."""
    current = _BLOCK_SKIPS.get()
    if current is not None and current.open:
        yield
        return
    block = SkippedTime(current.offset_s if current is not None else 0.0)
    _BLOCK_SKIPS.set(block)
    try:
        yield
    finally:
        block.close()


def forget_skipped_time() -> None:
    """This context's clock reads ``time.monotonic()`` again once its blocks are closed
    (``websearch_sync.testing.reset()``, run before each test: nothing a block left is kept; within an
    open block it keeps skipping)."""
    current = _BLOCK_SKIPS.get()
    if current is not None and not current.open:
        _BLOCK_SKIPS.set(None)


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


def time_of_day_from(wall: float, now_wall: float) -> str:
    """:func:`time_of_day` of ``wall``, with ``on YYYY-MM-DD`` after it when that is another local day
    than ``now_wall``'s: a cool-down of a day said "until 21:10:40" at 21:10:40, an hour already past."""
    shown = time_of_day(wall)
    try:
        day, today = (
            time.strftime("%Y-%m-%d", time.localtime(wall)),
            time.strftime("%Y-%m-%d", time.localtime(now_wall)),
        )
    except (OverflowError, ValueError, OSError):
        return shown
    return shown if day == today else "%s on %s" % (shown, day)


#: The clock every client uses unless it is given another.
SYSTEM_CLOCK = Clock()

"""The client's clock: where it reads the time and how it waits.

Retries, rate-limit slots and cool-downs wait through a :class:`Clock`, so a test
(or a caller with its own scheduler) can pass one that does not really sleep.
"""

import time

from ..net import waits

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class Clock:
    """Monotonic time, wall time and sleeping, from the ``time`` module."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back."""
        return time.monotonic()

    def time(self) -> float:
        """Seconds since the epoch (for messages that show a time of day)."""
        return time.time()

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (nothing for zero or less), in slices (:func:`~websearch_sync.net.waits.sleep`):
        a Ctrl-C that came just before a sleep began interrupts none, and is raised when the
        thread next wakes."""
        waits.sleep(seconds)


def time_of_day(wall: float) -> str:
    """``HH:MM:SS`` of a wall-clock time (local), or ``?`` for one no clock can show (for messages)."""
    try:
        return time.strftime("%H:%M:%S", time.localtime(wall))
    except (OverflowError, ValueError, OSError):
        return "?"


#: The clock every client uses unless it is given another.
SYSTEM_CLOCK = Clock()

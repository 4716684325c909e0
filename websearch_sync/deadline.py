"""A whole-call deadline shared by every step of one search or fetch."""

import time
from typing import Optional

__all__ = ["Deadline"]


class Deadline:
    """A point in monotonic time by which a call must be finished.

    ``timeout_ms`` is kept for messages ("... within 15000 ms").
    """

    __slots__ = ("timeout_ms", "_end")

    def __init__(self, timeout_ms: float, *, _end: Optional[float] = None) -> None:
        self.timeout_ms = timeout_ms
        self._end = time.monotonic() + timeout_ms / 1000.0 if _end is None else _end

    def remaining_s(self) -> float:
        """Seconds left (may be negative once the deadline has passed)."""
        return self._end - time.monotonic()

    def remaining_ms(self) -> float:
        """Milliseconds left (may be negative)."""
        return self.remaining_s() * 1000.0

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.remaining_s() <= 0

    def sooner(self, timeout_ms: Optional[float]) -> "Deadline":
        """A deadline ``timeout_ms`` from now, or this one if it comes first."""
        if timeout_ms is None:
            return self
        end = time.monotonic() + timeout_ms / 1000.0
        if end >= self._end:
            return self
        return Deadline(timeout_ms, _end=end)

    def __repr__(self) -> str:
        return "Deadline(timeout_ms=%r, remaining_ms=%.0f)" % (self.timeout_ms, self.remaining_ms())

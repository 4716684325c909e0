"""A whole-call deadline shared by every step of one search or fetch."""

import threading
import time
from typing import Any, Callable, Dict, Optional, TypeVar

__all__ = ["Deadline", "run_within", "DeadlinePassed"]

T = TypeVar("T")


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


class DeadlinePassed(Exception):
    """Raised by :func:`run_within` when the work outlasts the deadline (callers turn it into ``Timeout``)."""


def run_within(deadline: Deadline, work: Callable[[], T], *, minimum_s: float = 0.05, name: str = "websearch-work") -> T:
    """``work()``'s result, or :class:`DeadlinePassed` once ``deadline`` has passed.

    For CPU-bound steps that cannot be interrupted (parsing, text extraction): the
    work runs in a daemon thread that is abandoned at the deadline and finishes on
    its own. It always gets ``minimum_s`` (a small answer read at the last moment is
    still worth its few milliseconds). An exception raised by ``work`` is re-raised here.
    """
    outcome: Dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = work()
        except BaseException as exc:  # carried to the calling thread, re-raised there
            outcome["error"] = exc

    worker = threading.Thread(target=run, name=name, daemon=True)
    worker.start()
    worker.join(max(deadline.remaining_s(), minimum_s))
    if worker.is_alive():
        raise DeadlinePassed(name)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]

"""Per-backend minimum spacing between requests, shared by all threads of a client."""

import threading
from typing import Dict, Optional

from .clock import SYSTEM_CLOCK, Clock

__all__ = ["RateLimiter"]


class RateLimiter:
    """Hands out request slots at least ``interval`` seconds apart per backend.

    :meth:`reserve` books the next free slot and returns how long to wait for it;
    it books nothing and returns ``None`` when the wait would not fit in
    ``max_wait_s`` (budget first: the caller fails now instead of waiting in vain).
    """

    def __init__(self, clock: Clock = SYSTEM_CLOCK) -> None:
        self._clock = clock
        self._next: Dict[str, float] = {}
        self._lock = threading.Lock()

    def reserve(self, name: str, interval: float, max_wait_s: float) -> Optional[float]:
        """Book a slot for ``name``; the seconds to wait, or ``None`` if over ``max_wait_s``."""
        if interval <= 0:
            return 0.0
        with self._lock:
            now = self._clock.monotonic()
            slot = max(now, self._next.get(name, now))
            wait = slot - now
            if wait > max_wait_s:
                return None
            self._next[name] = slot + interval
            return wait

    def next_free_in(self, name: str) -> float:
        """Seconds until ``name`` has a free slot (0 when it has one now)."""
        with self._lock:
            return max(0.0, self._next.get(name, 0.0) - self._clock.monotonic())

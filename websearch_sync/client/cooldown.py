"""Cool-downs: after a block, a backend is left alone for a while."""

import threading
import time
from typing import Dict, Optional, Tuple

from ..errors import WebBlocked
from .clock import SYSTEM_CLOCK, Clock

__all__ = ["Cooldowns", "DEFAULT_COOLDOWNS_S"]

#: Seconds a backend is suspended after each kind of block (``http_429`` uses
#: the service's Retry-After when it gave one).
DEFAULT_COOLDOWNS_S: Dict[str, float] = {"captcha_required": 600.0, "http_429": 60.0, "http_403": 300.0}


class Cooldowns:
    """Remembers which backends are suspended, until when, and why (thread-safe)."""

    def __init__(self, durations_s: Optional[Dict[str, float]] = None, clock: Clock = SYSTEM_CLOCK) -> None:
        self._clock = clock
        self.durations_s = dict(DEFAULT_COOLDOWNS_S)
        self.durations_s.update(durations_s or {})
        self._until: Dict[str, Tuple[float, float, WebBlocked, float]] = {}
        self._lock = threading.Lock()

    def record(self, error: WebBlocked) -> None:
        """Suspend the error's backend for the duration its kind calls for."""
        if not error.provider:
            return
        duration = self.durations_s.get(error.detail_code or "", 0.0)
        if error.detail_code == "http_429" and error.retry_after is not None:
            duration = error.retry_after
        if duration <= 0:
            return
        with self._lock:
            now = self._clock.monotonic()
            self._until[error.provider] = (now + duration, self._clock.time() + duration, error, now)

    def clear(self, name: str, started: Optional[float] = None) -> None:
        """Lift a suspension (after a success).

        ``started`` (``self._clock.monotonic()`` when the successful request was sent) keeps
        a block recorded after it: a request already under way when another thread
        met the wall proves nothing about the wall.
        """
        with self._lock:
            entry = self._until.get(name)
            if entry is not None and (started is None or entry[3] <= started):
                del self._until[name]

    def check(self, name: str) -> None:
        """Raise the suspending ``WebBlocked`` again while ``name`` is cooling down."""
        with self._lock:
            entry = self._until.get(name)
            if entry is None:
                return
            until, wall_until, cause, _recorded = entry
            if until <= self._clock.monotonic():
                del self._until[name]
                return
        raise WebBlocked(
            "%s is cooling down after %s until %s (%.0f s left); not contacting it"
            % (name, cause.detail_code, time.strftime("%H:%M:%S", time.localtime(wall_until)), until - self._clock.monotonic()),
            provider=name,
            detail_code=cause.detail_code,
            status=cause.status,
            retry_after=max(0.0, until - self._clock.monotonic()),
        )

"""Cool-downs: after a block, a backend is left alone for a while (by every process of a
shared state, ``state/cooldowns.py``, when there is one)."""

import threading
import time
from typing import Any, Dict, Optional, Tuple

from ..errors import WebBlocked
from ..net.transport import MAX_RETRY_AFTER_S
from .clock import SYSTEM_CLOCK, Clock

__all__ = ["Cooldowns", "DEFAULT_COOLDOWNS_S", "MAX_COOLDOWN_S"]

#: Seconds a backend is suspended after each kind of block (``http_429`` uses
#: the service's Retry-After when it gave one).
DEFAULT_COOLDOWNS_S: Dict[str, float] = {"captcha_required": 600.0, "http_429": 60.0, "http_403": 300.0}
#: No suspension lasts longer than the longest wait a service may ask for (one day), whatever
#: a setting asks (a huge duration would overflow the clock arithmetic of every later call).
MAX_COOLDOWN_S = MAX_RETRY_AFTER_S


class Cooldowns:
    """Remembers which backends are suspended, until when, and why (thread-safe).

    With a ``shared`` tier, each suspension is also written there, and the ones
    other processes wrote are obeyed here; a success lifts only this process's own
    record (a shared one ends when its key expires).
    """

    def __init__(self, durations_s: Optional[Dict[str, float]] = None, clock: Clock = SYSTEM_CLOCK, shared: Any = None) -> None:
        self._clock = clock
        self._shared = shared
        self.durations_s = dict(DEFAULT_COOLDOWNS_S)
        self.durations_s.update(durations_s or {})
        self._until: Dict[str, Tuple[float, float, WebBlocked, float]] = {}
        self._lock = threading.Lock()

    def record(self, error: WebBlocked, key: Optional[str] = None) -> None:
        """Suspend ``key`` (default: the error's backend; a backend may name a part of
        itself, :meth:`~websearch_sync.engine.base.Backend.cooldown_key`) for the
        duration the error's kind calls for."""
        key = key or error.provider
        if not key:
            return
        duration = self.durations_s.get(error.detail_code or "", 0.0)
        if error.detail_code == "http_429" and error.retry_after is not None:
            duration = error.retry_after
        duration = min(duration, MAX_COOLDOWN_S)
        if not duration > 0:  # also NaN
            return
        wall_until = self._clock.time() + duration
        self._suspend(key, duration, wall_until, error)
        if self._shared is not None:
            self._shared.record(key, error.detail_code, error.status, duration, wall_until)

    def _suspend(self, name: str, duration: float, wall_until: float, cause: WebBlocked) -> None:
        with self._lock:
            now = self._clock.monotonic()
            self._until[name] = (now + duration, wall_until, cause, now)

    def clear(self, name: str, started: Optional[float] = None) -> None:
        """Lift a suspension (after a success).

        ``started`` (the clock's reading before the successful request's cool-down check) keeps
        a block recorded after it: a request already under way when another thread
        met the wall proves nothing about the wall.
        """
        with self._lock:
            entry = self._until.get(name)
            if entry is not None and (started is None or entry[3] <= started):
                del self._until[name]

    def check(self, name: str) -> None:
        """Raise the suspending ``WebBlocked`` again while ``name`` (a backend, or a part of one:
        ``searxng[engines=brave]``) is cooling down."""
        with self._lock:
            entry = self._until.get(name)
            if entry is not None and entry[0] <= self._clock.monotonic():
                del self._until[name]
                entry = None
        if entry is not None:
            until, wall_until, cause, _recorded = entry
            raise _cooling_down(name, cause.detail_code, cause.status, wall_until, until - self._clock.monotonic())
        shared = self._shared.lookup(name) if self._shared is not None else None
        if shared is not None:  # another process met the wall: remember it here too, and obey
            error = _cooling_down(name, shared.detail_code, shared.status, shared.until, shared.left_s)
            self._suspend(name, shared.left_s, shared.until, error)
            raise error


def _cooling_down(name: str, detail_code: Optional[str], status: Optional[int], wall_until: float, left_s: float) -> WebBlocked:
    return WebBlocked(
        "%s is cooling down after %s until %s (%.0f s left); not contacting it"
        % (name, detail_code, time.strftime("%H:%M:%S", time.localtime(wall_until)), left_s),
        provider=name.partition("[")[0],  # a part of a backend is keyed "<backend>[<part>]"
        detail_code=detail_code,
        status=status,
        retry_after=max(0.0, left_s),
    )

"""Per-backend minimum spacing between requests, shared by all threads of a client,
and by all processes of a shared state (``state/slots.py``) when there is one."""

import threading
from typing import Optional

from .clock import SYSTEM_CLOCK, Clock
from .tiers import SharedSlotsTier

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


#: Less than this is the clock arithmetic's rounding, not a wait.
_ROUNDING_S = 1e-6


class RateLimiter:
    """Hands out request slots at least ``interval`` seconds apart per backend.

    :meth:`reserve` books the next free slot and returns how long to wait for it;
    it books nothing and returns ``None`` when the wait would not fit in
    ``max_wait_s`` (budget first: the caller fails now instead of waiting in vain).
    With a ``shared`` tier the slots are booked there, for every process; when it
    cannot be reached they are booked here, for this client, at this process's share
    of the pace: ``interval`` times the number of processes that shared it when the tier
    last answered (the fleet), so that N workers do not send N times the rate during an
    outage. When the tier answers again, no shared slot comes before the last one booked
    here has passed.
    """

    def __init__(self, clock: Clock = SYSTEM_CLOCK, shared: Optional[SharedSlotsTier] = None) -> None:
        self._clock = clock
        self._shared = shared
        self._next: dict[str, float] = {}
        self._last: dict[str, float] = {}  # the last slot booked here (not in the shared tier)
        self._sent: dict[str, float] = {}  # when the last request booked here left
        self._shared_next: dict[str, float] = {}  # when a shared slot was refused: when it comes
        self._lock = threading.Lock()

    def reserve(self, name: str, interval: float, max_wait_s: float) -> Optional[float]:
        """Book a slot for ``name``; the seconds to wait, or ``None`` if over ``max_wait_s``."""
        if interval <= 0:
            return 0.0
        if self._shared is not None:
            with self._lock:
                last = self._last.get(name)
                not_before = 0.0 if last is None else max(0.0, last + interval - self._clock.monotonic())
            answer = self._shared.reserve(name, interval, max_wait_s, not_before)
            if answer is not None:
                booked, wait = answer
                if booked:
                    return wait
                with self._lock:
                    self._shared_next[name] = self._clock.monotonic() + wait
                return None
            interval *= self._shared.fleet(name)  # this process's share of the fleet's pace
        with self._lock:
            now = self._clock.monotonic()
            slot = max(now, self._next.get(name, now))
            wait = slot - now
            if wait > max_wait_s:
                return None
            self._next[name] = slot + interval
            self._last[name] = slot
            return wait

    def sending(self, name: str, interval: float, left_s: Optional[float] = None) -> float:
        """Right before a request to ``name`` leaves: 0.0 when it may leave now (it is noted as
        leaving), else the seconds to wait first. A slot is booked ahead of time; a request that
        left late (a loaded machine wakes its thread late) would leave less than ``interval``
        before the next one, on time: the pace must hold as the upstream sees it, not only as
        booked. ``left_s``: the time the call has left (bounds the shared round trip)."""
        if interval <= 0:
            return 0.0
        if self._shared is not None:
            wait = self._shared.sending(name, interval, left_s)
            if wait is not None:
                return wait
            interval *= self._shared.fleet(name)
        with self._lock:
            now = self._clock.monotonic()
            last = self._sent.get(name)
            if last is not None and last + interval - now > _ROUNDING_S:
                return last + interval - now
            self._sent[name] = now
            self._next[name] = max(self._next.get(name, now), now + interval)
            return 0.0

    def next_free_in(self, name: str) -> float:
        """Seconds until ``name`` has a free slot (0 when it has one now)."""
        with self._lock:
            soonest = max(self._next.get(name, 0.0), self._shared_next.get(name, 0.0))
            return max(0.0, soonest - self._clock.monotonic())

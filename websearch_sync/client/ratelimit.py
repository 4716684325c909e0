"""Per-backend minimum spacing between requests, shared by all threads of a client,
and by all processes of a shared state (``state/slots.py``) when there is one."""

import dataclasses
import logging
import threading
from typing import Optional

from ..errors import WebSearchError
from ..forks import renewed_in_children
from .clock import SYSTEM_CLOCK, Clock
from .state.server import RETRY_AFTER_S
from .tiers import SharedBooking, SharedSlotsTier

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")


#: Less than this is the clock arithmetic's rounding, not a wait.
_ROUNDING_S = 1e-6
#: After the shared tier answers again, a process keeps its outage share this long: every other
#: process tries the tier again within this time of its last failure (``StateServer``).
HANDOVER_S = RETRY_AFTER_S


@dataclasses.dataclass(frozen=True)
class _Booking:
    """The last slot a thread booked, until its request leaves (:meth:`RateLimiter.release`
    hands it on when the request gives up instead)."""

    name: str
    before: Optional[float]  #: this process's next slot before the booking (``None``: none)
    after: float  #: ... by the booking (it moved it only when later)
    shared: Optional[SharedBooking]  #: the booking in the shared tier (``None``: none), as it answered it


class RateLimiter:
    """Hands out request slots at least ``interval`` seconds apart per backend.

    :meth:`reserve` books the next free slot and returns how long to wait for it;
    it books nothing and returns ``None`` when the wait would not fit in
    ``max_wait_s`` (budget first: the caller fails now instead of waiting in vain), or when
    the call has too little time left to ask the ``shared`` tier (no free slot is known: that
    is no outage, and this process does not start pacing alone while another holds the slot).
    A request that gives up between its booking and leaving hands its slot on (:meth:`release`).
    With a ``shared`` tier the slots are booked there, for every process; when it
    cannot be reached they are booked here, for this client, at this process's share
    of the pace: ``interval`` times the number of processes that shared it when the tier
    last answered (the fleet), so that N workers do not send N times the rate during an
    outage. Its share goes on from its last shared slot (the fleet's slots were
    interleaved: they stay so, instead of every process starting at once). When the tier
    answers again, the process keeps its share for :data:`HANDOVER_S` more (booked in the
    tier, no sooner than its own next slot): the others find the tier back only when they
    try it again, and meanwhile still send their shares alone.
    """

    def __init__(self, clock: Clock = SYSTEM_CLOCK, shared: Optional[SharedSlotsTier] = None) -> None:
        self._clock = clock
        self._shared = shared
        self._next: dict[str, float] = {}  # this process's next slot by its share of the pace
        self._from: dict[str, float] = {}  # the slot (or departure) that set ``_next``, an interval share before it
        self._alone: dict[str, int] = {}  # booked here (the tier unreachable), by a share of this fleet's size
        self._handover: dict[str, tuple[float, int]] = {}  # the tier is back: (until when, the share) to keep
        self._sent: dict[str, float] = {}  # when the last request booked here left
        self._shared_next: dict[str, float] = {}  # when a shared slot was refused: when it comes
        self._looked: set[str] = set()  # upstreams not paced here whose fleet pace was looked at
        self._held = threading.local()  # .booking: the thread's last booking, until its request leaves
        self._lock = threading.Lock()
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: a parent's thread may have held the lock at the fork."""
        self._lock = threading.Lock()

    def reserve(self, name: str, interval: float, max_wait_s: float, left_s: Optional[float] = None) -> Optional[float]:
        """Book a slot for ``name``; the seconds to wait, or ``None`` if over ``max_wait_s``.
        ``left_s``: the time the call has left, which bounds the shared round trip (default
        ``max_wait_s``): a request that may wait for no slot (0) still asks the tier for a free one."""
        left_s = max_wait_s if left_s is None else left_s
        self._held.booking = None
        if interval <= 0:
            if self._shared is not None and name not in self._looked:  # once: is the fleet pacing it?
                self._looked.add(name)
                self._shared.look(name, left_s)
            return 0.0
        if max_wait_s < 0:  # no slot, even a free one, leaves the request its time: none is booked
            return None
        if self._shared is not None:
            if not self._shared.fits(left_s):  # too little time to ask the fleet is no outage: no slot known
                return None
            with self._lock:
                now = self._clock.monotonic()
                handover = self._handover.get(name)
                keeps = name in self._alone or (handover is not None and now < handover[0])
                not_before = (
                    max(0.0, self._next_at(name, now, interval * self._share(name, now)) - now) if keeps else 0.0
                )
            answer = self._shared.reserve(name, interval, max_wait_s, not_before, left_s)
            if answer is not None:
                return self._booked_shared(name, interval, *answer)
            with self._lock:
                share = self._alone[name] = self._share(name, self._clock.monotonic())
            interval *= share
        with self._lock:
            now = self._clock.monotonic()
            slot = max(now, self._next_at(name, now, interval))
            wait = slot - now
            if wait > max_wait_s:
                return None
            before = self._next.get(name)
            self._next[name], self._from[name] = slot + interval, slot
        self._held.booking = _Booking(name, before, slot + interval, None)
        return wait

    def _booked_shared(
        self, name: str, interval: float, booked: bool, wait: float, booking: Optional[SharedBooking]
    ) -> Optional[float]:
        """What :meth:`reserve` answers once the shared tier answered (``booked`` a slot ``wait``
        seconds away, or refused it); this process's own next slot follows it."""
        with self._lock:
            now = self._clock.monotonic()
            alone = self._alone.pop(name, None)
            if alone is not None:  # back from an outage: the others may not know yet
                self._handover[name] = (now + HANDOVER_S, alone)
            if not booked:
                self._shared_next[name] = now + wait
                return None
            before = self._next.get(name)
            paced = interval * self._share(name, now)
            after = now + wait + paced
            if before is None or self._next_at(name, now, paced) <= after:
                self._next[name], self._from[name] = after, now + wait
            else:  # the share shrank since: no later than the current one implies
                self._next[name] = self._next_at(name, now, paced)
        self._held.booking = _Booking(name, before, after, booking)
        return wait

    def sending(self, name: str, interval: float, left_s: Optional[float] = None) -> Optional[float]:
        """Right before a request to ``name`` leaves: 0.0 when it may leave now (it is noted as
        leaving), else the seconds to wait first. A slot is booked ahead of time; a request that
        left late (a loaded machine wakes its thread late) would leave less than ``interval``
        before the next one, on time: the pace must hold as the upstream sees it, not only as
        booked. ``left_s``: the time the call has left (bounds the shared round trip); ``None``
        when it is too little to ask the ``shared`` tier: as in :meth:`reserve`, that is no
        outage (this process does not pace alone at its share, the fleet may hold the slot),
        and the request is not to leave."""
        if interval <= 0:
            return 0.0
        if self._shared is not None:
            if not self._shared.fits(left_s):
                return None
            wait = self._shared.sending(name, interval, left_s)
            if wait is not None:
                if wait == 0.0:
                    self._held.booking = None  # used
                return wait
            with self._lock:
                interval *= self._share(name, self._clock.monotonic())
        with self._lock:
            now = self._clock.monotonic()
            last = self._sent.get(name)
            if last is not None and last + interval - now > _ROUNDING_S:
                return last + interval - now
            self._sent[name] = now
            if self._next_at(name, now, interval) <= now + interval:
                self._next[name], self._from[name] = now + interval, now
            else:
                self._next[name] = self._next_at(name, now, interval)
        self._held.booking = None  # used
        return 0.0

    def release(self, name: str, left_s: Optional[float] = None) -> None:
        """The request for which this thread last booked a slot of ``name`` gives up before it
        leaves (its slot was not free at once after all, a cool-down began, its budget went):
        hand the slot on, so that the next request leaves at it instead of an interval later.
        In this process, and in the ``shared`` tier when the call has the time to ask it
        (``left_s``); only while no later booking came after it (that one keeps its turn).
        Never raises for the shared tier (it is called while the request's own error, or a
        cancellation, is on its way up): a tier that cannot take it leaves the slot taken."""
        booking: Optional[_Booking] = getattr(self._held, "booking", None)
        if booking is None or booking.name != name:
            return
        self._held.booking = None
        with self._lock:
            if self._next.get(name) == booking.after:
                if booking.before is None:
                    del self._next[name]
                else:
                    self._next[name] = booking.before
        if booking.shared is None or self._shared is None:
            return
        try:  # a write: skipped by the tier when the call has too little time left for it
            self._shared.release(name, booking.shared, left_s)
        except WebSearchError as error:  # a required state failing: the slot stays taken, as documented
            logger.debug("the rate-limit slot of %s stays taken: %s", name, error)

    def _next_at(self, name: str, now: float, paced: float) -> float:
        """This process's next slot of ``name`` (``now`` without one), no later than ``paced`` (the
        interval times its current share of the pace) after the slot that set it (called under the
        lock): a share counted larger once (a fleet key counting short-lived forks, a planted one)
        put the next slot that many intervals ahead, and it only grew: the calls of every later
        outage were refused for their budget."""
        booked = self._next.get(name)
        if booked is None:
            return now
        since = self._from.get(name)
        return booked if since is None else min(booked, since + paced)

    def _share(self, name: str, now: float) -> int:
        """How many shares of the pace this process keeps one of (called under the lock): the fleet
        the tier last counted, or, during an outage and its handover, the fleet counted before it
        (a Redis back empty counts only those back yet)."""
        assert self._shared is not None
        handover = self._handover.get(name)
        during = handover[1] if handover is not None and now < handover[0] else 1
        return max(self._shared.fleet(name), self._alone.get(name, 1), during)

    def asks_shared_in(self, left_s: float) -> bool:
        """Whether a call with ``left_s`` left can book in the shared tier (true without one): when
        not, :meth:`reserve` books nothing (no free slot known) rather than pace this process alone."""
        return self._shared is None or self._shared.fits(left_s)

    def shared_round_trip_s(self) -> float:
        """The longest one command to the shared tier may take (0 without one): a request booking a
        slot must have that left at it, to note its departure there (:meth:`sending`)."""
        return 0.0 if self._shared is None else self._shared.timeout_s

    def next_free_in(self, name: str) -> float:
        """Seconds until ``name`` has a free slot (0 when it has one now)."""
        with self._lock:
            soonest = max(self._next.get(name, 0.0), self._shared_next.get(name, 0.0))
            return max(0.0, soonest - self._clock.monotonic())

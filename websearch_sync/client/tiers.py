"""What the client's parts ask of a shared tier (``state/`` implements them in Redis).

The cache, rate limiter, cool-downs and single-flight each take an optional shared
tier; these protocols say exactly what they call, so another store (or a test
double) can stand in, and type checking sees the calls. Every method takes
``left_s``, the time the call has left: a tier never spends more than that, and a
tier that cannot be used answers as if it held nothing (or raises
``NetworkError(state_unavailable)`` when the shared state is required).
"""

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, NamedTuple, Optional, Protocol

from ..errors import WebSearchError

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class SharedBlock(NamedTuple):
    """A cool-down read from a shared tier."""

    detail_code: Optional[str]
    status: Optional[int]
    until: float  #: the writer's wall-clock end (seconds since the epoch); readers go by ``left_s`` (a clock may be set wrong)
    left_s: float  #: seconds left, from the key's expiry
    token: Optional[str] = None  #: names the record (the recording request ignores its own)
    retryable: Optional[bool] = None  #: the block's own advice: worth retrying later
    hint: Optional[str] = None  #: the block's own advice: what to do (a limiter's, say)


class SharedCacheTier(Protocol):
    """Answers shared by many processes."""

    @property
    def timeout_s(self) -> float:
        """The longest one call may take."""

    def get_entry(
        self, key: Hashable, left_s: Optional[float] = None, max_bytes: Optional[int] = None
    ) -> Optional[tuple[dict[str, Any], float]]:
        """``(answer, seconds it has left)`` or ``None`` (also for a value longer than ``max_bytes``)."""

    def set(
        self,
        key: Hashable,
        value: dict[str, Any],
        ttl_s: float,
        left_s: Optional[float] = None,
        max_bytes: Optional[int] = None,
    ) -> None:
        """Store ``value`` for ``ttl_s`` seconds (not when longer than ``max_bytes``)."""


#: A slot booked in the shared slots tier: (the next free slot its booking wrote, the booker's
#: interval), microseconds on the tier's clock; what hands the slot on (:meth:`SharedSlotsTier.release`).
SharedBooking = tuple[int, int]


class SharedSlotsTier(Protocol):
    """Rate-limit slots booked for many processes."""

    @property
    def timeout_s(self) -> float:
        """The longest one call may take."""

    def reserve(
        self,
        name: str,
        interval: float,
        max_wait_s: float,
        not_before_s: float = 0.0,
        left_s: Optional[float] = None,
    ) -> Optional[tuple[bool, float, Optional[SharedBooking]]]:
        """``(booked, seconds to wait, the booking)`` for a slot at least ``not_before_s`` from now
        (the booking: what :meth:`release` needs to hand the slot on, ``None`` when not booked);
        ``None`` when the tier cannot be used (``left_s``, the call's time left, bounds the round trip)."""

    def release(self, name: str, booking: SharedBooking, left_s: Optional[float] = None) -> None:
        """Hand on the slot of ``booking`` (its request gave up before leaving), unless a later
        booking or departure came after it."""

    def fits(self, left_s: Optional[float]) -> bool:
        """Whether the call's time left holds one round trip to the tier (too little is not an outage)."""

    def look(self, name: str, left_s: Optional[float] = None) -> None:
        """For a process that does not pace ``name``: warn once if the fleet does."""

    def sending(self, name: str, interval: float, left_s: Optional[float] = None) -> Optional[float]:
        """Right before a request leaves: 0 (noted as leaving now) or the seconds to wait
        first; ``None`` when the tier cannot be used."""

    def fleet(self, name: str) -> int:
        """How many processes shared ``name``'s pace when the tier last answered (at least 1)."""


class SharedCooldownsTier(Protocol):
    """Cool-downs obeyed by many processes."""

    def record(
        self,
        name: str,
        detail_code: Optional[str],
        status: Optional[int],
        duration_s: float,
        until: float,
        token: str,
        left_s: Optional[float] = None,
        retryable: Optional[bool] = None,
        hint: Optional[str] = None,
    ) -> bool:
        """Suspend ``name`` for ``duration_s`` seconds (``retryable``, ``hint``: the block's advice);
        false when the tier could not take it."""

    def lookup(self, name: str, left_s: Optional[float] = None) -> Optional[SharedBlock]:
        """The cool-down of ``name``, or ``None``."""

    def lifted(self, name: str, left_s: Optional[float] = None) -> bool:
        """True only when the tier answers that an operator lifted the cool-down of ``name`` (one
        that is no longer there, over or vanished, is not lifted)."""

    def clear(self, names: Optional[Sequence[str]] = None) -> list[str]:
        """Delete the cool-downs of ``names`` (backends, hosts; their parts too), or of every one; the names deleted."""


class SharedFlightsTier(Protocol):
    """Who is already asking the upstream a question (single-flight across processes)."""

    def claim(self, key: Hashable, hold_s: float, left_s: Optional[float] = None) -> Optional[str]:
        """A token when this caller now asks the question (``""`` when the tier cannot be
        used: nothing to release); ``None`` when another caller already does."""

    def held_for(self, key: Hashable, left_s: Optional[float] = None) -> Optional[float]:
        """The seconds another caller's hold on the question has left (0.0: no one holds it;
        ``None``: too little time left, ``left_s``, to tell)."""

    def release(self, key: Hashable, token: str, left_s: Optional[float] = None, failed: bool = False) -> None:
        """Give the question up (only if ``token`` still owns it; else it expires by itself); unless
        it ``failed`` (and wrote it with :meth:`publish`), forget an earlier owner's failure first."""

    def released(self, key: Hashable, left_s: Optional[float] = None) -> bool:
        """True only when the tier answers that the question's last owner gave it up (not when
        its hold vanished: lost by the tier, or lapsed)."""

    def publish(
        self, key: Hashable, error: WebSearchError, secrets: Iterable[Optional[str]], left_s: Optional[float] = None
    ) -> None:
        """Tell the callers waiting for the question that it failed with ``error`` (their answer too),
        redacted with ``secrets``; before :meth:`release`."""

    def published(self, key: Hashable, left_s: Optional[float] = None) -> Optional[tuple[WebSearchError, float]]:
        """The failure the question's last asker told of, with its age in seconds, or ``None``."""

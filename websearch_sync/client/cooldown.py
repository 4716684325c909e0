"""Cool-downs: after a block, a backend is left alone for a while (by every process of a
shared state, ``state/cooldowns.py``, when there is one)."""

import math
import threading
import uuid
from collections.abc import Sequence
from typing import NamedTuple, Optional

from ..errors import CAPTCHA_REQUIRED, HTTP_403, HTTP_429, WebBlocked
from ..forks import renewed_in_children
from ..net.status import wait_words
from ..net.transport import MAX_RETRY_AFTER_S
from .clock import SYSTEM_CLOCK, Clock, time_of_day_from
from .refusedkeys import RefusedKeys
from .tiers import SharedCooldownsTier

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Seconds a backend is suspended after each kind of block, unless the error says how long
#: itself (``retry_after``: a 429's Retry-After, a SearXNG engine's suspension).
DEFAULT_COOLDOWNS_S: dict[str, float] = {CAPTCHA_REQUIRED: 600.0, HTTP_429: 60.0, HTTP_403: 300.0}
#: No suspension lasts longer than the longest wait a service may ask for (one day), whatever
#: a setting asks (a huge duration would overflow the clock arithmetic of every later call).
MAX_COOLDOWN_S = MAX_RETRY_AFTER_S
#: The fewest suspensions a table holds before the ones that are over are swept out.
_MIN_SWEEP = 256


class _Entry(NamedTuple):
    until: float  #: monotonic end
    wall_until: float  #: wall-clock end, for messages
    cause: WebBlocked
    recorded: float  #: monotonic time of the record
    token: str  #: names the record (see :meth:`Cooldowns.record`)
    shared: bool = False  #: also held in the shared tier (recorded there, or read from there)
    heard: bool = False  #: read from the shared tier: ``cause`` is the cool-down it raised, not the block's words


class Cooldowns:
    """Remembers which backends are suspended, until when, and why (thread-safe).

    With a ``shared`` tier, each suspension is also written there, and the ones
    other processes wrote are obeyed here; a success lifts only this process's own
    record (a shared one ends when its key expires).
    """

    def __init__(
        self,
        durations_s: Optional[dict[str, float]] = None,
        clock: Clock = SYSTEM_CLOCK,
        shared: Optional[SharedCooldownsTier] = None,
    ) -> None:
        self._clock = clock
        self._shared = shared
        self.durations_s = dict(DEFAULT_COOLDOWNS_S)
        self.durations_s.update(durations_s or {})
        self._until: dict[str, _Entry] = {}
        self._sweep_above = _MIN_SWEEP  # forget the suspensions that are over once there are more than this
        self._lock = threading.Lock()
        renewed_in_children(self)
        #: The keys services refused (not a suspension: kept here so that what keeps a client's or the
        #: process's cool-downs keeps them, and what lifts cool-downs lifts them).
        self.refused = RefusedKeys(clock)

    def forked(self) -> None:
        """In a forked child: a parent's thread may have held the lock at the fork."""
        self._lock = threading.Lock()

    def duration_s(self, error: WebBlocked) -> float:
        """How long ``error`` suspends its backend: its own ``retry_after`` when it has one (a 429's
        Retry-After, the suspension a SearXNG instance gave its engine), else the duration of its
        kind; capped at one day."""
        duration = self.durations_s.get(error.detail_code or "", 0.0)
        if error.retry_after is not None:  # NaN suspends nothing (below)
            duration = error.retry_after
        return min(duration, MAX_COOLDOWN_S) if duration > 0 else 0.0  # NaN is not > 0

    def cools_down(self, error: WebBlocked) -> bool:
        """Whether ``error`` suspends its backend (or host) for a while: a waiter for the call that met
        it would be refused at once (:func:`~.flight.answers_waiters`); one whose kind is set to 0 s
        (``cooldowns={"http_429": 0}``) suspends nothing."""
        return self.duration_s(error) > 0

    def record(
        self,
        error: WebBlocked,
        key: Optional[str] = None,
        duration_s: Optional[float] = None,
        left_s: Optional[float] = None,
    ) -> Optional[str]:
        """Suspend ``key`` (default: the error's backend; a backend may name a part of itself,
        :meth:`~websearch_sync.engine.base.Backend.cooldown_key`), here and in the shared tier
        at once, for ``duration_s`` (default: the duration the error's kind calls for); a token
        naming the record, or ``None`` when nothing was recorded. ``left_s``: the time the
        call has left (bounds the shared write)."""
        key = key or error.provider
        if not key:
            return None
        duration = self.duration_s(error) if duration_s is None else min(duration_s, MAX_COOLDOWN_S)
        if not duration > 0:  # also NaN
            return None
        token = uuid.uuid4().hex
        wall_until = self._clock.time() + duration
        self._suspend(key, duration, wall_until, error, token)
        if self._shared is not None and self._shared.record(
            key, error.detail_code, error.status, duration, wall_until, token, left_s, error.retryable, error.hint
        ):
            with self._lock:
                entry = self._until.get(key)
                if entry is not None and entry.token == token:
                    self._until[key] = entry._replace(shared=True)
        return token

    def _suspend(
        self,
        name: str,
        duration: float,
        wall_until: float,
        cause: WebBlocked,
        token: str,
        shared: bool = False,
        heard: bool = False,
    ) -> None:
        """Suspend ``name`` until ``duration`` from now, unless it is suspended longer already (a
        block met through another suspension, e.g. its host's, carries only what is left of that)."""
        with self._lock:
            now = self._clock.monotonic()
            current = self._until.get(name)
            if current is None or current.until <= now + duration:
                self._until[name] = _Entry(now + duration, wall_until, cause, now, token, shared, heard)
            if len(self._until) > self._sweep_above:
                self._forget_over(now)

    def _forget_over(self, now: float) -> None:
        """Forget the suspensions that are over (called under the lock). A suspension is forgotten
        when its key is checked after it ended, but a crawler's walls are on hosts it may never
        ask again: the process-wide table would keep each of them (its error and message) for
        the process's life. Swept when the table doubled since the last sweep: amortized, no
        sweep per record."""
        for name in [name for name, entry in self._until.items() if entry.until <= now]:
            del self._until[name]
        self._sweep_above = max(_MIN_SWEEP, 2 * len(self._until))

    def clear(self, name: str, started: Optional[float] = None) -> None:
        """Lift a suspension (after a success).

        ``started`` (the clock's reading before the successful request's cool-down check) keeps
        a block recorded after it: a request already under way when another thread
        met the wall proves nothing about the wall.
        """
        with self._lock:
            entry = self._until.get(name)
            if entry is not None and (started is None or entry.recorded <= started):
                del self._until[name]

    def lift(self, backend: Optional[str] = None, hosts: Sequence[str] = ()) -> list[str]:
        """Lift every suspension of ``backend`` (at any endpoint, its parts too: ``searxng@host``,
        ``searxng[engines=brave]``) and of its endpoints' ``hosts`` (``host:<host>`` keys: its
        block cooled them down too), or of every backend and host, here and in the shared
        tier: an operator's reset, not a success. The names lifted, sorted.

        Raises:
            NetworkError: ``state_unavailable`` when the shared tier could not be reached.
            Timeout: ``deadline_exceeded`` when its scan of the shared tier went on past the deadline.
        """
        with self._lock:
            self._forget_over(self._clock.monotonic())  # over already: nothing to lift, nothing to report
            names = [name for name in self._until if backend is None or backend_of(name) in (backend, *hosts)]
            for name in names:
                del self._until[name]
        names += self.refused.lift(backend)
        if self._shared is not None:  # one command: one deadline for the scans of the backend and its hosts
            names += self._shared.clear([backend, *hosts] if backend is not None else None)
        return sorted(set(names))

    def left_s(self, name: str) -> float:
        """Seconds ``name`` stays suspended in this process (0.0: not suspended): how long a call
        would skip it without asking (a suspension read from the shared tier is held here too)."""
        with self._lock:
            entry = self._until.get(name)
            return max(0.0, entry.until - self._clock.monotonic()) if entry is not None else 0.0

    def check(self, name: str, own: Optional[str] = None, left_s: Optional[float] = None) -> None:
        """Raise the suspending ``WebBlocked`` again while ``name`` (a backend, or a part of one:
        ``searxng[engines=brave]``) is cooling down.

        ``own``: the token of a record this request made itself before waiting out its
        Retry-After (ignored: the wait was the record's point). ``left_s``: the time the
        call has left (bounds the shared read).
        """
        with self._lock:
            entry = self._until.get(name)
            if entry is not None and entry.until <= self._clock.monotonic():
                del self._until[name]
                entry = None
        if entry is not None and (own is None or entry.token != own) and not self._lifted(name, entry, left_s):
            raise cooling_down(
                name,
                entry.cause.detail_code,
                entry.cause.status,
                entry.wall_until,
                entry.until - self._clock.monotonic(),
                cause=None if entry.heard else entry.cause,  # a cool-down heard of repeats no words of its own
                advice=(entry.cause.retryable, entry.cause.hint),
            )
        shared = self._shared.lookup(name, left_s) if self._shared is not None else None
        if shared is not None and (
            own is None or shared.token != own
        ):  # another process met the wall: remember it, obey
            left = min(shared.left_s, MAX_COOLDOWN_S)
            until = self._clock.time() + left  # its key's expiry, on this clock: the writer's may be set wrong
            error = cooling_down(
                name, shared.detail_code, shared.status, until, left, advice=(shared.retryable, shared.hint)
            )
            self._suspend(name, left, until, error, shared.token or "", shared=True, heard=True)
            raise error

    def _lifted(self, name: str, entry: _Entry, left_s: Optional[float]) -> bool:
        """True (and ``entry`` forgotten) when ``entry`` is held in the shared tier and an operator
        lifted it there for every process (``state clear``), this one included. A record that is
        merely gone (Redis restarted, or evicted it) lifts nothing: this process met or heard of
        the block, and keeps it to its end; nor does a shared tier that cannot tell (Redis down)."""
        if not entry.shared or self._shared is None or not self._shared.lifted(name, left_s):
            return False
        with self._lock:
            if self._until.get(name) is entry:
                del self._until[name]
        return True


def backend_of(key: str) -> str:
    """The backend a cool-down key names: keys are ``<backend>``, ``<backend>@<endpoint>`` and
    ``<backend…>[<part>]`` (see :meth:`~websearch_sync.engine.base.Backend.upstream_key`)."""
    return key.partition("[")[0].partition("@")[0]


def cooling_down(
    name: str,
    detail_code: Optional[str],
    status: Optional[int],
    wall_until: float,
    left_s: float,
    cause: Optional[WebBlocked] = None,
    advice: tuple[Optional[bool], Optional[str]] = (None, None),
) -> WebBlocked:
    """The ``WebBlocked`` a suspended backend raises (``retry_after``: the seconds left). With the
    ``cause`` this process met, it keeps its words (what to do about the block), its ``retryable``
    and its ``hint``: the first refusal and the ones after it advise alike. A block another
    process met (through the shared state) gives its ``advice``: ``(retryable, hint)``."""
    left = max(0.0, left_s) if math.isfinite(left_s) else 0.0
    shown = backend_of(name) + ("[" + name.partition("[")[2] if "[" in name else "")  # the endpoint is config, not news
    left_words = wait_words(left, "left")
    message = "%s is cooling down after %s until %s %s; not contacting it" % (
        shown,
        detail_code,
        time_of_day_from(wall_until, wall_until - left),
        left_words,
    )
    refusal = WebBlocked(
        message + (" (it said: %s)" % _words(cause) if cause is not None else ""),
        provider=backend_of(name),
        detail_code=detail_code,
        status=status,
        retry_after=left,
        retryable=cause.retryable if cause is not None else advice[0],
        hint=cause.hint if cause is not None else advice[1],
    )
    refusal.stale_words, refusal.stale_phrasing = left_words, "left"  # a waiter's copy says its wait aged
    return refusal


def _words(cause: WebBlocked) -> str:
    """What the block said, as a cool-down quotes it: without its stale words (a 429's "retry after
    N s", counted when it was met; the cool-down says until when, and the seconds left counted now),
    wherever vendor words or a backend's advice put them in the message."""
    message = cause.message
    if cause.stale_words:
        message = message.replace(cause.stale_words, "", 1)
    return message.rstrip(".")

"""Single-flight across processes: a short Redis lock per question being asked upstream.

The first process to ask a question sets ``…flight:<sha256 of the cache key>`` (``SET NX``);
the others wait for its answer in the shared cache while the key holds a lease (a key
that lives longer than a lease, or is of another type, was not set here: it holds no one). The key is a
lease: it expires :data:`LEASE_S` after it was set, and a thread of the owner renews it
every third of that while the owner lives (at most for the owner's budget). An owner that
dies (a killed worker) stops renewing, the key lapses, and one of the others takes the question
over (the rest wait for that one) instead of waiting out their budget. The owner lets the key go
when it is done, only if it still holds it (its token), by leaving :data:`RELEASED` in it for a
moment: its waiters, finding no answer, ask themselves. A key that vanished before its lease could
lapse, without that marker (Redis restarted empty, or evicted it), was let go by no one: its waiters
take the question over as from a dead owner (one claims it, the rest wait for that one), where every
one of them asked at once. An owner that failed with a failure its waiters take as theirs
first writes it for them (``state/failures.py``); any other owner deletes an earlier one's record as it
lets go, so the record a waiter finds is the last owner's.
"""

import threading
import time
import uuid
from collections.abc import Hashable, Iterable
from functools import partial
from typing import Any, Callable, Optional

from ...errors import WebSearchError
from ...forks import renewed_in_children
from .failures import FAILURE_TTL_S, MAX_FAILURE_BYTES, failure_record, read_failure
from .results import hashed_key
from .server import SharedState

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What a question's key holds once its owner let it go: no token (no owner renews or releases it).
RELEASED = b"released"
#: How long :data:`RELEASED` stays (milliseconds): a waiter polls every few ms, and finds it.
RELEASED_MS = 3000

#: Sets KEYS[1] to ARGV[1] (a new owner's token) for ARGV[2] ms when it holds nothing or ARGV[3]
#: (:data:`RELEASED`); 1 when it did, else 0 (another owner holds it).
_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
#: The milliseconds KEYS[1] has left (PTTL), -2 (none) when it holds ARGV[1] (:data:`RELEASED`).
_HELD = """
if redis.pcall('GET', KEYS[1]) == ARGV[1] then return -2 end
return redis.call('PTTL', KEYS[1])
"""
#: Leaves ARGV[2] (:data:`RELEASED`) in KEYS[1] for ARGV[3] ms only while it holds ARGV[1] (the owner's token).
_RELEASE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
"""
#: Extends KEYS[1] to ARGV[2] ms only while it holds ARGV[1].
_RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0"

#: How long a question stays claimed without a renewal: how long the others wait for an owner that died.
LEASE_S = 3.0


class _Lease:
    """Renews one claim every third of :data:`LEASE_S` until stopped or ``hold_s`` has passed."""

    def __init__(self, renew: Callable[[], object], hold_s: float) -> None:
        self._renew = renew
        self._stop = threading.Event()
        self._end = time.monotonic() + hold_s
        self._thread = threading.Thread(target=self._run, name="websearch_sync-flight-lease", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(LEASE_S / 3) and time.monotonic() < self._end:
            self._renew()

    def stop(self) -> None:
        """Stop renewing (the claim is released or left to lapse)."""
        self._stop.set()


class SharedFlights:
    """Claims and releases questions in Redis (one round trip each)."""

    def __init__(self, state: SharedState) -> None:
        self.state = state
        self._claim = state.server.redis.register_script(_CLAIM)
        self._release = state.server.redis.register_script(_RELEASE)
        self._held = state.server.redis.register_script(_HELD)
        self._renew = state.server.redis.register_script(_RENEW)
        self._leases: dict[str, _Lease] = {}
        self._lock = threading.Lock()
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: the leases are the parent's, renewed by its threads (which are not
        here) and released by them; one of them may have held the lock at the fork."""
        self._lock = threading.Lock()
        self._leases = {}

    def _key(self, key: Hashable) -> str:
        return self.state.key("flight", hashed_key(key))

    def claim(self, key: Hashable, hold_s: float, left_s: Optional[float] = None) -> Optional[str]:
        """A token when this caller now asks the question (``""`` when Redis cannot be used:
        nothing to release); ``None`` when another caller already does."""
        token = uuid.uuid4().hex
        name = self._key(key)
        lease_ms = max(1, int(min(hold_s, LEASE_S) * 1000))
        owned: object = self.state.run(
            lambda redis: self._claim(keys=[name], args=[token, lease_ms, RELEASED]), None, left_s
        )
        if owned is None:  # Redis cannot be used
            return ""
        if owned != 1:
            return None
        if hold_s > LEASE_S:
            renew = partial(self._extend, name, token, lease_ms)
            with self._lock:
                self._leases[token] = _Lease(renew, hold_s)
        return token

    def _extend(self, name: str, token: str, lease_ms: int) -> None:
        """Renew the lease (a renewal Redis refuses or cannot take lets it lapse: the others take over)."""
        try:
            self.state.run(lambda redis: self._renew(keys=[name], args=[token, lease_ms]), None, write=True)
        except WebSearchError:  # state_required and Redis down: nothing to renew, no one to tell
            pass

    def held_for(self, key: Hashable, left_s: Optional[float] = None) -> Optional[float]:
        """The seconds another caller's lease on the question has left (0.0: no one holds it): the
        key lives no longer than a lease. A key its owner let go (:data:`RELEASED`), without an expiry,
        with a longer one, or of another type (planted: no claim is such) holds nothing: waiting on it would end every
        call of that question at its deadline. Redis rounds the time left down: a lease in its
        last millisecond says 0 and still refuses a claim, so it holds the question for 1 ms.
        ``None`` when the call has less time left (``left_s``) than one command may take: it
        cannot tell, and the question may still be held (read as let go, a waiter in its last
        quarter second sent its own request while the first caller still read the page)."""
        if not self.state.fits(left_s):
            return None
        name = self._key(key)
        left_ms = self.state.run(lambda redis: self._held(keys=[name], args=[RELEASED]), -2, left_s)
        return max(1, left_ms) / 1000.0 if type(left_ms) is int and 0 <= left_ms <= LEASE_S * 1000 else 0.0

    def release(self, key: Hashable, token: str, left_s: Optional[float] = None, failed: bool = False) -> None:
        """Free the question if ``token`` still holds it (a call without the time for it leaves
        the key to expire with its budget). Unless this owner ``failed`` (and wrote it with :meth:`publish`
        just before), an earlier owner's failure record is deleted in the same round
        trip, before the key is let go: a waiter that finds the key let go finds the record of the
        owner that let it go, or none, never an earlier one's (which it told apart by its age alone,
        and a loaded machine's slow read made a record of the owner it waited for look too old)."""
        with self._lock:
            lease = self._leases.pop(token, None)
        if lease is not None:
            lease.stop()
        if token:
            name = self._key(key)
            failure = None if failed else self.state.key("failure", hashed_key(key))
            self.state.run(partial(self._let_go, name, token, failure), None, left_s, write=True)

    def _let_go(self, name: str, token: str, failure: Optional[str], redis: Any) -> object:
        """Delete ``failure`` (an earlier owner's record, if any), then release ``name``: one round
        trip. The release goes by its script's digest: a script run in a pipeline would first be
        asked after with ``SCRIPT EXISTS`` (a round trip more, and a command the documented ACL
        does not grant); a Redis that lost it (restarted) is sent the script itself then."""
        from redis.exceptions import NoScriptError  # the extra is there: ``redis`` is its client

        args = [token, RELEASED, RELEASED_MS]
        if failure is None:
            return self._release(keys=[name], args=args)
        pipe = redis.pipeline(transaction=False)
        pipe.delete(failure)
        pipe.evalsha(self._release.sha, 1, name, *args)
        deleted, released = pipe.execute(raise_on_error=False)
        if isinstance(released, NoScriptError):
            released = self._release(keys=[name], args=args)
        for reply in (deleted, released):
            if isinstance(reply, Exception):
                raise reply
        return released

    def released(self, key: Hashable, left_s: Optional[float] = None) -> bool:
        """True only when Redis answers that the question's last owner let it go (its key holds
        :data:`RELEASED`); false when its key vanished (Redis restarted, evicted it: no one let it
        go), is claimed again, or Redis cannot tell."""
        name = self._key(key)
        try:
            return bool(self.state.run(lambda redis: redis.get(name), None, left_s) == RELEASED)
        except WebSearchError:  # state_required and Redis down: it cannot tell
            return False

    def publish(
        self, key: Hashable, error: WebSearchError, secrets: Iterable[Optional[str]], left_s: Optional[float] = None
    ) -> None:
        """Write ``error`` (redacted with ``secrets``) for the processes waiting for the question,
        for :data:`~.failures.FAILURE_TTL_S` (nothing when Redis cannot take it: they ask themselves).
        Called before the question is let go: a waiter that finds it let go finds the failure too."""
        record = failure_record(error, secrets)
        if record is None:
            return
        try:
            self.state.set_for(self.state.key("failure", hashed_key(key)), record, FAILURE_TTL_S, left_s)
        except WebSearchError:  # state_required and Redis down: the asker's own error is raised, not this one
            pass

    def published(self, key: Hashable, left_s: Optional[float] = None) -> Optional[tuple[WebSearchError, float]]:
        """The failure the question's last asker wrote, with its age (seconds, on the Redis clock),
        or ``None`` (none, unreadable, or a key expiring later than a record does: planted)."""
        value, left = self.state.get_with_ttl(self.state.key("failure", hashed_key(key)), left_s, MAX_FAILURE_BYTES)
        error = read_failure(value) if left <= FAILURE_TTL_S else None
        return None if error is None else (error, FAILURE_TTL_S - left)

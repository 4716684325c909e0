"""Refused keys: a key a service refused is not sent to it again by the same client.

A refused key does not heal by itself: without this, every ``auto`` or fallback call would pay
a round trip (and the vendor's log line) to be refused again before the next backend answers.
The client remembers the refusal (an ``AuthError`` from the service's answer) per backend at its
endpoint (:meth:`~websearch_sync.engine.base.Backend.upstream_key`) and per key: a SHA-256 of
the backend's secrets (:meth:`~websearch_sync.engine.base.Backend.secrets`), never the key itself.

* the key itself refused (:data:`~websearch_sync.errors.KEY_REFUSALS`: ``http_401``,
  ``invalid_api_key``): for the client's life;
* the account behind it (its plan, credit or balance: ``http_402``, ``http_403``, ``http_432``,
  ``http_433``, ``no_billing``, ``insufficient_credit``): for :data:`ACCOUNT_REFUSAL_S`, since
  topping the account up heals it without a new key.

Meanwhile a call to that backend with that key fails at once with the remembered error (same
class and detail code, its message saying when it was met); a fallback chain skips the backend
with that error in ``errors``. Another key (the settings changed, another backend's) is asked.
A backend that holds no secret has no key to remember. ``SearchClient.clear_cooldowns`` forgets them.
"""

import hashlib
import math
import threading
from functools import partial
from typing import NamedTuple, Optional

from ..engine.base import Backend
from ..engine.registry import reported
from ..errors import KEY_REFUSALS, MISSING_API_KEY, AuthError, WebSearchError
from .clock import Clock, time_of_day
from .forks import renewed_in_children

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Seconds a refusal of the account behind a key (plan, credit, balance) is remembered.
ACCOUNT_REFUSAL_S = 600.0


class _Refusal(NamedTuple):
    cause: AuthError
    wall_at: float  #: wall-clock time it was met, for messages
    until: float  #: monotonic end (``inf``: the client's life)


class RefusedKeys:
    """The keys refused to this client, by backend scope and key digest (thread-safe)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._refused: dict[tuple[str, str], _Refusal] = {}
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: a parent's thread may have held the lock at the fork."""
        self._lock = threading.Lock()

    def record(self, backend: Backend, error: AuthError) -> None:
        """Remember that ``backend`` (at its endpoint) refused its current key with ``error``."""
        if error.detail_code == MISSING_API_KEY:  # refused before sending: Backend.check says it every time
            return
        digest = key_digest(backend)
        if digest is None:
            return
        lasts = math.inf if error.detail_code in KEY_REFUSALS else ACCOUNT_REFUSAL_S
        refusal = _Refusal(error, self._clock.time(), self._clock.monotonic() + lasts)
        with self._lock:
            self._refused[(backend.upstream_key(), digest)] = refusal

    def check(self, backend: Backend) -> None:
        """Raise the remembered refusal of ``backend``'s current key, if there is one."""
        if not self._refused:  # the usual case: nothing read, nothing hashed
            return
        digest = key_digest(backend)
        if digest is None:
            return
        key = (backend.upstream_key(), digest)
        with self._lock:
            refusal = self._refused.get(key)
            if refusal is not None and refusal.until <= self._clock.monotonic():
                del self._refused[key]
                refusal = None
        if refusal is not None:
            raise remembered(refusal, self._clock.monotonic())

    def refusing(self, backends: list[Backend]) -> frozenset[str]:
        """The names of ``backends`` whose current key is remembered as refused: they refuse a call
        without sending, as surely as a missing key does (an answer of the others may be cached)."""
        if not self._refused:
            return frozenset()
        found = []
        for backend in backends:
            try:
                reported(backend, partial(self.check, backend))  # a plugin's defect: logged, not raised here
            except AuthError:
                found.append(backend.name)
            except WebSearchError:  # that defect: its call reports it
                continue
        return frozenset(found)

    def lift(self, backend: Optional[str] = None) -> list[str]:
        """Forget the refusals met by ``backend`` (at any endpoint), or all; their scopes."""
        with self._lock:
            keys = [key for key in self._refused if backend is None or key[0].partition("@")[0] == backend]
            for key in keys:
                del self._refused[key]
        return [scope for scope, _ in keys]


def key_digest(backend: Backend) -> Optional[str]:
    """A SHA-256 of ``backend``'s secrets (its key, a gateway's header values), ``None`` without any."""
    secrets = sorted(set(backend.secrets()))
    if not secrets:
        return None
    return hashlib.sha256("\0".join(secrets).encode("utf-8", "surrogatepass")).hexdigest()


def remembered(refusal: _Refusal, now: float) -> AuthError:
    """The error a call meets for a remembered refusal: the same class and detail code, saying when."""
    cause = refusal.cause
    if math.isinf(refusal.until):
        lasts = "not sent again by this client until the key changes (clear_cooldowns forgets it)"
    else:
        lasts = "not asked again for %.0f s (clear_cooldowns forgets it sooner)" % max(0.0, refusal.until - now)
    return AuthError(
        "%s refused this key at %s; %s (it said: %s)"
        % (cause.provider, time_of_day(refusal.wall_at), lasts, cause.message.rstrip(".")),
        provider=cause.provider,
        detail_code=cause.detail_code,
        status=cause.status,
        retryable=False,
        hint=cause.hint,
    )

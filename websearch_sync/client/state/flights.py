"""Single-flight across processes: a short Redis lock per question being asked upstream.

The first process to ask a question sets ``…flight:<sha256 of the cache key>`` (``SET NX``,
expiring with its budget: a crashed owner frees it by itself); the others wait for
its answer in the shared cache while the key exists. The owner deletes the key when it
is done, only if it still holds it (its token).
"""

import uuid
from collections.abc import Hashable
from typing import Optional

from .results import hashed_key
from .server import SharedState

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Deletes KEYS[1] only while it holds ARGV[1] (the owner's token).
_RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"


class SharedFlights:
    """Claims and releases questions in Redis (one round trip each)."""

    def __init__(self, state: SharedState) -> None:
        self.state = state
        self._release = state.server.redis.register_script(_RELEASE)

    def _key(self, key: Hashable) -> str:
        return self.state.key("flight", hashed_key(key))

    def claim(self, key: Hashable, hold_s: float, left_s: Optional[float] = None) -> Optional[str]:
        """A token when this caller now asks the question (``""`` when Redis cannot be used:
        nothing to release); ``None`` when another caller already does."""
        token = uuid.uuid4().hex
        name = self._key(key)
        owned = self.state.run(
            lambda redis: redis.set(name, token, nx=True, px=max(1, int(hold_s * 1000))), "unusable", left_s
        )
        if owned == "unusable":
            return ""
        return token if owned else None

    def busy(self, key: Hashable, left_s: Optional[float] = None) -> bool:
        """True while another caller holds the question."""
        name = self._key(key)
        return bool(self.state.run(lambda redis: redis.exists(name), 0, left_s))

    def release(self, key: Hashable, token: str, left_s: Optional[float] = None) -> None:
        """Free the question if ``token`` still holds it (a call without the time for it leaves
        the key to expire with its budget)."""
        if token:
            name = self._key(key)
            self.state.run(lambda redis: self._release(keys=[name], args=[token]), None, left_s, write=True)

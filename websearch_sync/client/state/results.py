"""The shared tier of the result cache: answers in Redis, their TTL the key's expiry.

Keys are the local cache's keys, serialized as the SQLite tier does
(:func:`~websearch_sync.client.cache.cache_key_text`) and hashed (SHA-256), so a key
never shows what it holds; values are the answers' JSON with every secret of the
client's settings redacted from its texts (and from the JSON text, for anything nested past
the walk). A value is untrusted input: one that does not parse
(longer than the call's bound, not JSON, nested too deep, not an object) is a miss; the client checks the answer's
shape before returning it (:func:`~websearch_sync.client.answers.valid_answer`).
"""

import hashlib
import json
from collections.abc import Hashable
from typing import Any, Optional

from ...models import MAX_RESULT_NESTING
from ...secrets import redact, redacted_value
from ..cache import cache_key_text, too_long
from .server import SharedState

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How deep the answer's texts are redacted as values: the answer, its items or provider_meta, an
#: item or extras, then an extra's own nesting (the client's shape check refuses deeper ones).
ANSWER_NESTING = 4 + MAX_RESULT_NESTING


def hashed_key(key: Hashable) -> str:
    """A cache key as a SHA-256 hex digest of its serialization (what a Redis key holds)."""
    return hashlib.sha256(cache_key_text(key).encode("utf-8")).hexdigest()


class RedisCache:
    """Answers shared by every process using the same Redis."""

    def __init__(self, state: SharedState, secrets: list[str]) -> None:
        self.state = state
        self.secrets = list(secrets)

    @property
    def timeout_s(self) -> float:
        """The longest one Redis call may take (the connection's socket timeout)."""
        return self.state.timeout_s

    def key_name(self, key: Hashable) -> str:
        """The Redis key of a cache key."""
        return self.state.key("cache", hashed_key(key))

    def get_entry(
        self, key: Hashable, left_s: Optional[float] = None, max_bytes: Optional[int] = None
    ) -> Optional[tuple[dict[str, Any], float]]:
        """``(answer, seconds it has left)``, or ``None`` when absent, longer than ``max_bytes``
        (read no further), unreadable or Redis is down."""
        value, left = self.state.get_with_ttl(self.key_name(key), left_s, max_bytes)
        if value is None:
            return None
        try:
            answer = json.loads(value)
        except (ValueError, RecursionError):
            return None
        return (answer, left) if isinstance(answer, dict) else None

    def set(
        self,
        key: Hashable,
        value: dict[str, Any],
        ttl_s: float,
        left_s: Optional[float] = None,
        max_bytes: Optional[int] = None,
    ) -> None:
        """Store ``value`` for ``ttl_s`` seconds (nothing when Redis is down, nor when its JSON
        is longer than ``max_bytes``: no reader would take it)."""
        # the texts as values first: the JSON text hides a secret holding a character JSON escapes
        shown = redacted_value(value, self.secrets, ANSWER_NESTING)
        text = redact(json.dumps(shown, ensure_ascii=False), self.secrets)
        if too_long(text, max_bytes, "the shared state"):
            return
        self.state.set_for(self.key_name(key), text, ttl_s, left_s)

    def clear(self) -> int:
        """Delete every answer of the namespace, for every process (an operator's reset: answers
        read before a parser was fixed, say); how many. Answers a running process copied to its
        memory stay there for the time they had left.

        Raises:
            NetworkError: ``state_unavailable`` when Redis cannot be reached.
        """
        return len(self.state.delete_matching("cache", ["*"], "no cached answer was deleted there"))

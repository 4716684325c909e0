"""The connection to the shared state: one Redis per process and URL, whether it answers,
and each client's view of it (namespace, clock, what an outage means).

redis-py (the ``redis`` extra) is imported only when a client is given a state URL,
never when websearch_sync is imported.
"""

import logging
import re
import threading
from typing import Any, Callable, Dict, Optional, Tuple, Type, TypeVar
from urllib.parse import urlsplit, urlunsplit

from ...errors import InvalidInput, NetworkError, redact
from ..clock import Clock

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: Every key starts with this (then the optional prefix), so applications can share a Redis.
NAMESPACE = "websearch_sync:"
#: Longest one Redis command may take (connecting, or sending and reading the answer),
#: unless the URL says otherwise (``?socket_timeout=0.5``); shorter for short deadlines.
DEFAULT_TIMEOUT_S = 0.25
#: After a failure, this process uses its local state for so long before trying Redis again.
RETRY_AFTER_S = 5.0

SCHEMES = ("redis", "rediss", "unix")
_PREFIX = re.compile(r"[A-Za-z0-9_.:-]{1,64}")

T = TypeVar("T")


def _redis_module() -> Any:
    try:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError:
        raise InvalidInput(
            "a shared state URL needs redis-py, the `redis` extra: pip install -e '.[redis]' from a checkout",
            detail_code="missing_redis_extra",
        ) from None
    return redis, Retry(NoBackoff(), 0)


def shown_url(url: str) -> str:
    """``url`` without user name, password and query (for messages and logs)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.rsplit("@", 1)[-1], parts.path, "", ""))


def check_state_url(url: Any) -> str:
    """``url`` when it is a Redis URL; else ``InvalidInput(bad_state_url)``."""
    if not isinstance(url, str) or urlsplit(url.strip()).scheme.lower() not in SCHEMES:
        raise InvalidInput(
            "state_url must be a redis://, rediss:// or unix:// URL, got %r" % (shown_url(url) if isinstance(url, str) else url,),
            detail_code="bad_state_url",
        )
    return url.strip()


def check_state_prefix(prefix: Any) -> str:
    """``prefix`` when it is empty or 1..64 of ``A-Z a-z 0-9 _ . : -``; else ``InvalidInput(bad_state_prefix)``."""
    if prefix in (None, ""):
        return ""
    if not isinstance(prefix, str) or not _PREFIX.fullmatch(prefix):
        raise InvalidInput("state_prefix must be 1..64 characters among A-Z a-z 0-9 _ . : -, got %r" % (prefix,), detail_code="bad_state_prefix")
    return prefix


class StateServer:
    """One Redis for the whole process: its connection pool and whether it answered lately.

    Every client of the process naming the same URL shares one, so an outage is
    logged once (one warning, however many clients and calls use it) and Redis is
    tried again :data:`RETRY_AFTER_S` after the last failure, not on every call.
    """

    def __init__(self, url: str, timeout_s: float) -> None:
        redis, no_retry = _redis_module()
        try:
            self.redis = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, retry=no_retry)
        except ValueError as exc:
            raise InvalidInput("bad state_url %s: %s" % (shown_url(url), exc), detail_code="bad_state_url") from None
        self.errors: Tuple[Type[BaseException], ...] = (redis.RedisError, OSError)
        self.timeout_s = timeout_s
        self.shown = shown_url(url)
        self._secrets = [urlsplit(url).password]
        self._lock = threading.Lock()
        self._retry_at: Optional[float] = None
        self.last_error = ""

    def usable(self, now: float) -> bool:
        """False while waiting to try again after a failure."""
        retry_at = self._retry_at
        return retry_at is None or now >= retry_at

    def failed(self, error: BaseException, now: float) -> None:
        """Note a failure: local state until ``now + RETRY_AFTER_S``; warn unless already down."""
        with self._lock:
            was_down = self._retry_at is not None
            self._retry_at = now + RETRY_AFTER_S
            self.last_error = redact("%s: %s" % (type(error).__name__, error), self._secrets)
        if not was_down:
            logger.warning(
                "shared state %s unavailable (%s); this process uses its own cache, rate limits and cool-downs "
                "and tries again in %.0f s",
                self.shown,
                self.last_error,
                RETRY_AFTER_S,
            )

    def answered(self) -> None:
        """Note a success (logs once when Redis is back after an outage)."""
        if self._retry_at is None:
            return
        with self._lock:
            was_down, self._retry_at = self._retry_at is not None, None
        if was_down:
            logger.info("shared state %s answers again", self.shown)


_SERVERS: Dict[Tuple[str, float], StateServer] = {}
_SERVERS_LOCK = threading.Lock()


def state_server(url: str, timeout_s: float) -> StateServer:
    """The process's :class:`StateServer` for ``url`` (created at the first use)."""
    with _SERVERS_LOCK:
        server = _SERVERS.get((url, timeout_s))
        if server is None:
            server = _SERVERS[(url, timeout_s)] = StateServer(url, timeout_s)
        return server


class SharedState:
    """One client's view of the shared state: its key namespace, its clock, and whether
    an unreachable Redis is an error (``required``) or a reason to use local state."""

    def __init__(self, server: StateServer, prefix: str, required: bool, clock: Clock) -> None:
        self.server = server
        self.namespace = NAMESPACE + (prefix + ":" if prefix else "")
        self.required = required
        self.clock = clock

    def key(self, kind: str, name: str) -> str:
        """``websearch_sync:[prefix:]<kind>:<name>``."""
        return "%s%s:%s" % (self.namespace, kind, name)

    def run(self, operation: Callable[[Any], T], default: T) -> T:
        """``operation(redis)``; ``default`` when Redis fails or is resting after a failure.

        Raises:
            NetworkError: ``state_unavailable``, instead of returning ``default``, when required.
        """
        now = self.clock.monotonic()
        if self.server.usable(now):
            try:
                result = operation(self.server.redis)
            except self.server.errors as error:
                self.server.failed(error, now)
            else:
                self.server.answered()
                return result
        if self.required:
            raise NetworkError(
                "the shared state %s is unavailable (%s) and state_required is set" % (self.server.shown, self.server.last_error),
                detail_code="state_unavailable",
            )
        return default

    def get_with_ttl(self, key: str) -> Tuple[Any, float]:
        """``(value, seconds it has left)`` of ``key`` in one round trip; ``(None, 0)`` when absent or Redis is down."""

        def read(redis: Any) -> Any:
            pipe = redis.pipeline(transaction=False)
            pipe.get(key)
            pipe.pttl(key)
            return pipe.execute()

        value, ttl_ms = self.run(read, [None, -2])
        if value is None or not isinstance(ttl_ms, int) or ttl_ms <= 0:
            return None, 0.0
        return value, ttl_ms / 1000.0

    def set_for(self, key: str, value: str, seconds: float) -> None:
        """Set ``key`` to ``value``, expiring in ``seconds`` (nothing when Redis is down)."""
        self.run(lambda redis: redis.set(key, value, px=max(1, int(seconds * 1000))), None)

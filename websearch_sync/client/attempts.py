"""One backend, one call: cool-down check, rate-limit slot, the request, retries.

Every wait goes through the client's :class:`~.clock.Clock` and must fit in the
call's budget (budget first: a wait that cannot fit fails at once).
"""

import logging
import random
import threading
from typing import Dict, Optional

from ..backends.base import Backend
from ..errors import Timeout, WebBlocked, WebProviderError, WebSearchError
from ..models import ParseResult, SearchParams
from ..net.deadline import Deadline
from ..net.transport import HttpTransport
from .clock import Clock
from .cooldown import Cooldowns
from .ratelimit import RateLimiter

__all__ = ["BackendRunner", "CallState", "is_retryable", "backoff_s"]

logger = logging.getLogger("websearch_sync")

_BACKOFF_BASE_S = 0.5
_BACKOFF_CAP_S = 8.0


def is_retryable(error: WebSearchError) -> bool:
    """Retry exactly what the error says may heal by itself (``error.retryable``:
    timeouts, network errors, 5xx, HTTP 429; not ``budget_exhausted`` nor a DNS miss)."""
    return error.retryable


def backoff_s(attempt: int, error: WebSearchError) -> float:
    """Exponential backoff with jitter; never shorter than the service's Retry-After."""
    delay = min(_BACKOFF_CAP_S, _BACKOFF_BASE_S * (2 ** attempt)) * random.uniform(0.5, 1.0)
    if error.retry_after is not None:
        delay = max(delay, error.retry_after)
    return delay


class CallState:
    """Book-keeping of one search call (shared by the threads of a merge)."""

    def __init__(self) -> None:
        self.attempts = 0
        self.lock = threading.Lock()

    def count_attempt(self) -> None:
        """Count one request sent."""
        with self.lock:
            self.attempts += 1


class BackendRunner:
    """Runs backends for a client: its transport, rate limiter, cool-downs and clock."""

    def __init__(self, transport: HttpTransport, limiter: RateLimiter, cooldowns: Cooldowns, intervals: Dict[str, float], clock: Clock) -> None:
        self.transport = transport
        self.limiter = limiter
        self.cooldowns = cooldowns
        self.intervals = intervals
        self.clock = clock

    def run(self, backend: Backend, params: SearchParams, timeout: Optional[int], budget: Deadline, retries: int, state: CallState) -> ParseResult:
        """Ask ``backend`` with up to ``retries`` retries of retryable errors; its result or the last error."""
        name = backend.name
        last_error: Optional[WebSearchError] = None
        for attempt in range(retries + 1):
            under_way = self.clock.monotonic()  # before the checks: a block recorded after it is news to this request
            self._check_ready(backend, budget, last_error)
            state.count_attempt()
            try:
                result = call_backend(backend, params, self.transport, budget.sooner(backend.timeout_ms(timeout)))
            except WebSearchError as error:
                last_error = error
                if attempt < retries and self._backed_off(name, attempt, error, budget):
                    continue
                if isinstance(error, WebBlocked):
                    self.cooldowns.record(error)
                raise
            self.cooldowns.clear(name, started=under_way)
            return result
        raise last_error  # type: ignore[misc]  # pragma: no cover

    def _check_ready(self, backend: Backend, budget: Deadline, last_error: Optional[WebSearchError]) -> None:
        self.cooldowns.check(backend.name)
        if self._wait_for_slot(backend, budget, last_error):
            self.cooldowns.check(backend.name)  # another thread may have been blocked while this one waited
        if budget.expired():
            raise last_error or Timeout(
                "the %.0f ms budget ran out before %s could be asked" % (budget.timeout_ms, backend.name),
                provider=backend.name,
                detail_code="deadline_exceeded",
            )

    def _backed_off(self, name: str, attempt: int, error: WebSearchError, budget: Deadline) -> bool:
        """Sleep before a retry when the error is retryable and the wait fits; true when it did."""
        if not is_retryable(error):
            return False
        delay = backoff_s(attempt, error)
        if delay >= budget.remaining_s():
            return False
        logger.info("%s: %s%s, retry %d in %.2f s", name, error.code, "/" + error.detail_code if error.detail_code else "", attempt + 1, delay,
                    extra={"retry_wait_s": delay})
        self.clock.sleep(delay)
        return True

    def _wait_for_slot(self, backend: Backend, budget: Deadline, last_error: Optional[WebSearchError]) -> bool:
        """Wait for the backend's next rate-limit slot; true when that took a wait."""
        interval = self.intervals.get(backend.name, backend.min_interval_s)
        wait = self.limiter.reserve(backend.name, interval, budget.remaining_s())
        if wait is None:  # budget first: do not wait for a slot that comes too late
            raise last_error or Timeout(
                "%s allows one request every %.1f s; the next slot is %.1f s away but only %.0f ms of the budget are left"
                % (backend.name, interval, self.limiter.next_free_in(backend.name), max(0.0, budget.remaining_ms())),
                provider=backend.name,
                detail_code="budget_exhausted",
            )
        self.clock.sleep(wait)
        return wait > 0


def call_backend(backend: Backend, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
    """Run one backend; a bug inside it becomes a logged ``WebProviderError``, never a stray exception."""
    try:
        return backend.search(params, transport, deadline)
    except WebSearchError:
        raise
    except Exception as exc:  # a defect in a backend (or a plugin): report it loudly, typed
        logger.error("backend %s failed unexpectedly", backend.name, exc_info=True)
        raise WebProviderError(
            "internal error in backend %s: %s" % (backend.name, type(exc).__name__),
            provider=backend.name,
            detail_code="internal_error",
        ) from exc

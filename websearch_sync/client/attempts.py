"""One backend, one call: its refusal check, cool-down check, rate-limit slot, the request, retries.

Every wait goes through the client's :class:`~.clock.Clock` and must fit in the
call's budget (budget first: a wait that cannot fit fails at once).
"""

import logging
import threading
from functools import partial
from typing import Callable, Optional, TypeVar

from ..engine.base import Backend
from ..engine.pace import pacing
from ..engine.registry import checked_result, reported
from ..errors import (
    BUDGET_EXHAUSTED,
    DEADLINE_EXCEEDED,
    AuthError,
    Timeout,
    WebBlocked,
    WebSearchError,
    redact_error,
)
from ..models import ParseResult, SearchParams
from ..net.deadline import Deadline
from ..net.spans import span_text
from ..net.transport import HttpTransport
from .clock import Clock
from .cooldown import Cooldowns
from .hostgate import HostGate, backend_call, backend_endpoint
from .ratelimit import RateLimiter
from .retry import DEFAULT_RETRY, RetryPolicy

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

T = TypeVar("T")

#: Called after a wait for a rate-limit slot, before the request: it may end the call
#: (an answer someone else put in the cache meanwhile) by raising.
Recheck = Callable[[], None]


def is_retryable(error: WebSearchError) -> bool:
    """Retry exactly what the error says may heal by itself (see :meth:`RetryPolicy.is_retry`)."""
    return DEFAULT_RETRY.is_retry(error)


def backoff_s(attempt: int, error: WebSearchError) -> float:
    """The default policy's wait before retrying after ``error`` (see :meth:`RetryPolicy.delay_s`)."""
    return DEFAULT_RETRY.delay_s(attempt, error)


class CallState:
    """Book-keeping of one search call (shared by the threads of a merge)."""

    def __init__(self) -> None:
        self.attempts = 0
        self.wait_s = 0.0  #: time spent waiting for rate-limit slots (``provider_meta["wait_ms"]``)
        self.lock = threading.Lock()

    def count_attempt(self) -> None:
        """Count one request sent."""
        with self.lock:
            self.attempts += 1

    def wait_ms(self) -> int:
        """The time counted by :meth:`count_wait`, in whole milliseconds."""
        return int(round(self.wait_s * 1000))

    def count_wait(self, seconds: float) -> None:
        """Count time spent waiting for a rate-limit slot."""
        if seconds > 0:
            with self.lock:
                self.wait_s += seconds


class BackendRunner:
    """Runs backends for a client: its transport, rate limiter, cool-downs and clock."""

    def __init__(
        self,
        transport: HttpTransport,
        limiter: RateLimiter,
        cooldowns: Cooldowns,
        intervals: dict[str, float],
        clock: Clock,
        check_ahead_s: float = 0.0,
        gate: Optional[HostGate] = None,
    ) -> None:
        self.transport = transport
        #: The client's gate per host: a block that ends a backend's call cools its endpoint's host down.
        self.gate = gate
        self.limiter = limiter
        self.cooldowns = cooldowns
        self.intervals = intervals
        self.clock = clock
        #: How long before a rate-limit slot the checks after the wait (cache, cool-down) run: with a
        #: shared state they are round trips, and a request must leave at its slot, not after them.
        self.check_ahead_s = check_ahead_s

    def run(
        self,
        backend: Backend,
        params: SearchParams,
        timeout: Optional[int],
        budget: Deadline,
        policy: RetryPolicy,
        state: CallState,
        recheck: Optional[Recheck] = None,
    ) -> ParseResult:
        """Ask ``backend``, retrying retryable errors as ``policy`` says; its result or the last error.

        A call ``backend`` refuses before sending (:meth:`Backend.check`) fails before all of
        that: no cool-down check, no rate-limit slot, no attempt counted; so does one with a key
        the service refused before (:mod:`.refusedkeys`).
        A block (``WebBlocked``) is recorded as a cool-down at once, here and in the shared
        state, before any wait: when this request waits out a Retry-After to try again, the
        cool-down covers that wait, so no other process asks meanwhile. ``recheck`` runs
        after a wait for a rate-limit slot (see :data:`Recheck`).
        """
        check_backend(backend, params)  # a refusal first: it books no slot, waits for none, counts no attempt
        _of_backend(backend, partial(self.cooldowns.refused.check, backend))  # a key it refused: not sent again
        name = backend.name
        # the whole backend, or also the part of it this call asks for
        keys = reported(backend, partial(backend.cooldown_keys, params))
        last_error: Optional[WebSearchError] = None
        own: Optional[str] = None  # the cool-down this request recorded before waiting to retry
        for attempt in range(policy.total + 1):
            under_way = self.clock.monotonic()  # before the checks: a block recorded after it is news to this request
            self._check_ready(backend, keys, budget, last_error, own, recheck if attempt == 0 else None, state)
            state.count_attempt()
            pace = _LaterRequests(self, backend, params, keys, budget, state)
            try:
                with backend_call(backend_endpoint(backend)), pacing(pace):
                    result = call_backend(backend, params, self.transport, budget.sooner(backend.timeout_ms(timeout)))
            except WebSearchError as error:
                last_error, cause = error, last_error
                if isinstance(error, AuthError):
                    _of_backend(backend, partial(self.cooldowns.refused.record, backend, error))
                delay = retry_delay(policy, attempt, error, budget, send_need_s(budget))
                if isinstance(error, WebBlocked):  # shared first, then the wait
                    key = reported(backend, partial(backend.cooldown_key, params, error))
                    own = self.cooldowns.record(error, key, delay, budget.remaining_s())
                if delay is None:
                    if isinstance(error, WebBlocked) and key == reported(backend, backend.upstream_key):
                        self._cool_host(backend, error, budget)
                    if cause is not None and cut_short(error, budget):
                        raise cause from None
                    raise
                announce_retry(name, error, attempt, delay)
                self.clock.sleep(delay)
                continue
            for key in keys:
                self.cooldowns.clear(key, started=under_way)
            return result
        raise last_error  # type: ignore[misc]  # pragma: no cover

    def cooling(self, params: SearchParams) -> Callable[[Backend], tuple[str, ...]]:
        """For a call with ``params``: the cool-down keys of a backend that cool down now (none:
        it would be asked), the cool-downs a cached answer without it lasts no longer than."""

        def keys(backend: Backend) -> tuple[str, ...]:
            asked = reported(backend, partial(backend.cooldown_keys, params))
            return tuple(key for key in asked if self.cooldowns.left_s(key) > 0)

        return keys

    def skipped_for(self, params: SearchParams) -> Callable[[Backend], float]:
        """For a call with ``params``: how long a backend stays skipped without being asked (the
        longest cool-down left of the parts it asks, 0.0: it would be asked)."""

        def skipped(backend: Backend) -> float:
            keys = reported(backend, partial(backend.cooldown_keys, params))
            return max((self.cooldowns.left_s(key) for key in keys), default=0.0)

        return skipped

    def _cool_host(self, backend: Backend, error: WebBlocked, budget: Deadline) -> None:
        """Cool the backend's endpoint host down after a block of the whole backend (recorded under
        its upstream key) that ended its call, so that fetching a page of that host is refused like
        a search (not before a retry: the host's cool-down would refuse the retry that waited out
        the Retry-After). A block of a part of it (a SearXNG instance's engines, which the instance
        answered for) says nothing of its host: a fetch of the instance's pages was refused."""
        if self.gate is not None:
            self.gate.blocked(backend_endpoint(backend), error, budget, engines=False)

    def _check_ready(
        self,
        backend: Backend,
        keys: tuple[str, ...],
        budget: Deadline,
        last_error: Optional[WebSearchError],
        own: Optional[str],
        recheck: Optional[Recheck],
        state: CallState,
        at_once: bool = False,
    ) -> None:
        """Wait for the request's turn: no cool-down, a rate-limit slot that leaves the request
        time to finish (:func:`send_need_s`), the cache read again after a wait, the cool-downs
        checked again right before it leaves (a block met meanwhile stops it), and at least
        an interval since the last request really left. ``at_once``: only a slot free now."""
        for key in keys:
            self.cooldowns.check(key, own, budget.remaining_s())
        interval = self.intervals.get(backend.name, backend.min_interval_s)
        upstream = reported(backend, backend.upstream_key)  # the pace is the upstream's: one per endpoint host
        need = send_need_s(budget)
        wait = self._book_slot(backend, upstream, interval, budget, need, last_error, at_once)
        try:
            state.count_wait(wait)
            slot_at = self.clock.monotonic() + wait
            self.clock.sleep(
                max(0.0, wait - self.check_ahead_s)
            )  # a request leaves at its slot: it wakes there (0: now)
            if wait > 0:
                if recheck is not None:
                    recheck()
                rest = slot_at - self.clock.monotonic()
                if rest > 0:
                    self.clock.sleep(rest)
                for key in keys:  # right before it leaves: a block met while it waited stops it
                    self.cooldowns.check(key, own, budget.remaining_s())
            late = self._departure(backend, upstream, interval, budget)
            while late > 0:  # the request before this one left late: the upstream still sees the interval
                if at_once:  # its slot is not free now after all: it does not wait
                    raise Timeout(
                        "%s allows one request every %s and the request before left late: no slot was free at once,"
                        " the next one is %s away" % (backend.name, span_text(interval), span_text(late)),
                        provider=backend.name,
                        detail_code=BUDGET_EXHAUSTED,
                    )
                self._too_late(backend, interval, budget, need, late, last_error)
                state.count_wait(late)
                self.clock.sleep(late)
                late = self._departure(backend, upstream, interval, budget)
            self._too_late(backend, interval, budget, need, 0.0, last_error)
        except BaseException:  # it does not leave (an error, an answer cached meanwhile, a cancelled MCP call,
            # work abandoned, ^C): its slot handed on, the same error re-raised (release never raises one)
            self.limiter.release(upstream, budget.remaining_s())
            raise

    def _departure(self, backend: Backend, upstream: str, interval: float, budget: Deadline) -> float:
        """Note the request leaving now (0.0), or the seconds the request before keeps it waiting.
        Too little time left to ask the shared state is no outage: refused for its budget, as
        its booking would be (:meth:`_book_slot`)."""
        late = self.limiter.sending(upstream, interval, budget.remaining_s())
        if late is None:
            raise _no_time_for_shared(
                budget, backend, "note %s's request leaving" % backend.name, self.limiter.shared_round_trip_s()
            )
        return late

    @staticmethod
    def _too_late(
        backend: Backend,
        interval: float,
        budget: Deadline,
        need: float,
        wait: float,
        last_error: Optional[WebSearchError],
    ) -> None:
        """Raise when, after ``wait`` more seconds, the request would have less than ``need``
        left of the budget: what cannot finish is not sent (the upstream's quota is not spent
        on an answer nobody will read)."""
        left = budget.remaining_s() - wait
        if left >= need and not budget.expired():
            return
        if wait > 0:  # the wait for its turn is what leaves too little
            why = "%s allows one request every %s; only %.0f ms of the budget would be left to ask it" % (
                backend.name,
                span_text(interval),
                max(0.0, left * 1000),
            )
        else:  # the budget went before this request's turn (other backends, retries, an identical search in flight)
            why = "only %.0f ms of the call's budget were left to ask %s" % (max(0.0, left * 1000), backend.name)
        raise last_error or Timeout(
            why + ", too little to finish",
            provider=backend.name,
            detail_code=BUDGET_EXHAUSTED if left > 0 else DEADLINE_EXCEEDED,
        )

    def _book_slot(
        self,
        backend: Backend,
        upstream: str,
        interval: float,
        budget: Deadline,
        need: float,
        last_error: Optional[WebSearchError],
        at_once: bool = False,
    ) -> float:
        """Book the next rate-limit slot of ``upstream`` (the backend at its endpoint) that leaves
        ``need`` seconds of the budget (``at_once``: only one free now); the seconds until it comes.
        With a shared state, at least the time of one command to it: at its slot the request notes
        its departure there (:meth:`_departure`), and a slot after which it could not would be
        waited for in vain, then refused (a slot that does not fit is refused at once)."""
        need = max(need, self.limiter.shared_round_trip_s())
        left = budget.remaining_s() - need  # the longest wait after which the request can still finish
        # the Redis round trip may take what the call has left; the wait, only ``left`` (at_once: none)
        wait = self.limiter.reserve(upstream, interval, min(0.0, left) if at_once else left, budget.remaining_s())
        if wait is None and not self.limiter.asks_shared_in(budget.remaining_s()):
            raise last_error or _no_time_for_shared(
                budget, backend, "book %s's rate-limit slot" % backend.name, self.limiter.shared_round_trip_s()
            )
        if wait is None and at_once:
            raise Timeout(
                "%s allows one request every %s and no slot was free at once: the next one is %s away"
                % (backend.name, span_text(interval), span_text(self.limiter.next_free_in(upstream)))
                if left >= 0
                else "only %.0f ms of the call's budget were left to ask %s, too little to finish"
                % (max(0.0, budget.remaining_ms()), backend.name),
                provider=backend.name,
                detail_code=BUDGET_EXHAUSTED,
            )
        if wait is None:  # budget first: do not wait for a slot that comes too late
            if budget.remaining_s() < need:  # the budget alone leaves too little, whatever the slot
                self._too_late(backend, interval, budget, need, 0.0, last_error)
            raise last_error or Timeout(
                "%s allows one request every %s; the next slot is %s away but only %.0f ms of the budget are left,"
                " and the request needs %.0f ms after its slot"
                % (
                    backend.name,
                    span_text(interval),
                    span_text(self.limiter.next_free_in(upstream)),
                    max(0.0, budget.remaining_ms()),
                    need * 1000,
                ),
                provider=backend.name,
                detail_code=BUDGET_EXHAUSTED,
            )
        return wait


def _no_time_for_shared(budget: Deadline, backend: Backend, step: str, command_s: float) -> Timeout:
    """The refusal of a request whose call has too little time left to take ``step`` in the shared
    state, where one command may take ``command_s``: no outage (nothing is paced alone), the
    budget's limit (``budget_exhausted``). It names that time: a state URL's ``socket_timeout``
    longer than the budget refused every paced request so, and "1499 ms ... too little" said not why."""
    return Timeout(
        "only %.0f ms of the call's budget were left, too little to %s in the shared state (one command to it"
        " may take %.0f ms: the state URL's socket_timeout when it sets one)"
        % (max(0.0, budget.remaining_ms()), step, command_s * 1000),
        provider=backend.name,
        detail_code=BUDGET_EXHAUSTED,
    )


#: The least time a request is sent with: a request with less than this left of its budget (a
#: quarter of the budget when that is less) cannot be expected to finish.
MIN_SEND_S = 1.0
MIN_SEND_SHARE = 0.25


def send_need_s(budget: Deadline) -> float:
    """How much of ``budget`` must be left for a request to be worth sending."""
    return min(MIN_SEND_S, MIN_SEND_SHARE * budget.timeout_ms / 1000.0)


def retry_delay(
    policy: RetryPolicy, attempt: int, error: WebSearchError, budget: Deadline, need_s: float = 0.0
) -> Optional[float]:
    """The wait before retrying after ``error``; ``None`` when there is no retry (not
    retryable, no retry left, or the wait and then ``need_s`` to send the retry do not fit
    in the budget: a wait after which the retry is refused is time lost for nothing)."""
    if attempt >= policy.total or not policy.is_retry(error):
        return None
    delay = policy.delay_s(attempt, error)
    return delay if delay + need_s < budget.remaining_s() else None


def error_kind(error: WebSearchError) -> str:
    """An error as the client's log lines name it: its type and detail code (``NetworkError/connection_error``;
    the type alone without a detail code), in a retry's line and a fallback's alike."""
    return error.code + ("/" + error.detail_code if error.detail_code else "")


def announce_retry(name: str, error: WebSearchError, attempt: int, delay: float) -> None:
    """Log a retry: one stderr line each on the command line (``cli.output.retry_lines``)."""
    logger.info(
        "%s: %s, retry %d in %.2f s",
        name,
        error_kind(error),
        attempt + 1,
        delay,
        extra={"retry_wait_s": delay},
    )


def with_retries(
    call: Callable[[], T],
    name: str,
    policy: RetryPolicy,
    budget: Deadline,
    clock: Clock,
    cooled_for: Optional[Callable[[WebBlocked], float]] = None,
    refused: Optional[Callable[[WebSearchError], bool]] = None,
) -> T:
    """``call()``, its retryable failures retried as ``policy`` says within ``budget`` (fetch
    and each page of ``include_content``: their requests wait for the transport's gate, the
    client's spacing per host and cool-downs, like a search's).

    ``cooled_for``: how long a block cools its host down (the gate records it as the block
    comes, for every process): a block is retried only after a wait that long, else it is
    raised at once (a 429 without ``Retry-After`` waited out its backoff, then its retry was
    refused by the 60 s cool-down its own request had recorded). ``refused``: whether an error is a
    cool-down's refusal by the gate (no request sent): never retried, as a search's is not."""
    attempt = 0
    cause: Optional[WebSearchError] = None
    while True:
        try:
            return call()
        except WebSearchError as error:
            delay = retry_delay(policy, attempt, error, budget)
            if delay is not None and isinstance(error, WebBlocked):
                if (refused is not None and refused(error)) or (cooled_for is not None and delay < cooled_for(error)):
                    delay = None
            if delay is None:
                if cause is not None and cut_short(error, budget):
                    raise cause from None
                raise
            announce_retry(name, error, attempt, delay)
            clock.sleep(delay)
            attempt, cause = attempt + 1, error


def cut_short(error: WebSearchError, budget: Deadline) -> bool:
    """Whether ``error``, a retry's failure, is only the call's deadline cutting the retry short:
    then the call raises the failure that was being retried (the 502 is why the call failed; the
    ``Timeout`` says only that time ran out), as when a retry does not fit in the budget at all."""
    return isinstance(error, Timeout) and budget.expired()


class _LaterRequests:
    """The :class:`~websearch_sync.engine.pace.Pace` of one attempt's later requests (a token
    page's next step, the next result pages): each waits for the backend's rate-limit slot
    and obeys its cool-downs within the call's budget, and is counted; a block one of them
    meets is recorded as a cool-down, as for a first request."""

    def __init__(
        self,
        runner: BackendRunner,
        backend: Backend,
        params: SearchParams,
        keys: tuple[str, ...],
        budget: Deadline,
        state: CallState,
    ) -> None:
        self.runner = runner
        self.backend = backend
        self.params = params
        self.keys = keys
        self.budget = budget
        self.state = state

    def before_request(self, at_once: bool = False) -> None:
        """Wait for the next slot (``Timeout(budget_exhausted)`` when it comes too late; ``at_once``:
        when it is not free now), count the request."""
        self.runner._check_ready(self.backend, self.keys, self.budget, None, None, None, self.state, at_once)
        self.state.count_attempt()

    def failed(self, error: WebSearchError) -> None:
        """Record the cool-down of a block met by a later page the backend answers without."""
        if isinstance(error, WebBlocked):
            self.runner.cooldowns.record(
                error, self.backend.cooldown_key(self.params, error), None, self.budget.remaining_s()
            )


def check_backend(backend: Backend, params: SearchParams) -> None:
    """Raise the refusal of ``params`` by ``backend`` before any request (:meth:`Backend.check`);
    a bug inside it becomes a logged ``WebProviderError``, as in :func:`call_backend`. Once per
    backend object and call (:meth:`Backend.check_once`)."""
    _of_backend(backend, lambda: backend.check_once(params))


def refusal(backend: Backend, params: SearchParams) -> Optional[WebSearchError]:
    """The error :func:`check_backend` refuses ``params`` with, or ``None``."""
    try:
        check_backend(backend, params)
    except WebSearchError as error:
        return error
    return None


def call_backend(backend: Backend, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
    """Run one backend; a bug inside it (a parse result of the wrong shape too) becomes a
    logged ``WebProviderError``, never a stray exception."""
    return _of_backend(backend, lambda: checked_result(backend.search(params, transport, deadline), backend.name))


def _of_backend(backend: Backend, step: Callable[[], T]) -> T:
    """``reported(backend, step)``, its error naming ``backend`` when it names no provider (a
    plugin's ``raise WebParseError("...")``): in a merge's ``errors`` and the command line's
    per-backend lines, an error without one says nothing of who failed. The error never shows
    the backend's secrets (a service quoting the key it refused): it may end in a fallback's
    ``errors``, which no raised error's redaction reaches."""
    try:
        return reported(backend, step)
    except WebSearchError as error:
        if error.provider is None:
            error.provider = backend.name
        redact_error(error, reported(backend, backend.secrets))  # a plugin's broken secrets(): its defect, logged
        raise

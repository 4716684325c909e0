"""Single-flight: while one caller asks the upstream a question, identical callers wait
for its answer instead of asking too.

Identical means the same cache key (backends, strategy, validated parameters, settings
fingerprint). In one process the first caller holds an in-process entry and the others
wait on its event and take the answer it hands over (no cache needed: the
module-level ``ws.search`` keeps none without a state URL; a partial answer too, one cut short
by the deadline only, to a waiter that could do no better: no more time, retries nor request
timeout than its asker had, :class:`Reach`); across processes (a shared state) the first one also holds a short
Redis lock (``state/flights.py``) and the others poll the shared cache while it is held.
A waiter given no answer then reads the cache: a hit answers it; a miss (the first caller
failed, or its answer was not cacheable nor handed to this waiter) lets it ask the upstream
itself, unless the first caller's failure is its answer too (:func:`answers_waiters`: a block, a key
refused, a 404; not a timeout nor a reset connection) or it is left too little time to send: then it
raises a copy of the first caller's error. Across processes the first caller writes such a
failure to the shared state before it lets the question go (``state/failures.py``), and a waiter
that finds the question let go without an answer raises that failure when it was written while it
waited and is its answer too by the same rule; when the
question's lease lapsed instead (its owner died), one waiter takes the question over and the
others wait for that one. Every wait ends with the waiter's budget.
"""

import dataclasses
import threading
import time
from collections.abc import Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Callable, Optional, cast

from ..errors import BUDGET_EXHAUSTED, DEADLINE_EXCEEDED, NOT_ASKED, WebBlocked, WebSearchError, copied_error
from ..forks import renewed_in_children
from ..net.deadline import Deadline
from ..net.status import wait_words
from ..net.waits import wait_for
from .cache import copy_result
from .retry import CALLER_RETRIES, DEFAULT_RETRY
from .tiers import SharedFlightsTier

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How often a waiter in another process looks for the answer in the shared cache.
POLL_S = 0.02
#: A question let go this close to when its lease would lapse is taken for lapsed (its owner died).
LAPSE_MARGIN_S = 0.1

Lookup = Callable[[], Optional[dict[str, Any]]]

#: The failures a longer deadline alone may mend: a waiter with no more time gets the same.
DEADLINE_CUTS = frozenset({DEADLINE_EXCEEDED, BUDGET_EXHAUSTED, NOT_ASKED})


#: Whether a block starts a cool-down (:meth:`~.cooldown.Cooldowns.cools_down`); without a
#: client's cool-downs to ask, every block is taken to.
CoolsDown = Callable[[WebBlocked], bool]


def _every_block_cools_down(error: WebBlocked) -> bool:
    return True


def answers_waiters(error: WebSearchError, cools_down: CoolsDown = _every_block_cools_down) -> bool:
    """Whether the failure of the caller a waiter waited for is the waiter's answer too, raised as a
    copy rather than asked of the upstream again (one request per waiter, to a host that just
    failed). True when neither ``error`` nor any failure attached to it (a fallback's other
    backends') is one the waiter's own time or attempts may mend: the deadline's
    (:data:`DEADLINE_CUTS`: ``timeout_ms`` is in no key, the waiter may have more), one a retry
    heals (a timeout, a reset connection, a 5xx: :meth:`RetryPolicy.is_retry`) or one a later call
    may get past (:data:`~.retry.CALLER_RETRIES`: ``pdf_reads_busy`` comes when the asker's share of
    its deadline ran out). A block that started a cool-down (``cools_down``) never is (a
    ``WebBlocked`` 429 is retryable, but its host now cools down: asked again it is refused at once);
    one that started none (``cooldowns={"http_429": 0}``) is read as any failure. Nor is a key
    refused, a 404, a page without text, a parse failure: the upstream says the same again."""
    return not any(_mendable(one, cools_down) for one in (error, *error.errors))


def _mendable(error: WebSearchError, cools_down: CoolsDown) -> bool:
    """Whether another call may get past ``error`` by its own time or its own attempts (:func:`answers_waiters`)."""
    if isinstance(error, WebBlocked) and cools_down(error):
        return False
    return error.detail_code in DEADLINE_CUTS | CALLER_RETRIES or DEFAULT_RETRY.is_retry(error)


def aged(error: WebSearchError, elapsed_s: float) -> WebSearchError:
    """``error`` (a waiter's copy, changed in place) and the failures attached to it with their wait
    (``retry_after``, and the words of the message saying it: a 429's "retry after N s", a
    cool-down's "(N s left)") counted ``elapsed_s`` after it was met: a waiter raising it later sees
    the time left, not the time its asker was told. The words are made again from the aged value,
    in the phrasing they were said in (``stale_phrasing``)."""
    for one in (error, *error.errors):
        if one.retry_after is None or not elapsed_s > 0:
            continue
        left = max(0.0, one.retry_after - elapsed_s)
        words = getattr(one, "stale_words", None)
        if words and words in one._whole_text():
            fresh = wait_words(left, getattr(one, "stale_phrasing", None))
            one.message = one._whole_text().replace(words, fresh, 1)
            one.stale_words = fresh  # type: ignore[attr-defined]  # any class: it ages again
        one.retry_after = left
    return error


@dataclasses.dataclass(frozen=True)
class Reach:
    """What a call could do to complete an answer: its time (seconds), its retries and its
    per-request timeout (ms; ``None``: each backend's own). The settings a question's key leaves out."""

    budget_s: float
    retries: int
    request_timeout_ms: Optional[int]

    def covers(self, other: "Reach") -> bool:
        """True when ``other`` could do no more than this: a partial answer made with this reach is
        all ``other`` would get by asking again (an unknown backend default counts as larger)."""
        timeout_covered = other.request_timeout_ms == self.request_timeout_ms or (
            other.request_timeout_ms is not None
            and self.request_timeout_ms is not None
            and other.request_timeout_ms <= self.request_timeout_ms
        )
        return other.budget_s <= self.budget_s and other.retries <= self.retries and timeout_covered


class _Asking:
    """A question one thread of this process is asking; its :attr:`done` set when it is done, with
    its ``answer`` when it handed one over (:meth:`Flights.answered`)."""

    answer: Optional[dict[str, Any]] = None
    #: A copy of the error the asking call failed with (``None``: it did not fail).
    error: Optional[WebSearchError] = None
    #: When it failed (``time.monotonic()``): a waiter ages the copy it raises from then.
    failed_at: float = 0.0
    #: ``None`` for a whole answer; for a partial one, the reach of the call that made it (its
    #: whole budget): a waiter that could do no more could not complete it by asking again.
    partial_reach: Optional[Reach] = None
    #: The threads of this process waiting for it (counted under :attr:`Flights._lock`).
    waiters: int = 0
    #: The answer handed over while no thread waited, copied for the waiters that come before the
    #: asker's turn ends (:meth:`Flights.answered`); none come after it.
    handed: Optional[dict[str, Any]] = None

    def __init__(self) -> None:
        #: The thread whose turn it is: the only one that hands its waiters an answer.
        self.owner = threading.get_ident()
        #: What the waiters wait on, made by the first of them (under :attr:`Flights._lock`) and set by
        #: the asker when its turn ends: a question nobody waits for, nearly every one, makes no
        #: ``threading.Event`` (a condition and its lock: 3 us a fetch or a search, and its ``set``).
        self.done: Optional[threading.Event] = None

    def wait(self, seconds: float) -> bool:
        """In a waiter (which made :attr:`done`): wait at most ``seconds`` for the turn's end; true once it ended."""
        assert self.done is not None
        return self.done.wait(seconds)

    def answer_for(self, budget: Deadline, reach: Optional[Reach]) -> Optional[dict[str, Any]]:
        """A copy of the answer handed over, when it serves a waiter with ``budget`` and ``reach``
        (its retries and request timeout; ``None``: unknown): a whole one always; a partial one
        when the waiter could do no more than its asker (a backend that ran out of the asker's
        time would run out of the waiter's, which then gets nothing)."""
        if self.answer is None:
            return None
        if self.partial_reach is not None and (
            reach is None or not self.partial_reach.covers(dataclasses.replace(reach, budget_s=budget.remaining_s()))
        ):
            return None  # more time, retries or a longer request timeout may complete it: this waiter asks itself
        return copy_result(self.answer)


class Flights:
    """The questions this process (or, with a shared tier, any process) is asking now."""

    def __init__(
        self, shared: Optional[SharedFlightsTier] = None, cools_down: CoolsDown = _every_block_cools_down
    ) -> None:
        self._shared = shared
        self._cools_down = cools_down
        self._asking: dict[Hashable, _Asking] = {}
        self._lock = threading.Lock()
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: the parent's threads asking questions are not there to answer them
        (a call of one would wait out its budget, then fail, and so would every later one), and
        one of them may have held the lock at the fork."""
        self._lock = threading.Lock()
        self._asking = {}

    def answered(self, key: Hashable, answer: dict[str, Any], partial_reach: Optional[Reach] = None) -> None:
        """Hand the answer to ``key`` to the threads of this process waiting for it (the one
        asking calls this inside its turn): they need no cache to get it. ``partial_reach``:
        the answer is partial (not for the cache), made with that reach; a waiter that could do
        no more takes it too (:meth:`_Asking.answer_for`).

        The waiters' copy is made here when one waits, else only if one comes before the turn ends
        (then at its end, from ``answer`` as it is then: the client changes no answer it handed over
        before its turn ends): a call nobody waits for, nearly every one, copies nothing (a
        search's ten items: a hundred lines of Python).

        Only the caller whose turn it is hands over: a waiter given nothing asks itself and calls this
        too, when the turn under way may be another caller's, whose waiters would get an answer kept
        uncopied that the waiter's own caller goes on to change."""
        with self._lock:
            asking = self._asking.get(key)
            if asking is not None and asking.owner == threading.get_ident():
                if asking.waiters:
                    asking.answer = copy_result(answer)
                else:
                    asking.handed = answer
                asking.partial_reach = partial_reach

    @contextmanager
    def turn(
        self,
        key: Hashable,
        budget: Deadline,
        lookup: Lookup,
        across_processes: bool = True,
        ask_need_s: float = 0.0,
        reach: Optional[Reach] = None,
        secrets: Iterable[Optional[str]] = (),
    ) -> Iterator[Optional[dict[str, Any]]]:
        """Yields the answer another caller found (handed over, or read with ``lookup``), or
        ``None``: then this caller asks the upstream, and the others wait until the block ends.
        Not ``across_processes``: only the threads of this process wait for each other (an
        answer that is not cached cannot reach another process). A waiter whose caller failed
        raises a copy of that caller's error when the failure is its answer too
        (:func:`answers_waiters`: a block, a 404...), or when it is left with less than
        ``ask_need_s`` (what a request needs to be sent): asking itself, it would send nothing and
        say only that its time ran out, not why each backend failed. ``reach``: this caller's retries and
        request timeout, which a partial answer handed over must not exceed (``None``: it takes none).
        ``secrets``: this caller's, redacted from a failure it tells the waiters of other processes of."""
        with self._lock:
            asking = self._asking.get(key)
            if asking is None:
                mine = self._asking[key] = _Asking()
            else:
                asking.waiters += 1
                if asking.done is None:  # the first waiter: the asker sets it as its turn ends
                    asking.done = threading.Event()
        if asking is not None:  # another thread of this process asks: wait, then take its answer (or the cache's)
            wait_for(asking.wait, max(0.0, budget.remaining_s()))  # in slices: a Ctrl-C meanwhile is raised soon
            handed = asking.answer_for(budget, reach)
            failed = asking.error
            if (
                handed is None
                and failed is not None
                and (answers_waiters(failed, self._cools_down) or budget.remaining_s() < ask_need_s)
            ):
                raise aged(copied_error(failed), time.monotonic() - asking.failed_at)
            yield handed if handed is not None else lookup()
            return
        try:
            if across_processes:
                yield from self._shared_turn(key, budget, lookup, secrets)
            else:
                yield None
        except WebSearchError as error:  # a copy for the waiters: the asker's own is redacted in place, then raised
            mine.error, mine.failed_at = copied_error(error), time.monotonic()
            raise
        finally:
            with self._lock:
                del self._asking[key]  # no waiter comes after this
                late = mine.waiters and mine.answer is None and mine.handed is not None
                done = mine.done  # made by a waiter before this point, or never
            if late:
                mine.answer = copy_result(cast(dict[str, Any], mine.handed))
            mine.handed = None
            if done is not None:
                done.set()

    def _shared_turn(
        self, key: Hashable, budget: Deadline, lookup: Lookup, secrets: Iterable[Optional[str]]
    ) -> Iterator[Optional[dict[str, Any]]]:
        if self._shared is None:
            yield None
            return
        waiting_since = time.monotonic()
        token, lapses_at = self._claim(key, budget)
        while token is None:  # another process asks: wait for its answer while it holds the question
            found, lapsed = self._wait_for_answer(key, budget, lookup, lapses_at)
            if found is None and not lapsed and not budget.expired():
                self._raise_published(key, budget, waiting_since)  # its failure, when it is ours too
            if found is not None or budget.expired() or not lapsed:
                yield found  # None: it let go without an answer for us (it failed): ask
                return
            # its lease lapsed (it died): one of the waiters takes the question over, the others
            # wait for that one (not every one of them asks)
            token, lapses_at = self._claim(key, budget)
        published = False
        try:
            # the owner before this one may have answered and let go between this caller's cache read and its
            # claim; so may two owners in turn between this caller's claims ("": let go twice, or Redis unusable)
            yield lookup()
        except WebSearchError as error:  # its waiters in other processes take it as this process's do
            if token and answers_waiters(error, self._cools_down):
                self._shared.publish(key, error, secrets, budget.remaining_s())
                published = True
            raise
        finally:
            self._shared.release(key, token, budget.remaining_s(), failed=published)

    def _raise_published(self, key: Hashable, budget: Deadline, waiting_since: float) -> None:
        """Raise the failure the question's asker in another process wrote when it let the question
        go (``waiting_since``: when this caller began to wait; a record older than its wait is an
        earlier asker's, which an owner of this version deletes as it lets go) and it is this waiter's answer too (:func:`answers_waiters`, read again
        here: the record is untrusted, and this process's cool-downs decide)."""
        assert self._shared is not None
        published = self._shared.published(key, budget.remaining_s())
        if published is None:
            return
        # An owner that lets go without a failure deletes an earlier owner's record first, so the record is
        # the last owner's. Its age is still bounded (an owner of an older version deletes none): by the wait
        # up to the read's end, as the read itself may take long on a loaded machine (timed before it, the
        # record of the owner this caller waited for, written a moment after the wait began, looked older
        # than the wait, and the waiter asked the walled upstream itself: 1 run in 25 at load 10).
        waited_s = time.monotonic() - waiting_since
        error, age_s = published
        # Redis rounds the time left down to the millisecond: a record written as this wait began may look 1 ms older
        if age_s <= waited_s + 0.001 and answers_waiters(error, self._cools_down):
            raise aged(error, age_s)

    def _claim(self, key: Hashable, budget: Deadline) -> tuple[Optional[str], float]:
        """A token when this caller now asks the question (``""``: nothing to release), or ``None``
        while another caller holds it, with when (``time.monotonic()``) that caller's lease lapses
        at the earliest. A key that is no lease (planted) holds no one back."""
        assert self._shared is not None
        for _ in range(2):  # a question let go between the claim and the look at its lease: claim it again
            token = self._shared.claim(key, max(0.001, budget.remaining_s()), budget.remaining_s())
            if token is not None:
                return token, float("inf")
            asked = time.monotonic()
            held = self._shared.held_for(key, budget.remaining_s())
            if held is None:  # no time left to tell whether it is still held: wait (the budget ends it)
                return None, float("inf")
            if held:
                return None, asked + held
        return "", float("inf")

    def _wait_for_answer(
        self, key: Hashable, budget: Deadline, lookup: Lookup, lapses_at: float
    ) -> tuple[Optional[dict[str, Any]], bool]:
        """The answer once found (``None`` when the question was let go without one, or the budget
        ran out), and whether the question was let go by its lease lapsing (its owner died) or
        vanishing (Redis lost it) rather than released (its owner is done: it failed, or its answer
        was not for the cache; the tier says so).

        ``lapses_at``: the earliest its lease can lapse (the time left it was last read with, counted
        from before that read). The lease is gone by the time the read that found it gone returned:
        timed then, a lease that lapsed is never taken for released, however late a loaded machine
        sent either read (timed when sent, one waiter of four asked the upstream itself)."""
        assert self._shared is not None
        while True:
            time.sleep(max(0.0, min(POLL_S, budget.remaining_s())))
            found = lookup()
            if found is not None or budget.expired():
                return found, False
            asked = time.monotonic()
            held = self._shared.held_for(key, budget.remaining_s())
            if held is None:  # too little time left to read the lease (nor the cache): it may still be
                # held, so this caller waits out its budget, as a waiter in the asking process does,
                # rather than send its own request moments before its deadline
                time.sleep(max(0.0, budget.remaining_s()))
                return None, False
            if not held:
                gone = time.monotonic()
                found = lookup()
                if found is not None:
                    return found, False
                if gone >= lapses_at - LAPSE_MARGIN_S:
                    return None, True
                # gone before its lease could lapse: let go by its owner (it left the marker), or
                # lost by Redis (restarted empty, evicted): no one let it go, so it is taken over as
                # from a dead owner (one waiter claims it, the rest wait), not asked by every waiter at once
                if not self._shared.released(key, budget.remaining_s()):
                    return None, True
                # The marker may be another waiter's, which took the lost question over, cached its
                # answer and let go after this caller's read of the cache (a loaded machine stalled
                # it there; it asked too, 1 whole-suite run in 7): the cache is read again, after the marker.
                return lookup(), False
            lapses_at = asked + held

"""Single flight across processes when the machine stalls a waiter at the wrong moment.

Two waiters (two ``Flights``, as two processes) share one tier of leases, on a fake clock that
moves only when they sleep or a stall moves it: the stalls a loaded machine puts between a
waiter's steps are placed exactly, and no real time is the subject.
"""

import threading
import uuid
from contextlib import nullcontext
from types import SimpleNamespace
from typing import Any, Optional

import pytest
from clocks import FakeClock

from websearch_sync.client import flight
from websearch_sync.client.flight import Flights
from websearch_sync.client.state.flights import LEASE_S
from websearch_sync.errors import BadGateway, WebProviderError
from websearch_sync.net.deadline import Deadline

QUESTION = ("search", "orphaned")
ANSWER = {"items": [{"title": "the answer"}]}
#: How long the dead worker's lease has left when the waiters arrive.
DEAD_LEASE_S = 0.5
#: A stall past that lease: the machine ran something else meanwhile.
STALL_S = DEAD_LEASE_S + 0.1
#: How long one Redis command may take (the shared state's default command timeout).
COMMAND_S = 0.25


class Leases:
    """The shared tier (``SharedFlightsTier``) on ``clock``: a claim is a lease that its live owner
    renews (it never lapses while held); the killed worker's lapses at ``lapses_at``."""

    def __init__(self, clock: FakeClock, holder: str, lapses_at: float) -> None:
        self.clock = clock
        self.holder: Optional[str] = holder
        self.lapses_at = lapses_at
        self.granted: list[str] = []
        self.let_go = False  # its owner released it (the marker a real tier leaves)
        self._lock = threading.Lock()

    def _lapse(self) -> None:
        if self.holder is not None and self.clock.monotonic() >= self.lapses_at:
            self.holder = None

    def claim(self, key: Any, hold_s: float, left_s: Optional[float] = None) -> Optional[str]:
        """A token when the question is free (a live owner's lease: it renews it), else ``None``."""
        with self._lock:
            self._lapse()
            if self.holder is not None:
                return None
            self.holder, self.lapses_at, self.let_go = uuid.uuid4().hex, float("inf"), False
            self.granted.append(self.holder)
            return self.holder

    def held_for(self, key: Any, left_s: Optional[float] = None) -> float:
        """What the holder's lease has left, as Redis's PTTL says it (at most a lease)."""
        with self._lock:
            self._lapse()
            return 0.0 if self.holder is None else min(LEASE_S, self.lapses_at - self.clock.monotonic())

    def release(self, key: Any, token: str, left_s: Optional[float] = None, failed: bool = False) -> None:
        """Free the question if ``token`` holds it; unless its owner ``failed``, delete an earlier
        owner's failure record first (:attr:`record`), as the Redis tier does."""
        with self._lock:
            if token and not failed:
                self.record = None
            if token and self.holder == token:
                self.holder, self.let_go = None, True

    def released(self, key: Any, left_s: Optional[float] = None) -> bool:
        """Whether the question's last owner released it (not lapsed, nor lost)."""
        with self._lock:
            return self.let_go

    #: An earlier owner's failure, with when it was written on the clock (``None``: none).
    record: Optional[tuple[Exception, float]] = None

    def published(self, key: Any, left_s: Optional[float] = None) -> Optional[tuple[Exception, float]]:
        """The failure record still there, with its age (as Redis's PTTL tells it)."""
        with self._lock:
            if self.record is None:
                return None
            error, written_at = self.record
            return error, self.clock.monotonic() - written_at


@pytest.fixture
def clock(monkeypatch):
    """The fake clock the flights poll by (each poll really yields a moment: no busy loop)."""
    clock = FakeClock(on_sleep=lambda seconds: threading.Event().wait(0.001))
    monkeypatch.setattr(flight, "time", SimpleNamespace(monotonic=clock.monotonic, sleep=clock.sleep))
    return clock


@pytest.mark.parametrize(
    "stalled_look",
    [
        pytest.param(1, id="stalled-after-reading-the-lease-at-its-claim"),
        pytest.param(3, id="stalled-between-its-clock-and-its-read-of-the-lease"),
    ],
)
def test_waiters_stalled_past_a_killed_workers_lease_ask_once_between_them(clock, stalled_look):
    """Two waiters find a killed worker's lease with 0.5 s left; the machine stalls both past it.
    Look 1 (the read after the failed claim): the time it said was forgotten, so the lease found
    gone at the next poll counted as released, not lapsed, and each waiter asked the upstream
    itself. Look 3 (a poll): the lease found gone was timed when the read was sent, before the
    stall, so it looked released early. Either way one takes the question over, the other waits
    for its answer."""
    leases = Leases(clock, "the killed worker", clock.monotonic() + DEAD_LEASE_S)
    looks: dict[int, int] = {}
    both = threading.Barrier(2, action=lambda: clock.advance(STALL_S), timeout=10)
    real_held_for = leases.held_for

    def held_for(key: Any, left_s: Optional[float] = None) -> float:
        look = looks[threading.get_ident()] = looks.get(threading.get_ident(), 0) + 1
        if look == stalled_look == 1:  # read, then stalled (both read it: then the stall)
            held = real_held_for(key, left_s)
            both.wait()
            return held
        if look == stalled_look:  # stalled, then read
            both.wait()
        return real_held_for(key, left_s)

    leases.held_for = held_for  # type: ignore[method-assign]
    cache: dict[str, Any] = {}
    asked: list[Optional[str]] = []  # who held the question when a waiter asked the upstream
    found: list[Optional[dict[str, Any]]] = []

    def wait() -> None:
        with Flights(leases).turn(QUESTION, Deadline(30_000), lambda: cache.get("answer")) as answer:
            if answer is None:
                asked.append(leases.holder)
                cache["answer"] = ANSWER
            found.append(answer)

    waiters = [threading.Thread(target=wait) for _ in range(2)]
    for waiter in waiters:
        waiter.start()
    for waiter in waiters:
        waiter.join(30)
    assert len(found) == 2
    (holder,) = asked  # one request for one question
    assert holder in leases.granted, "a waiter asked without taking the question over: the other may ask too"
    assert found.count(ANSWER) == 1  # the other waiter's answer is the one the first found


def test_a_question_let_go_between_a_claim_and_the_look_at_its_lease_is_answered_from_the_cache(clock):
    """A waiter's claim fails (a live worker asks); that worker answers and lets go before the
    waiter looks at its lease: no one holds it. That was taken for a key that is no lease
    (planted), and the waiter asked the upstream again; it claims the question again and finds
    the answer."""
    leases = Leases(clock, "a live worker", float("inf"))
    cache: dict[str, Any] = {}
    real_claim = leases.claim

    def claim(key: Any, hold_s: float, left_s: Optional[float] = None) -> Optional[str]:
        token = real_claim(key, hold_s, left_s)
        if leases.holder == "a live worker":  # it answers and lets go right after this claim failed
            cache["answer"] = ANSWER
            leases.release(key, "a live worker")
        return token

    leases.claim = claim  # type: ignore[method-assign]
    with Flights(leases).turn(QUESTION, Deadline(30_000), lambda: cache.get("answer")) as answer:
        assert answer == ANSWER


class _Redis:
    """What ``SharedFlights`` reaches of a Redis: its scripts (the one reading a lease's time left
    replies ``pttl_ms``, or -2 for a question let go), and PTTL replying ``pttl_ms``."""

    def __init__(self, pttl_ms: int, released: bool = False) -> None:
        self.pttl_ms = pttl_ms
        self.released = released

    def register_script(self, script: str) -> object:
        """A script object (run here only for the lease's time left)."""
        if "PTTL" not in script:
            return object()
        return lambda keys, args: -2 if self.released else self.pttl_ms

    def pttl(self, name: str) -> int:
        """The reply."""
        return self.pttl_ms


class _State:
    """A ``SharedState`` whose operations run on :class:`_Redis`."""

    def __init__(self, pttl_ms: int, released: bool = False) -> None:
        self.server = SimpleNamespace(redis=_Redis(pttl_ms, released))

    def key(self, kind: str, name: str) -> str:
        """The key's name."""
        return "websearch_sync:%s:%s" % (kind, name)

    def run(self, operation: Any, default: Any, left_s: Optional[float] = None, **options: Any) -> Any:
        """The operation on the Redis (``default`` when it does not fit in ``left_s``, as Redis's)."""
        return operation(self.server.redis) if self.fits(left_s) else default

    def fits(self, left_s: Optional[float], write: bool = False) -> bool:
        """Whether ``left_s`` holds one command (of :data:`COMMAND_S`)."""
        return left_s is None or left_s >= COMMAND_S


@pytest.mark.parametrize(
    "pttl_ms, released, held_s",
    [
        pytest.param(0, False, 0.001, id="last-millisecond"),
        pytest.param(1500, False, 1.5, id="a-lease"),
        pytest.param(-2, False, 0.0, id="no-key"),
        pytest.param(-1, False, 0.0, id="no-expiry"),
        pytest.param(int(LEASE_S * 1000) + 1, False, 0.0, id="longer-than-a-lease"),
        pytest.param(1500, True, 0.0, id="let-go"),
    ],
)
def test_a_lease_in_its_last_millisecond_still_holds_its_question(pttl_ms, released, held_s):
    """Redis (7.0.15) rounds a key's time left down and expires it only once that millisecond has
    passed: ``SET PX 2`` followed by 20,000 pipelined PTTL / ``SET NX`` pairs had PTTL say 0 while
    SET NX was still refused in 7 runs of 10 (173 to 1,330 pairs each). Taken for "no one holds
    it", a waiter that claimed then asked the upstream without the question, while the one that
    claimed it once it lapsed asked too (1 run of 80 of the operator test of four waiters)."""
    from websearch_sync.client.state.flights import SharedFlights

    assert SharedFlights(_State(pttl_ms, released)).held_for(QUESTION) == held_s  # type: ignore[arg-type]


def test_a_question_released_without_an_answer_is_asked_by_its_waiter_without_taking_it_over(clock):
    """The live worker asking fails and lets go (released, not lapsed): its waiter asks the
    upstream itself, holding no question (the other waiters do too, none waits for another);
    only a lapsed lease (its owner died) is taken over."""
    leases = Leases(clock, "a live worker", float("inf"))

    def lookup() -> Optional[dict[str, Any]]:
        leases.release(QUESTION, "a live worker")  # it failed: no answer in the cache
        return None

    with Flights(leases).turn(QUESTION, Deadline(30_000), lookup) as answer:
        assert answer is None  # ask
        assert leases.holder is None and leases.granted == []


def test_a_live_owner_renewing_its_lease_past_its_first_reading_is_not_taken_for_dead(clock):
    """The waiter's first reading of the lease said 3 s; the live owner renews it, and lets go
    (failed) after those 3 s: released, not lapsed (the reading taken at each poll counts), so
    the waiter asks without taking the question over."""
    leases = Leases(clock, "a live worker", float("inf"))
    polls = []

    def lookup() -> Optional[dict[str, Any]]:
        polls.append(clock.monotonic())
        if len(polls) == 1:
            clock.advance(LEASE_S + 1.0)  # the owner still asks, its lease renewed
        else:
            leases.release(QUESTION, "a live worker")
        return None

    with Flights(leases).turn(QUESTION, Deadline(30_000), lookup) as answer:
        assert answer is None and leases.granted == []


def test_an_answer_for_this_process_only_takes_no_shared_question(clock):
    """``across_processes=False`` (an answer that will not be cached cannot reach another process):
    other processes are not made to wait for it."""
    leases = Leases(clock, None, 0.0)
    with Flights(leases).turn(QUESTION, Deadline(30_000), lambda: None, across_processes=False) as answer:
        assert answer is None and leases.holder is None and leases.granted == []


def test_a_lease_unread_for_lack_of_time_is_not_taken_for_released():
    """With less time left than one command may take, PTTL is not sent: the question may still be
    held, which is no "0 s left" (read as let go, the waiter sent its own request)."""
    from websearch_sync.client.state.flights import SharedFlights

    flights = SharedFlights(_State(1500))  # type: ignore[arg-type]
    assert (flights.held_for(QUESTION, COMMAND_S), flights.held_for(QUESTION, COMMAND_S / 2)) == (1.5, None)


def test_a_waiter_whose_time_runs_out_while_the_question_is_held_does_not_ask(clock, monkeypatch):
    """A waiter in another process polls a live worker's lease until less than one command's time
    is left: it could no longer read the lease, which was taken for "released", and it asked the
    upstream itself a quarter second before its deadline (its call then ended in a read timeout).
    It waits out its budget instead, as a waiter in the asking process does: its fetch or search
    then ends with ``deadline_exceeded`` without sending."""
    from websearch_sync.client.state.flights import SharedFlights
    from websearch_sync.net import deadline

    monkeypatch.setattr(deadline, "time", SimpleNamespace(monotonic=clock.monotonic))
    leases = Leases(clock, "a live worker", float("inf"))
    shared = SharedFlights(_State(1500))  # type: ignore[arg-type]
    leases.held_for = shared.held_for  # type: ignore[method-assign]  # the live worker's lease, as PTTL says it
    budget = Deadline(1000)
    with Flights(leases).turn(QUESTION, budget, lambda: None) as answer:
        assert answer is None and budget.expired()  # the caller's read ends at once: deadline_exceeded
    assert leases.holder == "a live worker" and leases.granted == []


def test_a_waiter_stalled_after_reading_an_earlier_askers_failure_asks_itself(clock):
    """An earlier asker's failure was written 5 ms before this wait began; the question's asker now
    lets go without one (its failure is no one's to copy). The waiter reads the record, then the
    machine stalls it: its wait, timed after the read, looked long enough to hold the record's age,
    and it raised the earlier asker's error (seen on a loaded machine, 3 runs in 15) instead of
    asking. The asker deletes the earlier record as it lets go: there is none to read."""
    leases = Leases(clock, "a live asker", float("inf"))
    leases.record = WebProviderError("gone", detail_code="http_404", status=404), clock.monotonic() - 0.005

    def held_then_let_go(key: Any, left_s: Optional[float] = None) -> float:
        held = Leases.held_for(leases, key, left_s)
        leases.release(key, "a live asker")  # its answer was not for the cache
        return held

    def published(key: Any, left_s: Optional[float] = None) -> Optional[tuple[Exception, float]]:
        found = Leases.published(leases, key, left_s)
        clock.advance(0.05)  # the stall, between Redis's answer and the waiter's next look at its clock
        return found

    leases.held_for = held_then_let_go  # type: ignore[method-assign]
    leases.published = published  # type: ignore[method-assign]
    with Flights(leases).turn(QUESTION, Deadline(30_000), lambda: None) as answer:
        assert answer is None  # no answer: this waiter asks the upstream itself


def test_the_failure_of_the_asker_waited_for_is_raised_however_long_its_read_takes(clock):
    """The asker this caller waits for fails with a 404 a moment after the wait began, writes it and
    lets go; the read of the record takes 50 ms to reach Redis on a loaded machine. Timed before
    the read, the wait looked shorter than the record's age, and the waiter asked the upstream
    itself (1 run in 25 at load 10, against a real Redis): the wait is timed up to the read's end."""
    leases = Leases(clock, "a live asker", float("inf"))
    gone = WebProviderError("gone", detail_code="http_404", status=404)

    def held_then_failed(key: Any, left_s: Optional[float] = None) -> float:
        held = Leases.held_for(leases, key, left_s)
        clock.advance(0.001)
        leases.record = gone, clock.monotonic()  # written before it lets go
        leases.release(key, "a live asker", failed=True)
        return held

    def published(key: Any, left_s: Optional[float] = None) -> Optional[tuple[Exception, float]]:
        clock.advance(0.05)  # the read on its way to Redis
        return Leases.published(leases, key, left_s)

    leases.held_for = held_then_failed  # type: ignore[method-assign]
    leases.published = published  # type: ignore[method-assign]
    with pytest.raises(WebProviderError) as raised:
        with Flights(leases).turn(QUESTION, Deadline(30_000), lambda: None):
            pass
    assert raised.value.detail_code == "http_404" and leases.granted == []


@pytest.mark.parametrize(
    "failure",
    [None, BadGateway("failed with HTTP 502", detail_code="http_502", status=502)],
    ids=["answered", "mendable"],
)
def test_an_owner_that_publishes_no_failure_deletes_an_earlier_ones_record(clock, failure):
    """An owner that answers, or fails with a failure its waiters may mend (unwritten), lets go with
    ``failed=False``: the tier deletes the earlier owner's record; one that writes its failure keeps it."""
    leases = Leases(clock, None, 0.0)
    leases.record = WebProviderError("gone", detail_code="http_404", status=404), clock.monotonic()
    leases.publish = lambda key, error, secrets, left_s=None: None  # type: ignore[attr-defined]
    with pytest.raises(BadGateway) if failure else nullcontext():
        with Flights(leases).turn(QUESTION, Deadline(30_000), lambda: None) as answer:
            assert answer is None and leases.granted
            if failure:
                raise failure
    assert leases.record is None

    kept = Leases(clock, None, 0.0)
    kept.record = WebProviderError("gone", detail_code="http_404", status=404), clock.monotonic()
    kept.publish = lambda key, error, secrets, left_s=None: None  # type: ignore[attr-defined]
    with pytest.raises(WebProviderError):
        with Flights(kept).turn(QUESTION, Deadline(30_000), lambda: None):
            raise WebProviderError("gone again", detail_code="http_404", status=404)
    assert kept.record is not None

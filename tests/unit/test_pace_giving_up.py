"""A request between its rate-limit slot and leaving (fake clock, a shared tier stood in for):
too little time left to note its departure in the shared state is no outage, and a request that
gives up there hands its slot on to the next one."""

import threading
from typing import Optional

import pytest
from clocks import FakeClock, deadlines_on

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.checkpoints import WorkAbandoned
from websearch_sync.client.attempts import BackendRunner, CallState, _LaterRequests
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.mcp.tools import CallCancelled
from websearch_sync.models import SearchParams
from websearch_sync.net.deadline import Deadline

#: The time one command to the stood-in tier takes: a call with less left cannot ask it.
ROUND_TRIP_S = 0.25


class Tier:
    """One upstream's keys in a shared slots tier (the next free slot, when the last request left),
    with the slot scripts' arithmetic on the fake clock; a call with less than ``timeout_s``
    left cannot ask it (``SharedState.fits``: with the state ``required``, a read then raises
    ``Timeout``, a write is skipped), nor can any once ``spent``; ``down`` with the state
    ``required``: a write raises ``NetworkError`` (``SharedState.run``)."""

    def __init__(self, clock: FakeClock, timeout_s: float = ROUND_TRIP_S, required: bool = False) -> None:
        self.clock = clock
        self.timeout_s, self.required, self.down = timeout_s, required, False
        self.slot, self.sent = 0.0, float("-inf")
        self.spent = False  # the call's time went on a round trip: none is left for another
        self.released: list[tuple[int, int]] = []

    def fits(self, left_s: Optional[float], write: bool = False) -> bool:
        if not self.spent and (left_s is None or left_s >= self.timeout_s):
            return True
        if self.required and not write:
            raise ws.Timeout("too little for the shared state (state_required is set)", detail_code="deadline_exceeded")
        return False

    def reserve(self, name, interval, max_wait_s, not_before_s=0.0, left_s=None):
        if not self.fits(left_s):
            return None
        now = self.clock.monotonic()
        slot = max(self.slot, now + not_before_s)
        if slot - now > max_wait_s:
            return False, slot - now, None
        self.slot = slot + interval
        return True, slot - now, (round(self.slot * 1e6), round(interval * 1e6))

    def sending(self, name, interval, left_s=None):
        if not self.fits(left_s):
            return None
        now = self.clock.monotonic()
        if self.sent + interval > now:
            return self.sent + interval - now
        self.sent, self.slot = now, max(self.slot, now + interval)
        return 0.0

    def release(self, name, booking, left_s=None):
        if not self.fits(left_s, write=True):
            return
        if self.down and self.required:
            raise ws.NetworkError("the shared state is unavailable", detail_code="state_unavailable")
        self.released.append(booking)
        after_us, interval_us = booking
        if round(self.slot * 1e6) == after_us:  # no later booking or departure moved it
            self.slot = (after_us - interval_us) / 1e6

    def look(self, name, left_s=None):
        """Every request of these tests paces its upstream."""

    def fleet(self, name):
        return 1


def runner_with(clock, tier, interval_s):
    limiter = RateLimiter(clock, shared=tier)
    return BackendRunner(None, limiter, Cooldowns(clock=clock), {"stub": interval_s}, clock), limiter


def later_requests(runner, budget):
    backend = Stub(ws.Settings())
    return _LaterRequests(runner, backend, SearchParams("q", 10), (backend.upstream_key(),), budget, CallState())


def test_too_little_time_to_note_a_departure_in_the_shared_state_is_no_outage():
    """Before: the limiter took the shared tier's "cannot be used" for a failing Redis and let the
    request leave, paced by this process alone; as for its booking, it is refused for its budget."""
    clock = FakeClock()
    tier = Tier(clock)
    limiter = RateLimiter(clock, shared=tier)
    assert limiter.reserve("stub", 1.0, 10.0, 10.0) == 0.0
    assert limiter.sending("stub", 1.0, ROUND_TRIP_S / 2) is None
    assert limiter._alone == {} and tier.sent == float("-inf")  # not alone, and not noted as leaving
    assert limiter.sending("stub", 1.0, 10.0) == 0.0 and tier.sent == clock.monotonic()


def test_a_request_without_the_time_to_note_its_departure_is_refused_for_its_budget():
    clock = FakeClock()
    tier = Tier(clock)
    runner, limiter = runner_with(clock, tier, 1.0)
    original = tier.reserve

    def booking_takes_the_time(*args, **kwargs):
        answer = original(*args, **kwargs)
        tier.spent = True
        return answer

    tier.reserve = booking_takes_the_time
    with pytest.raises(ws.Timeout) as caught:
        later_requests(runner, Deadline(10_000)).before_request()
    assert caught.value.detail_code == "budget_exhausted"
    assert "too little to note stub's request leaving in the shared state" in caught.value.message
    assert limiter._alone == {} and tier.sent == float("-inf")
    assert limiter.next_free_in("stub") == 0.0  # its slot here is handed on (the tier could not be asked)


def test_a_request_at_once_that_gives_up_after_a_late_departure_hands_its_slot_on():
    """Another process paces the upstream at 1 s and its request left at t0; this one paces it at
    2 s. At t0 + 1 s the shared slot is free, but the upstream saw a request 1 s ago: the best-effort
    request gives up. Before, its booked slot stayed taken: the next request waited for it and left
    at t0 + 3 s; now it leaves at t0 + 2 s, as soon as the pace allows."""
    clock = FakeClock()
    tier = Tier(clock)
    started = clock.monotonic()
    assert tier.sending("stub", 1.0) == 0.0  # the other process's request
    clock.advance(1.0)
    runner, limiter = runner_with(clock, tier, 2.0)
    with pytest.raises(ws.Timeout, match="the request before left late: no slot was free at once"):
        later_requests(runner, Deadline(10_000)).before_request(at_once=True)
    assert len(tier.released) == 1 and limiter.next_free_in("stub") == 0.0
    later_requests(runner, Deadline(10_000)).before_request()
    assert tier.sent - started == pytest.approx(2.0) and clock.sleeps == [pytest.approx(1.0)]


def test_a_slot_handed_on_locally_leaves_a_later_booking_its_turn():
    """Without a shared tier: the request that gave up frees its slot in this process, unless
    another thread booked the slot after it since (that one keeps its turn)."""
    clock = FakeClock()
    limiter = RateLimiter(clock)
    assert limiter.reserve("a", 2.0, 10.0) == 0.0
    limiter.release("a")
    assert limiter.next_free_in("a") == 0.0  # handed on: the next request leaves at it
    assert limiter.reserve("a", 2.0, 10.0) == 0.0
    other = threading.Thread(target=limiter.reserve, args=("a", 2.0, 10.0))  # books the slot at 2 s
    other.start()
    other.join()
    limiter.release("a")
    assert limiter.next_free_in("a") == 4.0  # the later booking keeps its slot, and the next its own
    assert limiter.sending("a", 2.0) == 0.0
    limiter.release("a")  # a request that left has no slot to hand on
    assert limiter.next_free_in("a") == 4.0


class Answered(Exception):
    """The answer someone else cached while this request waited for its slot (the recheck's)."""


@pytest.mark.parametrize("left_s, down", [(ROUND_TRIP_S / 2.5, False), (1.0, True)])
def test_with_the_state_required_a_request_giving_up_raises_its_own_error(monkeypatch, left_s, down):
    """Before: the slot's release, in the handler re-raising the give-up, asked the tier whether a
    read fitted first (with ``state_required``, too little time left raised ``Timeout``), and a failing
    required state raised ``NetworkError``: either replaced the give-up's own error (here an answer
    cached meanwhile, served as a ``Timeout``). A release that cannot be made leaves the slot taken."""
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    tier = Tier(clock, required=True)
    runner, _ = runner_with(clock, tier, 0.3)
    assert tier.sending("stub", 0.3) == 0.0  # a request that left now: this one's slot is 0.3 s away
    budget = Deadline(1500)

    def recheck():  # the cache read took its time, then found the answer
        clock.advance(budget.remaining_s() - left_s)
        tier.down = down
        raise Answered()

    backend = Stub(ws.Settings())
    with pytest.raises(Answered) as raised:
        runner._check_ready(backend, (backend.upstream_key(),), budget, None, None, recheck, CallState())
    assert raised.value.__context__ is None and tier.released == []  # the slot stays taken
    assert clock.sleeps == [pytest.approx(0.3)]


def test_a_slot_after_which_the_departure_cannot_be_noted_is_refused_at_once(monkeypatch):
    """One command to the shared state may take 1.5 s (``?socket_timeout=1.5``), more than the 1 s a
    request needs to be sent. Before: the slot 2.8 s away left 1.2 s of the 4 s budget, enough to send
    but not to note the departure; the request waited 2.8 s, was refused then, and kept its slot
    (too little time to hand it on). It is refused at once, and books nothing."""
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    tier = Tier(clock, timeout_s=1.5)
    runner, limiter = runner_with(clock, tier, 2.8)
    assert tier.sending("stub", 2.8) == 0.0  # a request that left now: the next slot is 2.8 s away
    slot = tier.slot
    with pytest.raises(ws.Timeout, match="the next slot is 2.8 s away .* needs 1500 ms after its slot") as caught:
        later_requests(runner, Deadline(4000)).before_request()
    assert caught.value.detail_code == "budget_exhausted"
    assert clock.sleeps == [] and tier.slot == slot and tier.released == []
    later_requests(runner, Deadline(5000)).before_request()  # with the time for it, it waits for its slot
    assert clock.sleeps == [pytest.approx(2.8)] and tier.sent == clock.monotonic()


@pytest.mark.parametrize("stopped", [CallCancelled, WorkAbandoned, KeyboardInterrupt])
def test_a_request_stopped_while_it_waits_for_its_slot_hands_it_on(stopped):
    """Before: a cancelled MCP call, abandoned work, ^C (``BaseException``: not caught by the
    ``except Exception`` around the wait) kept the slot; in the long-running MCP server the next
    request waited an interval more than needed. The slot is handed on, the same exception raised."""
    clock = FakeClock()
    runner, limiter = runner_with(clock, None, 2.0)
    assert limiter.reserve("stub", 2.0, 10.0) == 0.0  # a request that left now: the next slot is 2 s away

    def stop(seconds):
        clock.advance(0.5)  # stopped half a second into its wait
        raise stopped()

    clock.on_sleep = stop
    with pytest.raises(stopped):
        later_requests(runner, Deadline(10_000)).before_request()
    assert limiter.next_free_in("stub") == pytest.approx(1.5)  # its slot at 2 s, not the one after it

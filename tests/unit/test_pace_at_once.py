"""A backend's best-effort later request (SearXNG's ``/config``) takes a rate-limit slot only when
one is free at once (``before_next_request(at_once=True)``): it never waits for one, and a slot it
cannot take is not booked (the next search keeps its own turn)."""

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.backends.searxng import SearXNG
from websearch_sync.client.attempts import BackendRunner, CallState, _LaterRequests
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.models import SearchParams
from websearch_sync.net.deadline import Deadline

INTERVAL_S = 2.0


def later_requests(budget):
    clock = FakeClock()
    backend = SearXNG(ws.Settings(providers={"searxng": {"base_url": "https://searx.example"}}))
    limiter = RateLimiter(clock)
    runner = BackendRunner(None, limiter, Cooldowns(clock=clock), {"searxng": INTERVAL_S}, clock)
    state = CallState()
    pace = _LaterRequests(runner, backend, SearchParams("q", 10), (backend.upstream_key(),), budget, state)
    return pace, limiter, backend.upstream_key(), clock, state


def test_a_slot_free_now_is_taken_and_counted():
    pace, limiter, upstream, clock, state = later_requests(Deadline(10_000))
    pace.before_request(at_once=True)
    assert state.attempts == 1 and clock.sleeps == [] and limiter.next_free_in(upstream) == INTERVAL_S


def test_a_slot_not_free_now_is_neither_waited_for_nor_booked():
    pace, limiter, upstream, clock, state = later_requests(Deadline(10_000))
    assert limiter.reserve(upstream, INTERVAL_S, 10.0) == 0.0  # the search's slot
    with pytest.raises(ws.Timeout, match="no slot was free at once: the next one is 2.0 s away"):
        pace.before_request(at_once=True)
    assert state.attempts == 0 and clock.sleeps == [] and limiter.next_free_in(upstream) == INTERVAL_S


def test_a_free_slot_is_not_booked_when_the_budget_is_gone():
    pace, limiter, upstream, clock, state = later_requests(Deadline(0))
    with pytest.raises(ws.Timeout, match="of the call's budget were left to ask searxng, too little to finish"):
        pace.before_request(at_once=True)
    assert state.attempts == 0 and limiter.next_free_in(upstream) == 0.0


def test_a_slot_whose_request_before_left_late_is_not_waited_for():
    """Before: a slot free at once whose upstream saw the request before leave late (the shared
    pace's ``sending`` check) was waited for, in the late-request loop: the best-effort request
    slowed the call. It is given up instead."""
    pace, limiter, upstream, clock, state = later_requests(Deadline(10_000))
    waits = [0.5, 0.0]  # the request before left 1.5 s ago: 0.5 s to go; then free
    limiter.sending = lambda name, interval, left_s=None: waits.pop(0)
    with pytest.raises(ws.Timeout, match="the request before left late: no slot was free at once"):
        pace.before_request(at_once=True)
    assert state.attempts == 0 and clock.sleeps == []

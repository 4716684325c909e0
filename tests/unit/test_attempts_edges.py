"""Retries and the time a request needs, at their edges (fake clock, deadlines on it, in-process):
``client/attempts.py``'s pure parts (``send_need_s``, ``retry_delay``, ``cut_short``) and
``with_retries``, which fetch and each page of ``include_content`` retry through."""

import logging

import pytest
from clocks import FakeClock, deadlines_on

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.client.attempts import (
    BackendRunner,
    CallState,
    _LaterRequests,
    cut_short,
    retry_delay,
    send_need_s,
    with_retries,
)
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.client.retry import RetryPolicy
from websearch_sync.client.tiers import SharedBlock
from websearch_sync.models import SearchParams
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport

#: No jitter: every wait is its backoff.
POLICY = RetryPolicy(total=2, backoff_factor=0.5, jitter=0.0)


@pytest.fixture
def clock(monkeypatch):
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    return clock


def _bad_gateway():
    return ws.BadGateway("502 from the upstream", provider="fetch", status=502)


@pytest.mark.parametrize("budget_ms, need_s", [(20_000, 1.0), (4_000, 1.0), (2_000, 0.5), (400, 0.1)])
def test_a_request_needs_a_quarter_of_its_budget_at_most_a_second(budget_ms, need_s):
    assert send_need_s(Deadline(budget_ms)) == pytest.approx(need_s)


def test_no_retry_after_the_last_one_nor_for_what_does_not_heal(clock):
    budget = Deadline(60_000)
    assert retry_delay(POLICY, 1, _bad_gateway(), budget) == 1.0
    assert retry_delay(POLICY, 2, _bad_gateway(), budget) is None
    assert retry_delay(POLICY, 0, ws.WebBlocked("captcha", detail_code="captcha_required"), budget) is None


def test_a_retry_whose_wait_leaves_too_little_to_send_it_is_not_waited_for(clock):
    """0.5 s of backoff fits in 1.2 s, but then 1 s is needed to send the retry: no retry."""
    budget = Deadline(1_200)
    assert retry_delay(POLICY, 0, _bad_gateway(), budget) == 0.5
    assert retry_delay(POLICY, 0, _bad_gateway(), budget, need_s=1.0) is None


def test_only_a_timeout_once_the_budget_is_gone_cuts_a_retry_short(clock):
    budget = Deadline(1_000)
    assert not cut_short(ws.Timeout("read timeout", detail_code="read_timeout"), budget)
    clock.advance(1.0)
    assert cut_short(ws.Timeout("deadline", detail_code="deadline_exceeded"), budget)
    assert not cut_short(_bad_gateway(), budget)


def test_with_retries_retries_as_often_as_the_policy_says_and_logs_each(clock, caplog):
    calls = []

    def failing():
        calls.append(clock.monotonic())
        raise _bad_gateway()

    with caplog.at_level(logging.INFO, logger="websearch_sync"), pytest.raises(ws.BadGateway):
        with_retries(failing, "fetch", POLICY, Deadline(60_000), clock)
    assert len(calls) == 3 and clock.sleeps == [0.5, 1.0]
    assert [record.getMessage() for record in caplog.records] == [
        "fetch: BadGateway, retry 1 in 0.50 s",
        "fetch: BadGateway, retry 2 in 1.00 s",
    ]


def test_the_fallback_line_names_the_error_and_its_detail_code_as_the_retry_line_does(caplog):
    """It said ``failed (NetworkError)``: the detail code the retry lines give was left out."""
    from websearch_sync.testing import fake_results

    refused = ws.NetworkError("connection refused", detail_code="connection_error")
    answers = {"brave": refused, "wikipedia": [{"title": "t", "url": "https://example.org/", "snippet": "s"}]}
    with fake_results(answers), caplog.at_level(logging.INFO, logger="websearch_sync"):
        ws.SearchClient(["brave", "wikipedia"], strategy="fallback", retries=0).search("q")
    shown = [record.getMessage() for record in caplog.records if "falling back" in record.getMessage()]
    assert shown == ["backend brave failed (NetworkError/connection_error); falling back to wikipedia"]


def test_with_retries_raises_the_failure_a_retry_cut_short_was_retrying(clock):
    """The retry times out because the budget ran out: the 502 is why the call failed."""
    errors = iter([_bad_gateway(), ws.Timeout("deadline", detail_code="deadline_exceeded")])

    def call():
        error = next(errors)
        if isinstance(error, ws.Timeout):
            clock.advance(10.0)
        raise error

    with pytest.raises(ws.BadGateway):
        with_retries(call, "fetch", POLICY, Deadline(2_000), clock)


class _Scripted(Stub):
    """The offline stub, running ``steps`` in turn before each answer (one may raise)."""

    def __init__(self, *steps):
        super().__init__(ws.Settings())
        self.steps = list(steps)

    def search(self, params, transport, deadline):
        if self.steps:
            self.steps.pop(0)()
        return super().search(params, transport, deadline)


class _HeldTier:
    """A shared cool-downs tier that still holds each record when its writer retries (its key's
    expiry a moment after the writer's own wait: a loaded Redis, a clock rounding)."""

    def __init__(self):
        self.blocks = {}

    def record(self, name, detail_code, status, duration_s, until, token, left_s=None, retryable=None, hint=None):
        self.blocks[name] = SharedBlock(detail_code, status, until, 0.05, token, retryable, hint)
        return True

    def lookup(self, name, left_s=None):
        return self.blocks.get(name)

    def lifted(self, name, left_s=None):
        return False  # no operator lifts anything here

    def clear(self, backend=None):
        return []


def _runner(clock, cooldowns):
    return BackendRunner(HttpTransport(), RateLimiter(clock), cooldowns, {"stub": 0.0}, clock)


def _slow_down():
    raise ws.WebBlocked("slow down", provider="stub", detail_code="http_429", status=429, retry_after=1.0)


def test_a_request_retrying_after_its_own_retry_after_is_not_refused_by_its_own_record(clock):
    """The 429 is recorded (here and shared) before the wait for its retry; the retry is not
    refused by that record, though the shared tier still holds it."""
    cooldowns = Cooldowns(clock=clock, shared=_HeldTier())
    runner = _runner(clock, cooldowns)
    result = runner.run(
        _Scripted(_slow_down), SearchParams("q", 3), None, Deadline(15_000), POLICY.with_total(1), CallState()
    )
    assert result.items and clock.sleeps == [1.0]
    with pytest.raises(ws.WebBlocked):  # any other request is
        cooldowns.check("stub")


def test_a_success_keeps_a_block_another_request_met_while_it_was_under_way(clock):
    """A block recorded while this request was under way (another thread met the wall) is news
    the success does not disprove: it stays."""
    cooldowns = Cooldowns(clock=clock)

    def another_request_meets_a_wall():
        clock.advance(0.1)
        cooldowns.record(ws.WebBlocked("captcha", provider="stub", detail_code="captcha_required"))

    runner = _runner(clock, cooldowns)
    runner.run(
        _Scripted(another_request_meets_a_wall), SearchParams("q", 3), None, Deadline(15_000), POLICY, CallState()
    )
    with pytest.raises(ws.WebBlocked):
        cooldowns.check("stub")


def test_a_backend_call_whose_retry_the_deadline_cut_short_raises_the_failure_it_retried(clock):
    budget = Deadline(3_000)

    def bad_gateway():
        raise _bad_gateway()

    def cut_short_by_the_deadline():
        clock.advance(budget.remaining_s())
        raise ws.Timeout("deadline", detail_code="deadline_exceeded")

    runner = _runner(clock, Cooldowns(clock=clock))
    with pytest.raises(ws.BadGateway):
        runner.run(
            _Scripted(bad_gateway, cut_short_by_the_deadline), SearchParams("q", 3), None, budget, POLICY, CallState()
        )


@pytest.mark.parametrize("provider, named", [(None, "stub"), ("stub's upstream", "stub's upstream")])
def test_a_backend_s_error_names_it_unless_it_names_a_provider_itself(clock, provider, named):
    def broken():
        raise ws.WebParseError("no results block", provider=provider)

    runner = _runner(clock, Cooldowns(clock=clock))
    with pytest.raises(ws.WebParseError) as info:
        runner.run(_Scripted(broken), SearchParams("q", 3), None, Deadline(15_000), POLICY, CallState())
    assert info.value.provider == named


def test_a_request_left_exactly_its_need_is_sent(clock):
    """A quarter of a 4 s budget, 1 s, is what a request needs: with exactly that left it is sent."""
    budget = Deadline(4_000)
    clock.advance(3.0)
    result = _runner(clock, Cooldowns(clock=clock)).run(
        Stub(ws.Settings()), SearchParams("q", 3), None, budget, POLICY, CallState()
    )
    assert result.items


def test_the_cache_is_read_again_only_after_a_wait_and_every_wait_is_counted(clock):
    """``recheck`` runs after a wait for a slot (none when the slot is free); the call's counted
    wait (``wait_ms``) is all the time its request spent before leaving, the wait for a request
    that left late included."""
    runner = BackendRunner(
        HttpTransport(), RateLimiter(clock), Cooldowns(clock=clock), {"stub": 2.0}, clock, check_ahead_s=0.5
    )
    rechecks, asked = [], []

    class Asked(Stub):
        def search(self, params, transport, deadline):
            asked.append(clock.monotonic())
            return super().search(params, transport, deadline)

    stub = Asked(ws.Settings())
    runner.run(stub, SearchParams("zero", 3), None, Deadline(15_000), POLICY, CallState(), rechecks.append)
    assert rechecks == []

    def another_thread_s_request_leaves_late():  # booked before this one, it leaves only at this one's slot
        rechecks.append(clock.monotonic())
        clock.advance(0.5)
        assert runner.limiter.sending("stub", 2.0) == 0.0

    state, started = CallState(), clock.monotonic()
    runner.run(
        stub, SearchParams("one", 3), None, Deadline(15_000), POLICY, state, another_thread_s_request_leaves_late
    )
    assert rechecks == [started + 1.5]  # woken half a second before its slot, 2 s after the first left
    assert asked[-1] - started == pytest.approx(4.0)  # then an interval after the late one
    assert state.wait_s == pytest.approx(4.0)


def test_a_block_a_later_page_met_cools_the_backend_down(clock):
    """A later request of a call (the next result page) met a wall the backend answers without
    (it returns the pages it has): the block is recorded as a cool-down, as for a first request."""
    cooldowns = Cooldowns(clock=clock)
    backend = Stub(ws.Settings())
    pace = _LaterRequests(
        _runner(clock, cooldowns),
        backend,
        SearchParams("q", 3),
        (backend.upstream_key(),),
        Deadline(15_000),
        CallState(),
    )
    pace.failed(ws.WebBlocked("captcha", provider="stub", detail_code="captcha_required"))
    with pytest.raises(ws.WebBlocked):
        cooldowns.check("stub")


def test_pdf_reads_busy_is_left_to_the_caller_not_retried_within_the_call(clock):
    # its read waited half the time the deadline left: a retry downloaded the PDF again and
    # waited out the rest, and the call ended at its deadline after three downloads
    calls = []

    def busy():
        calls.append(clock.monotonic())
        raise ws.WebProviderError("reads given up still run", provider="fetch", detail_code="pdf_reads_busy")

    with pytest.raises(ws.WebProviderError) as info:
        with_retries(busy, "fetch", POLICY, Deadline(60_000), clock)
    assert len(calls) == 1 and info.value.retryable

"""Single flight in one process hands each waiter its own copy of the answer (``client/flight.py``):
neither the asker's later changes to its result nor one waiter's changes reach another caller."""

import threading

import pytest

import websearch_sync as ws
from websearch_sync.client import flight
from websearch_sync.client.flight import Flights, Reach
from websearch_sync.errors import (
    AuthError,
    BadGateway,
    NetworkError,
    Timeout,
    WebBlocked,
    WebProviderError,
    WebSearchError,
    redact_error,
)
from websearch_sync.net.deadline import Deadline

KEY = ("search", "q")


def _answer():
    return {"query": "q", "items": [{"title": "one", "url": "https://example.org/"}], "errors": []}


def test_waiters_get_copies_of_the_answer_handed_over(monkeypatch):
    flights = Flights()
    results, woken = [], []
    waiting = _waits_counted(monkeypatch)

    def wait_for_it():
        budget = Deadline(30_000)
        with flights.turn(KEY, budget, lambda: None) as found:
            results.append(found)
            woken.append(not budget.expired())  # by the turn's end, not by its own budget running out

    waiters = [threading.Thread(target=wait_for_it) for _ in range(2)]
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        assert found is None  # this caller asks
        for waiter in waiters:
            waiter.start()
        for _ in waiters:
            assert waiting.acquire(timeout=60)
        mine = _answer()
        flights.answered(KEY, mine)
        mine["items"][0]["title"] = "changed by the asker"
    for waiter in waiters:
        waiter.join()
    assert woken == [True, True]
    assert [result["items"][0]["title"] for result in results] == ["one", "one"]
    results[0]["items"][0]["title"] = "changed by a waiter"
    assert results[1]["items"][0]["title"] == "one"


def test_a_caller_after_the_turn_ended_asks_itself():
    """The answer is handed over only to the callers that waited for it: a caller that comes after
    the turn ended is no waiter (its question is asked again, or read from a cache)."""
    flights = Flights()
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        flights.answered(KEY, _answer())
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        assert found is None


def test_an_answer_nobody_waits_for_is_not_copied(monkeypatch):
    """The waiters' copy is made for waiters only: a call nobody waits for (nearly every one) copies nothing."""
    copies = []
    monkeypatch.setattr(flight, "copy_result", lambda value: copies.append(value) or dict(value))
    flights = Flights()
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        assert found is None
        flights.answered(KEY, _answer())
    assert copies == []


def test_a_waiter_that_comes_after_the_answer_gets_its_own_copy(monkeypatch):
    """A waiter that starts waiting after the asker handed its answer over (no one waited then) still
    gets it, as a copy made as the turn ends: the asker's changes after its turn do not reach it."""
    started = _waits_counted(monkeypatch)
    flights = Flights()
    results = []

    def wait_for_it():
        with flights.turn(KEY, Deadline(30_000), lambda: None) as found:
            results.append(found)

    waiter = threading.Thread(target=wait_for_it)
    mine = _answer()
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        assert found is None
        flights.answered(KEY, mine)
        waiter.start()
        assert started.acquire(timeout=60)
    mine["items"][0]["title"] = "changed by the asker"
    waiter.join()
    [copy] = results
    assert copy is not mine and copy["items"][0] is not mine["items"][0]
    assert copy == _answer()


def _waits_counted(monkeypatch):
    """A semaphore released each time a waiter starts waiting for the asker's turn to end (``flight.wait_for``)."""
    waiting = threading.Semaphore(0)
    real_wait_for = flight.wait_for

    def wait_for(*args, **kwargs):
        waiting.release()
        return real_wait_for(*args, **kwargs)

    monkeypatch.setattr(flight, "wait_for", wait_for)
    return waiting


def test_a_waiter_raises_a_copy_of_the_askers_error_with_its_whole_text_and_its_cause(monkeypatch):
    """The copy a waiter raises keeps the whole message (and its attached errors'), not the cut one:
    redacted by the waiter, a secret across the cut is masked whole; and it keeps the chain."""
    secret = "SECRETKEY" * 4
    whole = "x" * 960 + secret + "y" * 3000  # the secret straddles the cut of the shown message
    attached = WebProviderError(whole, provider="bing")
    flights = Flights()
    started, raised = _waits_counted(monkeypatch), []

    def wait_for_it():
        try:
            with flights.turn(KEY, Deadline(30_000), lambda: None, ask_need_s=1e9):
                pass
        except WebSearchError as error:
            raised.append(redact_error(error, [secret]))

    waiter = threading.Thread(target=wait_for_it)
    cause = OSError("connection reset")
    with pytest.raises(WebProviderError):
        with flights.turn(KEY, Deadline(60_000), lambda: None):
            waiter.start()
            assert started.acquire(timeout=60)
            try:
                raise cause
            except OSError as reason:
                raise WebProviderError(whole, provider="brave", errors=[attached]) from reason
    waiter.join()
    [copy] = raised
    for error in (copy, *copy.errors):
        assert "SECRETKEY" not in error._whole_text() and "SECRETKEY" not in error.message
        assert error._whole_text() == whole.replace(secret, "***")
    assert copy.__cause__ is cause


@pytest.mark.parametrize(
    ("waiter", "handed"),
    [
        (Reach(0.0, 2, 5000), True),  # no more than the asker could do: asking again gets the same
        (Reach(0.0, 2, 4000), True),
        (Reach(0.0, 3, 5000), False),  # more retries may complete it
        (Reach(0.0, 2, 6000), False),  # a longer request timeout may
        (Reach(0.0, 2, None), False),  # each backend's own timeout: unknown here, maybe longer
        (None, False),  # a waiter that says nothing of its reach
    ],
)
def test_a_partial_answer_is_handed_only_to_a_waiter_that_could_do_no_more(waiter, handed):
    """A partial answer (cut by the deadline) made with 2 retries and 5 s requests serves a waiter
    with no more time, retries nor request timeout; any other waiter asks itself."""
    asking = flight._Asking()
    asking.answer, asking.partial_reach = _answer(), Reach(60.0, 2, 5000)
    assert (asking.answer_for(Deadline(30_000), waiter) is not None) is handed
    assert asking.answer_for(Deadline(90_000), Reach(0.0, 0, 5000)) is None  # more time left than the asker had


@pytest.mark.parametrize(
    ("failure", "copied"),
    [
        (WebBlocked("captcha", detail_code="captcha_required"), True),  # a wall: asked again, the same wall
        (WebBlocked("slow down", detail_code="http_429"), True),  # retryable, but its host now cools down
        (AuthError("key refused"), True),
        (WebProviderError("gone", detail_code="http_404"), True),
        (NetworkError("no such host", detail_code="dns_error"), True),
        (NetworkError("connection reset"), False),  # a retry may mend it: the waiter asks itself
        (BadGateway("502"), False),
        (Timeout("too slow", detail_code="deadline_exceeded"), False),  # the waiter may have more time
        (Timeout("no slot in time", detail_code="budget_exhausted"), False),
        # the asker's share of its deadline for a PDF slot ran out: a waiter with more time may read it
        (WebProviderError("busy", detail_code="pdf_reads_busy"), False),
        # a fallback's other backend failed with a 502: asked again, the wall is skipped, the 502 retried
        (WebBlocked("captcha", detail_code="captcha_required", errors=[BadGateway("502")]), False),
    ],
)
def test_a_waiter_raises_the_askers_failure_only_when_its_own_attempt_could_not_mend_it(monkeypatch, failure, copied):
    """One rule (``flight.answers_waiters``): a waiter with time to send asks the upstream itself
    after a failure its own time or attempts may mend, and raises a copy of any other."""
    assert _waiters_outcome(monkeypatch, Flights(), failure) == ("copied" if copied else "asked")


@pytest.mark.parametrize(
    ("failure", "outcome"),
    [
        (WebBlocked("slow down", detail_code="http_429"), "asked"),  # retryable, and nothing cools its host
        (WebBlocked("captcha", detail_code="captcha_required"), "copied"),  # asked again, the same wall
    ],
)
def test_a_block_that_started_no_cool_down_is_copied_only_when_no_retry_may_pass_it(monkeypatch, failure, outcome):
    """``cooldowns={"http_429": 0}``: a 429 starts no cool-down, so a waiter asking itself is not refused."""
    with ws.SearchClient("stub", cooldowns={"http_429": 0, "captcha_required": 0}) as client:
        flights = client._flights  # noqa: SLF001 - the client's single flight, told its cool-downs
    assert _waiters_outcome(monkeypatch, flights, failure) == outcome


def _waiters_outcome(monkeypatch, flights, failure):
    """``"copied"`` when a waiter raised a copy of the asker's ``failure``, ``"asked"`` when it was let ask."""
    started, outcome = _waits_counted(monkeypatch), []

    def wait_for_it():
        try:
            with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
                outcome.append(found)  # None: this waiter asks itself
        except WebSearchError as error:
            outcome.append(error)

    waiter = threading.Thread(target=wait_for_it)
    with pytest.raises(type(failure)):
        with flights.turn(KEY, Deadline(60_000), lambda: None):
            waiter.start()
            assert started.acquire(timeout=60)
            raise failure
    waiter.join()
    [got] = outcome
    if got is None:
        return "asked"
    assert type(got) is type(failure) and got is not failure and got.detail_code == failure.detail_code
    return "copied"


def test_a_copy_raised_later_says_the_wait_left_not_the_one_its_asker_was_told(monkeypatch):
    """The asker met a 429 asking for 30 s; its waiter raises the copy 12 s later (the fake clock
    moves while it wakes): the copy's ``retry_after`` and its message say 18 s, and so do those of
    the failure attached to it; the asker's own error is left as it met it."""
    from types import SimpleNamespace

    from clocks import FakeClock

    clock = FakeClock()
    monkeypatch.setattr(flight, "time", SimpleNamespace(monotonic=clock.monotonic, sleep=clock.sleep))
    started, raised = threading.Event(), []
    real_wait_for = flight.wait_for

    def wait_for(*args, **kwargs):
        started.set()
        real_wait_for(*args, **kwargs)
        clock.advance(12.0)  # the waiter wakes 12 s after its asker failed

    monkeypatch.setattr(flight, "wait_for", wait_for)
    flights = Flights()

    def wait_for_it():
        try:
            with flights.turn(KEY, Deadline(60_000), lambda: None):
                pass
        except WebSearchError as error:
            raised.append(error)

    def rate_limited(provider):
        block = WebBlocked(
            "example.org is rate-limiting us (HTTP 429); retry after 30 s",
            provider=provider,
            detail_code="http_429",
            status=429,
            retry_after=30.0,
        )
        block.stale_words = "; retry after 30 s"
        return block

    met = rate_limited("brave")
    met.errors = [rate_limited("bing")]
    waiter = threading.Thread(target=wait_for_it)
    with pytest.raises(WebBlocked):
        with flights.turn(KEY, Deadline(60_000), lambda: None):
            waiter.start()
            assert started.wait(60)
            raise met
    waiter.join(60)
    [copy] = raised
    for error in (copy, *copy.errors):
        assert error.retry_after == 18.0
        assert error.message == "example.org is rate-limiting us (HTTP 429); retry after 18 s"
    assert met.retry_after == 30.0 and met.message.endswith("retry after 30 s")


def test_an_answer_of_a_waiter_that_asked_itself_is_handed_to_no_other_callers_waiters(monkeypatch):
    """A waiter given nothing (its asker failed) asks itself and hands its answer over as an asker
    does (``answered``), but the turn under way by then is another caller's, who counts no such
    waiter: the waiter's answer was kept uncopied for that turn's waiters, its caller changed it,
    and a later waiter got the changed copy (the sixteen-thread test saw a result of six items, its
    sixth the one another caller appended). Only the caller whose turn it is hands an answer over."""
    waiting = _waits_counted(monkeypatch)
    flights = Flights()
    next_turn, answered, results = threading.Event(), threading.Event(), []

    def given_nothing():
        with flights.turn(KEY, Deadline(30_000), lambda: None) as found:
            assert found is None  # its asker failed: it asks the upstream itself
            assert next_turn.wait(60)
            its_own = _answer()
            flights.answered(KEY, its_own)
        its_own["items"].append({"title": "appended by its caller"})
        answered.set()

    def wait_for_it():
        with flights.turn(KEY, Deadline(30_000), lambda: None) as found:
            results.append(found)

    impatient = threading.Thread(target=given_nothing)
    with flights.turn(KEY, Deadline(60_000), lambda: None):
        impatient.start()
        assert waiting.acquire(timeout=60)
    # the first turn ended without an answer; the next caller's turn begins
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        assert found is None
        next_turn.set()
        assert answered.wait(60)
        waiter = threading.Thread(target=wait_for_it)
        waiter.start()
        assert waiting.acquire(timeout=60)
    waiter.join()
    impatient.join()
    assert results == [None]  # nothing handed over in this turn: it reads the cache, or asks


def test_a_turn_nobody_waits_for_makes_no_event_and_a_waited_one_wakes_its_waiters(monkeypatch):
    """The event waiters wait on is made by the first waiter: a question asked alone (nearly every
    one) makes none; one waited for wakes its waiter as the turn ends, not at its budget's end."""
    waiting, results = _waits_counted(monkeypatch), []

    def wait_for_it():
        budget = Deadline(30_000)
        with flights.turn(KEY, budget, lambda: None) as handed:
            results.append((handed, budget.expired()))

    waiters = [threading.Thread(target=wait_for_it) for _ in range(2)]  # (a thread makes an event of its own)
    made = []
    real_event = threading.Event
    monkeypatch.setattr(flight.threading, "Event", lambda: made.append(1) or real_event())
    flights = Flights()
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        assert found is None
        flights.answered(KEY, _answer())
    assert made == []
    with flights.turn(KEY, Deadline(60_000), lambda: None) as found:
        assert found is None
        for waiter in waiters:
            waiter.start()
        for _ in waiters:
            assert waiting.acquire(timeout=60)
        flights.answered(KEY, _answer())
    for waiter in waiters:
        waiter.join(timeout=60)
    assert made == [1]  # one event, made by the first waiter, shared by the second
    assert [(handed["items"][0]["title"], expired) for handed, expired in results] == [("one", False)] * 2

"""A first caller's failure reaches the callers of other processes waiting for the same question
(``client/state/failures.py``), as it reaches the waiters of its own process: a real redis-server,
and two single-flight tables on it, each a process's (nothing but Redis between them); then real
worker processes."""

import threading
from typing import Any, Optional

import pytest
from redis_server import redis_db, redis_server, up  # noqa: F401  (fixtures)
from shared_state_worker import FleetParent, Upstream, run_workers, worker_env
from test_shared_state_promises import HeldPages

from websearch_sync.client.clock import Clock
from websearch_sync.client.flight import Flights
from websearch_sync.client.state import SharedFlights, SharedState
from websearch_sync.client.state.failures import FAILURE_TTL_S
from websearch_sync.client.state.server import state_server
from websearch_sync.errors import AuthError, BadGateway, WebBlocked, WebProviderError, WebSearchError
from websearch_sync.net.deadline import Deadline

QUESTION = ("search", "asked by two processes")
SECRET = "sk-live-0123456789abcdef"


class Process:
    """One process's single-flight table on the shared state; :attr:`waiting` is set once a caller
    of it waits for another process's asker (it read that asker's lease)."""

    def __init__(self, url: str) -> None:
        self.tier = SharedFlights(SharedState(state_server(up(url)), "", False, Clock()))
        self.flights = Flights(self.tier)
        self.waiting = threading.Event()
        real_held_for = self.tier.held_for

        def held_for(key: Any, left_s: Optional[float] = None) -> Optional[float]:
            held = real_held_for(key, left_s)
            if held:
                self.waiting.set()
            return held

        self.tier.held_for = held_for  # type: ignore[method-assign]


def _waiter_outcome(url: str, failure: WebSearchError, secrets=()) -> Any:
    """What a caller of a second process waiting for the question gets when the first process's
    asker fails with ``failure`` (with ``secrets``): the error it raised, or ``"asked"``."""
    asker, waiter = Process(url), Process(url)
    outcome: list[Any] = []

    def wait_for_it() -> None:
        try:
            with waiter.flights.turn(QUESTION, Deadline(60_000), lambda: None) as found:
                outcome.append("asked" if found is None else found)
        except WebSearchError as error:
            outcome.append(error)

    thread = threading.Thread(target=wait_for_it)
    with pytest.raises(type(failure)):
        with asker.flights.turn(QUESTION, Deadline(60_000), lambda: None, secrets=secrets):
            thread.start()
            assert waiter.waiting.wait(60)
            raise failure
    thread.join(60)
    [got] = outcome
    return got


def test_a_failure_no_attempt_could_mend_reaches_the_waiters_of_another_process(redis_db, redis_server):  # noqa: F811
    """The key refused (``AuthError``): the waiting process raises it without asking, its message
    redacted with the asker's secrets: no secret is written to Redis; the record expires soon."""
    failure = AuthError("the key %s was refused (HTTP 401)" % SECRET, provider="brave", detail_code="http_401")
    failure.errors = [WebProviderError("gone", provider="bing", detail_code="http_404", status=404)]
    got = _waiter_outcome(redis_server.url, failure, secrets=[SECRET])
    assert type(got) is AuthError and got is not failure
    assert (got.message, got.provider, got.detail_code, got.retryable) == (
        "the key *** was refused (HTTP 401)",
        "brave",
        "http_401",
        False,
    )
    [attached] = got.errors
    assert (type(attached), attached.detail_code, attached.status, attached.provider) == (
        WebProviderError,
        "http_404",
        404,
        "bing",
    )
    [key] = redis_db.keys("websearch_sync:failure:*")
    assert SECRET.encode() not in redis_db.get(key)
    assert 0 < redis_db.pttl(key) <= FAILURE_TTL_S * 1000


def test_a_wall_that_started_a_cool_down_reaches_them_with_its_advice(redis_db, redis_server):  # noqa: F811
    """Its wait is counted on: the waiter sees the time left (at most the 30 s its asker was told)."""
    wall = WebBlocked(
        "example.org is rate-limiting us (HTTP 429); retry after 30 s",
        provider="searxng",
        detail_code="http_429",
        status=429,
        retry_after=30.0,
        hint="ask the instance's admin to allow this address",
    )
    wall.stale_words = "; retry after 30 s"
    got = _waiter_outcome(redis_server.url, wall)
    assert type(got) is WebBlocked
    assert (got.detail_code, got.status, got.retryable, got.hint) == ("http_429", 429, True, wall.hint)
    assert 0 < got.retry_after <= 30.0
    assert got.message == "example.org is rate-limiting us (HTTP 429); retry after %.0f s" % got.retry_after


@pytest.mark.parametrize(
    "failure",
    [
        BadGateway("example.org failed with HTTP 502", detail_code="http_502", status=502),
        # a fallback whose second backend answered 502: asked again, the 502 is retried
        AuthError("refused", detail_code="http_401", errors=[BadGateway("502", detail_code="http_502")]),
    ],
)
def test_a_failure_a_retry_may_mend_is_not_written_and_the_waiter_asks(redis_db, redis_server, failure):  # noqa: F811
    assert _waiter_outcome(redis_server.url, failure) == "asked"
    assert redis_db.keys("websearch_sync:failure:*") == []


def _waiters_after(url: str, let_go, caches: bool = True) -> list[Any]:
    """What each of three callers of other processes, waiting for the question a live asker holds,
    gets once ``let_go(asker)`` ends its hold (the asker itself does not answer): ``"asked"`` (it
    asked the upstream, then cached its answer when ``caches``), or the answer it read from the cache."""
    asker, waiters = Process(url), [Process(url) for _ in range(3)]
    cache: dict[str, Any] = {}
    outcomes: list[Any] = []

    def wait_for_it(waiter: Process) -> None:
        with waiter.flights.turn(QUESTION, Deadline(60_000), lambda: cache.get("answer")) as found:
            if found is None:
                outcomes.append("asked")
                if caches:  # before it lets go
                    cache["answer"] = {"items": ["the upstream's answer"]}
            else:
                outcomes.append(found)

    threads = [threading.Thread(target=wait_for_it, args=(waiter,)) for waiter in waiters]
    with asker.flights.turn(QUESTION, Deadline(60_000), lambda: None):
        for thread in threads:
            thread.start()
        assert all(waiter.waiting.wait(60) for waiter in waiters)
        let_go(asker)
        for thread in threads:
            thread.join(60)
    return outcomes


def test_a_question_redis_lost_is_taken_over_by_one_waiter_not_all(redis_db, redis_server):  # noqa: F811
    """Redis restarted empty or evicted the lease while its asker still worked: gone before it could
    lapse, it looked let go, and every waiter asked the upstream at once. One takes it over (``SET``
    where none is), the others wait for that one's answer."""
    outcomes = _waiters_after(redis_server.url, lambda asker: redis_db.flushdb())
    assert sorted(map(str, outcomes)) == sorted(map(str, ["asked"] + [{"items": ["the upstream's answer"]}] * 2))


def test_a_waiter_stalled_while_another_takes_over_the_lost_question_reads_its_answer(redis_db, redis_server):  # noqa: F811
    """The interleaving a loaded machine made once in seven whole-suite runs: Redis lost the lease;
    waiter B found it gone and missed the cache, then stalled while waiter A took the question over,
    asked, cached its answer and let go (its ``released`` marker in the key). B, resumed, read the
    marker as its own asker's and asked the upstream too. Placed here by holding B's cache read
    (made before A's answer, returned after A let go) and A's claim (until B's read is made)."""
    asker, a, b = Process(redis_server.url), Process(redis_server.url), Process(redis_server.url)
    lost, b_missed, a_let_go = threading.Event(), threading.Event(), threading.Event()
    cache: dict[str, Any] = {}
    outcomes: dict[str, Any] = {}
    b_saw_it_gone: list[bool] = []
    real_b_held_for, real_a_claim, real_a_release = b.tier.held_for, a.tier.claim, a.tier.release

    def b_held_for(key: Any, left_s: Optional[float] = None) -> Optional[float]:
        held = real_b_held_for(key, left_s)
        if lost.is_set() and held == 0.0 and not b_saw_it_gone:
            b_saw_it_gone.append(True)
        return held

    def b_lookup() -> Any:
        found = cache.get("answer")
        if b_saw_it_gone == [True]:  # its first read after it found the lease gone: stalled
            b_saw_it_gone.append(True)
            b_missed.set()
            assert a_let_go.wait(30)
        return found

    def a_claim(key: Any, hold_s: float, left_s: Optional[float] = None) -> Optional[str]:
        if lost.is_set():  # its takeover: made once B read the cache (found nothing)
            assert b_missed.wait(30)
        return real_a_claim(key, hold_s, left_s)

    def a_release(key: Any, token: str, left_s: Optional[float] = None, failed: bool = False) -> None:
        real_a_release(key, token, left_s, failed)
        if lost.is_set():
            a_let_go.set()

    b.tier.held_for = b_held_for  # type: ignore[method-assign]
    a.tier.claim = a_claim  # type: ignore[method-assign]
    a.tier.release = a_release  # type: ignore[method-assign]

    def wait_for_it(name: str, waiter: Process, lookup: Any) -> None:
        with waiter.flights.turn(QUESTION, Deadline(60_000), lookup) as found:
            if found is None:
                outcomes[name] = "asked"
                cache["answer"] = {"items": ["the upstream's answer"]}  # before it lets go
            else:
                outcomes[name] = found

    threads = [
        threading.Thread(target=wait_for_it, args=("A", a, lambda: cache.get("answer"))),
        threading.Thread(target=wait_for_it, args=("B", b, b_lookup)),
    ]
    with asker.flights.turn(QUESTION, Deadline(60_000), lambda: None):
        for thread in threads:
            thread.start()
        assert a.waiting.wait(60) and b.waiting.wait(60)
        lost.set()
        redis_db.flushdb()
        for thread in threads:
            thread.join(60)
    assert b_saw_it_gone == [True, True]  # the interleaving was made
    assert outcomes == {"A": "asked", "B": {"items": ["the upstream's answer"]}}


def test_a_question_let_go_without_an_answer_is_asked_by_every_waiter(redis_db, redis_server):  # noqa: F811
    """The control: its asker let it go (it failed, or its answer was not for the cache), the marker
    left in its key says so, and each waiter asks at once, none waiting for another (their answers
    are not for the cache either: taken over, the question would be asked by one waiter after another)."""

    def release(asker: Process) -> None:
        (key,) = redis_db.keys("websearch_sync:flight:*")
        asker.tier.release(QUESTION, redis_db.get(key).decode())

    assert _waiters_after(redis_server.url, release, caches=False) == ["asked"] * 3


def test_a_failure_written_before_the_wait_began_is_an_earlier_askers(redis_db, redis_server):  # noqa: F811
    """The question failed with a 404 a moment ago; it is asked again and this asker fails with a
    502: its waiter asks itself (the 404 was no answer to the question it waited for)."""
    earlier = Process(redis_server.url)
    with pytest.raises(WebProviderError):
        with earlier.flights.turn(QUESTION, Deadline(60_000), lambda: None):
            raise WebProviderError("gone", detail_code="http_404", status=404)
    [key] = redis_db.keys("websearch_sync:failure:*")
    # written a second before the wait, on Redis's clock: a record's age is read to the millisecond,
    # with a 2 ms tolerance, and the few ms between the two turns here could fall inside it
    redis_db.pexpire(key, int(FAILURE_TTL_S * 1000) - 1000)
    assert _waiter_outcome(redis_server.url, BadGateway("502", detail_code="http_502")) == "asked"
    # the 502's asker, letting go without writing a failure, deleted the 404's record: a waiter
    # tells the records apart by that, not by their age alone (the read of a record written a moment
    # after the wait began may take long enough, on a loaded machine, to make it look older)
    assert redis_db.keys("websearch_sync:failure:*") == []


@pytest.fixture(scope="module")
def fleet_parent():
    """One parent forking every fleet of the module (shared_state_worker.FleetParent)."""
    with FleetParent() as parent:
        yield parent


def test_workers_fetching_a_missing_page_at_once_ask_for_it_once(redis_db, redis_server, fleet_parent):  # noqa: F811
    """Four workers fetch the same two pages, which are gone (404), at the same moments: each page
    is asked for once, and every worker gets the 404 (before, each waiting worker asked again)."""
    # a worker that began after the 404 was let go asks again, rightly (no failure is cached): every
    # worker must be waiting before the hold ends, and a forked worker on a loaded 2-core machine
    # started 0.4 s after the others in about 1 run of 30: the hold is five times that
    pages = HeldPages(workers=4, status=404, hold_s=2.0)
    with Upstream("browse-API__1") as upstream, pages.server:
        urls = [pages.server.url("/page/%d" % n) for n in range(2)]
        jobs = [{"queries": urls, "fetch": True, "options": {"allow_private": True}} for _ in range(4)]
        outs = run_workers(jobs, worker_env(upstream, up(redis_server.url), 0), fleet_parent)
    assert [[line["detail_code"] for line in out] for out in outs] == [["http_404"] * 2] * 4
    assert pages.by_path == {"/page/%d" % n: 1 for n in range(2)}


def test_a_release_after_redis_lost_its_scripts_still_lets_go_and_deletes_the_old_record(redis_db, redis_server):  # noqa: F811
    """Redis restarted (or ``SCRIPT FLUSH``) while the asker worked: the release, sent by its
    script's digest beside the record's deletion, is answered NOSCRIPT, and is sent again with the
    script itself: the question is let go (the marker its waiters read), the earlier record gone."""
    asker = Process(redis_server.url)
    token = asker.tier.claim(QUESTION, 60.0)
    assert token
    [key] = redis_db.keys("websearch_sync:flight:*")
    record = key.replace(b":flight:", b":failure:")
    redis_db.set(record, "{}")
    redis_db.script_flush()
    asker.tier.release(QUESTION, token)
    assert redis_db.get(key) == b"released" and redis_db.exists(record) == 0

"""The strategies as a shared client's threads meet them: a merge ends at the call's deadline
whatever its backends do, and the threads asking one question at the same moment all get the
answer one of them asked for, a partial one too (``client/strategies.py``, ``client/flight.py``)."""

import concurrent.futures
import json
import threading
from functools import partial

import pytest
from clocks import FakeClock, deadlines_on

import websearch_sync as ws
from websearch_sync.client import flight
from websearch_sync.net import deadline
from websearch_sync.testing import MockResponse, MockWire

#: Long enough never to run out on a loaded machine: these tests wait for events, not for time.
LONG_MS = 60_000


def _results(*urls):
    body = json.dumps({"results": [{"title": "t %s" % u, "url": u, "snippet": "s %s" % u} for u in urls]})
    return MockResponse(200, {"Content-Type": "application/json"}, body)


def _client(wire, **kwargs):
    settings = ws.Settings(endpoints={"aa": "https://aa.example/s", "bb": "https://bb.example/s"})
    return ws.SearchClient(["aa", "bb"], strategy="merge", settings=settings, wire=wire, retries=0, **kwargs)


def _hosts(wire):
    return sorted(request.url.split("/")[2] for request in wire.requests)


@pytest.fixture
def waiting(monkeypatch):
    """A semaphore released each time a caller starts waiting for another one's turn (a question in flight)."""
    seen = threading.Semaphore(0)
    real_wait_for = flight.wait_for

    def wait_for(*args, **kwargs):
        seen.release()
        return real_wait_for(*args, **kwargs)

    monkeypatch.setattr(flight, "wait_for", wait_for)
    return seen


def _ask_twice(search, budgets_ms, asked, release, waiting, meanwhile=lambda: None):
    """``search("first", ...)`` until its request is under way (``asked``), then ``search("second",
    ...)`` until it waits for the first one's turn; then ``meanwhile()``, and the first request answers."""
    first = threading.Thread(target=search, args=("first", budgets_ms[0]))
    first.start()
    assert asked.wait(LONG_MS / 1000)
    second = threading.Thread(target=search, args=("second", budgets_ms[1]))
    second.start()
    assert waiting.acquire(timeout=LONG_MS / 1000)
    meanwhile()
    release.set()
    first.join(LONG_MS / 1000)
    second.join(LONG_MS / 1000)


def test_a_merge_waits_for_its_backends_no_longer_than_the_calls_deadline(json_backends, monkeypatch):
    """A backend still running at the deadline (its code overruns its own) is a Timeout in
    ``errors``; the caller is not kept waiting for it past the budget (it was, 0.25 s more)."""
    json_backends("aa", "bb")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    hung = threading.Event()

    def answer(request):
        if "aa.example" in request.url:
            hung.wait(LONG_MS / 1000)  # never answers while the call lasts
            return _results("https://a.example/late")
        return _results("https://b.example/1")

    def wait_all(futures, timeout):
        """The backend that answers answers (the other hangs), then the call waits ``timeout`` for the rest."""
        concurrent.futures.wait(futures, timeout=LONG_MS / 1000, return_when=concurrent.futures.FIRST_COMPLETED)
        clock.advance(timeout)
        return False

    monkeypatch.setattr(deadline, "wait_all", wait_all)
    try:
        with _client(MockWire(answer), clock=clock) as client:
            result = client.search("q", budget_ms=1000)
    finally:
        hung.set()
    assert result["provider_meta"]["latency_ms"] <= 1000
    assert [item["url"] for item in result["items"]] == ["https://b.example/1"]
    assert [(e["provider"], e["type"], e["detail_code"]) for e in result["errors"]] == [
        ("aa", "Timeout", "deadline_exceeded")
    ]


@pytest.mark.parametrize(
    ("waiter_budget_ms", "asked_again"),
    [
        (LONG_MS, False),  # no more time than the asker had: asking again could not do better
        (2 * LONG_MS, True),  # a longer deadline may complete it: it asks itself
    ],
)
def test_threads_asking_one_question_share_its_partial_answer(json_backends, waiting, waiter_budget_ms, asked_again):
    """A merge one of whose backends fails is not cached; the thread that waited for it as a
    question in flight gets it too (it asked again, with what its deadline left: when the
    failure was a backend running out of time, it then had none left and got a Timeout)."""
    json_backends("aa", "bb")
    asked, release = threading.Event(), threading.Event()

    def answer(request):
        if "aa.example" in request.url:
            asked.set()
            release.wait(LONG_MS / 1000)
            return _results("https://a.example/1", "https://a.example/2")
        return MockResponse(502, {}, "bad gateway")

    wire = MockWire(answer)
    results = {}
    with _client(wire) as client:

        def search(name, budget_ms):
            results[name] = client.search("q", budget_ms=budget_ms)

        _ask_twice(search, (LONG_MS, waiter_budget_ms), asked, release, waiting)
    assert results["first"]["provider_meta"]["cached"] is False
    assert results["second"]["provider_meta"]["cached"] is not asked_again
    assert results["second"]["items"] == results["first"]["items"]
    assert [e["provider"] for e in results["second"]["errors"]] == ["bb"]
    assert _hosts(wire) == sorted(["aa.example", "bb.example"] * (2 if asked_again else 1))


def _two_failed_fallbacks(wire, clock, asked, release, waiting):
    """The errors of two identical fallback calls, the second waiting for the first, which fails
    when 0.4 s of the second's 2 s budget are left (a request needs 0.5 s of them)."""
    outcomes = {}
    with _client(wire, clock=clock) as client:

        def search(name, budget_ms):
            try:
                client.search("q", strategy="fallback", budget_ms=budget_ms)
            except ws.WebSearchError as error:
                outcomes[name] = error

        _ask_twice(search, (LONG_MS, 2000), asked, release, waiting, meanwhile=partial(clock.advance, 1.6))
    return outcomes.get("first"), outcomes.get("second")


def test_a_thread_left_too_little_time_by_the_question_it_waited_for_gets_that_questions_error(
    json_backends, monkeypatch, waiting
):
    """The asking call failed while the waiter waited; asking itself, the waiter sent nothing and
    said only "only 400 ms of the call's budget were left to ask aa" (a Timeout), not that each
    backend answered 502. It raises the asker's error instead, a copy of its own."""
    json_backends("aa", "bb")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    asked, release = threading.Event(), threading.Event()

    def answer(request):
        if "aa.example" in request.url:
            asked.set()
            release.wait(LONG_MS / 1000)
        return MockResponse(502, {}, "bad gateway")

    wire = MockWire(answer)
    first_error, second_error = _two_failed_fallbacks(wire, clock, asked, release, waiting)
    assert second_error is not first_error
    assert (type(second_error), second_error.detail_code, str(second_error)) == (
        ws.BadGateway,
        "http_502",
        str(first_error),
    )
    assert (second_error.provider, [(e.provider, e.detail_code) for e in second_error.errors]) == (
        "aa",
        [("bb", "http_502")],
    )
    assert _hosts(wire) == ["aa.example", "bb.example"]


def test_a_mocked_backend_answering_after_the_deadline_is_a_timeout_not_a_late_answer(json_backends, monkeypatch):
    """A ``MockWire`` handler standing for a slow upstream (it takes 1.5 s of a 1 s budget) made
    the chain return that answer as a success after the deadline; a real wire raises a Timeout
    at it, and so does the mock now: the chain has no time left to ask ``bb``."""
    json_backends("aa", "bb")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)

    def answer(request):
        clock.advance(1.5)
        return _results("https://late.example/")

    wire = MockWire(answer)
    with _client(wire, clock=clock) as client, pytest.raises(ws.Timeout) as info:
        client.search("q", strategy="fallback", budget_ms=1000)
    assert (info.value.provider, info.value.detail_code) == ("aa", "deadline_exceeded")
    assert [(e.provider, e.detail_code) for e in info.value.errors] == [("bb", "not_asked")]
    assert _hosts(wire) == ["aa.example"]


#: What each mocked backend answers: overlapping lists, the same pages spelt differently across
#: backends (``www.``, a trailing slash, a fragment, ``utm_*``, the scheme), a wall, a failure.
_LISTS = {
    "aa": [
        "https://www.one.example/",
        "https://two.example/p?utm_source=x",
        "https://a.example/3",
        "https://a.example/4",
    ],
    "bb": ["http://two.example/p", "https://one.example#top", "https://b.example/3", "https://a.example/4/"],
    "cc": ["https://c.example/1", "https://a.example/3", "https://c.example/3", "https://c.example/4"],
}
_STATUS = {"wall": 403, "err": 502}
#: (backends, strategy) a legacy service's threads mix.
_CALLS = [
    (("aa", "bb", "cc"), "merge"),
    (("bb", "aa"), "merge"),
    (("wall", "aa"), "fallback"),
    (("err", "bb"), "fallback"),
    (("aa", "err", "cc"), "merge"),
    (("wall", "err"), "merge"),
]


def _outcome(client, query, names, strategy, max_results):
    """What a call gave, without what differs from one moment to the next (latency, a block's words)."""
    from websearch_sync.net.urls import dedupe_key

    try:
        result = client.search(query, backend=list(names), strategy=strategy, max_results=max_results)
    except ws.WebSearchError as error:
        return ("error", error.code, error.provider, sorted((e.provider, e.code) for e in error.errors))
    items = result["items"]
    assert len(items) <= max_results
    assert len({dedupe_key(item["url"]) for item in items}) == len(items)  # one result per page
    assert all(item["provider"] in item.get("providers", [item["provider"]]) for item in items)
    return (
        "answer",
        [(item["url"], item["provider"], item.get("providers")) for item in items],
        sorted((e["provider"], e["type"]) for e in result.get("errors", [])),
    )


def test_thirty_two_threads_share_one_client_across_strategies(json_backends):
    """32 threads of a service share one client, mixing merges and fallback chains over healthy,
    walled and failing backends: each call gets what the same call gets alone (the same results in
    the same order, one per page, with their providers, never more than asked; a failure of every
    backend is one typed error naming each), and an answer with a failure in it is not cached."""
    names = sorted(_LISTS) + sorted(_STATUS)
    json_backends(*names)

    def answer(request):
        name = request.url.split("/")[2].split(".")[0]
        if name in _STATUS:
            return MockResponse(_STATUS[name], {}, "<html>no</html>")
        return _results(*_LISTS[name])

    settings = ws.Settings(endpoints={name: "https://%s.example/s" % name for name in names})
    jobs = [(query, names_, strategy, size) for query in ("q0", "q1") for names_, strategy in _CALLS for size in (3, 8)]
    with ws.SearchClient("aa", settings=settings, wire=MockWire(answer), retries=0, cache_ttl_s=0) as alone:
        expected = {job: _outcome(alone, *job) for job in jobs}
    outcomes, failures = [], []
    with ws.SearchClient("aa", settings=settings, wire=MockWire(answer), retries=0) as shared:

        def work(offset):
            try:
                for job in jobs[offset:] + jobs[:offset]:
                    outcomes.append((job, _outcome(shared, *job)))
            except BaseException as error:  # collected: a thread's failure must fail the test
                failures.append(error)

        threads = [threading.Thread(target=work, args=(n % len(jobs),)) for n in range(32)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(LONG_MS / 1000)
        assert not any(thread.is_alive() for thread in threads)
        again = shared.search("q0", backend=["aa", "err", "cc"], strategy="merge", max_results=3)
    assert failures == []
    assert len(outcomes) == 32 * len(jobs)
    assert [job for job, outcome in outcomes if outcome != expected[job]] == []
    assert again["provider_meta"]["cached"] is False


class _HeldError(ws.BadGateway):
    """A plugin's error holding what cannot be pickled (a lock): ``copy.deepcopy`` refuses it."""

    def __init__(self, message, **fields):
        super().__init__(message, **fields)
        self.held = threading.Lock()


def test_a_plugins_error_that_cannot_be_pickled_reaches_the_waiting_thread_as_itself(
    json_backends, monkeypatch, waiting
):
    """Handing the asker's error over must not pickle it: a deep copy of this one was a TypeError
    raised from the asker's own search (the library raises only WebSearchError)."""
    (aa, _) = json_backends("aa", "bb")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    asked, release = threading.Event(), threading.Event()

    def parse(self, response, params):
        raise _HeldError("the service's own failure", provider=self.name, detail_code="held")

    monkeypatch.setattr(aa, "parse", parse)

    def answer(request):
        if "aa.example" in request.url:
            asked.set()
            release.wait(LONG_MS / 1000)
            return _results("https://a.example/")
        return MockResponse(502, {}, "bad gateway")

    first_error, second_error = _two_failed_fallbacks(MockWire(answer), clock, asked, release, waiting)
    assert [type(first_error), type(second_error)] == [_HeldError, _HeldError]
    assert second_error is not first_error and second_error.detail_code == "held"

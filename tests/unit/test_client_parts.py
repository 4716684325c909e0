"""The client's parts on their own: fusion, caches, rate limiter, cool-downs."""

import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
import responses
from clocks import FakeClock, deadlines_on

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.client.attempts import BackendRunner, CallState
from websearch_sync.client.cache import MemoryCache, SqliteCache
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.fusion import fuse
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.client.retry import RetryPolicy
from websearch_sync.models import SearchParams
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def item(url, title="t"):
    return {"title": title, "url": url, "snippet": "", "provider": "x", "rank": 0}


def test_rrf_scores_and_tie_order():
    fused = fuse(
        [
            ("a", [item("https://1.example/"), item("https://2.example/")]),
            ("b", [item("https://2.example/#frag"), item("https://3.example/")]),
        ]
    )
    assert [f["url"] for f in fused] == ["https://2.example/#frag", "https://1.example/", "https://3.example/"]
    assert fused[0]["providers"] == ["a", "b"]
    assert "rank" not in fused[0]


def test_memory_cache_ttl_lru_and_copies():
    clock = FakeClock()
    cache = MemoryCache(ttl_s=0.2, max_entries=2, clock=clock)
    value = {"items": [{"url": "u", "providers": ["a"]}], "provider_meta": {"cached": False}}
    cache.set("k1", value)
    value["items"][0]["providers"].append("mutated")
    got = cache.get("k1")
    assert got["items"][0]["providers"] == ["a"]
    got["provider_meta"]["cached"] = True
    assert cache.get("k1")["provider_meta"]["cached"] is False
    cache.set("k2", value)
    cache.set("k3", value)
    assert cache.get("k1") is None and len(cache) == 2
    clock.advance(0.25)
    assert cache.get("k2") is None


def test_an_answer_from_the_memory_cache_shares_no_list_of_an_item_or_error_with_it():
    """An item's ``content_truncated_by`` was shared between the cache and each answer it gave: a
    caller adding to an answer's list changed the cached answer every later hit returned. So was a
    list in a tuple of an error entry (a backend writes those freely). Each hit is now a copy of
    them all: an item's lists (a canonical item's only mutable values), an error's all the way down."""
    cache = MemoryCache(ttl_s=60, clock=FakeClock())
    item = {"url": "u", "providers": ["a"], "content_truncated_by": ["max_chars"]}
    error = {"type": "WebProviderError", "engines": (["x"],), "extra": {"rows": [["x"]]}}
    cache.set("k", {"items": [item], "errors": [error], "provider_meta": {"cached": False}})
    got = cache.get("k")
    got["items"][0]["content_truncated_by"].append("mutated")
    got["items"][0]["providers"].append("mutated")
    got["errors"][0]["engines"][0].append("mutated")
    got["errors"][0]["extra"]["rows"][0].append("mutated")
    again = cache.get("k")
    assert again["items"][0] == {"url": "u", "providers": ["a"], "content_truncated_by": ["max_chars"]}
    assert again["errors"][0] == {"type": "WebProviderError", "engines": (["x"],), "extra": {"rows": [["x"]]}}


def test_memory_cache_holds_a_bounded_amount_of_text():
    """Images a fetch returns hold megabytes of base64 each: the memory cache evicts the least
    recently used results once their strings pass its budget, keeps none over the whole budget,
    and counts search items' strings too."""
    cache = MemoryCache(ttl_s=60, max_chars=100, clock=FakeClock())
    image = {"url": "https://a.example/x.png", "extractor": "image", "data": "A" * 40}  # 63 characters
    cache.set("first", image)
    cache.set("second", dict(image, url="https://b.example/x.png"))
    assert cache.get("first") is None and cache.get("second")["data"] == "A" * 40
    cache.set("huge", dict(image, data="A" * 200))
    assert cache.get("huge") is None and cache.get("second") is not None  # nothing evicted for it
    cache.set("search", {"items": [{"title": "t" * 10, "url": "https://c.example/"}], "provider_meta": {}})
    assert cache.get("second") is not None and cache.get("search") is not None  # 63 + 28 characters
    cache.set("search2", {"items": [{"title": "t" * 80, "url": "https://c.example/"}], "provider_meta": {}})
    assert [key for key in ("second", "search", "search2") if cache.get(key)] == ["search2"]
    cache.set("search2", {"items": [], "provider_meta": {}})  # replacing an entry gives its text back
    cache.set("second", image)
    assert cache.get("search2") is not None and cache.get("second") is not None


def test_sqlite_cache_threads_and_expiry(tmp_path):
    clock = FakeClock()
    cache = SqliteCache(tmp_path / "c.sqlite3", ttl_s=5, clock=clock)
    errors = []

    def work(n):
        try:
            for i in range(20):
                cache.set(("k", n, i), {"items": [{"n": n, "i": i}]})
                assert cache.get(("k", n, i)) == {"items": [{"n": n, "i": i}]}
        except Exception as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    cache.set("short", {"items": []}, ttl_s=0.05)
    assert cache.get("short") == {"items": []}
    clock.advance(0.1)
    assert cache.get("short") is None


def test_rate_limiter_books_spaced_slots_and_refuses_late_ones():
    clock = FakeClock()
    limiter = RateLimiter(clock)
    assert limiter.reserve("a", 1.0, 10) == 0.0
    clock.advance(0.25)
    assert limiter.reserve("a", 1.0, 10) == 0.75
    assert limiter.reserve("a", 1.0, 0.5) is None  # the next slot is 1.75 s away
    assert limiter.reserve("b", 1.0, 0) == 0.0  # other backends are independent
    assert limiter.reserve("c", 0.0, 0) == 0.0


def test_cooldown_durations_and_retry_after():
    clock = FakeClock()
    cooldowns = Cooldowns({"captcha_required": 0.2}, clock=clock)
    cooldowns.record(ws.WebBlocked("x", provider="a", detail_code="captcha_required"))
    cooldowns.record(ws.WebBlocked("x", provider="b", detail_code="http_429", retry_after=0.1))
    with pytest.raises(ws.WebBlocked) as info:
        cooldowns.check("a")
    assert info.value.detail_code == "captcha_required" and info.value.retryable is False
    with pytest.raises(ws.WebBlocked):
        cooldowns.check("b")
    clock.advance(0.25)
    cooldowns.check("a")
    cooldowns.check("b")


def test_merged_backends_wait_in_the_callers_context():
    """A cancelled MCP call's merged backends stop at their next wait: ``merge`` runs each backend in
    a copy of the caller's context, where ``CancellableClock`` keeps the call's cancel event."""
    from types import SimpleNamespace

    from websearch_sync.client.strategies import merge
    from websearch_sync.mcp import CancellableClock
    from websearch_sync.mcp.tools import CallCancelled
    from websearch_sync.net.deadline import Deadline

    clock = CancellableClock()
    cancelled = threading.Event()
    waited = []

    def run(backend):
        waited.append(backend.name)
        clock.sleep(3.0)  # a rate-limit slot: cancelled, it raises CallCancelled at once
        raise AssertionError("%s went on after its call was cancelled" % backend.name)

    backends = [SimpleNamespace(name="a"), SimpleNamespace(name="b")]
    cancelled.set()
    with clock.cancellable(cancelled), pytest.raises(CallCancelled):  # not the AssertionError of a slot slept out
        merge(backends, SimpleNamespace(max_results=5), Deadline(10_000), run)
    assert sorted(waited) == ["a", "b"]


class _OwnClock:
    """A caller's own clock as the ``clock`` argument's docs describe it: it reads the time and sleeps, and is no
    subclass of the library's ``Clock``."""

    def __init__(self):
        self.fake = FakeClock()

    def monotonic(self):
        return self.fake.monotonic()

    def time(self):
        return self.fake.time()

    def sleep(self, seconds):
        self.fake.sleep(seconds)


def test_a_callers_own_clock_that_is_no_clock_subclass_runs_a_search_through_the_host_gate():
    """The gate's check for a cancelled call (made before every request) asks only the library's cancellable clock: a
    clock of three methods ran every search into ``AttributeError: ... 'raise_if_cancelled'`` (internal_error)."""
    page = (FIXTURES / "ddg_html" / "agent-webtool__1.html").read_text(encoding="utf-8")
    settings = ws.Settings(impersonate="off")
    with (
        responses.RequestsMock(assert_all_requests_are_fired=False) as mock,
        ws.SearchClient(
            "ddg_html", settings=settings, clock=_OwnClock(), cache_ttl_s=0, retries=0, state_url=""
        ) as client,
    ):
        mock.post("https://html.duckduckgo.com/html/", body=page, content_type="text/html; charset=UTF-8")
        answer = client.search("bun javascript runtime", max_results=5)
        assert len(mock.calls) == 1 and answer["items"] and not answer.get("errors")


def test_provider_meta_says_how_much_of_the_latency_was_a_rate_limit_wait():
    """``latency_ms`` includes the wait for a rate-limit slot; ``wait_ms`` says how much (issue 33.20)."""
    clock = FakeClock()
    with ws.SearchClient("stub", min_interval_s=1.5, clock=clock, state_url="") as client:
        first = client.search("one")["provider_meta"]
        clock.advance(0.5)
        second = client.search("two")["provider_meta"]
        cached = client.search("two")["provider_meta"]
    assert (first["wait_ms"], first["latency_ms"]) == (0, 0)
    assert (second["wait_ms"], second["latency_ms"]) == (1000, 1000)
    assert (cached["cached"], cached["wait_ms"]) == (True, 0)


class _OutageSlots:
    """A shared slots tier of a fleet of four that answers while ``up`` (the fleet's whole pace
    is in the tier: it answers with the wait it was told to keep, ``not_before_s``)."""

    def __init__(self):
        self.up = True

    def reserve(self, name, interval, max_wait_s, not_before_s=0.0, left_s=None):
        return (True, not_before_s, None) if self.up else None

    def fits(self, left_s):
        return True

    def fleet(self, name):
        return 4


def test_during_an_outage_a_process_keeps_its_share_of_the_fleets_pace_and_then_hands_over():
    """Issue 33.16: four processes shared one pace; while the tier cannot be reached each keeps a
    quarter of it alone, going on from its last shared slot; when it answers again, no shared
    slot comes before this process's next one by its share, for 5 s (the others may still be alone)."""
    clock = FakeClock()
    shared = _OutageSlots()
    limiter = RateLimiter(clock, shared=shared)
    assert limiter.reserve("a", 0.1, 10) == 0.0
    shared.up = False
    assert [limiter.reserve("a", 0.1, 10) for _ in range(3)] == pytest.approx([0.4, 0.8, 1.2])
    shared.up = True
    assert limiter.reserve("a", 0.1, 10) == pytest.approx(1.6)  # after the local slot at 1.2, its share on
    clock.advance(5.0)
    assert limiter.reserve("a", 0.1, 10) == 0.0  # the handover is over: the shared pace alone


class _AskedSlots:
    """A shared slots tier with a slot free at once, noting what each booking asked it."""

    def __init__(self):
        self.asked = []

    def reserve(self, name, interval, max_wait_s, not_before_s=0.0, left_s=None):
        self.asked.append((max_wait_s, left_s))
        return True, 0.0, None

    def fits(self, left_s):
        return True

    def fleet(self, name):
        return 1


def test_a_request_that_may_wait_for_no_slot_asks_the_tier_within_the_calls_time_and_one_too_late_books_none():
    """Before: the longest wait was also the shared round trip's time limit, so a request that may
    wait for no slot (0: only a free one) never reached Redis. It is asked within the call's time
    left; a request with too little of its budget for even a free slot (a negative wait) books
    none: neither in the tier (it would take a slot nobody uses) nor in the process."""
    shared = _AskedSlots()
    limiter = RateLimiter(FakeClock(), shared=shared)
    assert limiter.reserve("a", 1.0, 0.0, 12.5) == 0.0
    assert limiter.reserve("a", 1.0, -0.2, 0.8) is None
    assert shared.asked == [(0.0, 12.5)] and limiter.next_free_in("a") == 1.0


def test_a_request_left_late_keeps_the_next_one_an_interval_behind_it():
    """Issue 33.17: slots are booked 0.1 s apart, but the first request left 0.05 s after its slot
    (a late wake-up); the second, on time, waits: the upstream sees 0.1 s between them."""
    clock = FakeClock()
    limiter = RateLimiter(clock)
    assert [limiter.reserve("a", 0.1, 10) for _ in range(2)] == pytest.approx([0.0, 0.1])
    clock.advance(0.05)
    assert limiter.sending("a", 0.1) == 0.0  # the first one leaves, late
    clock.advance(0.05)
    assert limiter.sending("a", 0.1) == pytest.approx(0.05)  # the second one's slot: not yet
    clock.advance(0.05)
    assert limiter.sending("a", 0.1) == 0.0
    assert limiter.reserve("a", 0.1, 10) == pytest.approx(0.1)  # and the next slot is an interval after it


def test_a_slot_that_leaves_the_request_too_little_of_its_budget_is_not_taken():
    """Issue 33.17: a call that would wait for a slot almost its whole budget does not send a
    request that cannot finish: it fails at once, and the slot stays free for another call."""
    clock = FakeClock()
    with ws.SearchClient("stub", min_interval_s={"stub": 0.8}, clock=clock, state_url="", cache_ttl_s=0) as client:
        client.search("one", timeout_ms=1000)
        with pytest.raises(ws.Timeout) as info:
            client.search("two", timeout_ms=1000)  # the slot is 0.8 s away: 0.2 s would be left, under a quarter
        assert info.value.detail_code == "budget_exhausted"
        assert clock.sleeps == []
        assert client.search("three", timeout_ms=4000)["provider_meta"]["wait_ms"] == 800


def test_a_budget_spent_before_the_turn_does_not_blame_the_rate_limit():
    """A request with too little of its budget left says what left too little: its wait for a
    rate-limit slot, or, with no wait (an identical search waited out in flight, other backends,
    retries), the budget alone; it said "allows one request every 0.0 s" then."""
    from websearch_sync.client.attempts import BackendRunner
    from websearch_sync.net.deadline import Deadline

    backend = SimpleNamespace(name="stub")
    with pytest.raises(ws.Timeout) as spent:
        BackendRunner._too_late(backend, 0.0, Deadline(100), 0.5, 0.0, None)
    assert spent.value.message.startswith("only ") and "allows one request" not in spent.value.message
    assert "budget were left to ask stub, too little to finish" in spent.value.message
    with pytest.raises(ws.Timeout) as waited:
        BackendRunner._too_late(backend, 2.0, Deadline(1000), 0.5, 0.8, None)
    assert waited.value.message.startswith("stub allows one request every 2.0 s; only ")


def test_a_fallback_chain_out_of_time_names_the_backends_it_never_asked():
    """``auto`` out of time after DuckDuckGo must not read as if it had tried DuckDuckGo alone: the
    final error names the engines not asked, and ``errors`` holds one entry for each."""
    from types import SimpleNamespace

    from websearch_sync.client.strategies import fallback
    from websearch_sync.net.deadline import Deadline

    asked = []

    def run(backend):
        asked.append(backend.name)
        raise ws.Timeout("read timed out", provider=backend.name, detail_code="read_timeout")

    backends = [SimpleNamespace(name=name) for name in ("duckduckgo", "bing", "mojeek")]
    with pytest.raises(ws.Timeout) as info:
        fallback(backends, SimpleNamespace(max_results=5), Deadline(0), run)  # no time left after the first
    assert asked == ["duckduckgo"]
    assert info.value.provider == "duckduckgo"
    assert info.value.message.endswith("; not asked: bing, mojeek (no time left)")
    assert [(e.provider, e.detail_code) for e in info.value.errors] == [
        ("bing", "not_asked"),
        ("mojeek", "not_asked"),
    ]


def test_str_of_a_fallback_out_of_time_names_each_backend_once_as_failed_or_not_asked():
    """A backend never asked did not fail: ``str(error)`` names it once, under the message's
    "not asked", and only the backends that failed under "also failed"."""
    from websearch_sync.client.strategies import fallback

    asked = []

    def run(backend):
        asked.append(backend.name)
        if backend.name == "duckduckgo":
            raise ws.Timeout("read timed out", provider=backend.name, detail_code="read_timeout")
        raise ws.NetworkError("connection refused", provider=backend.name, detail_code="connection_refused")

    backends = [SimpleNamespace(name=name) for name in ("duckduckgo", "bing", "mojeek", "brave")]
    budget = SimpleNamespace(expired=lambda: len(asked) == 2)  # the deadline passes during bing's turn
    with pytest.raises(ws.NetworkError) as info:
        fallback(backends, SimpleNamespace(max_results=5), budget, run)
    assert asked == ["duckduckgo", "bing"]
    assert str(info.value) == (
        "connection refused; not asked: mojeek, brave (no time left) [also failed: duckduckgo (read_timeout)]"
    )
    assert [(e.provider, e.code, e.detail_code) for e in info.value.errors] == [
        ("duckduckgo", "Timeout", "read_timeout"),
        ("mojeek", "Timeout", "not_asked"),
        ("brave", "Timeout", "not_asked"),
    ]


def test_a_huge_interval_is_written_readably_in_the_budget_message():
    """``min_interval_s=1e300`` (accepted: never again) wrote a 300-digit number twice in the
    ``budget_exhausted`` message; a span is written in seconds, days, or past a thousand years
    as a bound."""
    clock = FakeClock()
    with ws.SearchClient("stub", min_interval_s=1e300, clock=clock, state_url="") as client:
        client.search("one")
        with pytest.raises(ws.Timeout) as exhausted:
            client.search("two")
    assert exhausted.value.detail_code == "budget_exhausted"
    assert exhausted.value.message.startswith(
        "stub allows one request every 1000+ years; the next slot is 1000+ years away but only "
    )


@pytest.mark.parametrize(
    "seconds, text", [(2.0, "2.0 s"), (86400.0, "86400.0 s"), (3 * 86400.0, "3.0 days"), (float("inf"), "1000+ years")]
)
def test_spans_are_written_in_seconds_days_or_as_a_bound(seconds, text):
    from websearch_sync.net.spans import span_text

    assert span_text(seconds) == text


def _stub_runner(clock, check_ahead_s=0.0, interval_s=2.0):
    """A ``BackendRunner`` for the offline stub, its slots ``interval_s`` apart, on ``clock``."""
    return BackendRunner(
        HttpTransport(), RateLimiter(clock), Cooldowns({}, clock=clock), {"stub": interval_s}, clock, check_ahead_s
    )


class _AskedStub(Stub):
    """The offline stub, noting each time it is asked (``clock``'s time, or ``None``) in ``asked``."""

    def __init__(self, asked, clock=None):
        super().__init__(ws.Settings())
        self.asked, self.clock = asked, clock

    def search(self, params, transport, deadline):
        self.asked.append(self.clock.monotonic() if self.clock is not None else None)
        return super().search(params, transport, deadline)


def _stub_params(query):
    return SearchParams(query=query, max_results=3)


def _budget():
    return Deadline(15_000)


def _no_retry():
    return RetryPolicy().with_total(0)


def _state():
    return CallState()


def test_with_checks_ahead_a_request_wakes_before_its_slot_for_them_and_leaves_at_it():
    """Issue 33.17: with a shared state the checks after a wait for a slot are round trips
    (``check_ahead_s``: two of them); the request wakes that much before its slot to run them
    (``recheck``: the cache read again), then sleeps the rest and leaves at its slot. Before, it
    slept to the slot and ran the checks after it (one wait)."""
    clock = FakeClock()
    runner = _stub_runner(clock, check_ahead_s=0.5)
    checked_at = []
    stub = _AskedStub([])
    runner.run(stub, _stub_params("one"), None, _budget(), _no_retry(), _state())
    started = clock.monotonic()
    runner.run(
        stub, _stub_params("two"), None, _budget(), _no_retry(), _state(), lambda: checked_at.append(clock.monotonic())
    )
    assert clock.sleeps == [1.5, 0.5]
    assert checked_at == [started + 1.5]


@pytest.mark.parametrize("slot_taken", [False, True])
@pytest.mark.parametrize(
    "spent_s, detail_code, message",
    [
        (3.5, "budget_exhausted", "only 500 ms of the call's budget were left to ask stub, too little to finish"),
        (4.5, "deadline_exceeded", "only 0 ms of the call's budget were left to ask stub, too little to finish"),
    ],
)
def test_a_request_with_less_than_its_need_left_is_not_sent_even_without_a_wait(
    monkeypatch, slot_taken, spent_s, detail_code, message
):
    """A request with less of the budget left than a request needs (the call's time spent before
    it: other backends, an identical search in flight) is not sent: ``Timeout`` saying the budget
    left too little (``deadline_exceeded`` once it is gone), the backend not asked, whether its
    rate-limit slot is free or taken: the budget alone is the reason. Before, a free slot said
    "stub allows one request every 2.0 s; the next slot is 0.0 s away but only 500 ms of the budget
    are left", and a taken one still blamed the slot (``budget_exhausted`` for a budget gone)."""
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    asked = []
    runner = _stub_runner(clock)
    budget = Deadline(4000)
    clock.advance(spent_s)  # 0.5 s left of 4 s, or none: a request needs 1 s
    if slot_taken:  # another call takes the slot: the next one is 2 s away
        runner.run(_AskedStub(asked), _stub_params("zero"), None, _budget(), _no_retry(), CallState())
    with pytest.raises(ws.Timeout) as info:
        runner.run(_AskedStub(asked), _stub_params("one"), None, budget, _no_retry(), CallState())
    assert (info.value.detail_code, info.value.message) == (detail_code, message)
    assert len(asked) == int(slot_taken) and clock.sleeps == []


def test_a_request_after_one_that_left_late_waits_until_the_upstream_has_seen_the_interval():
    """Issue 33.17: the first request left late (its checks ahead of the slot took 1 s, not the
    0.5 s they were given); the next one, booked an interval after the first's slot, waits until
    an interval after the first really left: the upstream sees the 2 s between them."""
    clock = FakeClock()
    runner = _stub_runner(clock, check_ahead_s=0.5)
    asked = []
    stub = _AskedStub(asked, clock)
    runner.run(stub, _stub_params("zero"), None, _budget(), _no_retry(), _state())
    runner.run(stub, _stub_params("one"), None, _budget(), _no_retry(), _state(), lambda: clock.advance(1.0))
    runner.run(stub, _stub_params("two"), None, _budget(), _no_retry(), _state())
    assert [later - earlier for earlier, later in zip(asked, asked[1:])] == pytest.approx([2.5, 2.0])


def test_a_chain_keeps_the_engine_failures_of_the_meta_engine_whose_error_it_raises():
    """SearXNG's "no results" error carries its failed engines in ``errors`` (the why, and what its
    cool-down is keyed on); when a chain raises it as the most informative failure, the other
    backends' failures are added after them, not put in their place."""
    from websearch_sync.backends.searxng_failures import engine_failures, no_results_because
    from websearch_sync.client.strategies import fallback

    problems = engine_failures([["google", "CAPTCHA"], ["bing", "too many requests"]], "searxng", [])
    searxng_error = no_results_because(problems, 200, "searxng")
    assert isinstance(searxng_error, ws.WebBlocked) and len(searxng_error.errors) == 2

    def run(backend):
        if backend.name == "searxng":
            raise searxng_error
        raise ws.Timeout("read timed out", provider=backend.name, detail_code="read_timeout")

    backends = [SimpleNamespace(name=name) for name in ("searxng", "mojeek")]
    with pytest.raises(ws.WebBlocked) as info:
        fallback(backends, SimpleNamespace(max_results=5), SimpleNamespace(expired=lambda: False), run)
    assert info.value is searxng_error
    assert [(e.provider, e.to_dict().get("engine"), e.detail_code) for e in info.value.errors] == [
        ("searxng", "google", problems[0].detail_code),
        ("searxng", "bing", problems[1].detail_code),
        ("mojeek", None, "read_timeout"),
    ]
    assert str(info.value).endswith("[also failed: mojeek (read_timeout)]")

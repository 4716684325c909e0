"""SearchClient: fallback, merge, retries, cool-downs, cache, rate limits, deadlines, threads."""

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from clocks import FakeClock, deadline_margin_s, deadlines_on, machine_pace, paced_budget_s
from faults import gated, never_answer, past_the_deadline, respond, sequence
from servers import FaultServer, json_results

import websearch_sync as ws
from websearch_sync.client import flight
from websearch_sync.client.attempts import MIN_SEND_S, MIN_SEND_SHARE
from websearch_sync.errors import WebSearchError

#: What a call may take beyond its budget on an idle machine (noticing it, closing the connections).
BUDGET_MARGIN_S = 0.75


def client_for(server, names, **kwargs):
    endpoints = {name: server.url("/" + name) for name in names}
    settings = ws.Settings(endpoints=endpoints, timeout_ms=kwargs.pop("timeout_ms", 3000))
    return ws.SearchClient(names if len(names) > 1 else names[0], settings=settings, **kwargs)


# -- fallback ------------------------------------------------------------------------------


def test_fallback_moves_on_and_reports_the_failure(json_backends):
    json_backends("aa", "bb")
    with FaultServer(
        {"/aa": respond(429, b"", {"Retry-After": "120"}), "/bb": json_results("https://b.example/1")}
    ) as server:
        with client_for(server, ["aa", "bb"], retries=0) as client:
            result = client.search("q")
    assert result["provider_meta"]["provider_name"] == "bb"
    assert [i["url"] for i in result["items"]] == ["https://b.example/1"]
    assert result["errors"] == [
        {
            "type": "WebBlocked",
            "message": result["errors"][0]["message"],
            "retryable": True,
            "detail_code": "http_429",
            "provider": "aa",
        }
    ]
    assert result["provider_meta"]["attempts"] == 2


@pytest.mark.parametrize("status", [403, 500, 401])
def test_fallback_moves_on_after_each_fall_through_error(json_backends, status):
    json_backends("aa", "bb")
    with FaultServer({"/aa": respond(status, b""), "/bb": json_results("https://b.example/1")}) as server:
        with client_for(server, ["aa", "bb"], retries=0) as client:
            assert client.search("q")["provider_meta"]["provider_name"] == "bb"


def test_fallback_stops_on_errors_that_fallback_cannot_fix(json_backends):
    json_backends("aa", "bb")
    with FaultServer({"/aa": respond(404, b""), "/bb": json_results("https://b.example/1")}) as server:
        with client_for(server, ["aa", "bb"], retries=0) as client:
            with pytest.raises(ws.WebProviderError):
                client.search("q")
        assert [r.route for r in server.requests] == ["/aa"]


def test_total_failure_raises_the_most_informative_error_with_the_others_attached(json_backends, monkeypatch):
    """The third backend times out on its own on the fake clock (:func:`faults.past_the_deadline`):
    with a real 300 ms for every request, a 502 or 403 a loaded machine answered later than that was
    a ``Timeout`` too, and the error raised another backend's."""
    json_backends("aa", "bb", "cc")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    timeout_s = 3.0
    routes = {"/aa": respond(502, b""), "/bb": respond(403, b""), "/cc": past_the_deadline(clock, timeout_s)}
    with FaultServer(routes) as server:
        settings = ws.Settings(endpoints={n: server.url("/" + n) for n in ("aa", "bb", "cc")})
        with ws.SearchClient(["aa", "bb", "cc"], settings=settings, retries=0, clock=clock) as client:
            with pytest.raises(ws.WebBlocked) as info:
                client.search("q", timeout_ms=int(timeout_s * 1000), budget_ms=20_000)
    assert info.value.provider == "bb"
    assert sorted(e.code for e in info.value.errors) == ["BadGateway", "Timeout"]


def test_no_fallback_unless_several_backends_were_asked_for(json_backends):
    json_backends("aa")
    with FaultServer({"/aa": respond(503, b"")}) as server:
        with client_for(server, ["aa"], retries=0) as client:
            with pytest.raises(ws.BadGateway):
                client.search("q")
        assert len(server.requests) == 1


def test_module_level_search_accepts_a_chain_and_a_strategy(json_backends):
    json_backends("aa", "bb")
    with FaultServer({"/aa": respond(500, b""), "/bb": json_results("https://b.example/1")}) as server:
        settings = ws.Settings(endpoints={"aa": server.url("/aa"), "bb": server.url("/bb")})
        result = ws.search("q", backend=["aa", "bb"], strategy="fallback", retries=0, settings=settings)
    assert result["provider_meta"]["provider_name"] == "bb"


# -- merge ---------------------------------------------------------------------------------


def test_merge_fuses_with_rrf_and_lists_providers(json_backends):
    json_backends("aa", "bb")
    routes = {
        "/aa": json_results("https://x.example/1", "https://shared.example/page?utm_source=aa", "https://x.example/3"),
        "/bb": json_results("https://www.shared.example/page/", "https://y.example/2"),
    }
    with FaultServer(routes) as server:
        with client_for(server, ["aa", "bb"], strategy="merge") as client:
            result = client.search("q", max_results=10)
    urls = [i["url"] for i in result["items"]]
    # shared: 1/62 + 1/61 beats every single-list item; then rank-1 items (aa before bb), then rank 2, 3.
    assert urls == [
        "https://www.shared.example/page/",
        "https://x.example/1",
        "https://y.example/2",
        "https://x.example/3",
    ]
    shared = result["items"][0]
    assert shared["provider"] == "bb" and shared["providers"] == ["aa", "bb"]
    assert [i["rank"] for i in result["items"]] == [1, 2, 3, 4]
    assert result["provider_meta"]["providers"] == ["aa", "bb"]


def test_merge_partial_failure_returns_the_others_with_errors(json_backends):
    json_backends("aa", "bb")
    with FaultServer({"/aa": respond(503, b""), "/bb": json_results("https://b.example/1")}) as server:
        with client_for(server, ["aa", "bb"], strategy="merge", retries=0) as client:
            result = client.search("q")
    assert [i["url"] for i in result["items"]] == ["https://b.example/1"]
    assert result["errors"][0]["type"] == "BadGateway" and result["errors"][0]["provider"] == "aa"


def test_merge_total_failure_raises(json_backends):
    json_backends("aa", "bb")
    with FaultServer({"/aa": respond(503, b""), "/bb": respond(403, b"")}) as server:
        with client_for(server, ["aa", "bb"], strategy="merge", retries=0) as client:
            with pytest.raises(ws.WebBlocked) as info:
                client.search("q")
    assert [e.code for e in info.value.errors] == ["BadGateway"]


def test_merge_runs_backends_in_parallel(json_backends):
    """Each backend answers only once all three have been asked: a client asking them one after
    another would wait out its timeout on the first (no wall-clock figure to hold under load)."""
    json_backends("aa", "bb", "cc")
    all_asked = threading.Event()
    asked = []

    def counted(inner):
        def handler(conn, request, server):
            asked.append(request.path)
            if len(asked) == 3:
                all_asked.set()
            inner(conn, request, server)

        return handler

    routes = {"/%s" % n: counted(gated(all_asked, json_results("https://%s.example/" % n))) for n in ("aa", "bb", "cc")}
    with FaultServer(routes) as server:
        with client_for(server, ["aa", "bb", "cc"], strategy="merge") as client:
            result = client.search("q")
    assert sorted(i["url"] for i in result["items"]) == ["https://%s.example/" % n for n in ("aa", "bb", "cc")]


# -- retries -------------------------------------------------------------------------------


def test_retryable_errors_are_retried(json_backends):
    json_backends("aa")
    clock = FakeClock()
    with FaultServer(
        {"/aa": sequence(respond(503, b""), respond(502, b""), json_results("https://a.example/"))}
    ) as server:
        with client_for(server, ["aa"], retries=2, clock=clock) as client:
            result = client.search("q")
    assert result["provider_meta"]["attempts"] == 3
    assert len(server.requests) == 3
    assert (
        len(clock.sleeps) == 2 and 0.25 <= clock.sleeps[0] <= 0.5 and 0.5 <= clock.sleeps[1] <= 1.0
    )  # backoff with jitter


def test_retries_are_bounded(json_backends):
    json_backends("aa")
    clock = FakeClock()
    with FaultServer({"/aa": respond(503, b"")}) as server:
        with client_for(server, ["aa"], retries=1, clock=clock) as client:
            with pytest.raises(ws.BadGateway):
                client.search("q")
        assert len(server.requests) == 2
    assert len(clock.sleeps) == 1


@pytest.mark.parametrize("handler_status, body", [(401, b""), (200, b"not json")])
def test_non_retryable_errors_are_not_retried(json_backends, handler_status, body):
    json_backends("aa")
    with FaultServer({"/aa": respond(handler_status, body)}) as server:
        with client_for(server, ["aa"], retries=2) as client:
            with pytest.raises(WebSearchError):
                client.search("q")
        assert len(server.requests) == 1


def test_retry_after_is_honoured_when_it_fits(json_backends):
    json_backends("aa")
    clock = FakeClock()
    with FaultServer(
        {"/aa": sequence(respond(429, b"", {"Retry-After": "1"}), json_results("https://a.example/"))}
    ) as server:
        with client_for(server, ["aa"], retries=1, clock=clock) as client:
            assert client.search("q")["provider_meta"]["attempts"] == 2
    assert clock.sleeps == [1.0]  # the backoff (at most 0.5 s) is stretched to the Retry-After


def test_retry_after_beyond_the_budget_fails_now_with_the_real_error(json_backends):
    """No wait on the client's clock (``clock.sleeps``), and none in real time either: a call that
    waited for the Retry-After or for its (real) deadline would take the whole budget, so one
    that fails now takes well under half of it, however loaded the machine."""
    json_backends("aa")
    clock = FakeClock()
    budget_s = 20.0
    with FaultServer({"/aa": respond(429, b"", {"Retry-After": "30"})}) as server:
        with client_for(server, ["aa"], retries=2, clock=clock) as client:
            started = time.monotonic()
            with pytest.raises(ws.WebBlocked) as info:
                client.search("q", budget_ms=int(budget_s * 1000))
            assert time.monotonic() - started < budget_s / 2
    assert info.value.detail_code == "http_429"
    assert len(server.requests) == 1
    assert clock.sleeps == []


@pytest.mark.parametrize(
    "request_s, real_request_s",
    [(0.0, 0.0), (0.6, 0.0), (20.0, 0.0), (0.0, MIN_SEND_S + 0.1)],
    ids=["instant", "under-a-second", "long", "slow-in-real-time"],
)
def test_retry_after_that_leaves_no_time_to_send_the_retry_fails_now(
    json_backends, monkeypatch, request_s, real_request_s
):
    """A Retry-After shorter than what is left of the budget but leaving less than a request
    needs after it (``send_need_s``: 1 s of a 60 s budget) is not waited out: the retry would be
    refused after the wait (the whole budget spent for the same 429). Before, the call waited
    (``clock.sleeps``), then refused the retry it had waited for.

    The call's deadline is on the fake clock (:func:`clocks.deadlines_on`) and the first request
    takes ``request_s`` of it; the Retry-After is what is then left less half the need: it fits
    what is left, it does not leave the need. Real time plays no part: the old check compared the
    Retry-After with the real time left, so it caught the bug only when the first request took
    under ``MIN_SEND_S`` of real time (``slow-in-real-time`` holds the 429 longer than that)."""
    json_backends("aa")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    budget_s = 60.0
    need_s = min(MIN_SEND_S, MIN_SEND_SHARE * budget_s)
    retry_after_s = budget_s - request_s - need_s / 2
    taking = respond(429, b"", {"Retry-After": repr(retry_after_s)})

    def answer(conn, request, server):
        server.wait(real_request_s)
        clock.advance(request_s)
        taking(conn, request, server)

    with FaultServer({"/aa": answer}) as server:
        # the request's own timeout is the budget's: a long first request is no Timeout of its own
        with client_for(server, ["aa"], retries=1, clock=clock, timeout_ms=int(budget_s * 1000)) as client:
            with pytest.raises(ws.WebBlocked) as info:
                client.search("q", budget_ms=int(budget_s * 1000))
    assert info.value.detail_code == "http_429" and info.value.retry_after == retry_after_s
    assert len(server.requests) == 1
    assert clock.sleeps == []


def test_a_429_retried_after_its_backoff_cools_the_backend_down_for_that_wait_only(json_backends):
    """A 429 without Retry-After is recorded as a cool-down at once, before the wait to retry: for
    that wait (the backoff), not for the 60 s its kind gets when nothing is retried. The retry went
    out after it; when the retry fails otherwise (a 502), the next call is sent too."""
    json_backends("aa")
    clock = FakeClock()
    with FaultServer(
        {"/aa": sequence(respond(429, b""), respond(502, b""), json_results("https://a.example/"))}
    ) as server:
        with client_for(server, ["aa"], retries=1, clock=clock) as client:
            with pytest.raises(ws.BadGateway):
                client.search("one")
            assert len(clock.sleeps) == 1  # the backoff
            assert client.search("two")["items"][0]["url"] == "https://a.example/"
        assert len(server.requests) == 3


def test_a_retry_that_times_out_on_its_own_ends_with_its_timeout(json_backends, monkeypatch):
    """A retry's own failure is the call's error: a 502 retried into a request that runs past
    its own timeout (3 s, the 20 s budget far from spent) is a ``Timeout``. Only a retry the
    call's deadline cuts short ends with the error it retried (the 502).

    The deadlines are on the fake clock (:func:`clocks.deadlines_on`) and the retry times out on it
    (:func:`faults.past_the_deadline`). It once timed out in real time, with 300 ms for every
    request: on a loaded machine the first request's 502, or the server's read of the retry, came
    later than that (the first attempt a ``Timeout`` too, its retry then answered the 502; or one
    request counted)."""
    json_backends("aa")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    timeout_s = 3.0
    with FaultServer({"/aa": sequence(respond(502, b""), past_the_deadline(clock, timeout_s))}) as server:
        with client_for(server, ["aa"], retries=1, clock=clock, timeout_ms=int(timeout_s * 1000)) as client:
            with pytest.raises(ws.Timeout):
                client.search("q", budget_ms=20_000)
        assert len(server.requests) == 2
    assert len(clock.sleeps) == 1  # the backoff: the 502 was retried


def test_a_retry_whose_rate_limit_slot_comes_too_late_fails_with_the_error_it_retried(json_backends, monkeypatch):
    """A retry of a 502 whose slot (one request every 3 s) leaves too little of a 2.5 s budget is
    not waited for: the call fails at once with the 502, not with a ``Timeout`` about the slot.
    The deadline is on the fake clock: the backoff (jittered) and the slot are exact."""
    json_backends("aa")
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    with FaultServer({"/aa": respond(502, b"")}) as server:
        with client_for(server, ["aa"], retries=1, clock=clock, min_interval_s={"aa": 3.0}) as client:
            with pytest.raises(ws.BadGateway):
                client.search("q", budget_ms=2500)
        assert len(server.requests) == 1
    assert len(clock.sleeps) == 1  # the backoff; not the slot


@pytest.mark.parametrize("retry_after", ["-5", "-inf"])
def test_a_negative_retry_after_is_no_duration(json_backends, retry_after):
    """It was read as 0 s: no cool-down at all, so every later call sent its retries into the 429
    again; ignored, the 429 cools the backend down for its kind's 60 s."""
    json_backends("aa")
    clock = FakeClock()
    with FaultServer({"/aa": respond(429, b"", {"Retry-After": retry_after})}) as server:
        with client_for(server, ["aa"], retries=0, clock=clock) as client:
            with pytest.raises(ws.WebBlocked) as first:
                client.search("q")
            with pytest.raises(ws.WebBlocked, match="cooling down") as again:
                client.search("q")
        assert len(server.requests) == 1
    assert first.value.retry_after is None and again.value.retry_after == 60.0


# -- cool-downs ----------------------------------------------------------------------------


def test_blocked_backend_cools_down_and_fails_fast(json_backends):
    json_backends("aa", "bb")
    with FaultServer({"/aa": respond(403, b""), "/bb": json_results("https://b.example/")}) as server:
        settings = ws.Settings(endpoints={"aa": server.url("/aa"), "bb": server.url("/bb")})
        clock = FakeClock()
        with ws.SearchClient("aa", settings=settings, cooldowns={"http_403": 0.5}, clock=clock) as client:
            with pytest.raises(ws.WebBlocked):
                client.search("one")
            waited = list(clock.sleeps)
            with pytest.raises(ws.WebBlocked) as info:
                client.search("two")
            assert clock.sleeps == waited  # failed fast: no wait for the cool-down to end
            assert "cooling down" in info.value.message and "until" in info.value.message
            assert len(server.requests) == 1
            # a fallback chain skips the suspended backend without contacting it
            result = client.search("three", backend=["aa", "bb"])
            assert result["provider_meta"]["provider_name"] == "bb"
            assert [r.route for r in server.requests] == ["/aa", "/bb"]
            clock.advance(0.6)
            with pytest.raises(ws.WebBlocked):
                client.search("four")
            assert [r.route for r in server.requests] == ["/aa", "/bb", "/aa"]


# -- cache ---------------------------------------------------------------------------------


def test_cache_hit_is_a_copy_and_says_so(json_backends):
    json_backends("aa")
    with FaultServer({"/aa": json_results("https://a.example/")}) as server:
        with client_for(server, ["aa"]) as client:
            first = client.search("q")
            first["items"][0]["title"] = "edited by the caller"
            second = client.search("q")
            third = client.search("q", max_results=3)
        assert len(server.requests) == 2  # max_results is part of the key
    assert first["provider_meta"]["cached"] is False
    assert second["provider_meta"]["cached"] is True
    assert third["provider_meta"]["cached"] is False
    assert second["items"][0]["title"] == "title https://a.example/"


def test_cache_expires_and_can_be_disabled(json_backends):
    """The cache's time is the client's clock (a fake one: a loaded machine cannot make the second
    search come after the entry expired, as it could with a real 0.2 s TTL)."""
    json_backends("aa")
    clock = FakeClock()
    with FaultServer({"/aa": json_results("https://a.example/")}) as server:
        with client_for(server, ["aa"], cache_ttl_s=30, clock=clock) as client:
            client.search("q")
            clock.advance(29)
            client.search("q")
            clock.advance(2)  # 31 s after the answer was cached
            client.search("q")
            client.search("q", cache_ttl_s=0)
        assert len(server.requests) == 3
        with client_for(server, ["aa"], cache_ttl_s=0) as client:
            client.search("q")
            client.search("q")
        assert len(server.requests) == 5


def test_errors_are_never_cached(json_backends):
    json_backends("aa")
    with FaultServer(
        {"/aa": sequence(respond(200, b"<html>captcha</html>"), json_results("https://a.example/"))}
    ) as server:
        with client_for(server, ["aa"]) as client:
            with pytest.raises(ws.WebParseError):
                client.search("q")
            assert client.search("q")["items"]


CACHE_SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
import websearch_sync as ws
from json_backend import JsonTestBackend
from websearch_sync.engine.registry import register
register(JsonTestBackend)
settings = ws.Settings(endpoints={{"testjson": sys.argv[1]}})
with ws.SearchClient("testjson", settings=settings, cache_path=sys.argv[2]) as client:
    print(json.dumps(client.search("persistent query")))
"""


def test_persistent_cache_is_shared_across_processes(tmp_path, testjson):
    """This process searches and writes the cache file; another process, started after the
    server is gone, can only answer from that file."""
    script = tmp_path / "run.py"
    script.write_text(CACHE_SCRIPT.format(tests=str(Path(__file__).resolve().parents[1])))
    db = str(tmp_path / "cache.sqlite3")
    with FaultServer({"/s": json_results("https://a.example/")}) as server:
        url = server.url("/s")
        settings = ws.Settings(endpoints={"testjson": url})
        with ws.SearchClient("testjson", settings=settings, cache_path=db) as client:
            first = json.loads(json.dumps(client.search("persistent query")))
        assert len(server.requests) == 1
    second = subprocess.run([sys.executable, str(script), url, db], capture_output=True, text=True, timeout=60)
    assert second.returncode == 0, second.stderr
    assert first["provider_meta"]["cached"] is False
    assert json.loads(second.stdout)["provider_meta"]["cached"] is True
    assert json.loads(second.stdout)["items"] == first["items"]


# -- rate limits, deadlines, threads --------------------------------------------------------


def test_rate_limit_spacing_under_eight_threads(json_backends):
    json_backends("aa")
    clock = FakeClock()
    with FaultServer({"/aa": json_results("https://a.example/")}) as server:
        with client_for(
            server, ["aa"], min_interval_s={"aa": 0.1}, cache_ttl_s=0, timeout_ms=5000, clock=clock
        ) as client:
            threads = [threading.Thread(target=client.search, args=("q%d" % i,)) for i in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(10)
        assert len(server.requests) == 8
    # each request left when its slot came (the end of its wait): eight slots, 0.1 s apart
    departures = sorted(wakes for _asleep, wakes in clock.wakeups)
    assert len(departures) == 8
    gaps = [b - a for a, b in zip(departures, departures[1:])]
    assert min(gaps) >= 0.1 - 1e-9, gaps


def test_rate_limit_slot_beyond_the_budget_fails_now(json_backends):
    """No wait for the slot on the client's clock; and in real time well under the budget (a
    call that waited for its deadline would take all of it)."""
    json_backends("aa")
    clock = FakeClock()
    budget_s = 10.0
    with FaultServer({"/aa": json_results("https://a.example/")}) as server:
        with client_for(server, ["aa"], min_interval_s=60.0, cache_ttl_s=0, clock=clock) as client:
            client.search("one")
            started = time.monotonic()
            with pytest.raises(ws.Timeout) as info:
                client.search("two", budget_ms=int(budget_s * 1000))
            assert time.monotonic() - started < budget_s / 2
        assert len(server.requests) == 1
    assert info.value.detail_code == "budget_exhausted"
    assert clock.sleeps == []


def test_budget_bounds_a_chain_of_slow_backends(json_backends):
    json_backends("aa", "bb")
    with FaultServer({"/aa": never_answer(), "/bb": never_answer()}) as server:
        with client_for(server, ["aa", "bb"], timeout_ms=10000) as client:
            with machine_pace() as pace:
                started = time.monotonic()
                with pytest.raises(ws.Timeout):
                    client.search("q", budget_ms=400)
                elapsed = time.monotonic() - started
            assert elapsed < 0.4 + deadline_margin_s(pace.slowdown, BUDGET_MARGIN_S)


def test_sixteen_threads_share_one_client(json_backends):
    json_backends("aa")
    errors = []
    with FaultServer({"/aa": json_results("https://a.example/", "https://b.example/")}) as server:
        with client_for(server, ["aa"], cache_ttl_s=0) as client:

            def work(n):
                for i in range(10):
                    try:
                        result = client.search("thread %d query %d" % (n, i))
                        assert [x["rank"] for x in result["items"]] == [1, 2]
                    except Exception as exc:  # collected and asserted below
                        errors.append(exc)

            threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        assert len(server.requests) == 160
    assert errors == []


# -- argument checks -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"strategy": "best"},
        {"retries": -1},
        {"retries": 1.5},
        {"cache_ttl_s": -1},
        {"budget_ms": 0},
        {"min_interval_s": -1},
    ],
)
def test_bad_client_arguments(kwargs):
    with pytest.raises(ws.InvalidInput):
        ws.SearchClient("stub", **kwargs)


def test_merge_respects_the_budget_with_a_backend_that_never_answers(json_backends):
    """The budget is 0.4 s on an idle machine, as many times more as it runs slower now: the
    answering backend's request must fit in it (a fixed 0.4 s was the silent one's bound and
    the other's too)."""
    json_backends("aa", "bb")
    budget_s = paced_budget_s(0.4)
    with FaultServer({"/aa": never_answer(), "/bb": json_results("https://b.example/")}) as server:
        with client_for(server, ["aa", "bb"], strategy="merge", timeout_ms=10000) as client:
            with machine_pace() as pace:
                started = time.monotonic()
                result = client.search("q", budget_ms=int(budget_s * 1000))
                elapsed = time.monotonic() - started
            assert elapsed < budget_s + deadline_margin_s(pace.slowdown, BUDGET_MARGIN_S)
    assert [i["url"] for i in result["items"]] == ["https://b.example/"]
    assert result["errors"][0]["type"] == "Timeout" and result["errors"][0]["provider"] == "aa"


def test_auto_uses_configured_api_backends_in_order_and_reports_who_answered():
    import responses

    settings = ws.Settings(
        providers={"searxng": {"base_url": "https://searx.example"}, "brave": {"api_key": "brave-key-123"}}
    )
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, "https://api.search.brave.com/res/v1/web/search", status=503)
        mock.add(
            responses.GET,
            "https://searx.example/search",
            json={"query": "q", "results": [{"title": "S", "url": "https://s.example/", "content": "s"}]},
        )
        with ws.SearchClient("auto", settings=settings, retries=0) as client:
            result = client.search("q", max_pages=1)  # SearXNG's one result of 5: no page 2 mocked
        assert [c.request.url.split("?")[0] for c in mock.calls] == [
            "https://api.search.brave.com/res/v1/web/search",
            "https://searx.example/search",
        ]
    assert result["provider_meta"]["provider_name"] == "searxng"
    assert result["errors"][0]["provider"] == "brave" and result["errors"][0]["type"] == "BadGateway"


def test_include_content_fills_items_and_reports_failed_pages(json_backends):
    json_backends("aa")
    page = (
        b"<html><head><title>P</title></head><body><article><p>"
        + b"Content of the result page, long enough for the extractor to keep it. " * 4
        + b"</p></article></body></html>"
    )
    with FaultServer({"/page": respond(200, page), "/gone": respond(404, b"")}) as server:
        routes = {"/aa": json_results(server.url("/page"), server.url("/gone"))}
        server.routes.update(routes)
        settings = ws.Settings(endpoints={"aa": server.url("/aa")}, allow_private=True)
        with ws.SearchClient("aa", settings=settings) as client:
            result = client.search("q", include_content=True, max_content_chars=50)
            again = client.search("q", include_content=True, max_content_chars=50)
    first, second = result["items"]
    assert first["content"].startswith("Content of the result page") and len(first["content"]) <= 50
    assert second.get("content", "") == ""
    assert result["errors"] == [dict(result["errors"][0], type="WebProviderError", detail_code="http_404")]
    assert again["provider_meta"]["cached"] is False  # a partial answer is not cached


def test_client_fetch_is_cached_by_normalised_url(json_backends):
    page = (
        b"<html><head><title>C</title></head><body><article><h2>Section</h2><p>"
        + b"Cached page text for the fetch cache test. " * 4
        + b"</p></article></body></html>"
    )
    with FaultServer({"/c": respond(200, page)}) as server:
        with ws.SearchClient("stub", settings=ws.Settings(allow_private=True)) as client:
            first = client.fetch(server.url("/c"))
            second = client.fetch(server.url("/c") + "#section")
            third = client.fetch(server.url("/c"), extract_mode="text")
            client.fetch(server.url("/c"), cache_ttl_s=0)
        assert len(server.requests) == 3
    assert second == {**first, "url": server.url("/c") + "#section"}  # the fragment is not part of the key
    assert third["text"] != first["text"]  # markdown vs text: a separate request (3 in all)


# -- one request per question (issue 33.18) ---------------------------------------------------------


def test_identical_module_level_searches_in_flight_send_one_request_without_a_state_url(json_backends, monkeypatch):
    """``ws.search`` keeps no cache without a state URL; 16 threads asking 3 questions at once
    still send 3 requests: the thread that asks hands its answer to those waiting for it.
    The answers are let go once the other thirteen wait for them (counted as they begin to
    wait), not after a fixed 0.2 s: on a loaded machine a thread the barrier let go could come
    to its question after its asker was done, and ask it again (a fourth request)."""
    json_backends("aa")
    waiting = []  # a thread each, as it begins to wait for the answer another thread asks for
    wait_for = flight.wait_for

    def counted_wait(wait, timeout):
        waiting.append(threading.current_thread())
        return wait_for(wait, timeout)

    monkeypatch.setattr(flight, "wait_for", counted_wait)
    release = threading.Event()
    with FaultServer({"/aa": gated(release, json_results("https://a.example/"))}) as server:
        settings = ws.Settings(endpoints={"aa": server.url("/aa")}, timeout_ms=20000)
        start = threading.Barrier(16)
        answers = []

        def ask(n):
            start.wait()
            answers.append(ws.search("question %d" % (n % 3), backend="aa", settings=settings))

        threads = [threading.Thread(target=ask, args=(n,)) for n in range(16)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while (len(server.requests) < 3 or len(waiting) < 13) and time.monotonic() < deadline:
            time.sleep(0.01)
        release.set()
        for thread in threads:
            thread.join(30)
        assert len(server.requests) == 3
    assert len(answers) == 16 and all(a["items"][0]["url"] == "https://a.example/" for a in answers)
    # handed over, not read from a cache (there is none): `cached` says so
    assert [a["provider_meta"]["cached"] for a in answers] == [False] * 16


@pytest.mark.parametrize(
    "first, second",
    [
        ({"query": "blue  tack"}, {"query": "blue\ttack"}),
        ({"query": "blue tack"}, {"query": "blue\u00a0tack"}),
        ({"query": "caf\u00e9"}, {"query": "cafe\u0301"}),  # NFC and NFD
        ({"query": "q", "locale": "en-us"}, {"query": "q", "locale": "en-US"}),
    ],
    ids=["double space, tab", "no-break space", "NFC, NFD", "locale case"],
)
def test_one_search_spelt_two_ways_is_one_cache_entry(first, second):
    """Issue 33.18: each pair is the same search to every engine."""
    with ws.SearchClient("stub", settings=ws.Settings(), state_url="") as client:
        client.search(**first)
        assert client.search(**second)["provider_meta"]["cached"] is True

"""Shared state across processes: real worker processes, a real redis-server, a local upstream.

The workers call the module-level ``websearch_sync.search`` with nothing but the
environment (``WEB_SEARCH_STATE_URL`` set), as RQ workers do. The upstream answers
with recorded SearXNG responses; the answers are compared with the recorded goldens.
"""

import time

import pytest
from redis_server import redis_server  # noqa: F401  (fixture)
from shared_state_worker import Upstream, run_workers, worker_env

from websearch_sync import SearchClient, Settings, WebBlocked
from websearch_sync.contract.cases import load_golden, outcome_of

MIN_INTERVAL_S = 0.1
WORKERS = 4
QUERIES_EACH = 10
#: How much sooner than the rate allows 11 consecutive requests may arrive on an idle machine
#: (process scheduling and connection set-up between the slot and the arrival).
SCHEDULING_SLACK_S = 0.15


def _wake_up_lateness(samples=20, nap_s=0.02):
    """How late this machine wakes a sleeping process right now: the worst overshoot of a short sleep.

    On a loaded machine a worker wakes for its slot late by about this much, so the first request of a
    window can arrive that much after its slot while the last arrives on time.
    """
    worst = 0.0
    for _ in range(samples):
        started = time.perf_counter()
        time.sleep(nap_s)
        worst = max(worst, time.perf_counter() - started - nap_s)
    return worst


def _jobs():
    return [
        {"queries": ["q%d-%d" % (w, i) for i in range(QUERIES_EACH)], "options": {"max_results": 10, "retries": 0}}
        for w in range(WORKERS)
    ]


def _tightest_window(arrivals, span=11):
    times = sorted(arrivals)
    return min(times[i + span - 1] - times[i] for i in range(len(times) - span + 1))


def test_four_workers_share_rate_limit_cache_and_cooldowns(redis_server):  # noqa: F811
    with Upstream("browse-API__1") as upstream:
        env = worker_env(upstream, redis_server.url, MIN_INTERVAL_S)
        golden = load_golden(upstream.answer_with("browse-API__1"))

        # four workers, ten distinct queries each, all at once: one slot every 0.1 s for all of them
        lateness = _wake_up_lateness()  # before and after the run: the load may come and go
        lines = [line for out in run_workers(_jobs(), env) for line in out]
        assert len(lines) == WORKERS * QUERIES_EACH
        assert all(line["outcome"] == golden and line["cached"] is False for line in lines)
        assert len(upstream.arrivals) == WORKERS * QUERIES_EACH
        window = _tightest_window(upstream.arrivals)
        slack = SCHEDULING_SLACK_S + 2 * max(lateness, _wake_up_lateness())
        assert window >= 10 * MIN_INTERVAL_S - slack, "11 consecutive requests within %.3f s (slack %.3f s)" % (
            window,
            slack,
        )

        # this process meets a 429 with Retry-After (one request) ...
        blocked = load_golden(upstream.answer_with("http_429_retry_after"))
        settings = Settings(providers={"searxng": {"base_url": upstream.base_url}}, state_url=redis_server.url)
        with SearchClient("searxng", settings=settings, retries=0) as client, pytest.raises(WebBlocked) as info:
            client.search("fresh one")
        assert outcome_of(info.value) == blocked
        assert len(upstream.arrivals) == WORKERS * QUERIES_EACH + 1
        upstream.answer_with("browse-API__1")

        # ... and a fifth worker asks the same 40 questions, then a new one: 40 answers from the
        # shared cache, and the new question fails fast with the cool-down, all without a request
        queries = [q for job in _jobs() for q in job["queries"]] + ["fresh two"]
        fifth = run_workers([{"queries": queries, "options": _jobs()[0]["options"]}], env)[0]
        assert [line["cached"] for line in fifth] == [True] * (WORKERS * QUERIES_EACH) + [None]
        assert all(line["outcome"] == golden for line in fifth[:-1])
        assert fifth[-1]["outcome"] == blocked  # the same WebBlocked(http_429), from the shared cool-down
        assert len(upstream.arrivals) == WORKERS * QUERIES_EACH + 1


def test_without_a_state_url_each_worker_keeps_its_own_pace():
    """The control: the same four workers without shared state send faster than the rate (the test above can fail)."""
    with Upstream("browse-API__1") as upstream:
        run_workers(_jobs(), worker_env(upstream, "", MIN_INTERVAL_S))
    assert _tightest_window(upstream.arrivals) < 10 * MIN_INTERVAL_S - SCHEDULING_SLACK_S

"""Shared state across processes: real worker processes, a real redis-server, a local upstream.

The workers call the module-level ``websearch_sync.search`` with nothing but the
environment (``WEB_SEARCH_STATE_URL`` set), as RQ workers do. The upstream answers
with recorded SearXNG responses; the answers are compared with the recorded goldens.
"""

import threading
import time

import pytest
from clocks import deadline_margin_s, machine_pace
from redis_server import REDIS_UP_TIMEOUT_S, redis_server  # noqa: F401  (fixture)
from shared_state_worker import WORKER_WAIT_S, FleetParent, Upstream, Workers, run_workers, worker_env

from websearch_sync import SearchClient, Settings, WebBlocked
from websearch_sync.contract.cases import load_golden, outcome_of

MIN_INTERVAL_S = 0.1
WORKERS = 4
#: Each worker's distinct queries in the control (ten: a loaded machine may start the workers apart).
QUERIES_EACH = 10
#: Each worker's distinct queries where they share one pace: five (20 requests, 1.9 s at the pace)
#: hold more than the 11 consecutive arrivals the pace is checked on, as the 40 of ten each did.
SHARED_QUERIES_EACH = 5
#: How much sooner than the rate allows 11 consecutive requests may arrive on an idle machine
#: (the work between a worker's slot and the request's arrival: waking, building and sending it);
#: scaled by how much slower the machine ran (``clocks.machine_pace``).
SCHEDULING_SLACK_S = 0.15


class WakeUpLateness:
    """How late this machine wakes a sleeping thread while the workers run: the worst overshoot
    of a short sleep, sampled all along (``with WakeUpLateness() as lateness: ...; lateness.worst``).

    A worker that wakes for its slot that late sends its request that much after the slot while
    the next one may arrive on time, so two consecutive arrivals can be that much closer. Measured
    during the run, not before or after it: the load that delays the workers is the one sampled.
    """

    def __init__(self, nap_s: float = 0.01) -> None:
        self.nap_s = nap_s
        self.worst = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            started = time.perf_counter()
            time.sleep(self.nap_s)
            self.worst = max(self.worst, time.perf_counter() - started - self.nap_s)

    def __enter__(self) -> "WakeUpLateness":
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture(scope="module")
def fleet_parent():
    """One parent forking every fleet of the module (shared_state_worker.FleetParent)."""
    with FleetParent() as parent:
        yield parent


def _jobs(each=QUERIES_EACH):
    return [
        {"queries": ["q%d-%d" % (w, i) for i in range(each)], "options": {"max_results": 10, "retries": 0}}
        for w in range(WORKERS)
    ]


def _tightest_window(arrivals, span=11):
    times = sorted(arrivals)
    return min(times[i + span - 1] - times[i] for i in range(len(times) - span + 1))


def _span(arrivals):
    return max(arrivals) - min(arrivals)


def test_four_workers_share_rate_limit_cache_and_cooldowns(redis_server, fleet_parent):  # noqa: F811
    # four workers and this process on a loaded machine: a command may outlast the production
    # bound (0.25 s), which would count as an outage (each worker's own pace); not this test's subject
    state_url = redis_server.url + "?socket_timeout=%g" % REDIS_UP_TIMEOUT_S
    # a fifth worker (started with them, idle until the end) asks the same 20 questions, then a new one
    jobs = _jobs(SHARED_QUERIES_EACH)
    fifth = {"queries": [q for job in jobs for q in job["queries"]] + ["fresh two"], "options": jobs[0]["options"]}
    with (
        Upstream("browse-API__1") as upstream,
        Workers(jobs + [fifth], worker_env(upstream, state_url, MIN_INTERVAL_S), fleet_parent) as fleet,
    ):
        golden = load_golden(upstream.answer_with("browse-API__1"))

        # four workers, five distinct queries each, all at once: one slot every 0.1 s for all of them
        with machine_pace() as pace, WakeUpLateness() as lateness:
            lines = [line for out in fleet.go(range(WORKERS)) for line in out]  # sampled from "go" on
        assert len(lines) == WORKERS * SHARED_QUERIES_EACH
        assert all(line["outcome"] == golden and line["cached"] is False for line in lines)
        assert len(upstream.arrivals) == WORKERS * SHARED_QUERIES_EACH
        # a request arrives at its slot or later, never sooner: 11 consecutive arrivals span 10
        # intervals but for the lateness of the first; all 20 span 19 intervals but for that of the first
        slack = deadline_margin_s(pace.slowdown, SCHEDULING_SLACK_S) + 2 * lateness.worst
        window = _tightest_window(upstream.arrivals)
        assert window >= 10 * MIN_INTERVAL_S - slack, (
            "11 consecutive requests within %.3f s (slack %.3f s: slowdown %.1f, lateness %.3f s)"
            % (
                window,
                slack,
                pace.slowdown,
                lateness.worst,
            )
        )
        span = _span(upstream.arrivals)
        assert span >= (len(upstream.arrivals) - 1) * MIN_INTERVAL_S - slack, (
            "%d requests within %.3f s (slack %.3f s)"
            % (
                len(upstream.arrivals),
                span,
                slack,
            )
        )

        # this process meets a 429 with Retry-After (one request) ...
        blocked = load_golden(upstream.answer_with("http_429_retry_after"))
        settings = Settings(providers={"searxng": {"base_url": upstream.base_url}}, state_url=state_url)
        with SearchClient("searxng", settings=settings, retries=0) as client, pytest.raises(WebBlocked) as info:
            client.search("fresh one")
        assert outcome_of(info.value) == blocked
        assert len(upstream.arrivals) == WORKERS * SHARED_QUERIES_EACH + 1
        upstream.answer_with("browse-API__1")

        # ... and the fifth worker asks the same 20 questions, then a new one: 20 answers from the
        # shared cache, and the new question fails fast with the cool-down, all without a request
        (fifth,) = fleet.go([WORKERS])
        assert [line["cached"] for line in fifth] == [True] * (WORKERS * SHARED_QUERIES_EACH) + [None]
        assert all(line["outcome"] == golden for line in fifth[:-1])
        assert fifth[-1]["outcome"] == blocked  # the same WebBlocked(http_429), from the shared cool-down
        assert len(upstream.arrivals) == WORKERS * SHARED_QUERIES_EACH + 1


def test_without_a_state_url_each_worker_keeps_its_own_pace(fleet_parent):
    """The control: the same four workers without shared state send faster than the rate (the test above can fail)."""
    with Upstream("browse-API__1") as upstream:
        run_workers(_jobs(), worker_env(upstream, "", MIN_INTERVAL_S), fleet_parent)
    # each worker keeps its own pace (one that left late holds its next one back: on a loaded machine a
    # worker's ten requests take well over 0.9 s), but nothing keeps two workers apart
    assert _tightest_window(upstream.arrivals) < 10 * MIN_INTERVAL_S
    times = sorted(upstream.arrivals)
    assert min(b - a for a, b in zip(times, times[1:])) < MIN_INTERVAL_S / 2


def test_a_worker_that_has_ended_is_told_nothing_and_one_that_died_fails_the_fleet_with_its_status():
    """The harness: a worker that did its job and ended takes no more lines (no broken pipe); one
    that died before it was told to go on fails :meth:`Workers.go` with its exit status, not with a
    broken pipe; and the shared parent, closed by the failed fleet, closes again at its end."""
    did_its_job = {"queries": []}
    dies = {"queries": ["never asked"], "options": {"no_such_option": 1}}  # a TypeError: exit status 1
    env = {"WEB_SEARCH_BACKEND": "searxng", "SEARXNG_BASE_URL": "http://127.0.0.1:9/"}  # never asked
    with FleetParent() as parent, Workers([did_its_job, dies], env, parent) as fleet:
        fleet.start(0)
        fleet.start(1)
        deadline = time.monotonic() + WORKER_WAIT_S
        while not (fleet.printed(0) and fleet.printed(1)):  # neither prints a line: this is their stdout's end
            assert time.monotonic() < deadline, "the workers did not end"
            time.sleep(0.01)
        with pytest.raises(RuntimeError, match=r"^worker 1 ended \(exit status 1\) before it was told to go on"):
            fleet.go()

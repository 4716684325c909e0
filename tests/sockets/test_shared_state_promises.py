"""Issue 25's promises across processes: real worker processes (the module-level
``websearch_sync.search`` configured by the environment only), a real redis-server, a
local SearXNG answering with recorded responses.

1. a 429 is shared when it happens: nobody else asks inside its Retry-After;
2. a pace survives a Redis outage (process-wide local state of the module-level calls);
3. the pace is set without code (``WEB_SEARCH_MIN_INTERVAL_S_SEARXNG``);
5. identical queries in flight at once send one request (and identical fetches read a page once).
"""

import math
import threading
import time

import pytest
from clocks import paced_budget_s
from faults import refused_port, respond
from redis_server import REDIS_UP_TIMEOUT_S, RedisServer, redis_db, redis_server, up  # noqa: F401  (fixtures)
from servers import FaultServer
from shared_state_worker import WORKER_WAIT_S, FleetParent, Upstream, Workers, run_workers, worker_env

from websearch_sync.config import DEFAULT_TIMEOUT_MS
from websearch_sync.contract.cases import load_golden

MIN_INTERVAL_S = 0.05
#: Less than this between two of a rate limiter's decisions is its arithmetic's rounding (ratelimit.py).
LIMITER_ROUNDING_S = 1e-6


@pytest.fixture(scope="module")
def fleet_parent():
    """One parent forking every fleet of the module (shared_state_worker.FleetParent)."""
    with FleetParent() as parent:
        yield parent


def test_a_429_is_shared_before_the_worker_that_met_it_waits(redis_db, redis_server, fleet_parent):  # noqa: F811
    """One worker meets a 429 and waits out its Retry-After to try again; while it waits, the
    shared cool-down is already in Redis, and three workers (started before, let go then) send
    nothing before the window ends: they fail fast with the cool-down. The window: a second on an
    idle machine (whole seconds: what Retry-After carries), more on a slower one; the three ready
    workers need milliseconds of it. The holder's budget is a call's default one plus that window:
    a Retry-After longer than what the call has left is not waited out (the client fails at once),
    and the window grows with the load where the default budget does not."""
    retry_after_s = math.ceil(paced_budget_s(1.0))
    timeout_ms = DEFAULT_TIMEOUT_MS + 1000 * retry_after_s
    holder_job = {"queries": ["holder"], "options": {"retries": 1, "max_results": 10, "timeout_ms": timeout_ms}}
    jobs = [{"queries": ["w%d-%d" % (w, i) for i in range(5)], "options": {"max_results": 10}} for w in range(3)]
    holder = len(jobs)
    with Upstream("browse-API__1") as upstream:
        golden = load_golden(upstream.answer_with("browse-API__1"))
        upstream.answer_next_with("http_429_retry_after", retry_after="%d" % retry_after_s)
        env = worker_env(upstream, up(redis_server.url), MIN_INTERVAL_S)
        with Workers(jobs + [holder_job], env, fleet_parent) as fleet:
            fleet.start(holder)  # the others are ready, and wait
            deadline = time.monotonic() + WORKER_WAIT_S
            while not (upstream.log and redis_db.keys("websearch_sync:cooldown:searxng@127.0.0.1:*")):
                # the holder prints its answer once it has waited out the Retry-After and asked again
                assert not fleet.printed(holder) and time.monotonic() < deadline, (
                    "no shared cool-down while the worker waits"
                )
                time.sleep(0.01)
            met, shared_after_s = upstream.log[0][0], time.monotonic() - upstream.log[0][0]
            outs = fleet.go()  # the three others begin while the holder waits
    # recorded as the 429 came, not once its wait was over (then nobody else was ever held back)
    assert shared_after_s < retry_after_s, "the shared cool-down came %.3f s after the 429" % shared_after_s
    lines, result = [line for out in outs[:holder] for line in out], outs[holder]
    assert upstream.log[0][1:] == ("holder", 429)
    assert result[0]["outcome"] == golden  # the holder waited and got its answer
    inside = [(round(t - met, 3), q) for t, q, _ in upstream.log[1:] if t < met + retry_after_s]
    assert inside == [], "requests inside the Retry-After window: %r" % inside
    if all(line["detail_code"] != "http_429" for line in lines):  # a machine too slow to ask inside the window
        pytest.skip("the other workers only asked after the %.0f s window (machine too slow)" % retry_after_s)


def test_module_level_calls_keep_their_pace_and_cool_downs_through_a_redis_outage(fleet_parent):
    """Redis is down (nothing listens on its port): one worker's module-level calls keep the
    pace set by WEB_SEARCH_MIN_INTERVAL_S_SEARXNG, and a 429 one call met stops the next ones."""
    pace = 0.3
    dead_state_url = "redis://127.0.0.1:%d/0" % refused_port()
    paced, cooled = ["p%d" % i for i in range(4)], ["c1", "c2", "c3"]
    job = {"queries": paced + cooled, "options": {"retries": 0}, "departures": True, "pause_after": len(paced)}
    with Upstream("browse-API__1") as upstream:
        with Workers([job], worker_env(upstream, dead_state_url, pace), fleet_parent) as worker:
            (lines,) = worker.until_paused()
            assert len(upstream.arrivals) == len(paced)
            # measured from when the limiter let each request leave (``left_at``), not from its arrival:
            # a loaded machine may hold one in transit, and the next then arrives less than the pace after it
            left = [line["left_at"] for line in lines]
            assert all(len(times) == 1 for times in left), left
            gaps = [later[0] - earlier[0] for earlier, later in zip(left, left[1:])]
            assert min(gaps) >= pace - LIMITER_ROUNDING_S, "two requests left %.3f s apart" % min(gaps)

            upstream.answer_next_with("http_429_retry_after", retry_after="30")
            (lines,) = worker.go()  # the same process goes on
    assert [line["query"] for line in lines] == cooled
    assert [line["detail_code"] for line in lines] == ["http_429", "http_429", "http_429"]
    assert len(upstream.arrivals) == len(paced) + 1  # the first call met the 429; the next two obeyed its cool-down


def test_identical_queries_in_flight_send_one_request(redis_db, redis_server, fleet_parent):  # noqa: F811
    """Four workers ask the same five questions at the same moments (the upstream takes 0.2 s):
    one request per question reaches it (collapse ratio 1.0)."""
    queries = ["same %d" % i for i in range(5)]
    jobs = [{"queries": queries, "options": {"max_results": 10}} for _ in range(4)]
    with Upstream("browse-API__1", delay_s=0.2) as upstream:
        golden = load_golden(upstream.answer_with("browse-API__1"))
        lines = [
            line
            for out in run_workers(jobs, worker_env(upstream, up(redis_server.url), 0), fleet_parent)
            for line in out
        ]
    assert len(lines) == 4 * len(queries) and all(line["outcome"] == golden for line in lines)
    assert sorted(q for _, q, _ in upstream.log) == sorted(queries)


class HeldPages:
    """Pages on loopback, each request held until as many requests of its page as there are workers
    arrived, or :data:`HOLD_S` passed: without single flight every worker's request overlaps the
    first one's (and each reaches the page); with it, one request per page arrives."""

    HOLD_S = 0.4

    def __init__(self, workers: int, status: int = 200, hold_s: float = HOLD_S) -> None:
        self.workers = workers
        self.hold_s = hold_s
        self.status = status  #: each page's answer (404: gone)
        self.by_path: dict[str, int] = {}
        self.lock = threading.Lock()
        self.server = FaultServer({"/page/%d" % n: self._serve for n in range(2)})

    def _serve(self, conn, request, server) -> None:
        with self.lock:
            self.by_path[request.path] = self.by_path.get(request.path, 0) + 1
        ends = time.monotonic() + self.hold_s
        while self.by_path[request.path] < self.workers and time.monotonic() < ends:
            server.wait(0.01)
        respond(
            self.status, b"<title>%s</title><article><p>%s</p></article>" % (request.path.encode(), b"Prose. " * 60)
        )(conn, request, server)


def test_identical_fetches_in_flight_read_each_page_once(redis_db, redis_server, fleet_parent):  # noqa: F811
    """Four workers fetch the same two pages at the same moments (``ws.fetch``, the state in the
    environment): each page is read once, the others get its answer through the shared cache."""
    pages = HeldPages(workers=4)
    with Upstream("browse-API__1") as upstream, pages.server:
        urls = [pages.server.url("/page/%d" % n) for n in range(2)]
        jobs = [{"queries": urls, "fetch": True, "options": {"allow_private": True}} for _ in range(4)]
        outs = run_workers(jobs, worker_env(upstream, up(redis_server.url), 0), fleet_parent)
    assert [[line["detail_code"] for line in out] for out in outs] == [[None] * 2] * 4
    assert all("Prose." in line["outcome"] for out in outs for line in out)
    assert pages.by_path == {"/page/%d" % n: 1 for n in range(2)}


def test_without_shared_state_the_same_workers_ask_every_copy(fleet_parent):
    """The control: separate processes without a shared state cannot collapse (the test above can fail)."""
    queries = ["same %d" % i for i in range(5)]
    with Upstream("browse-API__1", delay_s=0.2) as upstream:
        run_workers([{"queries": queries} for _ in range(3)], worker_env(upstream, "", 0), fleet_parent)
    assert len(upstream.log) == 15


def test_four_workers_keep_the_fleets_pace_through_a_redis_outage(redis_server, fleet_parent):  # noqa: F811  (skips without one)
    """Issue 33.16: four workers share one pace through Redis; Redis dies; each worker now keeps
    a quarter of the pace alone (the fleet's size it learnt while Redis answered), so the fleet
    still sends at the fleet's rate, not four times it.

    The workers pause twice while Redis answers: after one query each (all four are in the fleet
    then) and after ``before`` (each has booked since, so each learnt a fleet of four; without the
    first pause a worker on a loaded machine may finish its queries before another's first
    booking, and rightly keep the pace of the smaller fleet it saw). The gaps are measured from
    when each worker's rate limiter let a request leave (``left_at``), not from its arrival: a
    loaded machine holds a request in transit (over a second was seen) and the next one then
    arrives less than the pace after it, which no client can prevent. The limiter's own decisions
    need no margin for the machine's load. Five queries each during the outage: sixteen gaps, each
    of which shows a worker keeping the whole fleet's pace alone (0.1 s instead of 0.4 s); the
    fleet a worker learnt does not fade while Redis is away, so more of them show nothing more.
    """
    interval, workers, before, during = 0.1, 4, 3, 5
    jobs = [
        {
            "queries": ["w%d-%d" % (w, i) for i in range(before + during)],
            "options": {"retries": 0, "max_results": 10},
            "pause_after": [1, before],
            "departures": True,
        }
        for w in range(workers)
    ]
    with RedisServer() as redis, Upstream("browse-API__1") as upstream:  # a Redis of its own: it is stopped
        golden = load_golden(upstream.answer_with("browse-API__1"))
        # while it runs, a Redis slowed by the machine's load must not count as down (a booking not
        # answered teaches no fleet); once stopped, it refuses connections at once
        state_url = redis.url + "?socket_timeout=%g" % REDIS_UP_TIMEOUT_S
        with Workers(jobs, worker_env(upstream, state_url, interval), fleet_parent) as fleet:
            fleet.until_paused()  # one query each: the four are in the fleet
            fleet.until_paused()  # each booked again, and learnt the four
            redis.stop()  # nothing listens on its port any more
            outage = time.monotonic()
            outs = fleet.go()
    lines = [line for out in outs for line in out]
    assert len(lines) == workers * during and all(line["outcome"] == golden for line in lines)
    sent = [(q, t) for t, q, _ in upstream.log if t >= outage]
    assert sorted(q for q, _ in sent) == sorted(line["query"] for line in lines)  # one request each, after it
    arrived = dict(sent)
    # every request the upstream saw was let go by its worker's limiter (once), before it arrived
    unpaced = [
        line["query"]
        for line in lines
        if len(line["left_at"]) != 1 or not outage <= line["left_at"][0] <= arrived[line["query"]]
    ]
    assert unpaced == [], "requests not let go once by their limiter before they arrived: %r" % unpaced
    # each worker alone lets one request go per `workers` intervals
    gaps = [
        later - earlier
        for out in outs
        for times in [[line["left_at"][0] for line in out]]
        for earlier, later in zip(times, times[1:])
    ]
    assert min(gaps) >= workers * interval - LIMITER_ROUNDING_S, "one worker's requests left %.3f s apart" % min(gaps)

"""What the shared state (Redis) costs and what it buys, on a throw-away local redis-server.

    python bench/shared_state.py [--searches 2000] [--skip-workers]

1. The extra time per search: the same searches (the offline ``stub`` backend, so that
   only the client's own work is timed, with a rate limit of 1 us so that a slot is
   booked each time) through a client with local state and one with a shared state,
   alternately. Printed: medians and 90th percentiles per search, and the median of
   the per-pair difference, for a miss (every shared tier is asked: cache read,
   cool-down, slot, cache write), for a hit another process cached (one Redis read,
   against a hit in local memory) and for a hit in each client's memory (no Redis);
   then for a fetch that misses (a loopback page; a tenth as many, at least 50).
2. The four-process run of the tests: four worker processes x 10 queries against a
   local SearXNG with ``min_interval_s=0.1``, with and without the shared state.
   Printed: the tightest span of 11 consecutive requests at the upstream (the rate
   allows no less than 1.0 s), the whole run's span and the number of requests.
3. The 429-sharing window: one worker meets a 429 with a 2 s Retry-After and waits it
   out to retry; three workers started meanwhile ask 5 queries each. Printed: requests
   from the other processes inside the Retry-After (target 0).
4. The duplicate-collapse ratio: four workers ask the same 20 queries at once (the
   upstream answers after 0.1 s). Printed: upstream requests / distinct queries
   (target 1.0), with and without the shared state; then the same for fetches: four
   workers fetch the same 20 pages at once (``ws.fetch``; each page answers after 0.1 s),
   and the requests a walled page gets from four workers fetching it at once.
5. The fleet's rate through a Redis outage: four workers at ``min_interval_s=0.2`` (the
   upstream allows 5 requests/s) while Redis answers, while it is stopped, and once it
   is started again on the same port. Printed for each phase: requests, the rate the
   upstream saw (requests after the first / the span) and the tightest 6 in a row (the
   rate allows no less than 1.0 s).

Needs ``redis-server`` on PATH and redis-py (``pip install '.[redis]'``). Not a test:
nothing is asserted.
"""

import argparse
import os
import statistics
import sys
import time
from functools import partial
from typing import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from redis_server import RedisServer, redis_server_binary  # noqa: E402
from shared_state_worker import Upstream, Workers, run_workers, worker_env  # noqa: E402

import websearch_sync as ws  # noqa: E402

RATE = {"stub": 1e-6}


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def _pairs(
    count: int, local: Callable[[int], object], shared: Callable[[int], object]
) -> tuple[list[float], list[float]]:
    local_s, shared_s = [], []
    for i in range(count):
        local_s.append(_timed(partial(local, i)))
        shared_s.append(_timed(partial(shared, i)))
    return local_s, shared_s


def _row(name: str, local_s: list[float], shared_s: list[float]) -> None:
    def ms(values: list[float], q: float) -> float:
        return sorted(values)[int(q * (len(values) - 1))] * 1000

    extra = statistics.median(shared - local for local, shared in zip(local_s, shared_s)) * 1000
    print(
        "%-34s %8.3f %8.3f %8.3f %8.3f %10.3f"
        % (name, ms(local_s, 0.5), ms(local_s, 0.9), ms(shared_s, 0.5), ms(shared_s, 0.9), extra)
    )


def overhead(url: str, count: int) -> None:
    """Print the per-search cost of the shared state against local state."""
    print("per search, ms                      local p50    p90 | shared p50    p90 | extra (median of pairs)")
    with (
        ws.SearchClient("stub", min_interval_s=RATE, state_url="") as local,
        ws.SearchClient("stub", min_interval_s=RATE, state_url=url) as shared,
    ):
        for i in range(50):  # warm both (connections, script cache)
            local.search("warm %d" % i)
            shared.search("warm %d" % i)
        _row(
            "miss (all tiers asked)",
            *_pairs(count, lambda i: local.search("miss %d" % i), lambda i: shared.search("miss %d" % i)),
        )
        with ws.SearchClient("stub", min_interval_s=RATE, state_url=url) as other:  # its memory is empty: Redis answers
            _row(
                "hit: Redis vs local memory",
                *_pairs(count, lambda i: local.search("warm 0"), lambda i: other.search("miss %d" % i)),
            )
        _row(
            "hit in memory, both",
            *_pairs(
                count, lambda i: local.search("miss %d" % (i % 100)), lambda i: shared.search("miss %d" % (i % 100))
            ),
        )


def fetch_overhead(url: str, count: int) -> None:
    """Print the per-fetch cost of the shared state against local state: a miss (cache read, the
    question's claim, the cache read again, the cache write and the release) of a loopback page."""
    from faults import respond
    from servers import FaultServer

    page = b"<title>Page</title><article><p>%s</p></article>" % (b"Plain prose for the reader. " * 40)
    settings = ws.Settings(allow_private=True)
    with (
        FaultServer({"/p": respond(200, page)}) as server,
        ws.SearchClient("stub", settings=settings, state_url="") as local,
        ws.SearchClient("stub", settings=settings, state_url=url) as shared,
    ):
        for i in range(20):  # warm both (connections, script cache)
            local.fetch(server.url("/p?warm=%d" % i))
            shared.fetch(server.url("/p?warm=%d" % i))
        _row(
            "fetch miss (all tiers asked)",
            *_pairs(
                count,
                lambda i: local.fetch(server.url("/p?local=%d" % i)),
                lambda i: shared.fetch(server.url("/p?shared=%d" % i)),
            ),
        )


def spacing(url: str) -> None:
    """Print the four-process run with and without the shared state."""
    jobs = [
        {"queries": ["bench %d-%d" % (w, i) for i in range(10)], "options": {"max_results": 10, "retries": 0}}
        for w in range(4)
    ]
    print("\nfour processes x 10 queries, min_interval_s=0.1      tightest 11 in a row   whole run   requests")
    for label, state_url in (("shared state (Redis)", url), ("local state only", "")):
        with Upstream("browse-API__1") as upstream:
            run_workers(jobs, worker_env(upstream, state_url, 0.1))
        times = sorted(upstream.arrivals)
        tightest = min(times[i + 10] - times[i] for i in range(len(times) - 10))
        print("%-50s %10.3f s %13.3f s %8d" % (label, tightest, times[-1] - times[0], len(times)))


def sharing_window(url: str) -> None:
    """Print how many requests other processes sent inside a Retry-After one worker met."""
    import threading

    import redis

    retry_after = 2.0
    redis.Redis.from_url(url).flushdb()
    with Upstream("browse-API__1") as upstream:
        upstream.answer_next_with("http_429_retry_after", retry_after="%g" % retry_after)
        env = worker_env(upstream, url, 0.05)
        holder = threading.Thread(target=run_workers, args=([{"queries": ["holder"], "options": {"retries": 1}}], env))
        holder.start()
        while not upstream.log:
            time.sleep(0.01)
        run_workers([{"queries": ["w%d-%d" % (w, i) for i in range(5)]} for w in range(3)], env)
        holder.join()
    met = upstream.log[0][0]
    inside = sum(1 for t, q, _ in upstream.log[1:] if t < met + retry_after and q != "holder")
    print(
        "\n429-sharing window: %d requests from other processes inside a %.0f s Retry-After (target 0)"
        % (inside, retry_after)
    )


def collapse(url: str) -> None:
    """Print upstream requests / distinct queries for four workers asking the same queries at once."""
    import redis

    queries = ["same %d" % i for i in range(20)]
    for label, state_url in (("shared state (Redis)", url), ("local state only", "")):
        redis.Redis.from_url(url).flushdb()
        with Upstream("browse-API__1", delay_s=0.1) as upstream:
            run_workers([{"queries": queries} for _ in range(4)], worker_env(upstream, state_url, 0))
        print(
            "duplicate collapse, %-22s %3d upstream requests / %d distinct queries = %.2f (target 1.0)"
            % (label + ":", len(upstream.log), len(queries), len(upstream.log) / len(queries))
        )


def fetch_collapse(url: str) -> None:
    """Print page requests / distinct pages for four workers fetching the same pages at once."""
    import redis
    from faults import delayed, respond
    from servers import FaultServer

    page = b"<title>Page</title><article><p>%s</p></article>" % (b"Plain prose for the reader. " * 40)
    paths = ["/page/%d" % i for i in range(20)]
    for label, state_url in (("shared state (Redis)", url), ("local state only", "")):
        redis.Redis.from_url(url).flushdb()
        with (
            Upstream("browse-API__1") as upstream,
            FaultServer(dict.fromkeys(paths, delayed(0.1, respond(200, page)))) as pages,
        ):
            urls = [pages.url(path) for path in paths]
            job = {"queries": urls, "fetch": True, "options": {"allow_private": True}}
            run_workers([job for _ in range(4)], worker_env(upstream, state_url, 0))
        print(
            "fetch collapse, %-26s %3d page requests / %d distinct pages = %.2f (target 1.0)"
            % (label + ":", len(pages.requests), len(paths), len(pages.requests) / len(paths))
        )
    wall = respond(200, b"<html><title>Just a moment...</title></html>", headers={"cf-mitigated": "challenge"})
    for label, state_url in (("shared state (Redis)", url), ("local state only", "")):
        redis.Redis.from_url(url).flushdb()
        with Upstream("browse-API__1") as upstream, FaultServer({"/wall": delayed(0.1, wall)}) as pages:
            job = {"queries": [pages.url("/wall")], "fetch": True, "options": {"allow_private": True}}
            outs = run_workers([job for _ in range(4)], worker_env(upstream, state_url, 0))
        print(
            "a walled page, %-27s %3d requests from 4 workers fetching it at once (%s)"
            % (label + ":", len(pages.requests), ", ".join(sorted({out[0]["detail_code"] for out in outs})))
        )


def outage(interval: float = 0.2, workers: int = 4, per_phase: int = 8) -> None:
    """Print the rate the upstream sees from four workers before, during and after a Redis outage."""
    phases = ("Redis answers", "Redis stopped", "Redis started again")
    jobs = [
        {
            "queries": ["w%d-%d" % (w, i) for i in range(1 + 3 * per_phase)],
            "options": {"retries": 0, "max_results": 10},
            "pause_after": [1, 1 + per_phase, 1 + 2 * per_phase],
        }
        for w in range(workers)
    ]
    print(
        "\n%d workers, min_interval_s=%g (the upstream allows %.1f requests/s)   requests   rate seen   tightest 6"
        % (workers, interval, 1 / interval)
    )
    with RedisServer() as redis, Upstream("browse-API__1") as upstream:
        marks = []
        with Workers(jobs, worker_env(upstream, redis.url, interval)) as fleet:
            fleet.until_paused()  # one query each: all four are in the fleet
            marks.append(time.monotonic())
            fleet.until_paused()
            redis.stop()
            marks.append(time.monotonic())
            fleet.until_paused()
            redis.start()  # the same port
            marks.append(time.monotonic())
            fleet.go()
        marks.append(time.monotonic())
    for phase, start, end in zip(phases, marks, marks[1:]):
        times = sorted(t for t in upstream.arrivals if start <= t < end)
        rate = (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 else float("nan")
        tightest = min((times[i + 5] - times[i] for i in range(len(times) - 5)), default=float("nan"))
        print("%-62s %8d %8.2f/s %10.3f s" % (phase, len(times), rate, tightest))


def main() -> None:
    """Start a redis-server, run both measurements, stop it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--searches", type=int, default=2000, help="searches per measurement (default 2000)")
    parser.add_argument("--skip-workers", action="store_true", help="only the per-search cost")
    parser.add_argument("--collapse-only", action="store_true", help="only the duplicate-collapse ratios (4.)")
    args = parser.parse_args()
    if redis_server_binary() is None:
        sys.exit("no redis-server on PATH (Debian: apt-get install redis-server)")
    with RedisServer() as server:
        if args.collapse_only:
            collapse(server.url)
            fetch_collapse(server.url)
            return
        overhead(server.url, args.searches)
        fetch_overhead(server.url, max(50, args.searches // 10))
        if not args.skip_workers:
            spacing(server.url)
            sharing_window(server.url)
            collapse(server.url)
            fetch_collapse(server.url)
            outage()


if __name__ == "__main__":
    main()

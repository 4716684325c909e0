"""What RQ's forking worker costs per job against a preloading one, side by side in one run.

    python bench/worker_fork.py [--jobs 30]

docs/scaling.md's RQ recipe on two throw-away local redis-servers (the queue's and the shared
state's) and a local SearXNG answering a recorded case. The ``--jobs`` queries are searched
once here first, so every job is a cache hit from the shared state: what is left to time is
the worker's own cost per job. The same jobs then go through ``rq worker --burst`` three times:

- ``rq.worker.Worker`` (RQ's default): forks a fresh process for every job, which imports
  websearch_sync again and starts with empty process-wide state;
- the same forking worker with websearch_sync's client and engines imported before it forks
  (a worker class in a module that loads them: ``import websearch_sync`` alone loads little),
  to tell the fork's cost from the import's;
- ``rq.worker.SimpleWorker`` (the recipe's preloading worker): runs every job in the worker
  process, which imports websearch_sync once.

Printed per worker: the time per job in the steady state (from the first job's end to the last
job's end, as RQ records them, over the jobs in between), the worker's whole run (start-up and
the first job included), how many answers were cache hits, and the ratios to the preloading
worker. Needs ``redis-server`` on PATH and ``pip install '.[redis]' rq``. Not a test: nothing
is asserted.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from redis import Redis  # noqa: E402
from redis_server import RedisServer  # noqa: E402
from rq import Queue  # noqa: E402
from rq.job import Job  # noqa: E402
from shared_state_worker import Upstream, worker_env  # noqa: E402

import websearch_sync  # noqa: E402

WORKERS = (
    ("forking (rq.worker.Worker)", "rq.worker.Worker"),
    ("forking, websearch_sync imported first", "preloaded_fork.PreloadedForkWorker"),
    ("preloading (rq.worker.SimpleWorker)", "rq.worker.SimpleWorker"),
)
#: The module of the second row's worker class, written to the workers' directory.
#: ``import websearch_sync`` alone loads little (the client, requests and the engines load on
#: first use): reading ``search``, reading the settings of the environment (which names the jobs'
#: backend) and importing requests (which a client's first request imports) loads what a job runs with.
PRELOADED_FORK = (
    "import requests  # the HTTP library: a client imports it at its first request\n"
    "import websearch_sync\n"
    "websearch_sync.search  # the client, imported once, before each fork\n"
    "websearch_sync.Settings.from_env()  # the engines of the backends the environment configures\n"
    "from rq.worker import Worker as PreloadedForkWorker\n"
)
WORKER_WAIT_S = 600.0  # bounded: a forked job costs about a second on a loaded machine


def _warm(queries: list[str], env: dict[str, str]) -> None:
    """Search every query once in this process, with the workers' settings, into the shared cache."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        for query in queries:
            websearch_sync.search(query, max_results=5)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _run_worker(worker_class: str, queue_url: str, env: dict[str, str], cwd: str) -> float:
    """Run ``rq worker --burst`` until the queue is empty; its wall time in seconds."""
    program = os.path.join(os.path.dirname(sys.executable), "rq")
    command = [program, "worker", "--url", queue_url, "--worker-class", worker_class, "--burst", "search"]
    started = time.perf_counter()
    worker = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, stderr = worker.communicate(timeout=WORKER_WAIT_S)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.communicate()
        raise SystemExit("%s did not finish within %.0f s" % (worker_class, WORKER_WAIT_S)) from None
    if worker.returncode != 0:
        raise SystemExit(
            "%s exited with %d: %s" % (worker_class, worker.returncode, stderr.decode(errors="replace")[-2000:])
        )
    return time.perf_counter() - started


def _per_job(jobs: list[Optional[Job]]) -> tuple[float, int]:
    """Seconds per job in the steady state (first job's end to last job's end, over the jobs in
    between: the first job's import and the worker's start-up are left out) and the cache hits."""
    answers: list[Any] = [job.return_value() if job is not None else None for job in jobs]
    ends = sorted(job.ended_at for job in jobs if job is not None and job.ended_at is not None)
    missing = sum(1 for answer in answers if answer is None)
    if missing or len(ends) != len(jobs):
        raise SystemExit("%d of %d jobs have no answer" % (missing, len(jobs)))
    hits = sum(1 for answer in answers if answer["provider_meta"]["cached"])
    return (ends[-1] - ends[0]).total_seconds() / (len(jobs) - 1), hits


def main() -> None:
    """Print the per-job cost of a forking and a preloading RQ worker on the same cached jobs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=30, help="cached jobs per worker (default 30)")
    args = parser.parse_args()
    if args.jobs < 2:
        parser.error("--jobs must be at least 2 (the steady state is measured between jobs)")
    queries = ["worker fork %d" % i for i in range(args.jobs)]
    rows = []
    with (
        RedisServer() as queue_redis,
        RedisServer() as state_redis,
        Upstream("browse-API__1") as upstream,
        tempfile.TemporaryDirectory() as cwd,
    ):
        env = worker_env(upstream, state_redis.url, 0.0)
        _warm(queries, env)
        env["PYTHONPATH"] = os.pathsep.join([cwd, ROOT])  # this checkout's websearch_sync, and preloaded_fork
        with open(os.path.join(cwd, "preloaded_fork.py"), "w", encoding="utf-8") as module:
            module.write(PRELOADED_FORK)
        connection = Redis.from_url(queue_redis.url)
        queue = Queue("search", connection=connection)
        for label, worker_class in WORKERS:
            jobs = [queue.enqueue(websearch_sync.search, query, max_results=5) for query in queries]
            wall_s = _run_worker(worker_class, queue_redis.url, env, cwd)
            per_job_s, hits = _per_job(Job.fetch_many([job.id for job in jobs], connection=connection))
            rows.append((label, per_job_s, wall_s, hits))
        connection.close()
        upstream_requests = len(upstream.arrivals)
    print("%d cached jobs per worker (upstream requests, all from the warm-up: %d)" % (args.jobs, upstream_requests))
    print("%-40s %11s %14s %12s" % ("worker", "ms per job", "worker run, s", "cache hits"))
    for label, per_job_s, wall_s, hits in rows:
        print("%-40s %11.1f %14.1f %9d/%d" % (label, per_job_s * 1000, wall_s, hits, args.jobs))
    print(
        "forked / preloaded, per job: %.1fx (forked with websearch_sync imported first / preloaded: %.1fx)"
        % (rows[0][1] / rows[2][1], rows[1][1] / rows[2][1])
    )


if __name__ == "__main__":
    main()

"""Worker processes of the shared-state tests and bench, run as RQ workers would run jobs.

    python tests/shared_state_worker.py '{"queries": [...], "options": {...}}'

It searches with the module-level ``websearch_sync.search`` and nothing but the
environment (``WEB_SEARCH_STATE_URL``, ``WEB_SEARCH_BACKEND=searxng``,
``SEARXNG_BASE_URL`` pointing at the test's local upstream, the pace in
``WEB_SEARCH_MIN_INTERVAL_S_SEARXNG``). The worker prints ``ready``, waits for one line
on stdin (so that all workers start together), then prints one JSON line per query:
``{"query", "outcome", "cached", "detail_code"}`` where ``outcome`` is the contract's
comparable form of the answer or error. With ``"pause_after": n`` (or a list of such counts)
in the job it prints ``paused`` after ``n`` queries and waits for another line
(:meth:`Workers.until_paused`). With ``"departures": true`` each line also has ``"left_at"``:
when the rate limiter let the query's requests leave (:func:`spy_on_departures`).

The parent side: :class:`Upstream` (a local SearXNG answering with a recorded case and
noting when each request arrived) and :func:`run_workers`.
"""

import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional
from urllib.parse import parse_qsl, urlsplit

from clocks import ThreadClock
from faults import respond
from servers import FaultServer

from websearch_sync import search
from websearch_sync.client.clock import SYSTEM_CLOCK
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.contract.cases import Case, load_case, outcome_of
from websearch_sync.errors import WebSearchError


def main() -> None:
    """Run the queries given in ``argv[1]``."""
    job = json.loads(sys.argv[1])
    pauses = job.get("pause_after", [])
    pauses = [pauses] if isinstance(pauses, int) else pauses
    departures = spy_on_departures() if job.get("departures") else None
    print("ready", flush=True)
    sys.stdin.readline()
    for done, query in enumerate(job["queries"]):
        if done in pauses:  # the parent changes the world (stops Redis...), then says go on
            print("paused", flush=True)
            sys.stdin.readline()
        noted = len(departures or ())
        cached = None
        try:
            result = search(query, **job.get("options", {}))
            cached = result["provider_meta"]["cached"]
        except WebSearchError as error:
            result = error
        detail = getattr(result, "detail_code", None)
        line = {"query": query, "outcome": outcome_of(result), "cached": cached, "detail_code": detail}
        if departures is not None:
            line["left_at"] = departures[noted:]
        print(json.dumps(line), flush=True)


def spy_on_departures() -> list[float]:
    """Note when the rate limiter lets each paced request of this process leave; the list it fills.

    The time noted is the one the limiter's ``sending`` read to decide (the clock is a
    :class:`ThreadClock`): the client's pacing decision, before the request is built, connected
    and sent, so a request that a loaded machine delays in transit does not make the next gap
    look short. Exact while the limiter paces alone (Redis down); while Redis answers, the time
    read before asking it. ``time.monotonic`` is the machine's monotonic clock, the same in every
    process, so the parent compares these with :attr:`Upstream.log`.
    """
    clock = ThreadClock()
    SYSTEM_CLOCK.monotonic = clock.monotonic  # type: ignore[method-assign]  # every client of the process reads it
    left: list[float] = []
    sending = RateLimiter.sending

    def spy(limiter: RateLimiter, name: str, interval: float, left_s: Optional[float] = None) -> float:
        wait = sending(limiter, name, interval, left_s)
        if wait == 0.0 and interval > 0:  # let go (an interval of 0 paces nothing and reads no clock)
            left.append(clock.last())
        return wait

    RateLimiter.sending = spy  # type: ignore[method-assign]
    return left


# -- the parent side ---------------------------------------------------------------------------

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "searxng"
WORKER_WAIT_S = 60.0


class Upstream:
    """A local SearXNG on 127.0.0.1 answering every ``/search`` with one recorded case.

    ``arrivals`` holds the ``time.monotonic()`` of each request's arrival and ``log`` the
    ``(arrival, query, status)`` of each; :meth:`answer_with` switches the recorded case
    served from now on, :meth:`answer_next_with` serves one for the next request only.
    ``delay_s`` holds every answer back that long (so that identical queries overlap).
    """

    def __init__(self, case_name: str = "browse-API__1", delay_s: float = 0.0) -> None:
        self.arrivals: list[float] = []
        self.log: list[tuple[float, str, int]] = []
        self.delay_s = delay_s
        self._lock = threading.Lock()
        self._handler: Any = None
        self._next: Optional[tuple[Any, int]] = None
        self._status = 200
        self._handler, self._status = self._case_handler(case_name)[1:]
        self.server = FaultServer({"/search": self._serve})

    @staticmethod
    def _case_handler(case_name: str, retry_after: Optional[str] = None) -> tuple[Case, Any, int]:
        case = load_case(FIXTURES / (case_name + ".meta.json"))
        response = case.exchanges()[0]["response"]
        headers = dict(response.get("headers") or {})
        content_type = headers.pop("Content-Type", "application/json")
        if retry_after is not None:
            headers["Retry-After"] = retry_after
        return (
            case,
            respond(response["status"], case.body_bytes(response), headers, content_type=content_type),
            response["status"],
        )

    def answer_with(self, case_name: str) -> Case:
        """Serve the recorded response of ``fixtures/searxng/<case_name>`` from now on; the case."""
        case, self._handler, self._status = self._case_handler(case_name)
        return case

    def answer_next_with(self, case_name: str, retry_after: Optional[str] = None) -> Case:
        """Serve ``case_name`` (its Retry-After replaced when given) to the next request only."""
        case, handler, status = self._case_handler(case_name, retry_after)
        self._next = (handler, status)
        return case

    def _serve(self, conn: Any, request: Any, server: FaultServer) -> None:
        with self._lock:
            now = time.monotonic()
            handler, status = self._next or (self._handler, self._status)
            self._next = None
            self.arrivals.append(now)
            self.log.append((now, dict(parse_qsl(urlsplit(request.path).query)).get("q", ""), status))
        if self.delay_s:
            server.wait(self.delay_s)
        handler(conn, request, server)

    @property
    def base_url(self) -> str:
        """What ``SEARXNG_BASE_URL`` should be."""
        return self.server.url("")

    def __enter__(self) -> "Upstream":
        self.server.__enter__()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.server.__exit__(*exc_info)


def worker_env(upstream: Upstream, state_url: str, min_interval_s: float) -> dict[str, str]:
    """The environment of a worker: this one, plus the state URL, the backend and its spacing."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEB_SEARCH_")}
    env.update(
        WEB_SEARCH_BACKEND="searxng",
        SEARXNG_BASE_URL=upstream.base_url,
        WEB_SEARCH_MIN_INTERVAL_S_SEARXNG=str(min_interval_s),
    )
    if state_url:
        env["WEB_SEARCH_STATE_URL"] = state_url
    return env


class Workers:
    """Worker processes started and ready (``with Workers(jobs, env) as workers``); :meth:`go`
    lets them all begin together and returns each one's JSON lines."""

    def __init__(self, jobs: list[dict[str, Any]], env: dict[str, str]) -> None:
        self.deadline = time.monotonic() + WORKER_WAIT_S
        self.procs = [
            subprocess.Popen(
                [sys.executable, __file__, json.dumps(job)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
                text=True,
            )
            for job in jobs
        ]

    def __enter__(self) -> "Workers":
        try:
            for proc in self.procs:
                ready, _, _ = select.select([proc.stdout], [], [], max(0.0, self.deadline - time.monotonic()))
                if not ready or proc.stdout.readline().strip() != "ready":
                    raise RuntimeError("a worker did not start (exit status %s)" % proc.poll())
        except BaseException:
            self.__exit__()
            raise
        return self

    def until_paused(self) -> list[list[dict[str, Any]]]:
        """Start every worker's queries and wait until each has printed ``paused`` (its job's
        ``pause_after``); each one's JSON lines so far. :meth:`go` then lets them go on."""
        for proc in self.procs:
            proc.stdin.write("go\n")
            proc.stdin.flush()
        done: list[list[dict[str, Any]]] = []
        for proc in self.procs:
            lines: list[dict[str, Any]] = []
            while True:
                line = proc.stdout.readline()  # a line, or "" when the worker died (its queries are bounded)
                if not line:
                    raise RuntimeError("a worker did not pause (exit status %s)" % proc.poll())
                if line.strip() == "paused":
                    break
                lines.append(json.loads(line))
            done.append(lines)
        return done

    def go(self) -> list[list[dict[str, Any]]]:
        """Start every worker's queries; each one's JSON lines once all are done."""
        for proc in self.procs:
            proc.stdin.write("go\n")
            proc.stdin.flush()
        self.deadline = time.monotonic() + WORKER_WAIT_S
        outputs = [proc.communicate(timeout=max(1.0, self.deadline - time.monotonic()))[0] for proc in self.procs]
        return [[json.loads(line) for line in out.splitlines() if line.strip()] for out in outputs]

    def __exit__(self, *exc_info: Any) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def run_workers(jobs: list[dict[str, Any]], env: dict[str, str]) -> list[list[dict[str, Any]]]:
    """Start one worker per job, let them all begin together, and return each one's JSON lines."""
    with Workers(jobs, env) as workers:
        return workers.go()


if __name__ == "__main__":
    main()

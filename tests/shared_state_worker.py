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
when the rate limiter let the query's requests leave (:func:`spy_on_departures`). With
``"fetch": true`` the queries are URLs read with the module-level ``websearch_sync.fetch``
(``options`` its arguments): ``outcome`` is the page's text, ``cached`` is ``None``.

A fleet is one such process per job, forked by one parent (a preforking server, RQ's forking
worker; here a fork server, tests/forkserver.py, one request per job) that imported the library
and what a first search loads (:func:`preload`) and did nothing else: each child is a worker of
its own, with its own pid, connections and process-wide state, configured by the environment
only, and its stdin and stdout are pipes of the test's (its stderr the test's). Starting the library once per fleet instead of once per worker takes
about two thirds of each worker's CPU away (0.5 s of 0.75 s on a loaded 2-core machine).

The parent side: :class:`Upstream` (a local SearXNG answering with a recorded case and
noting when each request arrived), :class:`Workers` and :func:`run_workers`.
"""

import contextlib
import importlib
import importlib.util
import json
import os
import select
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Optional
from urllib.parse import parse_qsl, urlsplit

from clocks import ThreadClock
from faults import respond
from forkserver import ForkServer, status
from servers import FaultServer

from websearch_sync import Settings, fetch, search
from websearch_sync.client.clock import SYSTEM_CLOCK
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.contract.cases import Case, load_case, outcome_of
from websearch_sync.errors import WebSearchError


def main() -> None:
    """Run the job given in ``argv[1]``."""
    work(json.loads(sys.argv[1]))


def preload() -> None:
    """Import what a worker's first search imports (the client, the engines, the requests wire,
    redis-py for a state URL): done once by a fleet's parent before it forks, as bench/worker_fork.py's preloading
    fork does. Only imports: no client, connection, thread or state of the library. (SearXNG's
    JSON API needs no browser wire: its first search loads no curl_cffi.)"""
    Settings.from_env()  # the engines of the backends the environment configures (SearXNG's)
    for module in ("websearch_sync.net.wire_requests", "websearch_sync.net.exchange"):  # a client's first request's
        importlib.import_module(module)
    if os.environ.get("WEB_SEARCH_STATE_URL"):
        with contextlib.suppress(ImportError):  # redis-py not installed: the worker meets it as before
            importlib.import_module("redis")


def work(job: dict[str, Any]) -> None:
    """Run one job's queries (see the module docstring)."""
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
            if job.get("fetch"):
                result = fetch(query, **job.get("options", {}))
            else:
                result = search(query, **job.get("options", {}))
                cached = result["provider_meta"]["cached"]
        except WebSearchError as error:
            result = error
        detail = getattr(result, "detail_code", None)
        outcome = result["text"] if job.get("fetch") and isinstance(result, dict) else outcome_of(result)
        line = {"query": query, "outcome": outcome, "cached": cached, "detail_code": detail}
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


class FleetParent:
    """One fleets' parent for several fleets in turn (a test module's: ``with FleetParent() as
    parent``, then ``Workers(jobs, env, parent)``), so the parent's start and :func:`preload`
    (about 0.6 s of CPU) are paid once, not once a fleet. Each worker still gets its fleet's
    environment in its request; the parent imports redis-py when installed, as a parent given a
    state URL does (a fleet without one never uses it). A fleet that does not end by itself (a
    failed test) is killed with the parent, and the next fleet gets a new parent."""

    def __init__(self) -> None:
        self._server: Optional[ForkServer] = None

    def server(self) -> ForkServer:
        """The running parent (a new one if there is none, or the last was killed)."""
        if self._server is None or self._server.process.poll() is not None:
            if self._server is not None:
                self._server.close(0.0)
            env = {k: v for k, v in os.environ.items() if not k.startswith("WEB_SEARCH_")}
            redis = ["redis"] if importlib.util.find_spec("redis") is not None else []
            self._server = ForkServer(["shared_state_worker:preload", *redis], env=env)
        return self._server

    def __enter__(self) -> "FleetParent":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self._server is not None:
            self._server.close(10.0)  # its fleets have ended: it ends at once


class Workers:
    """A fleet of worker processes started and ready (``with Workers(jobs, env) as workers``);
    :meth:`go` lets them all begin together and returns each one's JSON lines.

    One process (the fleet's parent: a fork server with :func:`preload`, in a session of its own;
    ``parent``'s when given, see :class:`FleetParent`) forks the workers, one request each; this
    side holds the write end of each one's stdin and the read end of its stdout."""

    def __init__(self, jobs: list[dict[str, Any]], env: dict[str, str], parent: Optional[FleetParent] = None) -> None:
        self.deadline = time.monotonic() + WORKER_WAIT_S
        self._stdins: list[int] = []
        self._stdouts: list[int] = []
        self._conns: list[Any] = []  # where each worker's exit status comes
        self._statuses: Optional[list[Optional[int]]] = None
        self._exits: dict[int, Optional[int]] = {}  # the exit statuses read so far, by worker
        self._read = [b"" for _ in jobs]  # what each worker printed and was not taken yet
        self._ended: set[int] = set()  # the workers whose stdout ended (they did)
        self._parent = parent
        # as ``python THIS_FILE``
        self.server = parent.server() if parent else ForkServer(["shared_state_worker:preload"], env=env)
        spec = {"env": env, "cwd": os.getcwd(), "path0": os.path.dirname(os.path.abspath(__file__))}
        try:
            for job in jobs:
                stdin_r, stdin_w = os.pipe()  # not inherited: only the fds sent below reach the worker
                self._stdins.append(stdin_w)
                stdout_r, stdout_w = os.pipe()
                self._stdouts.append(stdout_r)
                try:
                    argv = [os.path.abspath(__file__), json.dumps(job)]
                    self._conns.append(
                        self.server.send([stdin_r, stdout_w, 2], argv=argv, call="shared_state_worker:main", **spec)
                    )
                finally:
                    self._close([stdin_r, stdout_w])
        except BaseException:
            self.__exit__()
            raise

    @staticmethod
    def _close(fds: list[int]) -> None:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)

    def _line(self, worker: int, what: str) -> str:
        """The next line ``worker`` prints (within the deadline); ``RuntimeError`` naming ``what``
        it did not do when it ended or the deadline passed first."""
        while b"\n" not in self._read[worker]:
            ready, _, _ = select.select([self._stdouts[worker]], [], [], max(0.0, self.deadline - time.monotonic()))
            chunk = os.read(self._stdouts[worker], 65536) if ready else b""
            if not chunk:
                raise RuntimeError(
                    "a worker did not %s (fork server exit status %s)" % (what, self.server.process.poll())
                )
            self._read[worker] += chunk
        line, self._read[worker] = self._read[worker].split(b"\n", 1)
        return line.decode()

    def __enter__(self) -> "Workers":
        try:
            for worker in range(len(self._stdouts)):
                if self._line(worker, "start").strip() != "ready":
                    raise RuntimeError(
                        "a worker did not start (fork server exit status %s)" % self.server.process.poll()
                    )
        except BaseException:
            self.__exit__()
            raise
        return self

    def _say_go(self) -> None:
        for worker in range(len(self._stdins)):
            self.start(worker)

    def start(self, worker: int) -> None:
        """Let one worker begin (or go on after a pause) before the others; :meth:`go` then lets
        the others begin (one that has begun gets the line too: it goes on at its job's next
        pause, if any, at once). A worker that has ended is told nothing: one that did its job
        (status 0) needs no more lines; one that died fails the call with its exit status."""
        try:
            os.write(self._stdins[worker], b"go\n")
        except BrokenPipeError:  # its stdin has no reader left: the worker has ended
            code = self._exit_status(worker)
            if code != 0:
                raise RuntimeError(
                    "worker %d ended (exit status %s) before it was told to go on: its traceback is in the"
                    " captured stderr" % (worker, code)
                ) from None

    def _exit_status(self, worker: int) -> Optional[int]:
        """``worker``'s exit status once it has ended (read once from its connection; None when its
        parent was killed first)."""
        if worker not in self._exits:
            self._exits[worker] = status(self._conns[worker], max(1.0, self.deadline - time.monotonic()))
        return self._exits[worker]

    def printed(self, worker: int) -> bool:
        """Whether ``worker`` printed anything since the last line taken from it (without waiting)."""
        ready, _, _ = select.select([self._stdouts[worker]], [], [], 0)
        return bool(self._read[worker] or ready)

    def until_paused(self) -> list[list[dict[str, Any]]]:
        """Start every worker's queries and wait until each has printed ``paused`` (its job's
        ``pause_after``); each one's JSON lines so far. :meth:`go` then lets them go on."""
        self._say_go()
        self.deadline = time.monotonic() + WORKER_WAIT_S
        done: list[list[dict[str, Any]]] = []
        for worker in range(len(self._stdouts)):
            lines: list[dict[str, Any]] = []
            while True:
                line = self._line(worker, "pause")  # its queries are bounded
                if line.strip() == "paused":
                    break
                lines.append(json.loads(line))
            done.append(lines)
        return done

    def go(self, workers: Optional[Sequence[int]] = None) -> list[list[dict[str, Any]]]:
        """Start every worker's queries (only ``workers``' when given: the others wait for a later
        call); each one's JSON lines once they are all done (read side by side: no worker waits
        for its pipe to be read while another one's is)."""
        chosen = list(range(len(self._stdouts))) if workers is None else list(workers)
        for worker in chosen:
            self.start(worker)
        self.deadline = time.monotonic() + WORKER_WAIT_S
        open_ = {self._stdouts[worker]: worker for worker in chosen}
        while open_:
            ready, _, _ = select.select(list(open_), [], [], max(0.0, self.deadline - time.monotonic()))
            if not ready:
                raise RuntimeError("the workers did not finish within %.0f s" % WORKER_WAIT_S)
            for fd in ready:
                chunk = os.read(fd, 65536)
                if chunk:
                    self._read[open_[fd]] += chunk
                else:  # the worker ended
                    self._ended.add(open_.pop(fd))
        if len(self._ended) == len(self._stdouts) and self._statuses is None:  # they have all ended
            self._statuses = [self._exit_status(worker) for worker in range(len(self._conns))]
            if any(self._statuses):
                raise RuntimeError("a worker failed (exit statuses %s): its traceback is above" % self._statuses)
        texts = [self._read[worker].decode() for worker in chosen]
        return [[json.loads(line) for line in text.splitlines() if line.strip()] for text in texts]

    def __exit__(self, *exc_info: Any) -> None:
        # the server ends once its workers have; one still running is killed with it (their group).
        # A shared parent goes on once this fleet has ended; killed with one still running.
        if self._parent is None or self._statuses is None:
            self.server.close(1.0 if self._statuses is not None and self._parent is None else 0.0)
        for conn in self._conns:
            conn.close()
        self._close(self._stdins + self._stdouts)
        self._stdins, self._stdouts = [], []


def run_workers(
    jobs: list[dict[str, Any]], env: dict[str, str], parent: Optional[FleetParent] = None
) -> list[list[dict[str, Any]]]:
    """Start one worker per job (forked by ``parent`` when given), let them all begin together, and
    return each one's JSON lines."""
    with Workers(jobs, env, parent) as workers:
        return workers.go()


if __name__ == "__main__":
    main()

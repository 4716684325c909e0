"""Worker processes of the shared-state tests and bench, run as RQ workers would run jobs.

    python tests/shared_state_worker.py '{"queries": [...], "options": {...}}'

It searches with the module-level ``websearch_sync.search`` and nothing but the
environment (``WEB_SEARCH_STATE_URL``, ``WEB_SEARCH_BACKEND=searxng``,
``SEARXNG_BASE_URL`` pointing at the test's local upstream). ``searxng`` is registered
again with ``min_interval_s`` taken from ``WS_TEST_MIN_INTERVAL_S`` (the real backend
has none). The worker prints ``ready``, waits for one line on stdin (so that all
workers start together), then prints one JSON line per query:
``{"query", "outcome", "cached"}`` where ``outcome`` is the contract's comparable form
of the answer or error.

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
from typing import Any, Dict, List

from servers import FaultServer, respond

from websearch_sync import search
from websearch_sync.engine.registry import register
from websearch_sync.backends.searxng import SearXNG
from websearch_sync.contract.cases import Case, load_case, outcome_of
from websearch_sync.errors import WebSearchError


def main() -> None:
    """Run the queries given in ``argv[1]``."""
    job = json.loads(sys.argv[1])
    register(type("SpacedSearXNG", (SearXNG,), {"min_interval_s": float(os.environ.get("WS_TEST_MIN_INTERVAL_S", "0"))}))
    print("ready", flush=True)
    sys.stdin.readline()
    for query in job["queries"]:
        cached = None
        try:
            result = search(query, **job.get("options", {}))
            cached = result["provider_meta"]["cached"]
        except WebSearchError as error:
            result = error
        print(json.dumps({"query": query, "outcome": outcome_of(result), "cached": cached}), flush=True)


# -- the parent side ---------------------------------------------------------------------------

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "searxng"
WORKER_WAIT_S = 60.0


class Upstream:
    """A local SearXNG on 127.0.0.1 answering every ``/search`` with one recorded case.

    ``arrivals`` holds the ``time.monotonic()`` of each request's arrival; :meth:`answer_with`
    switches the recorded case served from now on.
    """

    def __init__(self, case_name: str = "browse-API__1") -> None:
        self.arrivals: List[float] = []
        self._lock = threading.Lock()
        self._handler = None
        self.answer_with(case_name)
        self.server = FaultServer({"/search": self._serve})

    def answer_with(self, case_name: str) -> Case:
        """Serve the recorded response of ``fixtures/searxng/<case_name>`` from now on; the case."""
        case = load_case(FIXTURES / (case_name + ".meta.json"))
        response = case.exchanges()[0]["response"]
        headers = dict(response.get("headers") or {})
        content_type = headers.pop("Content-Type", "application/json")
        self._handler = respond(response["status"], case.body_bytes(response), headers, content_type=content_type)
        return case

    def _serve(self, conn: Any, request: Any, server: FaultServer) -> None:
        with self._lock:
            self.arrivals.append(time.monotonic())
        self._handler(conn, request, server)

    @property
    def base_url(self) -> str:
        """What ``SEARXNG_BASE_URL`` should be."""
        return self.server.url("")

    def __enter__(self) -> "Upstream":
        self.server.__enter__()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.server.__exit__(*exc_info)


def worker_env(upstream: Upstream, state_url: str, min_interval_s: float) -> Dict[str, str]:
    """The environment of a worker: this one, plus the state URL, the backend and its spacing."""
    env = dict(os.environ)
    env.update(WEB_SEARCH_BACKEND="searxng", SEARXNG_BASE_URL=upstream.base_url, WS_TEST_MIN_INTERVAL_S=str(min_interval_s))
    if state_url:
        env["WEB_SEARCH_STATE_URL"] = state_url
    return env


def run_workers(jobs: List[Dict[str, Any]], env: Dict[str, str]) -> List[List[Dict[str, Any]]]:
    """Start one worker per job, let them all begin together, and return each one's JSON lines."""
    procs = [
        subprocess.Popen([sys.executable, __file__, json.dumps(job)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         env=env, text=True)
        for job in jobs
    ]
    try:
        deadline = time.monotonic() + WORKER_WAIT_S
        for proc in procs:
            ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready or proc.stdout.readline().strip() != "ready":
                raise RuntimeError("a worker did not start (exit status %s)" % proc.poll())
        for proc in procs:
            proc.stdin.write("go\n")
            proc.stdin.flush()
        outputs = [proc.communicate(timeout=max(1.0, deadline - time.monotonic()))[0] for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return [[json.loads(line) for line in out.splitlines() if line.strip()] for out in outputs]


if __name__ == "__main__":
    main()

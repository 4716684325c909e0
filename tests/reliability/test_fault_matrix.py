"""Every registered network backend, and fetch, against every fault of the fault lab.

For each cell: the error code (and detail) the table :data:`faultlab.EXPECTED` gives,
no exception other than ``WebSearchError``, the call ends within its deadline plus a
small margin, peak memory stays near the byte cap for the gzip bomb and the endless
body, and the same client answers a good request afterwards (with the recorded items).

The matrix runs once per module (targets in parallel threads; the memory cells one at
a time), with retries off and, for the faults that must time out, a 600 ms deadline (paced on
a loaded machine); ``python bench/reliability.py`` prints it. One test per target and transport checks its cells and names every cell that
fails: the matrix runs whole whichever tests are selected, so a test per cell (600) only
repeated pytest's per-test work around the same run.
"""

import functools
import socket
import time
from typing import Optional

import faultlab
import pytest
from backend_kit import project_backends
from clocks import wait_for_work
from faults import MAX_WAIT_S
from transports import BOTH

from websearch_sync.engine import registry
from websearch_sync.testing import no_network

TARGETS = faultlab.network_backends() + ["fetch"]
FAULT_NAMES = [fault.name for fault in faultlab.FAULT_LIST]
#: ``impersonate`` of each run: the default (the browser transport with the extra), and requests.
TRANSPORTS = BOTH


def _on_requests_in_both(name: str) -> bool:
    """An API backend: requests is its transport in both runs, so the requests run leaves it out."""
    return name != "fetch" and registry.backend_class(name).kind == "json"


#: ``(impersonate, target)`` of every target the two runs put under every fault.
RUNS = [
    pytest.param(run.values[0], target, id="%s-%s" % (run.id, target), marks=run.marks)
    for run in TRANSPORTS
    for target in TARGETS
    if run.values[0] is None or not _on_requests_in_both(target)
]


@pytest.fixture(scope="module")
def matrix():
    """``matrix(impersonate)``: ``{(target, fault): Cell}``, or ``{(target, None): problem}`` for a
    target that cannot run; run on first use, once per module and transport of keyless engines and
    fetch (the browser one, and requests). The requests run covers only the targets whose transport
    differs (API backends use requests in both)."""
    return functools.cache(_run)


def _run(impersonate):
    targets, found = [], {}
    for name in TARGETS:
        try:
            target = faultlab.fetch_target() if name == "fetch" else faultlab.search_target(name)
        except LookupError as exc:
            found[(name, None)] = str(exc)
            continue
        if impersonate is None or not _on_requests_in_both(name):
            targets.append(target)
    with no_network():
        for cell in faultlab.run_matrix(targets, impersonate=impersonate):
            found[(cell.target, cell.fault)] = cell
    _wait_for_abandoned_work()
    return found


def _wait_for_abandoned_work(limit_s: float = 120.0) -> None:
    """Let the parse and extraction threads this run abandoned at its deadlines finish (bounded), so
    that the next run (the other transport) and the next tests are not timed under their CPU load."""
    ends = time.monotonic() + limit_s
    for name in ("websearch-parse", "websearch-extract"):
        wait_for_work(name, max(0.0, ends - time.monotonic()))


def _problem(cell: faultlab.Cell) -> Optional[str]:
    """What is wrong with one cell (``None``: nothing)."""
    if cell.crashed:
        return "an exception other than WebSearchError escaped:\n" + cell.crash
    if not cell.classified:
        return cell.describe()
    if not cell.in_time:
        return "%s took %.0f ms (deadline %.0f ms + %.0f ms margin)" % (
            cell.describe(),
            cell.wall_s * 1000,
            cell.deadline_s * 1000,
            cell.margin_s * 1000,
        )
    if not cell.memory_ok:
        return "peak memory %d bytes > %d: %s" % (cell.peak_bytes, cell.memory_limit, cell.describe())
    if not cell.after_ok:
        return "the client did not recover: " + cell.describe()
    return None


@pytest.mark.parametrize("impersonate, target", RUNS)
def test_every_fault(matrix, impersonate, target):
    found = matrix(impersonate)
    assert (target, None) not in found, found.get((target, None))
    problems = [(fault, _problem(found[(target, fault)])) for fault in FAULT_NAMES]
    failed = ["%s: %s" % (fault, problem) for fault, problem in problems if problem is not None]
    assert not failed, "%d of %d faults:\n%s" % (len(failed), len(FAULT_NAMES), "\n".join(failed))


def test_the_matrix_covers_every_network_backend_and_every_fault():
    names = [n for n in project_backends() if registry.backend_class(n).kind != "offline"]
    assert names and set(names) <= set(TARGETS)
    assert {"ddg_html", "baidu_html", "searxng", "brave", "bocha"} <= set(names)
    for fault in FAULT_NAMES:
        table = faultlab.EXPECTED[fault]
        assert "*" in table or {"html", "json", "fetch"} <= set(table), "fault %s has no outcome for some kind" % fault


@pytest.mark.parametrize("impersonate", TRANSPORTS)
def test_memory_is_measured_where_it_matters(matrix, impersonate):
    found = matrix(impersonate)
    measured = {(c.target, c.fault) for c in found.values() if not isinstance(c, str) and c.peak_bytes is not None}
    run = {target for target, _ in found if target is not None}
    assert {(t, f) for t in TARGETS if t in run for f in ("gzip_bomb", "endless")} <= measured


# -- the lab itself: threaded, bounded, stops by itself ---------------------------------------------


def test_the_lab_server_stops_by_itself():
    target = faultlab.fetch_target()
    with faultlab.LabServer([target], max_lifetime_s=0.1) as server:
        # its accept loop ends after its next poll (0.2 s): the bound only keeps a lab that never stops
        # from hanging the test (2 s was one a loaded machine's scheduler could outlast)
        assert server.stopping.wait(MAX_WAIT_S)
        with pytest.raises(OSError):  # nobody answers any more
            socket.create_connection(("127.0.0.1", server.port), timeout=0.3).recv(1)


def test_the_lab_server_bounds_concurrent_connections():
    target = faultlab.fetch_target()
    with faultlab.LabServer([target], max_connections=2) as server:
        server.routes["*"] = lambda conn, request, srv: srv.wait(30)  # hold every connection
        held = [socket.create_connection(("127.0.0.1", server.port), timeout=2) for _ in range(2)]
        for sock in held:
            sock.sendall(b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n")
        deadline = time.monotonic() + 5
        while len(server.requests) < 2 and time.monotonic() < deadline:  # both handlers hold their slot
            time.sleep(0.01)
        assert not server.slots.acquire(blocking=False)  # both slots taken
        for sock in held:
            sock.close()


def test_an_endless_body_ends_when_the_server_stops():
    target = faultlab.search_target("brave")
    server = faultlab.LabServer([target]).__enter__()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
    sock.sendall(b"GET /brave/endless HTTP/1.1\r\nHost: a\r\n\r\n")
    assert sock.recv(100).startswith(b"HTTP/1.1 200")
    started = time.monotonic()
    server.__exit__(None, None, None)  # joins every handler thread (5 s at most each)
    assert time.monotonic() - started < 5
    sock.close()


def test_the_lab_answers_a_good_request_per_target():
    for target in [faultlab.search_target("ddg_html"), faultlab.fetch_target()]:
        with faultlab.LabServer([target]) as server:
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
            sock.sendall(("GET /%s/good HTTP/1.1\r\nHost: a\r\n\r\n" % target.name).encode())
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            sock.close()
        assert data.startswith(b"HTTP/1.1 200") and data.endswith(target.good_body)


def test_one_pace_sampler_covers_every_timed_call(monkeypatch):
    """``clocks.PaceMonitor``: a call's pace is the highest sample taken while it ran (a load that
    came and went inside it counts), a short call gets one taken at its end, and the sampler
    spins nothing while no call is watched."""
    import clocks

    readings = iter([1.0, 4.0, 1.5] + [1.2] * 1000)
    monkeypatch.setattr(clocks, "slowdown", lambda: next(readings))
    with clocks.PaceMonitor(every_s=0.05) as monitor:
        with monitor.watch() as long_call:
            # a call as long as three samples take (a fixed 0.4 s saw one, the sampler starved on a
            # loaded machine); bounded, so that a sampler that never samples fails, not hangs
            ends = time.monotonic() + MAX_WAIT_S
            while len(monitor._samples) < 3 and time.monotonic() < ends:
                time.sleep(0.01)
        taken = len(monitor._samples)
        time.sleep(0.3)
        assert len(monitor._samples) == taken  # idle between calls
        with monitor.watch() as short_call:
            pass
    assert taken >= 3 and long_call.slowdown == 4.0
    assert short_call.slowdown == 1.2


def test_the_pace_sampler_sees_a_stall_between_its_samples(monkeypatch):
    """``Pace.late_s``: a burst that holds the process off the CPU (here: a sort that holds the GIL)
    while the sampler sleeps wakes the sampler that late, however fast its samples ran; the matrix
    adds it to a timed cell's margin (a call woken as late from its deadline is no overrun of its own)."""
    import random

    import clocks

    monkeypatch.setattr(clocks, "slowdown", lambda: 1.0)  # every sample fast: only the stall is late
    numbers = list(range(500_000))
    random.Random(5).shuffle(numbers)
    with clocks.PaceMonitor(every_s=0.05) as monitor:
        with monitor.watch() as call:
            time.sleep(0.2)  # the sampler asleep, between samples
            began = time.monotonic()
            numbers.sort()  # one C call: the GIL is not let go until it ends
            stall_s = time.monotonic() - began
    # asleep as the stall began (due within one period), the sampler woke once it ended
    assert call.late_s >= stall_s - 2 * monitor.every_s, (stall_s, call.late_s)
    assert call.slowdown == 1.0

"""Where the test suite's CPU time goes: per directory, per module and per test, and per worker.

    python bench/suite_time.py [--top N] [--json FILE] [-- PYTEST_ARGS...]

Runs ``python -m pytest`` (the suite's own options: ``-n 4``; anything after ``--`` is passed on,
e.g. ``-- -n 0 tests/unit``) with this file loaded as a plugin in the controller and every worker.
Each process notes, per test (setup, call and teardown together, so a module fixture is charged
to the test that built it), the CPU of its own process and of the child processes it waited for
(servers, workers, CLI runs: ``RUSAGE_CHILDREN``), and the wall time; and its own CPU up to the
end of collection (interpreter and pytest start, plugins, collecting every module). Printed:

* the whole run: wall, CPU of every process (``getrusage`` of this script's children), and how
  that splits into worker start and collection, tests in the workers, their child processes, and
  the rest (the controller, processes nobody waited for);
* CPU per top-level directory and per module, largest first, with the child processes' part;
* the ``--top`` tests by CPU (own + children) and by wall time;
* the load average before and after, since wall seconds on a shared machine are noise and the
  CPU seconds are the figure to compare (on 2 cores the suite's wall is at least CPU / 2).

Not a test: nothing is asserted. ``--json`` keeps the raw per-test figures for comparing runs.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The folder each pytest process writes its figures to (set by the driver for its children).
OUT_ENV = "WEBSEARCH_SUITE_TIME_DIR"


def _cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


# ---- the plugin (loaded by pytest with -p suite_time in every process) ----

_tests: dict[str, list[float]] = {}
_marks: dict[str, float] = {}


def pytest_collection_finish(session: Any) -> None:
    """The process's CPU so far: interpreter and pytest start, plugins, collection."""
    _marks["collected_cpu"] = _cpu(resource.getrusage(resource.RUSAGE_SELF))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
    """One test's own CPU, its waited-for children's CPU and its wall time."""
    own, children, wall = time.process_time(), _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)), time.monotonic()
    yield
    _tests[item.nodeid] = [
        time.process_time() - own,
        _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - children,
        time.monotonic() - wall,
    ]


def pytest_unconfigure(config: Any) -> None:
    """Write this process's figures to the driver's folder."""
    folder = os.environ.get(OUT_ENV)
    if not folder:
        return
    worker = getattr(config, "workerinput", {}).get("workerid", "controller")
    record = {
        "worker": worker,
        "collected_cpu": _marks.get("collected_cpu", 0.0),
        "self_cpu": _cpu(resource.getrusage(resource.RUSAGE_SELF)),
        "children_cpu": _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)),
        "tests": _tests,
    }
    Path(folder, "%s-%d.json" % (worker, os.getpid())).write_text(json.dumps(record))


# ---- the driver ----


def _group(nodeid: str, depth: int) -> str:
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    return "/".join(parts[:depth]) if len(parts) > depth else path


def report(records: list[dict[str, Any]], wall: float, total_cpu: float, top: int) -> None:
    """Print the run's split, per directory and module, and the top tests."""
    tests: dict[str, list[float]] = {}
    for record in records:
        tests.update(record["tests"])
    workers = [r for r in records if r["worker"] != "controller"] or records
    start = sum(r["collected_cpu"] for r in workers)
    own = sum(t[0] for t in tests.values())
    kids = sum(t[1] for t in tests.values())
    print(
        "tests %d  wall %.1f s  CPU of every process %.1f s (wall x 2 cores would be %.1f s)"
        % (len(tests), wall, total_cpu, wall * 2)
    )
    print(
        "  worker start + collection %.1f s (%d processes, %.1f s each)"
        % (start, len(workers), start / max(1, len(workers)))
    )
    print("  tests in the workers %.1f s, their child processes %.1f s" % (own, kids))
    print("  the rest (controller, worker teardown, unwaited processes) %.1f s" % (total_cpu - start - own - kids))
    for record in records:
        print(
            "    %-10s self %.1f s (collection %.1f s), children %.1f s, tests %d"
            % (
                record["worker"],
                record["self_cpu"],
                record["collected_cpu"],
                record["children_cpu"],
                len(record["tests"]),
            )
        )
    for depth, title in ((1, "directory"), (2, "module")):
        groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
        for nodeid, (cpu, child, spent) in tests.items():
            group = groups[_group(nodeid, depth if depth == 1 else 9)]
            group[0] += cpu
            group[1] += child
            group[2] += spent
            group[3] += 1
        rows = sorted(groups.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
        print("\nCPU per %s (own + children, children, wall, tests):" % title)
        for name, (cpu, child, spent, count) in rows[: top if depth > 1 else None]:
            print("  %7.2f %7.2f %7.1f %5d  %s" % (cpu + child, child, spent, count, name))
    print("\ntop %d tests by CPU (own + children, children, wall):" % top)
    for nodeid, (cpu, child, spent) in sorted(tests.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]:
        print("  %6.2f %6.2f %6.2f  %s" % (cpu + child, child, spent, nodeid))
    print("\ntop %d tests by wall (wall, own + children CPU):" % top)
    for nodeid, (cpu, child, spent) in sorted(tests.items(), key=lambda kv: -kv[1][2])[:top]:
        print("  %6.2f %6.2f  %s" % (spent, cpu + child, nodeid))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json", help="write the per-test figures here")
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="suite-time-") as folder:
        env = dict(os.environ, **{OUT_ENV: folder})
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bench"), env.get("PYTHONPATH")]))
        load_before = os.getloadavg()
        before = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "suite_time", "-q", *args.pytest_args],
            cwd=str(ROOT),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        wall = time.monotonic() - started
        total = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - before
        print("\n".join(done.stdout.rstrip().splitlines()[-3:]))
        records = [json.loads(p.read_text()) for p in sorted(Path(folder).glob("*.json"))]
    print(
        "load average before %s, after %s"
        % (" ".join("%.1f" % x for x in load_before), " ".join("%.1f" % x for x in os.getloadavg()))
    )
    report(records, wall, total, args.top)
    if args.json:
        Path(args.json).write_text(json.dumps({"wall": wall, "cpu": total, "records": records}))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())

"""Where the test suite's CPU time goes: per directory, per module and per test, and per worker.

    python bench/suite_time.py [--top N] [--json FILE] [--with-cache] [-- PYTEST_ARGS...]

Runs ``python -m pytest`` (the suite's own options: ``-n 4``; anything after ``--`` is passed on,
e.g. ``-- -n 0 tests/unit``) with this file loaded as a plugin in the controller and every worker,
and pytest's cache off, as a fresh clone runs (CI's case): every test module's asserts rewritten,
mypy's analysis of the package from scratch; ``--with-cache`` keeps the cache, as a developer's
second run has it.
Each process notes, per test (setup, call and teardown together, so a module fixture is charged
to the test that built it), the CPU of its own process and of the child processes it waited for
(servers, workers, CLI runs: ``RUSAGE_CHILDREN``), and the wall time; and its own CPU up to the
end of collection (interpreter and pytest start, plugins, collecting every module). Printed:

* the whole run: wall, CPU of every process (``getrusage`` of this script's children), and how
  that splits into worker start and collection, tests in the workers, their child processes, and
  the rest: the controller, the workers between tests, the children the workers' cleanups waited
  for (the fork servers the test modules share, ``tests/forkserver.py``'s ``shared``, closed as the
  session ends: their start and every child forked from them), and what is left (the workers' exit,
  processes nobody waited for);
* CPU per top-level directory and per module, largest first, with the child processes' part;
* the ``--top`` tests by CPU (own + children) and by wall time;
* the timeline (each test's start and end on the system's monotonic clock, which every process
  shares): when each worker collected, started and finished, how long only one, two or three
  workers were busy, the units each worker ran last, and the wall during which the tests that
  ran wanted less than the 2 cores (each running test wants its CPU / its wall of a core);
* the ``--top`` tests by the real seconds they slept through the client's clock (retries, rate-limit
  slots, cool-downs: ``websearch_sync.client.clock.Clock.sleep``, in the test's own process): waits
  the ``fake_clock`` fixture takes away where real time is not the test's subject;
* per worker, the loggers in ``logging``'s table as its tests ran: pytest (9.1+) walks that whole
  table six times a test (pytest-dev/pytest#14375), so a worker that imported the agent
  frameworks (about 435 loggers) pays for it in every later test; and the CPU of those walks;
* the load average before and after, since wall seconds on a shared machine are noise and the
  CPU seconds are the figure to compare (on 2 cores the suite's wall is at least CPU / 2).

Not a test: nothing is asserted. ``--json`` keeps the raw per-test figures for comparing runs.
"""

import argparse
import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The folder each pytest process writes its figures to (set by the driver for its children).
OUT_ENV = "WEBSEARCH_SUITE_TIME_DIR"
#: How often the driver counts the run's runnable threads (seconds).
SAMPLE_PERIOD = 0.05


def _cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


# ---- the plugin (loaded by pytest with -p suite_time in every process) ----

_tests: dict[str, list[float]] = {}
_marks: dict[str, float] = {}
#: Real seconds slept through the client's clock in this process so far (every thread).
_clock_slept = [0.0]
_clock_lock = threading.Lock()


def _count_clock_sleeps() -> None:
    """Wrap the client's real clock's ``sleep`` (a fake clock overrides it and is not counted) to
    add the real seconds each call took to :data:`_clock_slept`."""
    from websearch_sync.client.clock import Clock

    real = Clock.sleep

    def sleep(self: Any, seconds: float) -> None:
        started = time.monotonic()
        try:
            real(self, seconds)
        finally:
            with _clock_lock:
                _clock_slept[0] += time.monotonic() - started

    Clock.sleep = sleep  # type: ignore[method-assign]


def pytest_configure(config: Any) -> None:
    """When pytest had started in this process (monotonic); the client clock's sleeps counted from here.
    The figures are written by the last of the config's cleanups (:func:`_write_figures`, added
    first: pytest runs them last in, first out, after every ``pytest_unconfigure``), so that what
    those end (the fork servers the tests share, ``tests/forkserver.py``'s ``shared``, whose
    children's CPU reaches this process only when the server is waited for) is counted."""
    _marks["configured_at"] = time.monotonic()
    _count_clock_sleeps()
    _time_walks()
    config.add_cleanup(lambda: _write_figures(config))


def pytest_collection_finish(session: Any) -> None:
    """The process's CPU so far: interpreter and pytest start, plugins, collection."""
    _marks["collected_cpu"] = _cpu(resource.getrusage(resource.RUSAGE_SELF))
    _marks["collected_at"] = time.monotonic()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
    """One test's own CPU, its waited-for children's CPU, its wall time, its start and end
    (monotonic), the real seconds its process slept through the client's clock meanwhile, and the
    loggers in ``logging``'s table at its start."""
    loggers = len(logging.Logger.manager.loggerDict)
    own, children, wall = time.process_time(), _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)), time.monotonic()
    slept = _clock_slept[0]
    yield
    end = time.monotonic()
    _tests[item.nodeid] = [
        time.process_time() - own,
        _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - children,
        end - wall,
        wall,
        end,
        _clock_slept[0] - slept,
        loggers,
    ]


#: CPU seconds of pytest's walks of ``logging``'s table in this process (:func:`_time_walks`).
_walked = [0.0]


def _time_walks() -> None:
    """Time each ``catching_logs.__enter__`` of pytest's logging plugin (one walk of ``logging``'s
    table, six a test) where it runs, amid the tests (a walk timed in a loop of its own stays in
    the CPU's caches and took half as long). The thread's CPU (``thread_time``, about 0.7 us a call,
    partly counted): wall time (``perf_counter``) counted a loaded machine's waits for a core too."""
    from _pytest.logging import catching_logs

    enter = catching_logs.__enter__

    def timed(self: Any) -> Any:
        started = time.thread_time()
        try:
            return enter(self)
        finally:
            _walked[0] += time.thread_time() - started

    catching_logs.__enter__ = timed  # type: ignore[method-assign]


def pytest_unconfigure(config: Any) -> None:
    """This process's CPU (its own, its waited-for children's) as pytest's unconfiguring starts."""
    _marks["unconfigured_at"] = time.monotonic()
    _marks["self_cpu"] = _cpu(resource.getrusage(resource.RUSAGE_SELF))
    _marks["children_cpu"] = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))


def _write_figures(config: Any) -> None:
    """Write this process's figures to the driver's folder, once every other cleanup has run."""
    folder = os.environ.get(OUT_ENV)
    if not folder:
        return
    worker = getattr(config, "workerinput", {}).get("workerid", "controller")
    record = {
        "worker": worker,
        "collected_cpu": _marks.get("collected_cpu", 0.0),
        "configured_at": _marks.get("configured_at", 0.0),
        "collected_at": _marks.get("collected_at", 0.0),
        "ended_at": _marks.get("unconfigured_at", 0.0),
        "self_cpu": _marks.get("self_cpu", 0.0),
        "children_cpu": _marks.get("children_cpu", 0.0),
        "cleaned_at": time.monotonic(),
        "cleaned_self_cpu": _cpu(resource.getrusage(resource.RUSAGE_SELF)),
        "cleaned_children_cpu": _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)),
        "loggers": len(logging.Logger.manager.loggerDict),
        "walked": _walked[0],
        "tests": _tests,
    }
    Path(folder, "%s-%d.json" % (worker, os.getpid())).write_text(json.dumps(record))


# ---- the driver ----


#: Tests that ran with at least this many loggers in their worker's table are counted apart.
MANY_LOGGERS = 200


def loggers_report(workers: list[dict[str, Any]]) -> None:
    """Per worker: its tests' mean loggers in the table, how many ran with :data:`MANY_LOGGERS` or
    more, and the CPU of pytest's walks of the table (six a test, and a few for the session)."""
    if not all("walked" in record for record in workers):
        return
    print("  loggers in the table at each test (pytest walks it 6 times a test):")
    for record in sorted(workers, key=lambda r: r["worker"]):
        counts = [figures[6] for figures in record["tests"].values() if len(figures) > 6]
        if counts:
            print(
                "    %-10s mean %4.0f, %5d of %5d tests with %d or more, %d at the end; walks %.2f s"
                % (
                    record["worker"],
                    sum(counts) / len(counts),
                    sum(count >= MANY_LOGGERS for count in counts),
                    len(counts),
                    MANY_LOGGERS,
                    record["loggers"],
                    record["walked"],
                )
            )
    print("    walks in every worker %.2f s" % sum(record["walked"] for record in workers))


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
    rest = total_cpu - start - own - kids
    print("  the rest (controller, worker teardown, unwaited processes) %.1f s" % rest)
    if all("cleaned_self_cpu" in record for record in records):
        controller = [r for r in records if r["worker"] == "controller"]
        late_kids = sum(r["cleaned_children_cpu"] - r["children_cpu"] for r in workers)
        late_self = sum(r["cleaned_self_cpu"] - r["self_cpu"] for r in workers)
        between = sum(r["self_cpu"] - r["collected_cpu"] for r in workers) - own
        print(
            "    of which: the controller %.1f s; in the workers, between tests %.1f s, unconfigure and"
            " cleanups %.1f s, children waited for by the cleanups (the shared fork servers) %.1f s;"
            " the workers' exit and processes nobody waited for %.1f s"
            % (
                sum(r["cleaned_self_cpu"] for r in controller),
                between,
                late_self,
                late_kids,
                rest - sum(r["cleaned_self_cpu"] for r in controller) - between - late_self - late_kids,
            )
        )
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
    loggers_report(workers)
    for depth, title in ((1, "directory"), (2, "module")):
        groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
        for nodeid, (cpu, child, spent, *_) in tests.items():
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
    for nodeid, (cpu, child, spent, *_) in sorted(tests.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:top]:
        print("  %6.2f %6.2f %6.2f  %s" % (cpu + child, child, spent, nodeid))
    print("\ntop %d tests by wall (wall, own + children CPU):" % top)
    for nodeid, (cpu, child, spent, *_) in sorted(tests.items(), key=lambda kv: -kv[1][2])[:top]:
        print("  %6.2f %6.2f  %s" % (spent, cpu + child, nodeid))
    slept = {nodeid: figures[5] for nodeid, figures in tests.items() if len(figures) > 5 and figures[5] > 0.005}
    if slept:
        print(
            "\nreal seconds slept through the client's clock: %.1f s in %d tests; top %d (slept, wall):"
            % (sum(slept.values()), len(slept), top)
        )
        for nodeid, seconds in sorted(slept.items(), key=lambda kv: -kv[1])[:top]:
            print("  %6.2f %6.2f  %s" % (seconds, tests[nodeid][2], nodeid))


def _unit_of() -> Any:
    """The suite's scheduler's unit of a test (``tests/scheduling.py``: its module, or a group)."""
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from scheduling import unit_of  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "tests"))
    return unit_of


def _profile(events: list[tuple[float, float]], since: float, until: float) -> dict[float, float]:
    """Wall seconds spent at each level of a step function given as (time, change) events, from ``since``."""
    spent: dict[float, float] = defaultdict(float)
    level, at = 0.0, since
    for when, change in sorted(events):
        spent[round(level, 6)] += max(0.0, when - at)
        level, at = level + change, max(at, when)
    spent[round(level, 6)] += max(0.0, until - at)
    return spent


def _threads_of(pid: int) -> list[str]:
    """The paths of the ``stat`` of every thread of ``pid`` and of its descendants."""
    found, pending = [], [pid]
    while pending:
        process = pending.pop()
        try:
            tasks = os.listdir("/proc/%d/task" % process)
            for task in tasks:
                found.append("/proc/%d/task/%s/stat" % (process, task))
                with open("/proc/%d/task/%s/children" % (process, task)) as children:
                    pending.extend(int(child) for child in children.read().split())
        except OSError:  # the process ended while it was read
            continue
    return found


def sample_runnable(pid: int, period: float, samples: list[tuple[float, int]]) -> None:
    """Every ``period`` until ``pid`` ends: how many threads of the run (the pytest process and every
    descendant) are runnable, i.e. running or waiting for a core (state ``R``)."""
    while os.path.exists("/proc/%d" % pid):
        runnable = 0
        for path in _threads_of(pid):
            try:
                with open(path) as stat:
                    runnable += stat.read().rsplit(")", 1)[1].split()[0] == "R"
            except (OSError, IndexError):
                continue
        samples.append((time.monotonic(), runnable))
        time.sleep(period)


def _runnable_report(samples: list[tuple[float, int]], phases: list[tuple[str, float, float]]) -> None:
    """Per phase of the run, the wall with 0, 1 and 2 or more runnable threads (from the samples)."""
    print("  runnable threads of the run (sampled every %.2f s), wall with 0 / 1 / 2+:" % SAMPLE_PERIOD)
    for name, since, until in phases:
        spent = [0.0, 0.0, 0.0]
        for (at, runnable), (following, _) in zip(samples, samples[1:]):
            overlap = min(following, until) - max(at, since)
            if overlap > 0:
                spent[min(runnable, 2)] += overlap
        print(
            "    %-28s %6.1f s: %5.1f / %5.1f / %5.1f s; under 2 cores used: %.1f s"
            % (name, until - since, spent[0], spent[1], spent[2], spent[0] + spent[1] / 2)
        )


def timeline(run: dict[str, Any], top: int) -> None:
    """When each worker worked, how many were busy when, what ran last, and the cores left unused."""
    workers = [r for r in run["records"] if r["worker"] != "controller" and r["tests"]]
    if "started" not in run or not workers or len(next(iter(workers[0]["tests"].values()))) < 5:
        print("\nno timeline: the run's figures have no start and end of each test (an older --json)")
        return
    started, wall = run["started"], run["wall"]
    print("\ntimeline (seconds from the start of the run):")
    print("  worker  pytest up  collected  first test  last test ends  exit  busy in tests  tests")
    finished = []
    for record in sorted(workers, key=lambda r: r["worker"]):
        runs = sorted(t[3:5] for t in record["tests"].values())
        finished.append(runs[-1][1] - started)
        print(
            "  %-6s  %9.1f  %9.1f  %10.1f  %14.1f  %4.1f  %13.1f  %5d"
            % (
                record["worker"],
                record["configured_at"] - started,
                record["collected_at"] - started,
                runs[0][0] - started,
                runs[-1][1] - started,
                record["ended_at"] - started,
                sum(end - begin for begin, end in runs),
                len(runs),
            )
        )
    finished.sort()
    first = min(t[3] for r in workers for t in r["tests"].values()) - started
    last = finished[-1]
    print("  tests ran from %.1f s to %.1f s; pytest ended at %.1f s" % (first, last, wall))
    print(
        "  the end: %s"
        % ", ".join(
            "%d busy for %.1f s" % (alone, last - finished[len(finished) - 1 - alone])
            for alone in range(1, len(finished))
        )
    )
    busy_events: list[tuple[float, float]] = []
    want_events: list[tuple[float, float]] = []
    for record in workers:
        for own, child, spent, begin, end, *_ in record["tests"].values():
            busy_events += [(begin - started, 1), (end - started, -1)]
            rate = min(1.0, (own + child) / spent) if spent > 0 else 0.0
            want_events += [(begin - started, rate), (end - started, -rate)]
    busy = _profile(busy_events, first, last)
    print("  workers in a test: %s" % ", ".join("%d for %.1f s" % (n, busy[n]) for n in sorted(busy) if busy[n] > 0.05))
    # Each running test wants (its CPU / its wall) of a core: one that sleeps or waits wants little.
    wants = _profile(want_events, first, last)
    short = {level: spent for level, spent in wants.items() if level < 2 - 1e-6}
    print(
        "  while tests ran, the running tests wanted under 2 cores for %.1f s (%.1f core-seconds unused)"
        % (sum(short.values()), sum((2 - level) * spent for level, spent in short.items()))
    )
    samples = [(at - started, runnable) for at, runnable in run.get("runnable", [])]
    if len(samples) > 1:
        _runnable_report(
            samples,
            [("start and collection", 0.0, first), ("tests", first, last), ("after the last test", last, wall)],
        )
    print("  the units each worker ran last (start-end, wall, CPU):")
    unit_of = _unit_of()
    for record in sorted(workers, key=lambda r: r["worker"]):
        units: dict[str, list[float]] = {}
        for nodeid, (own, child, _, begin, end, *_) in record["tests"].items():
            unit = units.setdefault(unit_of(nodeid), [begin, end, 0.0])
            unit[0], unit[1], unit[2] = min(unit[0], begin), max(unit[1], end), unit[2] + own + child
        tail = sorted(units.items(), key=lambda kv: kv[1][1])[-max(1, top // 3) :]
        print(
            "    %s: %s"
            % (
                record["worker"],
                "; ".join(
                    "%s %.1f-%.1f (%.1f, %.1f)" % (name.removeprefix("tests/"), b - started, e - started, e - b, cpu)
                    for name, (b, e, cpu) in tail
                ),
            )
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json", help="write the per-test figures here")
    parser.add_argument("--report", metavar="JSON", help="print the figures of an earlier run's --json; run nothing")
    parser.add_argument(
        "--with-cache",
        action="store_true",
        help="keep pytest's cache (a developer's second run: the rewritten test modules and the mypy cache kept); "
        "without it every run starts as a fresh clone does",
    )
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    if args.report:
        run = json.loads(Path(args.report).read_text())
        report(run["records"], run["wall"], run["cpu"], args.top)
        timeline(run, args.top)
        return 0
    with tempfile.TemporaryDirectory(prefix="suite-time-") as folder:
        env = dict(os.environ, **{OUT_ENV: folder})
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bench"), env.get("PYTHONPATH")]))
        cache = [] if args.with_cache else ["-p", "no:cacheprovider"]
        load_before = os.getloadavg()
        before = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
        started = time.monotonic()
        with subprocess.Popen(
            [sys.executable, "-m", "pytest", *cache, "-p", "suite_time", "-q", *args.pytest_args],
            cwd=str(ROOT),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        ) as done:
            samples: list[tuple[float, int]] = []
            sampler = threading.Thread(target=sample_runnable, args=(done.pid, SAMPLE_PERIOD, samples), daemon=True)
            sampler.start()
            output = done.communicate()[0]
        wall = time.monotonic() - started
        total = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - before
        sampler.join()
        lines = output.rstrip().splitlines()
        # a failure seen once in a whole run (a flake under load) is only worth its traceback: keep it
        failures = [i for i, line in enumerate(lines) if line.lstrip("=").startswith(" FAILURES ")]
        print("\n".join(lines[failures[0] :] if failures else lines[-3:]))
        records = [json.loads(p.read_text()) for p in sorted(Path(folder).glob("*.json"))]
    print(
        "load average before %s, after %s"
        % (" ".join("%.1f" % x for x in load_before), " ".join("%.1f" % x for x in os.getloadavg()))
    )
    run = {"wall": wall, "cpu": total, "started": started, "runnable": samples, "records": records}
    report(records, wall, total, args.top)
    timeline(run, args.top)
    if args.json:
        Path(args.json).write_text(json.dumps(run))
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())

"""How the suite's tests would pack on N workers and C cores: a replay of a measured run.

    python bench/suite_packing.py RUN.json [--workers 3 4 5 6] [--cores 2] [--slowdown 1.5]

RUN.json is ``bench/suite_time.py --json``: each test's CPU (own + its child processes) and wall.
The replay hands the tests out with the suite's own scheduler (``tests/scheduling.py``, the
``loadscope`` units, the long ones first, the waiting ones spread), to simulated workers that run
one test at a time on C shared cores: a test needs its CPU seconds and waits the rest of its
wall (its wall less ``--slowdown`` times its CPU, the share of its wall it spent waiting for a
core in the measured run); when the running tests want more than C cores, each gets its share.

Printed per worker count: when the last test would end, the core-seconds left unused while the
tests ran, how far apart the workers finish, and the collection every worker pays before its
first test (its CPU in RUN.json, times N, over C cores). A model for choosing ``-n`` and the
scheduling on a host too busy to measure wall on: not a measurement; check a choice with
``bench/suite_time.py`` on an idle machine.
"""

import argparse
import json
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


class Worker:
    """A simulated xdist worker controller: the test indexes it was sent, in order."""

    def __init__(self, name: str) -> None:
        self.name, self.shutting_down, self.queue = name, False, []
        self.gateway = types.SimpleNamespace(id=name)

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.queue.extend(indexes)

    def shutdown(self) -> None:
        self.shutting_down = True


def collection_order(tests: dict[str, list[float]], scheduling: Any) -> list[str]:
    """The test ids as the workers order them: pytest's collection (``tests/`` then
    ``contract_tests/``, modules by path, a module's tests as they ran), then ``run_order``."""
    collected = sorted(tests, key=lambda nodeid: (nodeid.startswith("contract_tests/"), nodeid.split("::", 1)[0]))
    return [collected[i] for i in scheduling.run_order(collected)]


def replay(tests: dict[str, list[float]], workers: int, cores: int, slowdown: float) -> tuple[float, float, float]:
    """(end of the last test, core-seconds unused while tests ran, last worker's end - first's)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import scheduling  # type: ignore[import-not-found]

    scheduling.cores = lambda: cores
    collection = collection_order(tests, scheduling)
    config = types.SimpleNamespace(
        getvalue=lambda name: ["%d*popen" % workers], option=types.SimpleNamespace(loadscopereorder=False)
    )
    quiet = types.SimpleNamespace(loadscopesched=lambda *args: None)  # xdist's log, off
    sched = scheduling.make_scheduler(config, quiet)
    nodes = [Worker("gw%d" % i) for i in range(workers)]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    running: dict[Worker, list[float]] = {}  # node -> [index, work done, work to do, cores wanted]
    now, unused, finished = 0.0, 0.0, dict.fromkeys(nodes, 0.0)
    while True:
        for node in nodes:
            if node not in running and node.queue:
                own, children, wall = tests[collection[node.queue[0]]][:3]
                cpu = own + children
                length = cpu + max(0.0, wall - slowdown * cpu)
                running[node] = [node.queue.pop(0), 0.0, length, cpu / length if length else 0.0]
        if not running:
            return now, unused, max(finished.values()) - min(finished.values())
        wanted = sum(test[3] for test in running.values())
        speed = 1.0 if wanted <= cores else cores / wanted
        step = min((test[2] - test[1]) / speed for test in running.values())
        unused += max(0.0, cores - wanted) * step
        now += step
        for node, test in list(running.items()):
            test[1] += speed * step
            if test[1] >= test[2] - 1e-9:
                del running[node]
                finished[node] = now
                sched.mark_test_complete(node, int(test[0]))


def main() -> None:
    """Print the replay for each worker count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="a bench/suite_time.py --json file")
    parser.add_argument("--workers", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--slowdown", type=float, default=1.5, help="wall per CPU second of a test that computes")
    args = parser.parse_args()
    run = json.loads(Path(args.run).read_text())
    tests: dict[str, list[float]] = {}
    collecting = []
    for record in run["records"]:
        tests.update(record["tests"])
        if record["worker"] != "controller":
            collecting.append(record["collected_cpu"])
    per_worker = sum(collecting) / max(1, len(collecting))
    print("%d tests, CPU %.1f s; collection %.1f s of CPU a worker" % (len(tests), run["cpu"], per_worker))
    print("workers  tests end  unused core-s  finishes apart  + collection  = estimate")
    for workers in args.workers:
        end, unused, apart = replay(tests, workers, args.cores, args.slowdown)
        start = per_worker * workers / args.cores
        print("%7d  %9.1f  %13.1f  %14.1f  %12.1f  %10.1f" % (workers, end, unused, apart, start, end + start))


if __name__ == "__main__":
    main()

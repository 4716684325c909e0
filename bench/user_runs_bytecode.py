"""What the first user pytest run of an xdist worker costs, its bytecode kept per worker or per run.

    python bench/user_runs_bytecode.py [--rounds 4]

The tests that run a user's pytest suite (tests/user_pytest.py) fork it from a server per worker
(``shared_forks``); each run keeps its bytecode and pytest's rewriting of the library's modules
under a ``sys.pycache_prefix`` folder, so the runs after the first read them. Two servers stand
for two workers: in each round, a one-module user suite (tests/sockets/test_pytest_plugin.py's)
runs in the first server, then in the second, then in the first again, with the folder either
one per server (``own``, as before) or one for both (``shared``, ``user_pytest.run_folder``);
the two modes alternate in turns, their order swapped each round, on the same load. Printed per
run: its CPU (the forked child's own, user + system, from its exit) and its wall time; then the
medians side by side. Not a test: nothing is asserted.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from python_forks import PYTEST  # noqa: E402
from user_pytest import KEEP_BYTECODE, UserRuns, other_plugins  # noqa: E402

#: Prints the child's CPU since its fork as it exits (``interpreter_exit``: atexit runs).
CPU = (
    "import atexit, resource, sys\n"
    "atexit.register(lambda: sys.stderr.write('CPU %.3f\\n' % sum(resource.getrusage(resource.RUSAGE_SELF)[:2])))\n"
)
SUITE = (ROOT / "tests" / "sockets" / "test_pytest_plugin.py").read_text(encoding="utf-8")


def user_test() -> str:
    """The user test module of test_pytest_plugin.py (its ``USER_TEST``)."""
    namespace: dict = {}
    start = SUITE.index("USER_TEST = ")
    exec(SUITE[start : SUITE.index('""")', start) + 4], {"textwrap": __import__("textwrap")}, namespace)
    return namespace["USER_TEST"]


def one_run(forks: UserRuns, base: str) -> tuple[float, float]:
    """One user run in ``forks``: its CPU and wall seconds."""
    folder = tempfile.mkdtemp(dir=base)
    Path(folder, "test_user.py").write_text(user_test(), encoding="utf-8")
    code = CPU + KEEP_BYTECODE % forks.kept + PYTEST
    arguments = ["-q", "-p", "no:cacheprovider", *other_plugins(), folder]
    started = time.monotonic()
    done = forks.run(code, dict(os.environ), *arguments, cwd=folder, timeout=300)
    wall = time.monotonic() - started
    if done.returncode != 0 or "2 passed" not in done.stdout:
        raise SystemExit("the user run failed:\n" + done.stdout + done.stderr)
    cpu = [line for line in done.stderr.splitlines() if line.startswith("CPU ")]
    return float(cpu[-1].split()[1]), wall


def one_round(mode: str, base: str) -> list[tuple[float, float]]:
    """The three runs (first server, second server, first again) with ``mode``'s folders."""
    shared = tempfile.mkdtemp(dir=base) if mode == "shared" else None
    first, second = UserRuns(shared), UserRuns(shared)
    try:
        return [one_run(first, base), one_run(second, base), one_run(first, base)]
    finally:
        first.close()
        second.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    rounds = parser.parse_args().rounds
    figures: dict[str, list[list[tuple[float, float]]]] = {"own": [], "shared": []}
    names = ("1st server, 1st run", "2nd server, 1st run", "1st server, 2nd run")
    with tempfile.TemporaryDirectory(prefix="bench-user-runs-") as base:
        for number in range(rounds):
            order = ("own", "shared") if number % 2 == 0 else ("shared", "own")
            for mode in order:
                runs = one_round(mode, base)
                figures[mode].append(runs)
                shown = "  ".join("%.2f s CPU (%.2f s wall)" % run for run in runs)
                print("round %d %-6s %s  load %.1f" % (number + 1, mode, shown, os.getloadavg()[0]), flush=True)
    print("\nmedians, CPU (wall)        own               shared")
    for index, name in enumerate(names):
        cells = []
        for mode in ("own", "shared"):
            cpu = statistics.median(runs[index][0] for runs in figures[mode])
            wall = statistics.median(runs[index][1] for runs in figures[mode])
            cells.append("%.2f s (%.2f s)" % (cpu, wall))
        print("%-22s %-17s %s" % (name, *cells))


if __name__ == "__main__":
    main()

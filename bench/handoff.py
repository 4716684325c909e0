"""What the browser wire's Ctrl-C hand-off costs a request, alone: this checkout's and another
revision's :func:`websearch_sync.net.interrupt.run_interruptibly`, side by side.

    python bench/handoff.py [--rev REV] [--calls N] [--rounds N] [--no-valgrind]

Each call hands a blocking socket round trip (a byte sent and read back on a socket pair: what a
transfer does, minus libcurl) to the helper thread, from the main thread with SIGINT handled by
Python, as a program's search does; ``inline`` runs the same round trip in the calling thread
(SIGINT ignored: no hand-off). Printed: the process CPU and the voluntary context switches per
call, best of ``--rounds`` interleaved rounds; then, unless ``--no-valgrind``, the instructions
per call counted by cachegrind (a run of ``N + 1000`` calls less one of 1000, over ``N``), which
the machine's load does not move.
"""

import argparse
import os
import resource
import signal
import socket
import sys
import tempfile
from pathlib import Path
from typing import Callable, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import search_ab  # noqa: E402
from cachegrind import instructions  # noqa: E402

_FIRST = 1000


def caller(package: str) -> Callable[[], None]:
    """One hand-off of a socket round trip through ``package``'s ``run_interruptibly``."""
    import importlib

    run_interruptibly = importlib.import_module(package + ".net.interrupt").run_interruptibly
    left, right = socket.socketpair()

    def round_trip() -> None:
        left.send(b"x")
        right.recv(1)

    def nothing() -> None:
        pass

    def call() -> None:
        run_interruptibly(round_trip, abandon=nothing, release=nothing)

    return call


def cpu(callers: dict, calls: int, rounds: int) -> None:
    """The CPU table."""
    best = {name: (float("inf"), 0.0) for name in callers}
    for round_ in range(rounds):
        names = list(callers)
        turn = round_ % len(names)
        for name in names[turn:] + names[:turn]:
            ignored = name == "inline"
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if ignored else None
            before = resource.getrusage(resource.RUSAGE_SELF)
            for _ in range(calls):
                callers[name]()
            after = resource.getrusage(resource.RUSAGE_SELF)
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
            spent = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / calls
            if spent < best[name][0]:
                best[name] = (spent, (after.ru_nvcsw - before.ru_nvcsw) / calls)
    print("CPU per call, best of %d rounds of %d:" % (rounds, calls))
    for name, (spent, switches) in best.items():
        print("   %-14s %6.2f us  %4.2f voluntary switches" % (name, spent * 1e6, switches))


def counted(package: str, calls: int, path: list) -> int:
    return instructions([__file__, "--run", package, str(calls)], dict(os.environ, PYTHONPATH=os.pathsep.join(path)))


def main(argv: Optional[list] = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="also the package at this git revision")
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--no-valgrind", action="store_true")
    parser.add_argument("--run", nargs=2, help=argparse.SUPPRESS)  # the child run under valgrind
    args = parser.parse_args(argv)
    if args.run:
        call = caller(args.run[0])
        for _ in range(int(args.run[1])):
            call()
        return 0
    with tempfile.TemporaryDirectory() as directory:
        packages = {"this checkout": "websearch_sync"}
        if args.rev:
            search_ab.export(args.rev, Path(directory))
            sys.path.insert(0, directory)
            packages[args.rev] = search_ab.OTHER
        callers = {name: caller(package) for name, package in packages.items()}
        callers["inline"] = callers["this checkout"]
        cpu(callers, args.calls, args.rounds)
        if not args.no_valgrind:
            path = [directory, str(HERE.parent)]
            calls = max(1000, args.calls // 2)
            print("instructions per call (cachegrind, %d calls):" % calls)
            for name, package in packages.items():
                small = counted(package, _FIRST, path)
                large = counted(package, _FIRST + calls, path)
                print("   %-14s %7.0f" % (name, (large - small) / calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())

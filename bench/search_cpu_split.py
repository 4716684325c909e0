"""Where a warm search's client CPU goes: user and system time, thread switches and system calls per
search, of this checkout (and another revision beside it), with Ctrl-C's hand-off and without it,
and of ddgs's DuckDuckGo engine, side by side in one run.

    python bench/search_cpu_split.py [--rev REV] [--wire chrome off] [--searches N] [--batches N] [--no-strace]

The same loopback upstream and recorded page as ``bench/search_ab.py`` (figure 2 of
``bench/transport.py``). Each of our clients runs twice: as a program runs it (SIGINT handled by
Python, so the browser wire hands libcurl's transfer to a helper thread that Ctrl-C does not wait
for, :mod:`websearch_sync.net.interrupt`) and with SIGINT ignored (``SIG_IGN``: no Ctrl-C can come,
the transfer runs in the calling thread), the difference being what the hand-off costs. Printed, per
contender: the best batch's process CPU per search (user + system, all threads) and its split
(``getrusage``: the kernel splits the time by sampling, so the split is rougher than the sum), the
mean of batches, and voluntary and involuntary context switches a search; then, unless
``--no-strace``, the system calls a search makes (``strace -c -f`` of a child process running
``20 + N`` searches less one running 20, over ``N``), by call.
"""

import argparse
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import search_ab  # noqa: E402
import transport  # noqa: E402

#: The searches both strace runs make first; the counted run makes ``--strace-searches`` more.
_FIRST = 20
#: One line of ``strace -c``'s table: ``% time, seconds, usecs/call, calls, [errors,] syscall``.
_STRACE_ROW = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$")


def contenders(wires: list, rev: Optional[str]) -> list:
    """``(label, package, wire, sigint ignored)`` of each contender, ddgs's engine (``wire`` ``ddgs``) last."""
    packages = [("this", "websearch_sync")] + ([(rev, search_ab.OTHER)] if rev else [])
    made = []
    for wire in wires:
        for name, package in packages:
            made.append(("%s %s" % (name, wire), package, wire, False))
            made.append(("%s %s SIG_IGN" % (name, wire), package, wire, True))
    return made + [("ddgs", "", "ddgs", False)]


def searcher(package: str, wire: str, url: str) -> Callable[[str], None]:
    """A search function of ``package``'s client on ``wire``, or ddgs's engine."""
    if wire == "ddgs":
        made = transport.ddgs_engine(url)
        assert made is not None, "ddgs is not installed (pip install ddgs)"
        return made[0]
    return search_ab.client(package, url, wire, [])


def ignoring(ignored: bool, run: Callable[[], None]) -> None:
    """``run()``, with SIGINT ignored when ``ignored``."""
    if not ignored:
        run()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        run()
    finally:
        signal.signal(signal.SIGINT, previous)


def usage() -> tuple:
    """This process's user and system CPU seconds and its voluntary and involuntary context switches."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime, used.ru_stime, used.ru_nvcsw, used.ru_nivcsw


def times(listed: list, url: str, searches: int, batches: int) -> None:
    """The CPU table: every contender in turns, batch after batch."""
    made = {}
    for _, package, wire, _ in listed:
        key = (package, wire)
        if key not in made:
            made[key] = searcher(package, wire, url)
            for index in range(30):
                made[key]("warm up %d" % index)
    size = max(1, searches // batches)
    figures: dict = {label: [] for label, *_ in listed}
    for batch in range(batches):
        turn = batch % len(listed)  # each contender in each place in turn: the one after ddgs finds colder caches
        for label, package, wire, ignored in listed[turn:] + listed[:turn]:
            search = made[(package, wire)]

            def run(search: Callable[[str], None] = search, batch: int = batch) -> None:
                for index in range(size):
                    search("query %d %d" % (batch, index))

            before = usage()
            ignoring(ignored, run)
            after = usage()
            figures[label].append([(b - a) / size for a, b in zip(before, after)])
    print("client CPU per warm search, %d batches of %d (us; switches a search):" % (batches, size))
    ddgs = min(sum(row[:2]) for row in figures["ddgs"])
    ddgs_median = sorted(sum(row[:2]) for row in figures["ddgs"])[len(figures["ddgs"]) // 2]
    for label, rows in figures.items():
        rows = sorted(rows, key=lambda row: row[0] + row[1])
        best, median = rows[0], rows[len(rows) // 2]
        mean = [sum(column) / len(rows) for column in zip(*rows)]
        print(
            "   %-26s best %5.0f (user %5.0f sys %4.0f)  median %5.0f  mean %5.0f (user %5.0f sys %4.0f)"
            "  switches %4.1f + %4.1f  / ddgs: best %.3f median %.3f"
            % (
                label,
                (best[0] + best[1]) * 1e6,
                best[0] * 1e6,
                best[1] * 1e6,
                sum(median[:2]) * 1e6,
                (mean[0] + mean[1]) * 1e6,
                mean[0] * 1e6,
                mean[1] * 1e6,
                mean[2],
                mean[3],
                (best[0] + best[1]) / ddgs,
                sum(median[:2]) / ddgs_median,
            )
        )


def run_child(package: str, wire: str, ignored: bool, url: str, count: int) -> None:
    """``--run``: ``count`` searches of one contender (under strace)."""
    search = searcher(package, wire, url)

    def run() -> None:
        for index in range(count):
            search("query %d" % index)

    ignoring(ignored, run)


def traced(arguments: list, path: list) -> dict:
    """The system calls of ``python ARGUMENTS...`` and its threads, by name (``strace -c -f``)."""
    with tempfile.TemporaryDirectory() as out:
        summary = os.path.join(out, "strace.txt")
        command = ["strace", "-f", "-c", "-o", summary, sys.executable, *arguments]
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
        subprocess.run(command, check=True, env=environment, stdout=subprocess.DEVNULL)
        with open(summary, encoding="utf-8") as handle:
            rows = [_STRACE_ROW.match(line) for line in handle]
    return {row.group(2): int(row.group(1)) for row in rows if row and row.group(2) != "total"}


def syscalls(listed: list, url: str, searches: int, directory: str) -> None:
    """The system call table: per search, by call, of each contender."""
    path = [directory, str(HERE.parent)]
    counts = {}
    for label, package, wire, ignored in listed:
        base = [__file__, "--run", package, wire, "1" if ignored else "0", url]
        small = traced(base + [str(_FIRST)], path)
        large = traced(base + [str(_FIRST + searches)], path)
        counts[label] = {name: (large.get(name, 0) - small.get(name, 0)) / searches for name in large}
    names = sorted({name for row in counts.values() for name, count in row.items() if count >= 0.05})
    print("system calls per warm search (strace -c -f, %d searches):" % searches)
    print("   %-26s %6s  %s" % ("", "total", "  ".join("%8s" % name[:8] for name in names)))
    for label, row in counts.items():
        print(
            "   %-26s %6.1f  %s" % (label, sum(row.values()), "  ".join("%8.1f" % row.get(name, 0.0) for name in names))
        )


def main(argv: Optional[list] = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="also the package at this git revision, in turns with this checkout")
    parser.add_argument("--wire", nargs="+", default=["chrome", "off"], choices=["chrome", "off"])
    parser.add_argument("--searches", type=int, default=2000, help="searches timed per contender (default 2000)")
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--strace-searches", type=int, default=200, help="searches counted under strace")
    parser.add_argument("--no-strace", action="store_true")
    parser.add_argument("--run", nargs=5, help=argparse.SUPPRESS)  # the child run under strace
    args = parser.parse_args(argv)
    if args.run:
        package, wire, ignored, url, count = args.run
        run_child(package, wire, ignored == "1", url, int(count))
        return 0
    child, url = transport.serve_elsewhere(False)
    try:
        with tempfile.TemporaryDirectory() as directory:
            if args.rev:
                search_ab.export(args.rev, Path(directory))
                sys.path.insert(0, directory)
            listed = contenders(args.wire, args.rev)
            times(listed, url, args.searches, args.batches)
            if not args.no_strace:
                syscalls(listed, url, args.strace_searches, directory)
    finally:
        child.kill()
        child.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())

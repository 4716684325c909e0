"""Instructions per pass over a development set, of readability-lxml, ``extract_html`` and the
whole fetch path, counted by valgrind's cachegrind: a figure the machine's load does not move
(CPU time under a load of 5-20 on 2 CPUs moves by 20-40% between runs).

    python bench/extraction_instructions.py [--set NAME ...] [--system NAME ...] [--passes N]

For each set and system: the instructions of this client process (user space, the loopback
server's child process left out) for a run of ``N`` passes over the pages minus a run of none,
over ``N`` (each run makes one warm-up pass first), and each system's over readability-lxml's.
What it does not count: the kernel's side of a loopback exchange and the cost of memory stalls,
which CPU time weighs (``bench/extraction.py --cpu`` times them). Needs ``valgrind`` on the PATH;
about a minute a run on the structures set, several on the article sets. ``--system fetch-mock``:
the fetch path with each page answered in the process (``loopback_fetch.mock_fetch_system``: no
socket, no wait, no hand-off of a transfer), so fetch's own work and the extraction alone; less
``extract_html``'s count, fetch's own work a pass. ``fetch`` sends on the wire a default client
of this install uses (the browser wire with the ``browser`` extra).
"""

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from cachegrind import instructions  # noqa: E402
from extraction import DEFAULT_SETS, baseline_text, load, ours_text  # noqa: E402

SYSTEMS = ("readability-lxml", "extract_html", "fetch", "fetch-mock")
#: Each fetch's deadline under valgrind (about 50 times slower than the machine).
_SLOW_DEADLINE_MS = 600_000


def passes(set_dir: str, system: str, count: int) -> None:
    """One warm-up pass of ``system`` over the set's pages, then ``count`` passes (run under valgrind)."""
    htmls = [html for _, html, _ in load(set_dir)]
    with contextlib.ExitStack() as stack:
        if system == "fetch":
            from loopback_fetch import fetch_system

            # a deadline the warm-up pass under valgrind meets: a first fetch past the default one
            # was abandoned, and its extraction went on in a thread, counted or not as it happened
            run = stack.enter_context(fetch_system(htmls, timeout_ms=_SLOW_DEADLINE_MS))
        elif system == "fetch-mock":
            from loopback_fetch import mock_fetch_system

            run = stack.enter_context(mock_fetch_system(htmls, timeout_ms=_SLOW_DEADLINE_MS))
        else:
            run = baseline_text if system == "readability-lxml" else ours_text
        for _ in range(count + 1):
            for html in htmls:
                run(html)


def counted(set_dir: str, system: str, count: int) -> int:
    """The client process's instructions for a run of ``count`` passes (and its warm-up)."""
    return instructions([__file__, "--run", set_dir, system, str(count)])


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", default=[], help="a development set's name (default: all three)")
    parser.add_argument("--system", action="append", default=[], choices=SYSTEMS, help="default: all but fetch-mock")
    parser.add_argument("--passes", type=int, default=1, help="passes counted (default 1)")
    parser.add_argument("--run", nargs=3, help=argparse.SUPPRESS)  # the child run under valgrind
    args = parser.parse_args(argv)
    if args.run:
        passes(args.run[0], args.run[1], int(args.run[2]))
        return 0
    sets = dict(DEFAULT_SETS)
    for name in args.set or list(sets):
        figures = {}
        for system in args.system or SYSTEMS[:3]:
            figures[system] = (counted(sets[name], system, args.passes) - counted(sets[name], system, 0)) / args.passes
        base = figures.get("readability-lxml")
        for system, count in figures.items():
            ratio = " (%.3f of readability-lxml)" % (count / base) if base else ""
            print("%-12s %-17s %8.1f M instructions a pass%s" % (name, system, count / 1e6, ratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())

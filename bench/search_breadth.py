"""How much Python one warm search runs, ours beside ddgs's engine: a figure the machine's load does not move.

    python bench/search_breadth.py [--searches N] [--wire chrome|off|ddgs ...] [--top N]

The same loopback upstream and recorded DuckDuckGo page as figure 2 of ``bench/transport.py``
(served from another process). After 30 warm-up searches, ``N`` searches run in a thread of their
own (where the browser wire hands no transfer to a helper, so every line of the search is in the
traced thread) under ``sys.settrace``; printed per search: the Python lines run and the distinct
Python functions they belong to, by package (``websearch_sync``'s by subpackage), then the
functions that run the most lines. ``ddgs`` is ddgs's DuckDuckGo engine (``pip install ddgs``;
skipped with a message when missing).

A warm search's CPU time on this project goes mostly to the interpreter running its own code
(docs/performance.md); CPU time on a shared machine moves by a fifth between runs, the count of
lines does not move at all, so it tells whether a cut removed work.
"""

import argparse
import collections
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import transport  # noqa: E402  (bench/transport.py: the upstream and the contenders)

_PACKAGE = "websearch_sync/"
_SITE = "site-packages/"


def where(filename: str) -> str:
    """A code object's file as printed: ``websearch_sync``'s relative to it, a third party's
    relative to ``site-packages``, the standard library's by its name."""
    if _PACKAGE in filename:
        return filename.rsplit(_PACKAGE, 1)[1]
    if _SITE in filename:
        return filename.rsplit(_SITE, 1)[1]
    return filename.rsplit("/", 1)[-1]


def group(place: str) -> str:
    """The package (``websearch_sync``'s subpackage) a :func:`where` place belongs to."""
    return place.split("/", 1)[0] if "/" in place else place


def traced(search: Callable[[str], None], searches: int) -> tuple[collections.Counter, dict]:
    """Lines run per function (``place:qualname``) over ``searches`` searches, and each place's code objects."""
    lines: collections.Counter = collections.Counter()
    codes: dict = collections.defaultdict(set)

    def line(frame: FrameType, event: str, arg: Any) -> Optional[Callable[..., Any]]:
        if event == "line":
            code = frame.f_code
            place = where(code.co_filename)
            lines[place + ":" + code.co_qualname] += 1
            codes[place].add(code)
        return line

    def call(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        return line

    sys.settrace(call)
    try:
        for index in range(searches):
            search("query %d" % index)
    finally:
        sys.settrace(None)
    return lines, codes


def measure(wire: str, url: str, searches: int, top: int) -> None:
    made = transport.ddgs_engine(url) if wire == "ddgs" else transport.ours(url, wire)
    if made is None:
        print("== ddgs: not installed (pip install ddgs to compare): skipped")
        return
    search, close = made
    outcome: list = []

    def run() -> None:
        for index in range(30):
            search("warm up %d" % index)
        outcome.append(traced(search, searches))

    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    finally:
        close()
    lines, codes = outcome[0]
    by_group: collections.Counter = collections.Counter()
    functions: collections.Counter = collections.Counter()
    for name, count in lines.items():
        by_group[group(name.split(":", 1)[0])] += count
    for place, objects in codes.items():
        functions[group(place)] += len(objects)
    total = sum(lines.values()) / searches
    print(
        "== %s: %.0f lines of Python a search, in %d distinct functions"
        % (wire, total, sum(len(objects) for objects in codes.values()))
    )
    for name, count in by_group.most_common():
        if count / searches >= 1:
            print("   %-30s %6.0f lines  %4d functions" % (name, count / searches, functions[name]))
    print("   the functions that run the most lines:")
    for name, count in lines.most_common(top):
        print("   %6.0f  %s" % (count / searches, name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=20)
    parser.add_argument("--wire", nargs="+", default=["chrome", "off", "ddgs"], choices=["chrome", "off", "ddgs"])
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    child, url = transport.serve_elsewhere(False)
    try:
        for wire in args.wire:
            measure(wire, url, args.searches, args.top)
    finally:
        child.kill()
        child.wait()


if __name__ == "__main__":
    main()

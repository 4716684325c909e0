"""Instructions per warm search, counted by valgrind's cachegrind: ours (this checkout, and another
revision beside it) and ddgs's engine, a figure the machine's load barely moves.

    python bench/search_instructions.py [--rev REV] [--wire chrome|off|ddgs ...] [--searches N] [--repeat N]

The same loopback upstream and recorded DuckDuckGo page as figure 2 of ``bench/transport.py``
(served over http from another process, which valgrind does not follow). For each contender: the
client process's instructions (user space) for a run of ``20 + N`` searches less a run of 20, over
``N`` (each run makes the same 20 searches first: imports, first parses). Searches run in a thread
of their own (a web server's request thread: the browser wire runs the transfer there, without the
Ctrl-C hand-off) with a 600 s deadline (under valgrind the first parse outlasts the default 15 s).
``--in-main``: in the main thread instead, as a program searches: the
browser wire then hands each transfer to its Ctrl-C helper thread (:mod:`websearch_sync.net.interrupt`),
whose instructions are counted too (not its thread switches). ``--rev``: the package at that git revision, exported beside the checkout as
``bench/search_ab.py`` does, counted in turns with this checkout's (``REV`` and ``this`` on each
line). What it does not count: the kernel's side of the exchange, the waits' cost and memory
stalls, which CPU time weighs (``bench/search_ab.py``). The waits for the upstream still run more
or fewer steps as the machine is busier: one tree counted twice differs by up to about 70k
instructions a search. ``mock``: the client on the browser wire's request building with the page
answered in the process (``testing.MockWire``): no socket and no wait, so a count the load does
not move at all, of everything but the transfer itself. Needs ``valgrind`` on the PATH; about a
minute a count.
"""

import argparse
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Optional

from cachegrind import instructions

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

#: The searches both runs make first; the counted run makes ``--searches`` more.
_FIRST = 20
#: Each search's deadline under valgrind (about 50 times slower than the machine).
_SLOW_DEADLINE_MS = 600_000


def run(package: str, wire: str, url: str, count: int, in_main: bool = False) -> None:
    """``--run``: ``count`` searches of ``package``'s client (or ddgs's engine) in a thread of their
    own, or in the main thread (``in_main``)."""
    import importlib

    import transport

    if wire == "ddgs":
        made = transport.ddgs_engine(url)
        assert made is not None, "ddgs is not installed"
        search = made[0]
    else:
        ws = importlib.import_module(package)
        impersonate, given = wire, {}
        if wire == "mock":  # the browser's request building, answered in the process: no socket, no wait
            testing = importlib.import_module(package + ".testing")
            answer = testing.MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, transport.PAGE)
            impersonate, given = "chrome", {"wire": testing.MockWire(lambda request: answer)}
        settings = ws.Settings(endpoints={"ddg_html": url}, impersonate=impersonate, timeout_ms=_SLOW_DEADLINE_MS)
        client = ws.SearchClient("ddg_html", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0, **given)

        def search(query: str) -> None:
            assert client.search(query)["items"]

    def searches() -> None:
        for index in range(count):
            search("query %d" % index)

    if in_main:  # as a program runs it: the browser wire hands each transfer to its Ctrl-C helper
        searches()
        return
    thread = threading.Thread(target=searches)
    thread.start()
    thread.join()


def counted(package: str, wire: str, url: str, count: int, path: list, in_main: bool = False) -> int:
    """The client process's instructions for a run of ``count`` searches."""
    return instructions(
        [__file__, "--run", package, wire, url, str(count)] + (["--in-main"] if in_main else []),
        dict(os.environ, PYTHONPATH=os.pathsep.join(path)),
    )


def main(argv: Optional[list] = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", help="also count the package at this git revision, in turns with this checkout")
    parser.add_argument(
        "--wire", nargs="+", default=["chrome", "off", "ddgs"], choices=["chrome", "off", "mock", "ddgs"]
    )
    parser.add_argument("--searches", type=int, default=200, help="searches counted (default 200)")
    parser.add_argument("--repeat", type=int, default=1, help="counts of each contender, in turns (default 1)")
    parser.add_argument(
        "--in-main",
        action="store_true",
        help="search in the main thread, as a program does: the browser wire's Ctrl-C hand-off is counted",
    )
    parser.add_argument("--run", nargs=4, help=argparse.SUPPRESS)  # the child run under valgrind
    args = parser.parse_args(argv)
    if args.run:
        package, wire, url, count = args.run
        run(package, wire, url, int(count), args.in_main)
        return 0
    import search_ab
    import transport

    child, url = transport.serve_elsewhere(False)
    try:
        with tempfile.TemporaryDirectory() as directory:
            contenders = [("this", "websearch_sync", [str(HERE.parent)])]
            if args.rev:
                search_ab.export(args.rev, Path(directory))
                contenders.insert(0, (args.rev, search_ab.OTHER, [directory, str(HERE.parent)]))
            for _ in range(args.repeat):
                for wire in args.wire:
                    for name, package, path in contenders if wire != "ddgs" else [("ddgs", "", [])]:
                        small = counted(package, wire, url, _FIRST, path, args.in_main)
                        large = counted(package, wire, url, _FIRST + args.searches, path, args.in_main)
                        print(
                            "%-6s %-8s %6.3f M instructions a search"
                            % (wire, name, (large - small) / args.searches / 1e6),
                            flush=True,
                        )
    finally:
        child.kill()
        child.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())

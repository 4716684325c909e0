"""Client CPU per fetch of this checkout and of another revision, side by side in one process.

    python bench/fetch_ab.py REV [--set DIR] [--batches N] [--wire default|chrome|off|mock]

Two runs of ``bench/fetch_path.py`` a minute apart differ by more on this shared machine than
most single cuts of fetch's own work save. Here the package as it is at ``REV`` (``main``,
``HEAD~1``) is exported beside this checkout under another name (``bench/search_ab.py``'s
``export``), and both packages' ``SearchClient.fetch`` read the pages of a development set
(default: the structure pages, ``bench/extraction-structures/``, where fetch's own work weighs
most) from one loopback server in another process, in turns: batch after batch of one pass over
the pages each, this process's CPU time (all threads). ``--wire mock``: the page answered in the
process (``testing.MockWire``): no socket and no wait, so what is left is fetch's own work and
the extraction. Printed: each contender's best and mean pass (ms per page) and the ratio of this
checkout to ``REV``, with the load average before and after.
"""

import argparse
import importlib
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from extraction import load  # noqa: E402
from loopback_fetch import serve  # noqa: E402
from search_ab import OTHER, export  # noqa: E402


def fetcher(package: str, base: str, wire: str, pages: dict) -> Callable[[str], Any]:
    """``path -> text``: ``package``'s client fetching ``base + path`` (``mock``: answered in the process)."""
    ws: Any = importlib.import_module(package)
    given: dict = {}
    impersonate = None if wire == "default" else wire
    if wire == "mock":
        testing = importlib.import_module(package + ".testing")
        answers = {
            path: testing.MockResponse(200, {"Content-Type": "text/html; charset=utf-8"}, body)
            for path, body in pages.items()
        }
        impersonate, given = "chrome", {"wire": testing.MockWire(lambda request: answers[request.url[len(base) :]])}
    settings = ws.Settings(allow_private=True, impersonate=impersonate)
    client = ws.SearchClient("stub", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0, **given)

    def fetch(path: str) -> Any:
        try:
            return client.fetch(base + path, allow_private=True, extract_mode="text", max_chars=1_000_000)["text"]
        except ws.WebSearchError:
            return ""

    return fetch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--set", default=str(HERE / "extraction-structures"), help="a development set's folder")
    parser.add_argument("--batches", type=int, default=15)
    parser.add_argument("--wire", default="default", choices=["default", "chrome", "off", "mock"])
    args = parser.parse_args()
    pages = {"/%d" % index: html.encode("utf-8") for index, (_, html, _) in enumerate(load(args.set))}
    server, process = serve(pages)
    base = "http://127.0.0.1:%d" % server.server_address[1]
    load_before = os.getloadavg()[0]
    try:
        with tempfile.TemporaryDirectory() as directory:
            export(args.rev, Path(directory))
            sys.path.insert(0, directory)
            contenders = {
                args.rev: fetcher(OTHER, base, args.wire, pages),
                "this checkout": fetcher("websearch_sync", base, args.wire, pages),
            }
            for fetch in contenders.values():  # imports, first parses, the connection
                for path in pages:
                    fetch(path)
            best = dict.fromkeys(contenders, float("inf"))
            mean = dict.fromkeys(contenders, 0.0)
            for batch in range(args.batches):
                order = list(contenders) if batch % 2 == 0 else list(reversed(contenders))
                for name in order:
                    fetch = contenders[name]
                    started = time.process_time()
                    for path in pages:
                        fetch(path)
                    spent = (time.process_time() - started) / len(pages)
                    best[name] = min(best[name], spent)
                    mean[name] += spent / args.batches
    finally:
        process.terminate()
        process.join()
        server.server_close()
    print(
        "client CPU per fetch, %s wire, %d pages (%s), %d passes each, load %.1f -> %.1f:"
        % (args.wire, len(pages), os.path.basename(args.set.rstrip("/")), args.batches, load_before, os.getloadavg()[0])
    )
    for name in contenders:
        print("   %-14s best %7.1f us, mean %7.1f us" % (name, best[name] * 1e6, mean[name] * 1e6))
    print(
        "   this checkout / %s: best %.3f, mean %.3f"
        % (args.rev, best["this checkout"] / best[args.rev], mean["this checkout"] / mean[args.rev])
    )


if __name__ == "__main__":
    main()

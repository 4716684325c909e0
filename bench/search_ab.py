"""Client CPU per warm search of this checkout and of another revision, side by side in one process.

    python bench/search_ab.py REV [--searches N] [--batches N] [--wire chrome|off] [--clear NAME ...]

On a shared machine the CPU time of a search drifts by a fifth or more between two runs a minute
apart, more than most single cuts save, so two runs of ``bench/transport.py`` (one per version)
cannot tell a 3 % cut from noise. Here the package as it is at ``REV`` (a git revision: ``main``,
``HEAD~1``) is exported to a temporary directory under another name (``websearch_sync_ab``, every
mention of the package's name in its sources renamed), imported beside this checkout's package, and
the two clients (and ddgs's DuckDuckGo engine, when installed) take turns in batches of warm
searches against the same loopback upstream and recorded page as figure 2 of
``bench/transport.py``. Printed: each contender's best batch and mean of batches (process CPU per
search, all threads), and the ratios this checkout / ``REV`` and each / ddgs.

``--clear``: functions of this checkout's package cached with ``functools.lru_cache`` (dotted, from
the package: ``net.urls._result_form``) emptied before each of its searches: the bench answers every
search with the same page, so a cache of its URLs would hit on every search, where a page not seen
before misses.
"""

import argparse
import importlib
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import transport  # noqa: E402  (bench/transport.py: the upstream, the page, ddgs's engine)

OTHER = "websearch_sync_ab"


def export(rev: str, into: Path) -> None:
    """The package at ``rev``, renamed :data:`OTHER`, under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "websearch_sync"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    package = into / "websearch_sync"
    for path in package.rglob("*.py"):
        path.write_text(re.sub(r"\bwebsearch_sync\b", OTHER, path.read_text(encoding="utf-8")), encoding="utf-8")
    package.rename(into / OTHER)


def client(package: str, url: str, wire: str, clear: list) -> Callable[[str], None]:
    ws: Any = importlib.import_module(package)
    settings = ws.Settings(
        endpoints={"ddg_html": url}, impersonate=wire, ca_bundle=str(transport.TLS / "localhost.crt")
    )
    searcher = ws.SearchClient("ddg_html", settings=settings, cache_ttl_s=0, min_interval_s=0, retries=0)
    emptied = []
    for name in clear:
        module, _, function = name.rpartition(".")
        emptied.append(getattr(importlib.import_module(package + "." + module), function).cache_clear)

    def search(query: str) -> None:
        for empty in emptied:
            empty()
        assert searcher.search(query)["items"]

    return search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev")
    parser.add_argument("--searches", type=int, default=2000)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--wire", default="chrome", choices=["chrome", "off"])
    parser.add_argument("--clear", nargs="*", default=[])
    args = parser.parse_args()
    child, url = transport.serve_elsewhere(False)
    try:
        with tempfile.TemporaryDirectory() as directory:
            export(args.rev, Path(directory))
            sys.path.insert(0, directory)
            contenders = {
                args.rev: client(OTHER, url, args.wire, []),
                "this checkout": client("websearch_sync", url, args.wire, args.clear),
            }
            made = transport.ddgs_engine(url)
            if made is None:
                print("ddgs: not installed (pip install ddgs to compare): skipped")
            else:
                contenders["ddgs"] = made[0]
            for search in contenders.values():
                for index in range(30):
                    search("warm up %d" % index)
            size = max(1, args.searches // args.batches)
            best = dict.fromkeys(contenders, float("inf"))
            mean = dict.fromkeys(contenders, 0.0)
            for batch in range(args.batches):
                for name, search in contenders.items():
                    started = time.process_time()
                    for index in range(size):
                        search("query %d %d" % (batch, index))
                    spent = (time.process_time() - started) / size
                    best[name] = min(best[name], spent)
                    mean[name] += spent / args.batches
    finally:
        child.kill()
        child.wait()
    print("client CPU per warm search, %s wire, %d batches of %d:" % (args.wire, args.batches, size))
    for name in contenders:
        print("   %-14s best %6.0f us, mean %6.0f us" % (name, best[name] * 1e6, mean[name] * 1e6))
    ours, theirs = best["this checkout"], best[args.rev]
    print(
        "   this checkout / %s: best %.3f, mean %.3f"
        % (args.rev, ours / theirs, mean["this checkout"] / mean[args.rev])
    )
    if "ddgs" in best:
        print("   / ddgs (best): %s %.2f, this checkout %.2f" % (args.rev, theirs / best["ddgs"], ours / best["ddgs"]))


if __name__ == "__main__":
    main()

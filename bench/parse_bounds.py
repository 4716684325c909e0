"""What a hostile results page costs: parse time on nested pages, and CPU after a timeout.

    python bench/parse_bounds.py [--blocks N] [--results N]

1. Linear parsers (issue 23.1): for each HTML engine, the CPU time (this thread's) to
   read a page of N result blocks side by side and a page of the same blocks nested
   inside each other (tests/hostile_pages.py), and their ratio. Linear: about 1.
2. Abandoned work (issue 23.2): a DuckDuckGo page of R results (~9 MB at 40,000) parsed
   under a 300 ms deadline through ``run_within``, which abandons it; printed: the
   wall and CPU time its thread spends after the timeout, with checkpoints (today) and
   without them (the same parse in a thread nobody can stop: the behaviour before), side
   by side in one run.
3. Cheap checks first (issue 23.4): per recorded Bing/Yahoo/Mojeek results page and
   per bot wall with regexes, the wall's check (substring hints first, today) and its
   regexes alone (before: the Baidu test ran its regex on every answer).
4. A tag crowded with attributes (libxml2's duplicate check is quadratic in them): the CPU
   to parse a page whose one tag holds A attributes (``--attributes``) as it is (before)
   and thinned to its first 1024 then parsed (today), spaced, ``/``-separated and quoted
   without spaces; then the thinning's cost on the extraction development sets, per MB
   and per page (it changes none of them).
"""

import argparse
import os
import sys
import threading
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "reliability"))

from extraction import DEFAULT_SETS, load  # noqa: E402
from hostile_pages import ENGINES, flat_page, nested_page, parsers  # noqa: E402
from test_parse_deadline import huge_ddg_page  # noqa: E402

from websearch_sync.backends.ddg import parse_ddg_page  # noqa: E402
from websearch_sync.engine.registry import bot_walls  # noqa: E402
from websearch_sync.extract.crowded_tags import thin_crowded_tags  # noqa: E402
from websearch_sync.net.deadline import Deadline, DeadlinePassed, run_within  # noqa: E402

DEADLINE_MS = 300


def cpu_s(read: Callable[[str], object], text: str, repeat: int = 3) -> float:
    """Least thread CPU time of ``repeat`` reads."""
    best = float("inf")
    for _ in range(repeat):
        started = time.thread_time()
        read(text)
        best = min(best, time.thread_time() - started)
    return best


def after_timeout(thread: threading.Thread) -> tuple[float, float]:
    """(wall s, CPU s) ``thread`` spends from now until it ends (CPU polled every 5 ms)."""
    clock = time.pthread_getcpuclockid(thread.ident)
    started, cpu_start = time.monotonic(), time.clock_gettime(clock)
    cpu = cpu_start
    while thread.is_alive():
        try:
            cpu = time.clock_gettime(clock)
        except OSError:  # the thread ended between the check and the read
            break
        thread.join(0.005)
    return time.monotonic() - started, cpu - cpu_start


def abandoned(page: str, stoppable: bool) -> tuple[float, float]:
    """Wall and CPU seconds a parse abandoned at the deadline runs on."""
    work = lambda: parse_ddg_page(page, "ddg_html")  # noqa: E731
    if stoppable:
        try:
            run_within(Deadline(DEADLINE_MS), work, name="bench-parse")
        except DeadlinePassed:
            pass
        thread = next(t for t in threading.enumerate() if t.name == "bench-parse")
    else:  # before: a daemon thread the caller stops waiting for, and nothing stops
        thread = threading.Thread(target=work, name="bench-parse-unstoppable", daemon=True)
        thread.start()
        thread.join(DEADLINE_MS / 1000)
    return after_timeout(thread)


def main() -> None:
    """Print both tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--blocks", type=int, default=2000)
    parser.add_argument("--results", type=int, default=40_000)
    parser.add_argument("--attributes", type=int, default=50_000, help="of the crowded tag parsed unthinned")
    args = parser.parse_args()
    print("load average: %.2f %.2f %.2f" % os.getloadavg())
    print("\n1. parse CPU, %d result blocks: side by side vs nested" % args.blocks)
    print("%-12s %10s %10s %7s" % ("engine", "flat ms", "nested ms", "ratio"))
    readers = parsers()
    for engine in sorted(ENGINES):
        flat = cpu_s(readers[engine], flat_page(engine, args.blocks))
        nested = cpu_s(readers[engine], nested_page(engine, args.blocks))
        print("%-12s %10.1f %10.1f %7.2f" % (engine, flat * 1000, nested * 1000, nested / flat))
    page = huge_ddg_page(args.results).decode()
    whole = cpu_s(lambda text: parse_ddg_page(text, "ddg_html"), page, repeat=1)
    print(
        "\n2. a %.1f MB DuckDuckGo page (whole parse %.2f s CPU) abandoned at %d ms"
        % (len(page) / 1e6, whole, DEADLINE_MS)
    )
    print("%-28s %12s %12s" % ("", "wall after s", "CPU after s"))
    for label, stoppable in (("checkpoints (today)", True), ("no checkpoints (before)", False)):
        wall, cpu = abandoned(page, stoppable)
        print("%-28s %12.3f %12.3f" % (label, wall, cpu))
    wall_checks()
    crowded_tags(args.attributes)


def wall_checks() -> None:
    """Table 3: each wall's check on ordinary results pages, in microseconds per page."""
    print("\n3. a wall's check per ordinary results page (us): hints first (today) | its regexes alone (before)")
    print("%-12s %-40s %9s %9s" % ("pages", "wall", "today", "before"))
    for folder in ("bing_html", "yahoo_html", "mojeek_html"):
        pages = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "fixtures" / folder).glob("*.html"))]
        for wall in bot_walls():
            if not wall.patterns:
                continue
            today = _per_page_us(wall.is_in, pages)
            before = _per_page_us(lambda text: all(p.search(text[: wall.scan_chars]) for p in wall.patterns), pages)  # noqa: B023
            print("%-12s %-40s %9.1f %9.1f" % (folder, wall.name[:40], today, before))


#: How the crowded tag's attributes are spelt: the separator and one attribute.
CROWDED_SPELLINGS = (("spaced", " ", "a%d=1"), ("slashes", "/", "a%d"), ("quoted, no spaces", "", 'a%d="1"'))


def crowded_page(count: int, separator: str, attribute: str) -> str:
    """A page whose one paragraph tag holds ``count`` attributes."""
    return "<html><body><p %s>Some text.</p></body></html>" % separator.join(attribute % i for i in range(count))


def crowded_tags(before_attributes: int) -> None:
    """Table 4: parse CPU of a crowded tag before and after thinning, and the thinning's cost on real pages."""
    import lxml.html

    print("\n4. a tag of A attributes: parse CPU s, as it is (before) | thinned, then parsed (today)")
    print("%-18s %9s %9s %9s" % ("spelling", "A", "before", "today"))
    for label, separator, attribute in CROWDED_SPELLINGS:
        for count in (before_attributes, 200_000, 500_000):
            page = crowded_page(count, separator, attribute)
            before = cpu_s(lxml.html.document_fromstring, page, repeat=1) if count == before_attributes else None
            today = cpu_s(lambda text: lxml.html.document_fromstring(thin_crowded_tags(text)), page)
            print("%-18s %9d %9s %9.3f" % (label, count, "%.2f" % before if before else "-", today))
    pages = [html for _, directory in DEFAULT_SETS for _, html, _ in load(directory)]
    changed = sum(thin_crowded_tags(html) is not html for html in pages)
    megabytes = sum(map(len, pages)) / 1e6
    seconds = cpu_s(lambda _: [thin_crowded_tags(html) for html in pages], "", repeat=5)
    print(
        "development sets: %d pages, %.1f MB (characters), %d changed; thinning %.2f ms per MB, %.3f ms per page"
        % (len(pages), megabytes, changed, seconds * 1e3 / megabytes, seconds * 1e3 / len(pages))
    )


def _per_page_us(check: Callable[[str], object], pages: "list[str]", repeat: int = 50) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        for text in pages:
            check(text)
    return (time.perf_counter() - started) / (repeat * len(pages)) * 1e6


if __name__ == "__main__":
    main()

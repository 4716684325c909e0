"""Parse-time benchmark of the HTML backends over the recorded pages.

    python bench/parse.py [--repeat N] [--per-page] [--cpu]

Times the pure page parsers (every registered HTML engine's ``read_page``; the body is
decoded once beforehand, as ``HttpResponse.text`` does) on every recorded results page
under ``fixtures/<engine>`` (contract cases whose golden holds items; a page replayed by
a second case, from another folder, is counted once). Prints, per engine module, the median
and p90 parse time per page (all samples of all pages pooled) and pages/second.

Beside them, the news, image and video engines (issue 31) on their recorded answers (the
last exchange of each vertical case whose golden holds items): ``parse`` of a fresh response
each run, so the JSON is decoded every time, as in a search; pooled per backend and vertical.

If the optional ``ddgs`` package is importable (not a dependency of this project),
its DuckDuckGo parser runs on the same ``ddg_html`` pages, interleaved run by run
with ours so that a change in machine load hits both, and the ratio of medians is
printed. ``--cpu`` measures process CPU time instead of wall-clock time (time spent
waiting for a CPU on a busy machine is then not counted). The load average is printed with the figures.
"""

import argparse
import functools
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from requests.structures import CaseInsensitiveDict  # noqa: E402

import websearch_sync  # noqa: E402,F401 - registers the backends
from websearch_sync.config import Settings  # noqa: E402
from websearch_sync.contract.cases import discover, load_golden  # noqa: E402
from websearch_sync.contract.conformance import dummy_settings  # noqa: E402
from websearch_sync.engine import registry  # noqa: E402
from websearch_sync.engine.base import Backend  # noqa: E402
from websearch_sync.engine.html_engine import HtmlEngine  # noqa: E402
from websearch_sync.models import SearchParams  # noqa: E402
from websearch_sync.net.charset import decode_body  # noqa: E402
from websearch_sync.net.response import HttpResponse  # noqa: E402

_PARAMS = SearchParams(query="bench", max_results=10)


def _engine(cls: type) -> Callable[[str, str], object]:
    engine = cls(Settings())
    return lambda text, name: engine.read_page(text, _PARAMS)


#: (backend folder, "web") -> (parser(text, name), the group its timings are pooled in: the
#: engine's module, so ddg_html and ddg_lite pool) for every registered HTML web engine (the
#: vertical engines are timed by :func:`vertical_pages`)
FOLDERS = {
    (name, "web"): (_engine(cls), cls.__module__.rsplit(".", 1)[-1])
    for name in registry.backend_names()
    if "web" in registry.verticals_of(name)
    for cls in [registry.backend_class(name)]
    if issubclass(cls, HtmlEngine)
}


def results_pages() -> list[tuple[tuple[str, str], str, str]]:
    """((backend, vertical), case id, decoded text) of every recorded results page."""
    pages = []
    for backend, vertical in FOLDERS:
        for case in discover(ROOT / "fixtures", backend):
            if (case.meta.get("vertical") or "web") != vertical:
                continue
            golden = load_golden(case) or {}
            exchanges = case.exchanges()
            body = exchanges[0]["response"].get("body") if len(exchanges) == 1 else None
            if "items" not in golden or not body or "/" in body:
                continue
            response = exchanges[0]["response"]
            headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
            text = decode_body(case.body_bytes(response), headers.get("content-type"))
            pages.append(((backend, vertical), case.case_id, text))
    return pages


def vertical_pages() -> list[tuple[str, str, Callable[[str], object], str]]:
    """(group, case id, parser(text), text) of every recorded answer of a vertical engine."""
    pages: list[tuple[str, str, Callable[[str], object], str]] = []
    for case in discover(ROOT / "fixtures"):
        vertical = case.meta.get("vertical")
        golden = load_golden(case) or {}
        if not vertical or "items" not in golden:
            continue
        response = case.exchanges()[-1]["response"]
        headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
        text = decode_body(case.body_bytes(response), headers.get("content-type"))
        cls = registry.backend_class(case.backend, vertical)
        engine = cls(dummy_settings(cls))  # the settings it needs (SearXNG reads its base URL)
        params = SearchParams(query="bench", max_results=10, vertical=vertical)
        parse = functools.partial(_parse_fresh, engine, params, CaseInsensitiveDict(headers))
        pages.append(("%s %s" % (case.backend, vertical), case.case_id, parse, text))
    return pages


def _parse_fresh(engine: Backend, params: SearchParams, headers: "CaseInsensitiveDict[str]", text: str) -> object:
    """``engine.parse`` of a new response holding ``text`` (a response keeps its decoded JSON)."""
    return engine.parse(HttpResponse(200, headers, text.encode("utf-8"), "https://bench.invalid/"), params)


def timed(
    funcs: list[Callable[[str], object]], text: str, repeat: int, clock: Callable[[], float]
) -> list[list[float]]:
    """``repeat`` timings (ms) of each ``func(text)``, the functions interleaved run by run
    (after one warm-up call each)."""
    for func in funcs:
        func(text)
    samples: list[list[float]] = [[] for _ in funcs]
    for _ in range(repeat):
        for func, into in zip(funcs, samples):
            start = clock()
            func(text)
            into.append((clock() - start) * 1000.0)
    return samples


def summary(samples: list[float]) -> str:
    """Median, p90 and pages/second of a list of per-page timings (ms)."""
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    return "median %6.2f ms   p90 %6.2f ms   %7.1f pages/s" % (
        statistics.median(ordered),
        p90,
        1000.0 / statistics.fmean(ordered),
    )


def ddgs_parser() -> Optional[Callable[[str], object]]:
    """ddgs's DuckDuckGo HTML parser, if ddgs is installed."""
    try:
        from ddgs.engines.duckduckgo import Duckduckgo
    except ImportError:
        return None
    engine = Duckduckgo()
    return lambda text: engine.post_extract_results(engine.extract_results(text))


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per page (default 30)")
    parser.add_argument("--per-page", action="store_true", help="also print each page's median")
    parser.add_argument("--cpu", action="store_true", help="measure process CPU time instead of wall-clock time")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter

    pages = results_pages()
    if not pages:
        print("no recorded results pages found under %s" % (ROOT / "fixtures"))
        return 1
    other = ddgs_parser()
    groups: dict[str, list[float]] = {group: [] for _, group in FOLDERS.values()}
    groups.update({"DDG html only": [], "ddgs (DDG html)": []})
    for key, case_id, text in pages:
        ours = lambda t, parse=FOLDERS[key][0], name=key[0]: parse(t, name)  # noqa: E731
        compare = key == ("ddg_html", "web") and other is not None
        samples = timed([ours, other] if compare else [ours], text, args.repeat, clock)
        groups[FOLDERS[key][1]].extend(samples[0])
        if key == ("ddg_html", "web"):
            groups["DDG html only"].extend(samples[0])
        if compare:
            groups["ddgs (DDG html)"].extend(samples[1])
        if args.per_page:
            print("  %-45s %8d chars  median %6.2f ms" % (case_id, len(text), statistics.median(samples[0])))

    for group, case_id, parse, text in vertical_pages():
        runs = timed([parse], text, args.repeat, clock)[0]
        groups.setdefault(group, []).extend(runs)
        if args.per_page:
            print("  %-45s %8d chars  median %6.2f ms" % (case_id, len(text), statistics.median(runs)))

    load = "%.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else "n/a"
    print(
        "websearch_sync parsers, %d pages, %d runs each, %s time (python %s, %d CPUs, load average %s)"
        % (
            len(pages),
            args.repeat,
            "CPU" if args.cpu else "wall-clock",
            sys.version.split()[0],
            os.cpu_count() or 0,
            load,
        )
    )
    for name, samples in groups.items():
        if samples:
            print("  %-16s %s" % (name, summary(samples)))
    if other is None:
        print("ddgs not importable: no comparison")
    else:
        print(
            "  ratio of medians on the same ddg_html pages: websearch_sync / ddgs = %.2f"
            % (statistics.median(groups["DDG html only"]) / statistics.median(groups["ddgs (DDG html)"]))
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

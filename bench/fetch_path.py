"""Extraction time on the whole fetch path: ``websearch_sync.fetch`` of each development page
served on 127.0.0.1, beside plain readability-lxml on the same HTML string and ``extract_html``
alone, measured interleaved in this one run (issue 35: "time is fetch's", goal <= 1.2x).

    python bench/fetch_path.py [--set NAME=DIR ...] [--repeat N] [--impersonate default|off|chrome] [--cpu]
                               [--floor] [--fetched-baseline] [--worst N] [--fixed-order]

Per set: median and total ms per page of each system (best of ``--repeat`` runs per page),
the ratios to readability-lxml (of the medians and totals, then per page: median, 90th
percentile and worst page), and what fetch adds to ``extract_html`` (median ms). The pages
are those of ``bench/extraction.py`` (its ``DEFAULT_SETS``), served as ``loopback_fetch``
serves them (``bench/extraction.py`` prints the same figures per set beside the F1).
``--floor`` adds ``requests+extract``: a plain ``requests.Session`` GET and ``extract_html`` of
its text (``loopback_fetch.requests_floor_system``), what the fetch path would cost were all of
its own work (deadline, byte cap, address checks, redirects, bot walls) free.
``--impersonate``: the wire fetch sends on; by default the one a user of this install gets
(``Settings.impersonate=None``: the browser wire, libcurl, when the ``browser`` extra is
installed, else ``requests``), named in the heading; more than one (``--impersonate default
off``): the others run beside it in the same run, as ``fetch[off]``. Until 2026-12 the default
was ``off`` (``requests``) whatever was installed, where a default client with the extra sends on
libcurl; side by side the two differ less than two runs do (structure pages, best of 5, CPU
time, load 10: fetch ÷ readability-lxml 1.57 / 1.48 on the browser wire, 1.68 / 1.51 on
``requests``, medians / totals; articles 0.65 / 0.54 and 0.68 / 0.54).
``--fetched-baseline`` adds ``requests+readability``: readability-lxml on the text of a
plain ``requests`` GET of the same page, what a readability-lxml user pays who also gets the
page, and fetch's ratio to it. The goal of issue 35 is the ratio to readability-lxml on the
HTML string (fetch pays for getting the page, readability-lxml does not), so that stays the
figure printed first; this one is the like-for-like reading beside it.
``--worst N`` lists, per system, the N pages of highest time over readability-lxml's, with
their ratios (the pages behind the worst-page figure).

The systems run on each page in turn, their order turned by one place per page and per run
(``extraction.run(rotate=True)``): a system that always ran right after another on the same page
found the code and data they share still in the CPU's caches (the floor right after fetch: the
same requests, urllib3 and extraction code, the same page), and a fixed order counted that as a
difference between them (fetch 1.62 / floor 1.40 of readability-lxml's totals on the structure
pages in that order, 1.48 / 1.45 the other way round, a minute apart). ``--fixed-order`` runs
them in the order above on every page, as before.
"""

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

from extraction import DEFAULT_SETS, _spread, baseline_text, load, ours_text, page_ratios, run  # noqa: E402
from loopback_fetch import fetch_system, requests_floor_system, wire_name  # noqa: E402


def print_worst(page_ids: Sequence[str], times: dict[str, list[float]], count: int) -> None:
    """Per system, the ``count`` pages of highest time over readability-lxml's on the same page."""
    base = times["readability-lxml"]
    for system in [name for name in times if name != "readability-lxml"]:
        ratios = sorted(
            ((ms / max(b, 1e-6), page_id, ms, b) for page_id, ms, b in zip(page_ids, times[system], base)), reverse=True
        )
        print("  %s, worst pages:" % system)
        for ratio, page_id, ms, b in ratios[:count]:
            print("    %-44s %5.2f  (%.2f ms, readability-lxml %.2f ms)" % (page_id[:44], ratio, ms, b))


def measure(
    name: str,
    data_dir: str,
    repeat: int,
    impersonate: Sequence[Optional[str]],
    cpu: bool = False,
    floor: bool = False,
    worst: int = 0,
    fixed_order: bool = False,
    fetched_baseline: bool = False,
) -> None:
    pages = load(data_dir)
    htmls = [html for _, html, _ in pages]
    systems = {"readability-lxml": baseline_text, "extract_html": ours_text}
    with contextlib.ExitStack() as stack:
        systems["fetch"] = stack.enter_context(fetch_system(htmls, impersonate[0]))
        for other in impersonate[1:]:  # another wire beside it, in the same run
            systems["fetch[%s]" % (other or "default")] = stack.enter_context(fetch_system(htmls, other))
        if floor:
            systems["requests+extract"] = stack.enter_context(requests_floor_system(htmls))
        if fetched_baseline:
            fetched = stack.enter_context(requests_floor_system(htmls, lambda html, url: baseline_text(html)))
            systems["requests+readability"] = fetched
        clock = time.process_time if cpu else time.perf_counter
        out = run(pages, systems, repeat, clock, rotate=not fixed_order)
    times = {system: figures[1] for system, figures in out.items()}
    base_total, base_median = sum(times["readability-lxml"]), statistics.median(times["readability-lxml"])
    print(
        "%s (%d pages, best of %d, %s, impersonate=%s):"
        % (name, len(pages), repeat, "CPU time" if cpu else "wall clock", wire_name(impersonate[0]))
    )
    for system, per_page in times.items():
        print(
            "  %-20s median %6.1f ms, total %8.0f ms; ÷ readability-lxml: median %.2f, total %.2f"
            % (
                system,
                statistics.median(per_page),
                sum(per_page),
                statistics.median(per_page) / base_median,
                sum(per_page) / base_total,
            )
        )
    for system in [name for name in times if name != "readability-lxml"]:
        print(
            "  %-20s per page ÷ readability-lxml: median / p90 / worst %s"
            % (system, _spread(page_ratios(times[system], times["readability-lxml"])))
        )
    added = [f - e for f, e in zip(times["fetch"], times["extract_html"])]
    print(
        "  fetch adds to extract_html: median %.1f ms, mean %.1f ms a page"
        % (statistics.median(added), statistics.mean(added))
    )
    if fetched_baseline:
        fetched_times = times["requests+readability"]
        print(
            "  fetch ÷ requests+readability (both get the page): median %.2f, total %.2f"
            % (
                statistics.median(times["fetch"]) / statistics.median(fetched_times),
                sum(times["fetch"]) / sum(fetched_times),
            )
        )
    if worst:
        print_worst([page_id for page_id, _, _ in pages], times, worst)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=DIR", help="a development set (default: all three)"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per page; the best counts (default 3)")
    parser.add_argument(
        "--impersonate",
        nargs="+",
        default=["default"],
        help="default (the library's: chrome with the browser extra, else off), off (requests) or chrome;"
        " more than one: the others as fetch[WIRE] beside fetch, in the same run",
    )
    parser.add_argument("--cpu", action="store_true", help="this process's CPU time instead of the wall clock")
    parser.add_argument("--floor", action="store_true", help="add requests+extract: a plain requests GET of the page")
    parser.add_argument("--worst", type=int, default=0, help="list each system's N pages of highest ratio")
    parser.add_argument("--fixed-order", action="store_true", help="the systems in one order on every page")
    parser.add_argument(
        "--fetched-baseline", action="store_true", help="add requests+readability: readability-lxml of a requests GET"
    )
    args = parser.parse_args(argv)
    sets = [tuple(spec.split("=", 1)) for spec in args.set] or list(DEFAULT_SETS)
    impersonate = [None if wire == "default" else wire for wire in args.impersonate]
    for name, data_dir in sets:
        measure(
            name,
            data_dir,
            args.repeat,
            impersonate,
            args.cpu,
            args.floor,
            args.worst,
            args.fixed_order,
            args.fetched_baseline,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

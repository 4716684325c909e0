"""Extraction-quality benchmark: scores ``extract_html`` (text mode, from the HTML string,
no network) on both development sets side by side, against plain readability-lxml
(``Document(html).summary()`` + lxml ``text_content()``) measured in the same run.

    python bench/extraction.py [--set NAME=DIR ...] [--repeat N] [--ablate] [--no-cross] [--no-fetch] [--cpu]
                               [--rules-off RULE,...] [--worst N] [--per-page FILE]

Sets (default): ``articles`` = ../shared/extraction-benchmark (91 pages of the
article-extraction benchmark), ``readability`` = ../shared/extraction-benchmark-readability
(73 test pages of Readability.js; its truth is Readability.js's output), ``structures`` =
bench/extraction-structures (75 pages written for this benchmark: table layouts, ``<br>``
text, broken markup, comments inside the article, short articles beside boxes and teasers,
tabs and hidden panels, boxes inside and after the article, hover cards inside sentences, a wiki's
cross-references). Metric: the
benchmark README's (``extraction_metric.py``).

Prints per set: F1/P/R of both systems, bootstrap std (1,000 page resamples), the paired
bootstrap of ours minus readability-lxml, empty pages, pages under 0.2 recall, pages under
0.5 recall that readability-lxml gets above 0.8, median and total ms/page and the time
ratios: of the medians and totals, and per page (median, 90th percentile and worst page,
each page's time over readability-lxml's on it); the same ratios on the whole fetch path
(``SearchClient.fetch`` of the page served on 127.0.0.1, ``loopback_fetch``; issue 35's
"time is fetch's"; ``--no-fetch`` leaves it out) and what fetch adds to ``extract_html`` a
page; and the pages whose markdown extraction carries other words than the text one; then
the generalization figures (rules tuned on one set and scored on the other; tuned on 4/5 of
a set's pages and scored on the rest; see ``extraction_ablation.py``) and, with
``--ablate``, the per-rule table. ``--worst N`` lists the N pages of lowest F1 and the N
slowest pages against readability-lxml.

Times are wall-clock (``--cpu``: this process's CPU time, which other jobs' load moves least),
best of ``--repeat`` runs per page, the systems interleaved page by page so that they see the
same machine load.
"""

import argparse
import contextlib
import gzip
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, REPO)

from extraction_metric import (  # noqa: E402
    Scored,
    aggregate,
    bootstrap_std,
    markdown_words,
    page_f1,
    paired_bootstrap,
    score_pages,
    text_words,
)


def _shared(name: str) -> str:
    """../shared/<name> next to the checkout (or next to the worktree's parent)."""
    candidates = [os.path.normpath(os.path.join(REPO, *[".."] * up, "shared", name)) for up in (1, 2)]
    return next((path for path in candidates if os.path.isdir(path)), candidates[0])


DEFAULT_SETS = (
    ("articles", _shared("extraction-benchmark")),
    ("readability", _shared("extraction-benchmark-readability")),
    ("structures", os.path.join(HERE, "extraction-structures")),
)

Pages = list[tuple[str, str, str]]


# --------------------------------------------------------------------------- systems


def baseline_text(html: str) -> str:
    """Plain readability-lxml: ``Document(html).summary()`` then lxml ``text_content()``."""
    import lxml.html
    from readability import Document
    from readability.readability import Unparseable

    try:
        summary = Document(html).summary()
    except Unparseable:
        return ""
    return lxml.html.fromstring(summary).text_content() if summary.strip() else ""


def ours_text(html: str, rules: Optional[frozenset[str]] = None, mode: str = "text") -> str:
    """websearch_sync's extraction in text mode (with all rules, or with ``rules``)."""
    from websearch_sync.extract.article import extract_html
    from websearch_sync.extract.rules import DEFAULT_RULES

    return extract_html(html, mode=mode, rules=DEFAULT_RULES if rules is None else rules).text


def mode_mismatches(pages: Pages, text_predictions: Sequence[str], rules: frozenset[str]) -> int:
    """Pages whose markdown extraction carries other words than their text extraction."""
    return sum(
        1
        for (_, html, _), text in zip(pages, text_predictions)
        if markdown_words(ours_text(html, rules, "markdown")) != text_words(text)
    )


# --------------------------------------------------------------------------- runner


def load(data_dir: str) -> Pages:
    """[(page id, html, truth text)] sorted by id."""
    with open(os.path.join(data_dir, "ground-truth.json"), encoding="utf-8") as handle:
        truth = json.load(handle)
    pages = []
    for page_id in sorted(truth):
        with gzip.open(os.path.join(data_dir, "html", page_id + ".html.gz"), "rb") as handle:
            html = handle.read().decode("utf-8", "replace")
        pages.append((page_id, html, truth[page_id].get("articleBody") or ""))
    return pages


def run(
    pages: Pages,
    systems: dict[str, Callable[[str], str]],
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
    rotate: bool = False,
):
    """Runs every system on every page, interleaved so both see the same machine load.
    Returns {name: (predictions, per-page best ms)}; ``clock``: wall time by default,
    ``time.process_time`` for this process's CPU time (what the load of other jobs moves least).
    ``rotate``: the systems' order turns by one place per page and per run, so that none always
    runs right after another on the same page, in caches the other warmed (``bench/fetch_path.py``)."""
    out = {name: ([""] * len(pages), [float("inf")] * len(pages)) for name in systems}
    for system in systems.values():  # imports and regex compilation are not per-page costs
        system(pages[0][1])
    names = list(systems)
    for attempt in range(repeat):
        for index, (_, html, _) in enumerate(pages):
            shift = (attempt + index) % len(names) if rotate else 0
            for name in names[shift:] + names[:shift]:
                system = systems[name]
                start = clock()
                text = system(html)
                elapsed = (clock() - start) * 1000
                preds, times = out[name]
                preds[index] = text
                times[index] = min(times[index], elapsed)
    return out


# --------------------------------------------------------------------------- report


def _lost(ours: Sequence[Scored], baseline: Sequence[Scored]) -> int:
    """Pages under 0.5 recall that readability-lxml gets above 0.8."""
    return sum(1 for (o, _), (b, _) in zip(ours, baseline) if o[1] < 0.5 and b[1] > 0.8)


def _prf(scored: Sequence[Scored]) -> str:
    scores = aggregate(scored)
    return "%.4f / %.4f / %.4f" % (scores["f1"], scores["precision"], scores["recall"])


def _paired(first: Sequence[Scored], second: Sequence[Scored]) -> str:
    spread = paired_bootstrap(first, second)
    return "%+.4f (std %.4f, 95%% %+.4f..%+.4f)" % (spread["delta"], spread["std"], spread["low"], spread["high"])


def page_ratios(times: list[float], baseline: list[float]) -> list[float]:
    """Each page's time over readability-lxml's on the same page, sorted."""
    return sorted(ms / max(base, 1e-6) for ms, base in zip(times, baseline))


def _spread(ratios: list[float]) -> str:
    """Median / 90th percentile / worst of sorted per-page ratios."""
    return "%.2f / %.2f / %.2f" % (statistics.median(ratios), ratios[int(0.9 * (len(ratios) - 1))], ratios[-1])


def _ratio_rows(system: str, label: str, times: dict[str, list[float]]) -> list[tuple[str, str]]:
    """The time rows of ``system`` against readability-lxml."""
    base = times["baseline"]
    return [
        (
            "%s ÷ r-lxml: of medians, of totals" % label,
            "%.2f, %.2f" % (statistics.median(times[system]) / statistics.median(base), sum(times[system]) / sum(base)),
        ),
        ("%s ÷ r-lxml per page: med / p90 / max" % label, _spread(page_ratios(times[system], base))),
    ]


def set_rows(scores: dict[str, list[Scored]], times: dict[str, list[float]]) -> list[tuple[str, str]]:
    """(label, value) rows of one set (the fetch-path rows when ``times`` has ``fetch``)."""
    ours, base = scores["ours"], scores["baseline"]
    fetch_rows = []
    if "fetch" in times:
        added = [f - o for f, o in zip(times["fetch"], times["ours"])]
        fetch_rows = _ratio_rows("fetch", "fetch", times) + [
            ("fetch adds to ours: median ms a page", "%.2f" % statistics.median(added))
        ]
    return (
        [
            ("ours F1 / P / R", _prf(ours)),
            ("  bootstrap std of F1", "%.4f" % bootstrap_std(ours)),
            ("readability-lxml F1 / P / R", _prf(base)),
            ("  bootstrap std of F1", "%.4f" % bootstrap_std(base)),
            ("ours - readability-lxml (paired)", _paired(ours, base)),
            ("empty: ours / readability-lxml", "%d / %d" % (sum(not s[1] for s in ours), sum(not s[1] for s in base))),
            (
                "recall < 0.2: ours / readability-lxml",
                "%d / %d" % (sum(s[0][1] < 0.2 for s in ours), sum(s[0][1] < 0.2 for s in base)),
            ),
            ("ours recall < 0.5 where r-lxml > 0.8", "%d" % _lost(ours, base)),
            (
                "median ms/page: ours / readability-lxml",
                "%.2f / %.2f" % (statistics.median(times["ours"]), statistics.median(times["baseline"])),
            ),
        ]
        + _ratio_rows("ours", "ours", times)
        + fetch_rows
    )


def print_side_by_side(columns: dict[str, list[tuple[str, str]]]) -> None:
    """Prints rows of several sets next to each other."""
    names = list(columns)
    print("%-42s%s" % ("", "".join("%-48s" % name for name in names)))
    for index, (label, _) in enumerate(columns[names[0]]):
        print("%-42s%s" % (label, "".join("%-48s" % columns[name][index][1] for name in names)))


def print_worst(pages: Pages, scores: dict[str, list[Scored]], count: int) -> None:
    """The ``count`` pages where ours has the lowest F1, with readability-lxml's figures."""
    order = sorted(range(len(pages)), key=lambda i: page_f1(scores["ours"][i]))
    for index in order[:count]:
        (op, orec), _ = scores["ours"][index]
        (bp, brec), _ = scores["baseline"][index]
        print("  %-44s ours P %.2f R %.2f   r-lxml P %.2f R %.2f" % (pages[index][0][:44], op, orec, bp, brec))


def print_slowest(pages: Pages, times: dict[str, list[float]], count: int) -> None:
    """The ``count`` pages where ours (or fetch) takes longest against readability-lxml."""
    base = times["baseline"]
    system = "fetch" if "fetch" in times else "ours"
    order = sorted(range(len(pages)), key=lambda i: times[system][i] / max(base[i], 1e-6), reverse=True)
    for index in order[:count]:
        ratio = "(÷ r-lxml %.2f)" % (times["ours"][index] / max(base[index], 1e-6))
        through = (
            "  fetch %7.2f ms (%.2f)" % (times["fetch"][index], times["fetch"][index] / max(base[index], 1e-6))
            if "fetch" in times
            else ""
        )
        print(
            "  %-44s ours %7.2f ms %s%s   r-lxml %7.2f ms"
            % (pages[index][0][:44], times["ours"][index], ratio, through, base[index])
        )


# --------------------------------------------------------------------------- main


def _parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set",
        action="append",
        metavar="NAME=DIR",
        help="a benchmark directory (repeatable; default: both development sets)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per page; the fastest counts (default: 3)")
    parser.add_argument("--ablate", action="store_true", help="print the per-rule table")
    parser.add_argument("--no-cross", action="store_true", help="skip the ablation runs and the generalization figures")
    parser.add_argument("--no-fetch", action="store_true", help="skip the whole-fetch-path timing (a loopback server)")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time this process's CPU (time.process_time) instead of the wall clock: the load of other jobs moves it"
        " least; the fetch path's figure is then the client's work, without the server's and the wait for it",
    )
    parser.add_argument("--rules-off", default="", help="comma-separated rules to switch off for 'ours'")
    parser.add_argument("--worst", type=int, default=0, help="list the N worst and N slowest pages of each set")
    parser.add_argument("--per-page", help="write per-page precision/recall/ms of both systems as JSON here")
    return parser.parse_args(argv)


def _sets(args: argparse.Namespace) -> dict[str, str]:
    """{set name: directory}: the ``--set`` options, or both development sets."""
    return dict(item.split("=", 1) for item in args.set) if args.set else dict(DEFAULT_SETS)


def _present(directories: dict[str, str]) -> bool:
    """True when every benchmark directory is there; else says which are not."""
    missing = [path for path in directories.values() if not os.path.isfile(os.path.join(path, "ground-truth.json"))]
    if missing:
        print(
            "no benchmark at %s (ground-truth.json and html/); give one with --set NAME=DIR" % ", ".join(missing),
            file=sys.stderr,
        )
    return not missing


def measure_set(
    pages: Pages, rules: frozenset[str], repeat: int, fetch: bool = True, clock: Callable[[], float] = time.perf_counter
):
    """Runs both systems on one set (and, with ``fetch``, the whole fetch path: timed only).
    Returns ({system: scores}, {system: ms per page}, pages whose text and markdown
    extractions differ in words)."""
    systems: dict[str, Callable[[str], str]] = {"ours": lambda html: ours_text(html, rules), "baseline": baseline_text}
    with contextlib.ExitStack() as stack:
        if fetch:
            from loopback_fetch import fetch_system

            systems["fetch"] = stack.enter_context(fetch_system([html for _, html, _ in pages]))
        results = run(pages, systems, repeat, clock)
    truths = [truth for _, _, truth in pages]
    scores = {system: score_pages(truths, results[system][0]) for system in ("ours", "baseline")}
    return (
        scores,
        {system: ms for system, (_, ms) in results.items()},
        mode_mismatches(pages, results["ours"][0], rules),
    )


def _per_page(pages: Pages, scores: dict[str, list[Scored]], times: dict[str, list[float]]):
    """{system: {page: {"p", "r", "ms"}}}; ours also has ``fetch_ms`` when the fetch path was timed."""
    out = {
        system: {
            pid: {"p": s[0][0], "r": s[0][1], "ms": ms}
            for (pid, _, _), s, ms in zip(pages, scores[system], times[system])
        }
        for system in scores
    }
    for (pid, _, _), ms in zip(pages, times.get("fetch", ())):
        out["ours"][pid]["fetch_ms"] = ms
    return out


def _generalization_rows(
    tuned_on: str, dropped: frozenset[str], scored: list[Scored], reference: list[Scored], baseline: list[Scored]
) -> list[tuple[str, str]]:
    return [
        ("  rules tuned on", tuned_on),
        ("  F1 / P / R", _prf(scored)),
        ("  bootstrap std of F1", "%.4f" % bootstrap_std(scored)),
        ("  minus all rules (paired)", _paired(scored, reference)),
        ("  minus readability-lxml (paired)", _paired(scored, baseline)),
        ("  rules dropped by the tuning", ", ".join(sorted(dropped)) or "-"),
    ]


def _generalization(
    sets: dict[str, Pages],
    rules: frozenset[str],
    reference: dict[str, list[Scored]],
    baseline: dict[str, list[Scored]],
    ablate: bool,
) -> None:
    """Ablation runs, then the cross-set and 5-fold figures (and the per-rule table with ``ablate``)."""
    import extraction_ablation as ablation

    from websearch_sync.extract.rules import RULES

    ablated = ablation.ablate(sets, ours_text, rules, [rule.name for rule in RULES if rule.name in rules])
    cross, folds = {}, {}
    for scored_on, (tuned_on, chosen, scored) in ablation.cross_set(sets, ours_text, rules, reference, ablated).items():
        cross[scored_on] = _generalization_rows(
            "%s (%d of %d rules kept)" % (tuned_on, len(chosen), len(rules)),
            rules - chosen,
            scored,
            reference[scored_on],
            baseline[scored_on],
        )
    for name, pages in sets.items():
        scored, chosen = ablation.k_fold(pages, name, ours_text, rules, reference[name], ablated)
        dropped = frozenset().union(*(rules - c for c in chosen))
        folds[name] = _generalization_rows(
            "other 4 folds; %d rules dropped in a fold" % len(dropped), dropped, scored, reference[name], baseline[name]
        )
    print("\ncross-set: rules tuned on the other sets together, scored on this one")
    print_side_by_side(cross)
    print("\n5-fold: rules tuned on 4/5 of a set's pages, scored on the other 1/5")
    print_side_by_side(folds)
    if ablate:
        ablation.print_ablation(
            ablation.effects(reference, ablated), list(sets), {rule.name: rule.summary for rule in RULES}
        )


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command-line entry point: prints both sets side by side (see the module docstring)."""
    args = _parse_args(argv)
    from websearch_sync.extract.rules import DEFAULT_RULES, check_rules

    rules = DEFAULT_RULES - check_rules(filter(None, args.rules_off.split(",")))
    directories = _sets(args)
    if not _present(directories):
        return 2
    sets = {name: load(path) for name, path in directories.items()}
    columns, scores, times, per_page = {}, {}, {}, {}
    for name, pages in sets.items():
        scores[name], times[name], mismatches = measure_set(
            pages, rules, max(1, args.repeat), not args.no_fetch, time.process_time if args.cpu else time.perf_counter
        )
        columns["%s (%d pages)" % (name, len(pages))] = set_rows(scores[name], times[name]) + [
            ("text vs markdown: pages with other words", "%d" % mismatches)
        ]
        per_page[name] = _per_page(pages, scores[name], times[name])
    print(
        "fastest of %d runs per page (%s); %s"
        % (
            args.repeat,
            "CPU time" if args.cpu else "wall clock",
            ", ".join("%s: %s" % item for item in directories.items()),
        )
    )
    if rules != DEFAULT_RULES:
        print("rules off: %s" % ", ".join(sorted(DEFAULT_RULES - rules)))
    print_side_by_side(columns)
    for name, pages in sets.items():
        if args.worst:
            print("\nworst pages of %s:" % name)
            print_worst(pages, scores[name], args.worst)
            print("slowest pages of %s against readability-lxml:" % name)
            print_slowest(pages, times[name], args.worst)
    if not args.no_cross and len(sets) > 1:
        _generalization(
            sets,
            rules,
            {n: s["ours"] for n, s in scores.items()},
            {n: s["baseline"] for n, s in scores.items()},
            args.ablate,
        )
    if args.per_page:
        with open(args.per_page, "w", encoding="utf-8") as handle:
            json.dump(per_page, handle, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

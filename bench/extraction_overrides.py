"""Where the pipeline overrides readability's pick, and what each override is worth.

    python bench/extraction_overrides.py [--set NAME=DIR ...] [--all] [--guard link|sentences]

``extract_html`` runs readability-lxml on the pre-cleaned page and then may put something else
in place of what readability selected: its layout-table column (``recovery.table_column``), the
page's main text region for a tiny article (``recovery.tiny``) or a fragment
(``recovery.fragment``), trafilatura's second opinion for a near-empty one
(``recovery.second_opinion``), or the page's visible text when nothing is left. This script runs
each page of the real development sets (default: ``articles`` = ../shared/extraction-benchmark,
``readability`` = ../shared/extraction-benchmark-readability; in document order, the pages sorted
by id) three ways:

- ``ours``: ``extract_html`` in text mode with every rule, the stages that overrode the pick
  recorded as they run;
- ``pick``: the same without the four override rules: readability's pick, cleaned;
- ``r-lxml``: plain readability-lxml (``Document(html).summary()``, as ``bench/extraction.py``).

It lists every page where ``ours`` differs from ``pick`` with the three page F1s and the stages
that fired (``--all``: also the pages where ``ours`` differs from ``r-lxml`` by more than 0.2
F1 without an override), then per set and per stage the pages where the override helped and
hurt (page F1 against ``pick``, a change under 0.005 counted as neither); then the pages where
readability on the pre-cleaned page picks other text than plain readability-lxml (the two texts'
shingle F1 under 0.5), ``pick`` against ``r-lxml``; and the net: the set's corpus F1 with and
without the overrides, and the outputs under 250 non-space characters. Metric:
``extraction_metric.py``. ``--guard`` is an experiment: ``ours`` with an override refused unless
its replacement is as prose-dense as the pick (``as_dense``); ``pick`` and ``r-lxml`` unchanged.
"""

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from extraction import DEFAULT_SETS, baseline_text, load  # noqa: E402
from extraction_metric import aggregate, page_f1, page_precision_recall, score_pages  # noqa: E402

#: The rules that put something else in place of readability's pick.
OVERRIDE_RULES = ("recovery.table_column", "recovery.tiny", "recovery.fragment", "recovery.second_opinion")
#: A page F1 change smaller than this is neither a help nor a hurt.
EPSILON = 0.005
#: ``--all`` also lists pages where ours and plain readability-lxml differ by more than this F1.
GAP = 0.2
#: readability on the pre-cleaned page took another block than plain readability-lxml when
#: their two texts' shingle F1 is under this.
OTHER_BLOCK = 0.5

#: ``--guard link``: an override is refused when the replacement's link-text share exceeds the pick's by more.
GUARD_LINK_MARGIN = 0.05
#: ``--guard sentences``: ... when the replacement has fewer sentence ends per character than this share of the pick's.
GUARD_SENTENCE_SHARE = 0.8
#: A sentence end: ., ! or ? (or their CJK forms) before a space or the end.
_SENTENCE_END = re.compile("[.!?\u3002\uff01\uff1f](?:\\s|$)")

Pages = list[tuple[str, str, str]]
F1s = dict[str, list[float]]


def prose_density(element: Any) -> tuple[float, float]:
    """(share of link text, sentence ends per 1,000 non-space characters) of an element's text."""
    text = " ".join(" ".join(element.itertext()).split())
    chars = max(1, len(text) - text.count(" "))
    linked = sum(len("".join("".join(a.itertext()).split())) for a in element.iter("a"))
    return linked / chars, 1000.0 * len(_SENTENCE_END.findall(text)) / chars


def as_dense(guard: str, pick: Any, replacement: Any) -> bool:
    """True when ``replacement`` is as prose-dense as ``pick`` by the ``guard`` measure (``link``,
    ``sentences``; ``""``: always)."""
    if not guard:
        return True
    (pick_links, pick_ends), (links, ends) = prose_density(pick), prose_density(replacement)
    if guard == "link":
        return links <= pick_links + GUARD_LINK_MARGIN
    return ends >= GUARD_SENTENCE_SHARE * pick_ends


@contextlib.contextmanager
def traced(fired: list[str], guard: str = "") -> Iterator[None]:
    """Within it, ``extract_html``'s override stages append their name to ``fired`` when they
    return something else than the article they were given; with ``guard`` (an experiment,
    ``--guard``), an override whose replacement is not as prose-dense as the pick
    (``as_dense``) is refused: the stage returns the pick."""
    from websearch_sync.extract import article as module

    def wrap(name: str, stage: str, position: int) -> Callable[..., Any]:
        original = getattr(module, name)

        def stage_call(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            pick = args[position]
            if result is not pick and pick is not None and not as_dense(guard, pick, result):
                fired.append(stage + " refused")
                return pick
            if result is not pick:
                fired.append(stage)
            return result

        return stage_call

    patches = (
        ("_widen_to_column", "table_column", 1),
        ("_recover_tiny", "tiny", 1),
        ("_recover_fragment", "fragment", 1),
    )
    saved = {name: getattr(module, name) for name, _, _ in patches}
    try:
        for name, stage, position in patches:
            setattr(module, name, wrap(name, stage, position))
        yield
    finally:
        for name, original in saved.items():
            setattr(module, name, original)


def ours_traced(html: str, guard: str = "") -> tuple[str, list[str]]:
    """``extract_html``'s text with every rule, and the override stages that fired (the second
    opinion and the visible-text fallback read from its ``extractor``); ``guard``: ``traced``'s."""
    from websearch_sync.extract.article import extract_html

    fired: list[str] = []
    with traced(fired, guard):
        result = extract_html(html, mode="text")
    if result.extractor != "readability":
        fired.append("second_opinion" if result.extractor == "trafilatura" else result.extractor)
    return result.text, fired


def pick_text(html: str) -> str:
    """``extract_html``'s text without the override rules: readability's pick, cleaned."""
    from websearch_sync.extract.article import extract_html
    from websearch_sync.extract.rules import DEFAULT_RULES

    return extract_html(html, mode="text", rules=DEFAULT_RULES - frozenset(OVERRIDE_RULES)).text


def _row(page_id: str, f1s: Sequence[float], fired: Sequence[str], chars: Sequence[int]) -> str:
    ours, pick, base = f1s
    verdict = "helped" if ours > pick + EPSILON else "hurt" if ours < pick - EPSILON else "same"
    return "  %-40s ours %.3f  pick %.3f  r-lxml %.3f  %-6s  %-26s chars ours/pick %d/%d" % (
        page_id[:40],
        ours,
        pick,
        base,
        verdict,
        "+".join(fired) or "-",
        chars[0],
        chars[1],
    )


def _texts(pages: Pages, guard: str) -> tuple[dict[str, list[str]], list[list[str]]]:
    """{system: texts} of ``ours``, ``pick`` and ``base`` (plain readability-lxml), and the
    override stages that fired on each page, the pages in document order."""
    texts: dict[str, list[str]] = {"ours": [], "pick": [], "base": []}
    fired = []
    for _, html, _ in pages:  # document order: the pages sorted by id
        text, stages = ours_traced(html, guard)
        texts["ours"].append(text)
        fired.append(stages)
        texts["pick"].append(pick_text(html))
        texts["base"].append(baseline_text(html))
    return texts, fired


def _tally(totals: dict[str, list[float]], stage: str, delta: float) -> None:
    bucket = totals.setdefault(stage, [0, 0, 0, 0.0])
    bucket[0 if delta > EPSILON else 1 if delta < -EPSILON else 2] += 1
    bucket[3] += delta


def _print_totals(totals: dict[str, list[float]]) -> None:
    for stage, (helped, hurt, same, delta) in sorted(totals.items()):
        print(
            "  %-16s helped %2d  hurt %2d  same %2d  sum of page F1 changes %+.3f" % (stage, helped, hurt, same, delta)
        )


def _overrides(pages: Pages, texts: dict[str, list[str]], fired: list[list[str]], f1: F1s, list_all: bool) -> None:
    """Lists the pages where ``ours`` differs from ``pick``, with the stages that fired, and the
    totals per stage (with ``list_all``, also the pages ``GAP`` or more from plain readability-lxml)."""
    totals: dict[str, list[float]] = {}
    for index, (page_id, _, _) in enumerate(pages):
        figures = (f1["ours"][index], f1["pick"][index], f1["base"][index])
        overridden = texts["ours"][index] != texts["pick"][index]
        for stage in (fired[index] or ["(other)"]) if overridden else []:
            _tally(totals, stage, figures[0] - figures[1])
        if overridden or (list_all and abs(figures[0] - figures[2]) > GAP):
            chars = (_chars(texts["ours"][index]), _chars(texts["pick"][index]))
            print(_row(page_id, figures, fired[index] if overridden else ["(no override)"], chars))
    _print_totals(totals)


def _other_candidates(pages: Pages, texts: dict[str, list[str]], f1: F1s) -> None:
    """Lists the pages where readability on the pre-cleaned page (``pick``) takes another block
    than plain readability-lxml: the two texts' shingle F1 under ``OTHER_BLOCK``."""
    print("  readability's pick on the pre-cleaned page vs plain readability-lxml's (overlap F1 < %.1f):" % OTHER_BLOCK)
    totals: dict[str, list[float]] = {}
    for index, (page_id, _, _) in enumerate(pages):
        overlap = page_f1((page_precision_recall(texts["base"][index], texts["pick"][index]), True))
        if overlap >= OTHER_BLOCK:
            continue
        pick, base = f1["pick"][index], f1["base"][index]
        _tally(totals, "pick vs r-lxml", pick - base)
        print(
            "  %-40s pick %.3f  r-lxml %.3f  overlap %.2f  chars pick/r-lxml %d/%d"
            % (page_id[:40], pick, base, overlap, _chars(texts["pick"][index]), _chars(texts["base"][index]))
        )
    _print_totals(totals)


def _chars(text: str) -> int:
    return len("".join(text.split()))


def report_set(name: str, pages: Pages, list_all: bool, guard: str = "") -> dict[str, float]:
    """Lists the set's overridden pages and prints its totals; returns its corpus F1s."""
    texts, fired = _texts(pages, guard)
    truths = [truth for _, _, truth in pages]
    scored = {system: score_pages(truths, predictions) for system, predictions in texts.items()}
    f1 = {system: [page_f1(s) for s in scores] for system, scores in scored.items()}
    print("\n%s (%d pages): pages where the pipeline overrides readability's pick" % (name, len(pages)))
    _overrides(pages, texts, fired, f1, list_all)
    _other_candidates(pages, texts, f1)
    corpus = {system: aggregate(scores)["f1"] for system, scores in scored.items()}
    short = {system: sum(1 for text in predictions if _chars(text) < 250) for system, predictions in texts.items()}
    print(
        "  corpus F1: ours %.4f  pick %.4f (net of overrides %+.4f)  r-lxml %.4f;"
        " under 250 chars: ours %d, pick %d, r-lxml %d"
        % (
            corpus["ours"],
            corpus["pick"],
            corpus["ours"] - corpus["pick"],
            corpus["base"],
            short["ours"],
            short["pick"],
            short["base"],
        )
    )
    return corpus


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command-line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", metavar="NAME=DIR", help="a benchmark directory (repeatable)")
    parser.add_argument(
        "--all", action="store_true", help="also list pages %.1f F1 or more from plain readability-lxml" % GAP
    )
    parser.add_argument(
        "--guard",
        choices=("link", "sentences"),
        default="",
        help="experiment: refuse an override (table column, tiny, fragment) whose replacement is not as prose-dense"
        " as the pick (link-text share at most %.2f above it; sentence ends per character at least %.1f of it)"
        % (GUARD_LINK_MARGIN, GUARD_SENTENCE_SHARE),
    )
    args = parser.parse_args(argv)
    sets = dict(item.split("=", 1) for item in args.set) if args.set else dict(DEFAULT_SETS[:2])
    for name, directory in sets.items():
        report_set(name, load(directory), args.all, args.guard)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Extraction-quality benchmark: scores ``extract_html`` (text mode, from the HTML
string, no network) on the article-extraction benchmark's development split, with
the metric defined in its README, against plain readability-lxml
(``Document(html).summary()`` + lxml ``text_content()``) measured in the same run.

    python bench/extraction.py [--data DIR] [--repeat N] [--per-page FILE]

Prints F1, precision, recall, bootstrap std (1,000 page resamples), median ms/page for
both systems, and the time ratio ours/baseline.
"""

import argparse
import gzip
import json
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from typing import Callable, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
# ../shared/extraction-benchmark next to the checkout (or next to the worktree's parent)
_CANDIDATES = [os.path.normpath(os.path.join(REPO, *[".."] * up, "shared", "extraction-benchmark")) for up in (1, 2)]
DEFAULT_DATA = next((path for path in _CANDIDATES if os.path.isdir(path)), _CANDIDATES[0])

_TOKEN = re.compile(r"\w+", re.UNICODE)


# --------------------------------------------------------------------------- metric

def tokens(text: str) -> List[str]:
    """Every maximal match of ``\\w+`` in ``text`` (case kept, punctuation dropped)."""
    return _TOKEN.findall(text or "")


def shingles(text: str, n: int = 4) -> Counter:
    """Multiset of windows of ``n`` consecutive tokens; 1..n-1 tokens give one shorter
    shingle, an empty text gives none."""
    toks = tokens(text)
    if not toks:
        return Counter()
    if len(toks) < n:
        return Counter([tuple(toks)])
    return Counter(tuple(toks[i:i + n]) for i in range(len(toks) - n + 1))


def page_counts(truth: str, prediction: str, n: int = 4) -> Tuple[float, float, float]:
    """Normalised (tp, fp, fn) of one page over the union of shingles."""
    t_sh, p_sh = shingles(truth, n), shingles(prediction, n)
    tp = fp = fn = 0
    for key in set(t_sh) | set(p_sh):
        t, p = t_sh.get(key, 0), p_sh.get(key, 0)
        tp += min(t, p)
        fp += max(0, p - t)
        fn += max(0, t - p)
    total = tp + fp + fn
    if total == 0:
        return 0.0, 0.0, 0.0
    return tp / total, fp / total, fn / total


def page_precision_recall(truth: str, prediction: str, n: int = 4) -> Tuple[float, float]:
    """Per-page (precision, recall): both 1 without errors, both 0 when nothing matches."""
    tp, fp, fn = page_counts(truth, prediction, n)
    if fp == 0 and fn == 0:
        return 1.0, 1.0
    if tp == 0:
        return 0.0, 0.0
    return tp / (tp + fp), tp / (tp + fn)


def corpus_scores(pages: Sequence[Tuple[str, str]], n: int = 4) -> Dict[str, float]:
    """Corpus precision (mean over pages with a non-empty prediction), recall (mean over all
    pages) and F1 = 2PR/(P+R) of those means, for ``pages`` = [(truth, prediction), ...]."""
    return _aggregate([(page_precision_recall(t, p, n), bool(p.strip())) for t, p in pages])


def _aggregate(scored: Sequence[Tuple[Tuple[float, float], bool]]) -> Dict[str, float]:
    precisions = [pr[0] for pr, non_empty in scored if non_empty]
    recalls = [pr[1] for pr, _ in scored]
    p = sum(precisions) / len(precisions) if precisions else 0.0
    r = sum(recalls) / len(recalls) if recalls else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"f1": f1, "precision": p, "recall": r}


def bootstrap_std(scored: Sequence[Tuple[Tuple[float, float], bool]], samples: int = 1000, seed: int = 0) -> float:
    """Standard deviation of corpus F1 over ``samples`` resamples of the pages (with replacement)."""
    rng = random.Random(seed)
    size = len(scored)
    f1s = [_aggregate([scored[rng.randrange(size)] for _ in range(size)])["f1"] for _ in range(samples)]
    return statistics.pstdev(f1s)


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


def ours_text(html: str) -> str:
    """websearch_sync's extraction in text mode."""
    from websearch_sync.extract.article import extract_html

    return extract_html(html, mode="text").text


# --------------------------------------------------------------------------- runner

def load(data_dir: str) -> List[Tuple[str, str, str]]:
    """[(page id, html, truth text)] sorted by id."""
    with open(os.path.join(data_dir, "ground-truth.json"), encoding="utf-8") as handle:
        truth = json.load(handle)
    pages = []
    for page_id in sorted(truth):
        with gzip.open(os.path.join(data_dir, "html", page_id + ".html.gz"), "rb") as handle:
            html = handle.read().decode("utf-8", "replace")
        pages.append((page_id, html, truth[page_id].get("articleBody") or ""))
    return pages


def run(pages, systems: Dict[str, Callable[[str], str]], repeat: int):
    """Runs every system on every page, interleaved so both see the same machine load.
    Returns {name: (predictions, per-page best ms)}."""
    out = {name: ([""] * len(pages), [float("inf")] * len(pages)) for name in systems}
    for system in systems.values():  # imports and regex compilation are not per-page costs
        system(pages[0][1])
    for _ in range(repeat):
        for index, (_, html, _) in enumerate(pages):
            for name, system in systems.items():
                start = time.perf_counter()
                text = system(html)
                elapsed = (time.perf_counter() - start) * 1000
                preds, times = out[name]
                preds[index] = text
                times[index] = min(times[index], elapsed)
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Command-line entry point: prints the scores of both systems."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=DEFAULT_DATA, help="benchmark directory (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per page; the fastest counts (default: 3)")
    parser.add_argument("--per-page", help="write per-page precision/recall of both systems as JSON here")
    args = parser.parse_args(argv)

    sys.path.insert(0, REPO)
    pages = load(args.data)
    systems = {"ours": ours_text, "baseline": baseline_text}
    results = run(pages, systems, max(1, args.repeat))

    print("pages: %d  (data: %s, fastest of %d runs per page)" % (len(pages), args.data, args.repeat))
    medians = {}
    per_page = {}
    for name in systems:
        preds, times = results[name]
        scored = [(page_precision_recall(truth, pred), bool(pred.strip())) for (_, _, truth), pred in zip(pages, preds)]
        scores = _aggregate(scored)
        medians[name] = statistics.median(times)
        empty = sum(1 for _, non_empty in scored if not non_empty)
        print("%-9s F1 %.4f  P %.4f  R %.4f  bootstrap std %.4f  median %.2f ms/page  empty %d"
              % (name, scores["f1"], scores["precision"], scores["recall"], bootstrap_std(scored),
                 medians[name], empty))
        per_page[name] = {pid: {"p": pr[0], "r": pr[1], "ms": ms}
                          for (pid, _, _), (pr, _), ms in zip(pages, scored, times)}
    print("time ratio ours/baseline (median ms/page): %.2f" % (medians["ours"] / medians["baseline"]))
    if args.per_page:
        with open(args.per_page, "w", encoding="utf-8") as handle:
            json.dump(per_page, handle, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

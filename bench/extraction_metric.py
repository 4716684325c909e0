"""The metric of the article-extraction benchmark (its README), and bootstrap spreads.

Per page: 4-token shingles of truth and prediction, precision and recall over their union.
Corpus: precision = mean over pages with a non-empty prediction, recall = mean over all
pages, F1 = 2PR/(P+R) of those means. Used by ``bench/extraction.py`` for both
development sets.
"""

import random
import re
import statistics
from collections import Counter
from collections.abc import Sequence

_TOKEN = re.compile(r"\w+", re.UNICODE)

#: One scored page: ((precision, recall), prediction is non-empty).
Scored = tuple[tuple[float, float], bool]


def tokens(text: str) -> list[str]:
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
    return Counter(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1))


def page_counts(truth: str, prediction: str, n: int = 4) -> tuple[float, float, float]:
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


def page_precision_recall(truth: str, prediction: str, n: int = 4) -> tuple[float, float]:
    """Per-page (precision, recall): both 1 without errors, both 0 when nothing matches."""
    tp, fp, fn = page_counts(truth, prediction, n)
    if fp == 0 and fn == 0:
        return 1.0, 1.0
    if tp == 0:
        return 0.0, 0.0
    return tp / (tp + fp), tp / (tp + fn)


def page_f1(scored: Scored) -> float:
    """F1 of one scored page (0 when precision and recall are both 0)."""
    (p, r), _ = scored
    return 2 * p * r / (p + r) if p + r else 0.0


def score_pages(truths: Sequence[str], predictions: Sequence[str], n: int = 4) -> list[Scored]:
    """[((precision, recall), non-empty)] of each page."""
    return [(page_precision_recall(t, p, n), bool(p.strip())) for t, p in zip(truths, predictions)]


def aggregate(scored: Sequence[Scored]) -> dict[str, float]:
    """Corpus precision (mean over non-empty predictions), recall (mean over all pages), F1."""
    precisions = [pr[0] for pr, non_empty in scored if non_empty]
    recalls = [pr[1] for pr, _ in scored]
    p = sum(precisions) / len(precisions) if precisions else 0.0
    r = sum(recalls) / len(recalls) if recalls else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"f1": f1, "precision": p, "recall": r}


def corpus_scores(pages: Sequence[tuple[str, str]], n: int = 4) -> dict[str, float]:
    """Corpus scores of ``pages`` = [(truth, prediction), ...]."""
    return aggregate(score_pages([t for t, _ in pages], [p for _, p in pages], n))


def _resamples(size: int, samples: int, seed: int):
    rng = random.Random(seed)
    for _ in range(samples):
        yield [rng.randrange(size) for _ in range(size)]


def bootstrap_std(scored: Sequence[Scored], samples: int = 1000, seed: int = 0) -> float:
    """Standard deviation of corpus F1 over ``samples`` resamples of the pages (with replacement)."""
    f1s = [aggregate([scored[i] for i in picks])["f1"] for picks in _resamples(len(scored), samples, seed)]
    return statistics.pstdev(f1s)


def paired_bootstrap(
    first: Sequence[Scored], second: Sequence[Scored], samples: int = 1000, seed: int = 0
) -> dict[str, float]:
    """Spread of F1(first) - F1(second) on the same pages: the same resample of pages is
    scored for both systems. Returns the observed ``delta``, the ``std`` of the resampled
    deltas, their 2.5/97.5 percentiles ``low``/``high`` and ``wins``, the share of
    resamples where ``first`` scores higher."""
    if len(first) != len(second):
        raise ValueError("paired_bootstrap needs the same pages for both systems")
    deltas = sorted(
        aggregate([first[i] for i in picks])["f1"] - aggregate([second[i] for i in picks])["f1"]
        for picks in _resamples(len(first), samples, seed)
    )
    return {
        "delta": aggregate(first)["f1"] - aggregate(second)["f1"],
        "std": statistics.pstdev(deltas),
        "low": deltas[int(0.025 * (len(deltas) - 1))],
        "high": deltas[int(0.975 * (len(deltas) - 1))],
        "wins": sum(1 for d in deltas if d > 0) / len(deltas),
    }


# --------------------------------------------------------------------------- text vs markdown

#: A backslash escape of CommonMark (before ASCII punctuation): the character is text.
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
#: An inline link: its label holds no unescaped bracket (a "[" before it, with an escaped "\]",
#: is text: "shift[1\], ... [label](url)" links "label" only, as CommonMark reads it).
_MD_LINK = re.compile(r"(?<!\\)\[((?:\\.|[^\[\]\\])*)\]\([^)\s]*\)")
_MD_FENCE = re.compile(r"^[ >]*(?:```+|~~~+)[\w+#-]*$", re.M)
_LINE_MARKER = re.compile(r"^(?:[ \t]*(?:>[ \t]?)*)(?:#{1,6} |\d+\. |- )?", re.M)


def _strip_line_markers(text: str) -> str:
    # twice: a heading or list item whose own text starts like a marker ("## 2. Results")
    return _LINE_MARKER.sub("", _LINE_MARKER.sub("", text))


def text_words(text: str) -> Counter:
    """Words (``\\w+``) of a text-mode extraction, line-start markers ("1. ", "- ") aside,
    as ``markdown_words`` leaves them aside too."""
    return Counter(_TOKEN.findall(_strip_line_markers(text)))


def markdown_words(markdown: str) -> Counter:
    """Words of a markdown extraction without its markup: link targets, fences and their
    language, heading/list/quote markers, emphasis and code marks, escapes."""
    text = _MD_FENCE.sub("", _MD_LINK.sub(lambda match: match.group(1), markdown))
    text = _strip_line_markers(_MD_ESCAPE.sub(r"\1", text))  # "1\. x" is text mode's "1. x"
    text = text.replace("*", "").replace("`", "")
    return Counter(_TOKEN.findall(text))

"""Rule ablation and the cross-set figure of ``bench/extraction.py``.

- Ablation: every rule of ``websearch_sync.extract.rules.RULES`` is switched off in turn
  (the others stay on) and each development set is extracted again. A rule's effect on a
  set is F1/P/R with the rule minus F1/P/R without it, with the paired bootstrap spread of
  the F1 difference, and the pages it hurts or helps (per-page F1 lower or higher by more
  than ``PAGE_MARGIN`` with the rule than without).
- Tuning: a rule is dropped when switching it off raises F1 on the tuning pages by
  ``TOLERANCE`` or more; a rule that changes nothing there stays.
- Cross-set figure: the rules are tuned on the pages of all the other sets together and
  the tuned rule set is scored on the remaining set, which had no say in it; for each set.
- K-fold figure: within each set, the rules are tuned on k-1 folds of its pages and scored
  on the remaining fold; the held-out folds' predictions are scored together.
"""

from collections.abc import Sequence
from typing import Callable

from extraction_metric import Scored, aggregate, page_f1, paired_bootstrap, score_pages

#: Per-page F1 difference that counts a page as hurt (or helped) by a rule.
PAGE_MARGIN = 0.01
#: Corpus F1 difference under which switching a rule off changes nothing (rounding noise).
TOLERANCE = 0.0001

#: extract(html, rules) -> text
Extractor = Callable[[str, frozenset[str]], str]
#: [(page id, html, truth)]
Pages = Sequence[tuple[str, str, str]]


def extract_set(pages: Pages, extract: Extractor, rules: frozenset[str]) -> list[Scored]:
    """Scores of ``pages`` extracted with ``rules``."""
    return score_pages([truth for _, _, truth in pages], [extract(html, rules) for _, html, _ in pages])


def rule_effect(with_rule: Sequence[Scored], without: Sequence[Scored], samples: int) -> dict[str, float]:
    """What a rule is worth on one set: deltas of F1/P/R (with minus without), the paired
    bootstrap std of the F1 delta, and the pages hurt and helped."""
    on, off = aggregate(with_rule), aggregate(without)
    spread = paired_bootstrap(with_rule, without, samples=samples)
    per_page = [page_f1(a) - page_f1(b) for a, b in zip(with_rule, without)]
    return {
        "f1": on["f1"] - off["f1"],
        "precision": on["precision"] - off["precision"],
        "recall": on["recall"] - off["recall"],
        "std": spread["std"],
        "hurt": sum(1 for d in per_page if d < -PAGE_MARGIN),
        "helped": sum(1 for d in per_page if d > PAGE_MARGIN),
    }


#: {rule: {set: per-page scores with that rule switched off}}
Ablated = dict[str, dict[str, list[Scored]]]


def ablate(sets: dict[str, Pages], extract: Extractor, rules: frozenset[str], names: Sequence[str]) -> Ablated:
    """Per-page scores of every set with each rule of ``names`` switched off in turn."""
    return {
        name: {set_name: extract_set(pages, extract, rules - {name}) for set_name, pages in sets.items()}
        for name in names
    }


def effects(
    reference: dict[str, list[Scored]], ablated: Ablated, samples: int = 200
) -> dict[str, dict[str, dict[str, float]]]:
    """{rule: {set: effect}} against ``reference`` (the scores of each set with all rules)."""
    return {
        name: {set_name: rule_effect(reference[set_name], without, samples) for set_name, without in per_set.items()}
        for name, per_set in ablated.items()
    }


def tuned_rules(
    reference: list[Scored], ablated: Ablated, set_name: str, rules: frozenset[str], pages: Sequence[int]
) -> frozenset[str]:
    """The rules tuned on ``pages`` (indexes) of ``set_name``: the rules minus those whose
    removal raises F1 on those pages by ``TOLERANCE`` or more."""
    with_all = aggregate([reference[i] for i in pages])["f1"]
    return frozenset(
        name
        for name in rules
        if name not in ablated or aggregate([ablated[name][set_name][i] for i in pages])["f1"] - with_all < TOLERANCE
    )


def _pooled(names: Sequence[str], reference: dict[str, list[Scored]], ablated: Ablated) -> tuple[list[Scored], Ablated]:
    """The per-page scores of several sets as one set named ``"+".join(names)``."""
    pooled = "+".join(names)
    return (
        [s for n in names for s in reference[n]],
        {rule: {pooled: [s for n in names for s in per_set[n]]} for rule, per_set in ablated.items()},
    )


def cross_set(
    sets: dict[str, Pages],
    extract: Extractor,
    rules: frozenset[str],
    reference: dict[str, list[Scored]],
    ablated: Ablated,
) -> dict[str, tuple[str, frozenset[str], list[Scored]]]:
    """{scored set: (tuned on, tuned rules, scores)}: each set scored with the rules tuned on
    the pages of all the other sets together."""
    out = {}
    for scored_on in sets:
        others = [name for name in sets if name != scored_on]
        tuned_on = "+".join(others)
        pooled, pooled_ablated = _pooled(others, reference, ablated)
        chosen = tuned_rules(pooled, pooled_ablated, tuned_on, rules, range(len(pooled)))
        scored = reference[scored_on] if chosen == rules else extract_set(sets[scored_on], extract, chosen)
        out[scored_on] = (tuned_on, chosen, scored)
    return out


def k_fold(
    pages: Pages,
    set_name: str,
    extract: Extractor,
    rules: frozenset[str],
    reference: list[Scored],
    ablated: Ablated,
    k: int = 5,
) -> tuple[list[Scored], list[frozenset[str]]]:
    """Scores of every page of one set when predicted with the rules tuned on the other
    folds (page i is in fold i mod k), and the rules tuned for each fold."""
    scored = list(reference)
    chosen_per_fold = []
    for fold in range(k):
        held_out = [i for i in range(len(pages)) if i % k == fold]
        chosen = tuned_rules(reference, ablated, set_name, rules, [i for i in range(len(pages)) if i % k != fold])
        chosen_per_fold.append(chosen)
        if chosen != rules:
            for i, result in zip(held_out, extract_set([pages[i] for i in held_out], extract, chosen)):
                scored[i] = result
    return scored, chosen_per_fold


def print_ablation(
    effects: dict[str, dict[str, dict[str, float]]], set_names: Sequence[str], summaries: dict[str, str]
) -> None:
    """The per-rule table: for each set, dF1 (+- paired bootstrap std), dP, dR, pages hurt/helped."""
    head = "".join("  %-44s" % ("%s: dF1 (+-std) dP dR hurt/helped" % name) for name in set_names)
    print("\nper-rule effect (all rules minus that rule; positive = the rule helps)")
    print("%-22s%s  %s" % ("rule", head, "what it does"))
    for name, per_set in effects.items():
        cells = "".join(
            "  %-44s"
            % (
                "%+.4f (%.4f) %+.4f %+.4f %d/%d"
                % (e["f1"], e["std"], e["precision"], e["recall"], e["hurt"], e["helped"])
            )
            for e in (per_set[s] for s in set_names)
        )
        print("%-22s%s  %s" % (name, cells, summaries.get(name, "")))

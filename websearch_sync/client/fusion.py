"""Merging ranked result lists from several backends with reciprocal rank fusion."""

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.identity import identity

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

RRF_K = 60


def fuse(
    ranked_lists: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], vertical: str = "web", k: int = RRF_K
) -> list[dict[str, Any]]:
    """Fuse ``[(provider, items), ...]`` (each list in rank order) into one list.

    Items of one :func:`~websearch_sync.engine.identity.identity` (URLs sharing a
    :func:`~websearch_sync.net.urls.dedupe_key`; images: their image URLs) are one
    result; its score is the sum of ``1 / (k + rank)`` over the lists it appears
    in. The result keeps the item (and ``provider``) from the list that ranked it
    best and lists every provider that returned it in ``providers``. Ties keep the
    order of first appearance. ``rank`` is left to normalization.
    """
    scores: dict[str, float] = {}
    best: dict[str, tuple[int, int, Mapping[str, Any]]] = {}
    providers: dict[str, list[str]] = {}
    order: dict[str, int] = {}
    for list_index, (provider, items) in enumerate(ranked_lists):
        for position, item in enumerate(items, 1):
            key = identity(item, vertical) or item["url"]
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + position)
            order.setdefault(key, len(order))
            names = providers.setdefault(key, [])
            if provider not in names:
                names.append(provider)
            if key not in best or (position, list_index) < best[key][:2]:
                best[key] = (position, list_index, item)
    fused = []
    for key in sorted(scores, key=lambda key: (-scores[key], order[key])):
        item = {name: value for name, value in best[key][2].items() if name != "rank"}
        item["providers"] = providers[key]
        fused.append(item)
    return fused

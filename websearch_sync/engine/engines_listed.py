"""The failures of a meta-engine's engines a response or an error lists: the first few, the others counted.

A broken or hostile SearXNG instance may name thousands of engines in ``unresponsive_engines``;
each became an entry of ``errors`` (3,000 came to 500 KB on the response, 860 KB in a tool result
for a model, 530 KB in the ``to_dict()`` of the error of a call whose every engine failed). The
response, a tool result and that error list the first :data:`MAX_LISTED_ENGINES` and count the
others under :data:`ENGINES_NOT_LISTED`; the error also keeps the first failure of each other kind
(:func:`listed`), which single flight and the cool-downs read.
"""

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Optional, TypeVar

from ..errors import ENGINES_NOT_LISTED as ENGINES_NOT_LISTED  # the key counting those left out: errors' own

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The most failures of a meta-engine's engines (SearXNG's ``unresponsive_engines``) a response or a
#: tool result lists in its ``errors`` (an error: these, and the first of each other kind).
MAX_LISTED_ENGINES = 20

_T = TypeVar("_T")


def listed(failures: Sequence[_T], kind: Optional[Callable[[_T], Hashable]] = None) -> list[_T]:
    """The engine ``failures`` a container lists, in their order: the first :data:`MAX_LISTED_ENGINES`
    and, given ``kind``, the first failure of each kind none of those is (a handful: the kinds are
    few), so that what is read of every failure (is one mendable, a block) reads the same."""
    shown = list(failures[:MAX_LISTED_ENGINES])
    if kind is None or len(failures) <= MAX_LISTED_ENGINES:
        return shown
    kinds = {kind(failure) for failure in shown}
    for failure in failures[MAX_LISTED_ENGINES:]:
        if kind(failure) not in kinds:
            kinds.add(kind(failure))
            shown.append(failure)
    return shown


def few_engines(container: Mapping[str, Any]) -> dict[str, Any]:
    """``container`` (a search response or an error's dict) with at most :data:`MAX_LISTED_ENGINES`
    engine failures in its ``errors`` (:func:`listed`; every other entry kept), the rest counted
    under :data:`ENGINES_NOT_LISTED` (added to a count it holds); a new dict either way."""
    errors = container.get("errors")
    if not isinstance(errors, list):
        return dict(container)
    engines = [e for e in errors if isinstance(e, Mapping) and e.get("engine")]
    if len(engines) <= MAX_LISTED_ENGINES:
        return dict(container)
    kept_engines = {id(e) for e in listed(engines)}
    kept = [e for e in errors if not (isinstance(e, Mapping) and e.get("engine")) or id(e) in kept_engines]
    counted = container.get(ENGINES_NOT_LISTED)
    before = counted if isinstance(counted, int) and not isinstance(counted, bool) and counted > 0 else 0
    return dict(container, errors=kept, **{ENGINES_NOT_LISTED: before + len(engines) - len(kept_engines)})

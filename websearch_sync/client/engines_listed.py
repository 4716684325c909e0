"""The failures of a meta-engine's engines a response lists: the first few, the others counted.

A broken or hostile SearXNG instance may name thousands of engines in ``unresponsive_engines``;
each became an entry of ``errors`` (3,000 came to 500 KB on the response, 860 KB in a tool result
for a model). The response and a tool result (or its error) list the first
:data:`MAX_LISTED_ENGINES` and count the others under :data:`ENGINES_NOT_LISTED`.
"""

from collections.abc import Mapping
from typing import Any

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The most failures of a meta-engine's engines (SearXNG's ``unresponsive_engines``) a response or a
#: tool result lists in its ``errors``.
MAX_LISTED_ENGINES = 20
#: The key of a response, a tool result or its error counting the engine failures left out of its ``errors``.
ENGINES_NOT_LISTED = "engines_not_listed"


def few_engines(container: Mapping[str, Any]) -> dict[str, Any]:
    """``container`` (a search response or an error's dict) with at most :data:`MAX_LISTED_ENGINES`
    engine failures in its ``errors`` (the first ones; every other entry kept), the rest counted
    under :data:`ENGINES_NOT_LISTED` (added to a count it holds); a new dict either way."""
    errors = container.get("errors")
    if not isinstance(errors, list):
        return dict(container)
    engines = [e for e in errors if isinstance(e, Mapping) and e.get("engine")]
    if len(engines) <= MAX_LISTED_ENGINES:
        return dict(container)
    left_out = {id(e) for e in engines[MAX_LISTED_ENGINES:]}
    kept = [e for e in errors if id(e) not in left_out]
    counted = container.get(ENGINES_NOT_LISTED)
    before = counted if isinstance(counted, int) and not isinstance(counted, bool) and counted > 0 else 0
    return dict(container, errors=kept, **{ENGINES_NOT_LISTED: before + len(left_out)})

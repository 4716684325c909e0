"""Cached answers a cool-down shaped: served only while that cool-down holds.

An answer got while a backend cooled down (a fallback chain's later backend, a merge without
that backend's list) is cached because the same call would get it again: while the cool-down
holds. The stored copy names the cool-downs that shaped it (:data:`SHAPED`: each such backend
with its cool-down keys); every read, from any tier (memory, the SQLite file, a shared Redis),
asks the cool-down table whether they still hold (:meth:`~.cooldown.Cooldowns.check`, which asks
the shared state about a cool-down held there). One lifted (``clear_cooldowns``,
``websearch-sync state clear``), or unknown to the reading process, makes the entry a miss: the
call asks that backend again. One that holds gives that backend's note again as it reads now
(the seconds left counted at the read, not when the answer was cached). One mechanism for
every tier: no tier is scanned, nothing is deleted.
"""

from typing import Any, Callable, Optional

from ..engine.base import Backend
from ..errors import WebBlocked

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The key of a stored answer naming the cool-downs that shaped it: ``{backend: [cool-down keys]}``.
#: Never in an answer a caller gets (:func:`served` takes it out).
SHAPED = "_shaped_by_cooldowns"
#: A stored answer names at most this many backends and keys each (it is untrusted input: another
#: process, or anyone, may have written the file or Redis).
_MAX_NAMES = 64

Cooling = Callable[[Backend], tuple[str, ...]]
#: ``check(key, left_s)``: raises the ``WebBlocked`` a call would meet while ``key`` cools down.
Check = Callable[[str, Optional[float]], None]


def shaping(response: dict[str, Any], backends: list[Backend], cooling: Cooling) -> dict[str, list[str]]:
    """The backends whose cool-down shaped ``response``: each with a block among its notes
    (``WebBlocked``: met by this call, or the cool-down's refusal) whose keys cool down now
    (``cooling``: its cool-down keys with time left), with those keys."""
    blocked = {note.get("provider") for note in response.get("errors", ()) if note.get("type") == WebBlocked.code}
    shaped = {}
    for backend in backends:
        if backend.name in blocked:
            keys = cooling(backend)
            if keys:
                shaped[backend.name] = list(keys)
    return shaped


def stamped(response: dict[str, Any], shaped: dict[str, list[str]]) -> dict[str, Any]:
    """What the cache stores for ``response``: a shallow copy naming the cool-downs that shaped it (itself without)."""
    return {**response, SHAPED: shaped} if shaped else response


def served(value: dict[str, Any], check: Check, left_s: Optional[float]) -> Optional[dict[str, Any]]:
    """A cached ``value`` (a copy, edited in place) as a caller gets it, or ``None`` (a miss) when a
    cool-down that shaped it no longer holds, or its stamp is not one (untrusted input). The note of
    each backend a cool-down shaped is that cool-down's refusal now (:func:`_current_block`)."""
    shaped = value.pop(SHAPED, None)
    if shaped is None:
        return value
    if not _valid(shaped):
        return None
    notes = value.get("errors")
    for backend, keys in shaped.items():
        block = _current_block(check, keys, left_s)
        if block is None:
            return None
        if type(notes) is list:
            _replace_note(notes, backend, block.to_dict())
    return value


def _current_block(check: Check, keys: list[str], left_s: Optional[float]) -> Optional[WebBlocked]:
    """The refusal a call would meet now from the first of ``keys`` still cooling down; ``None``
    when none is (lifted, over, or never known to this process: the backend would be asked)."""
    for key in keys:
        try:
            check(key, left_s)
        except WebBlocked as block:
            return block
    return None


def _replace_note(notes: list[Any], backend: str, note: dict[str, Any]) -> None:
    """Put ``note`` in the place of ``backend``'s block among ``notes`` (a merge lists them in the order its backends answered)."""
    for index, old in enumerate(notes):
        if type(old) is dict and old.get("provider") == backend and old.get("type") == WebBlocked.code:
            notes[index] = note
            return


def _valid(shaped: Any) -> bool:
    """Whether a stored stamp is ``{backend: [key, ...]}`` of text, and small."""
    return (
        type(shaped) is dict
        and 0 < len(shaped) <= _MAX_NAMES
        and all(
            type(name) is str
            and type(keys) is list
            and 0 < len(keys) <= _MAX_NAMES
            and all(type(key) is str for key in keys)
            for name, keys in shaped.items()
        )
    )

"""What a cached answer's notes depend on, stamped into its stored copy and checked when served.

Two things an answer's ``errors`` say outlive the moment it was made:

- the cool-downs that shaped it. An answer got while a backend cooled down (a fallback chain's
  later backend, a merge without that backend's list) is cached because the same call would get
  it again: while the cool-down holds. The stamp names those backends with their cool-down keys;
  every read, from any tier (memory, the SQLite file, a shared Redis), asks the cool-down table
  whether they still hold (:meth:`~.cooldown.Cooldowns.check`, which asks the shared state about
  a cool-down held there). One lifted (``clear_cooldowns``, ``websearch-sync state clear``), or
  unknown to the reading process, makes the entry a miss: the call asks that backend again. One
  that holds gives that backend's note as a call would read it now (its seconds left counted at
  the read). No tier is scanned and nothing deleted: one check, the same for every tier.
- the seconds a note's ``retry_after`` counts (a SearXNG engine the instance suspended). The stamp
  keeps the seconds the answer was stored for; each tier keeps the expiry it was stored with, so
  at a read the answer's age is that less its time left, and ``retry_after`` is told that much
  shorter (never below 0): a clock-free measure, the same across the machines of a fleet.
"""

import math
from typing import Any, Callable, Optional

from ..engine.base import Backend
from ..errors import WebBlocked
from .state.server import MAX_EXPIRY_S

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The key of a stored answer holding its stamp: ``{"stored_for_s": seconds, "cooldowns": {backend: [keys]}}``.
#: Never in an answer a caller gets (:func:`served` takes it out).
STAMP = "_stamp"
#: A stamp names at most this many backends and keys each (it is untrusted input: another
#: process, or anyone, may have written the file or Redis).
_MAX_NAMES = 64

Cooling = Callable[[Backend], tuple[str, ...]]
#: ``check(key, left_s)``: raises the ``WebBlocked`` a call would meet while ``key`` cools down.
Check = Callable[[str, Optional[float]], None]
#: ``own_keys(backend)``: the cool-down keys of that backend of the call's plan for its parameters
#: (:meth:`~.Backend.cooldown_keys`); ``None`` for a name the plan has no backend of.
OwnKeys = Callable[[str], Optional[tuple[str, ...]]]


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


def stamped(response: dict[str, Any], shaped: dict[str, list[str]], stored_for_s: float) -> dict[str, Any]:
    """What the cache stores for ``response``, kept ``stored_for_s`` seconds: a shallow copy with its
    stamp when a note depends on a cool-down (``shaped``) or counts seconds (``retry_after``), else itself."""
    if not shaped and not any(type(note.get("retry_after")) in (int, float) for note in response.get("errors", ())):
        return response
    return {**response, STAMP: {"stored_for_s": stored_for_s, "cooldowns": shaped}}


def served(
    value: dict[str, Any], left_s: float, check: Check, own_keys: OwnKeys, call_left_s: Callable[[], float]
) -> Optional[dict[str, Any]]:
    """A cached ``value`` (a copy, edited in place) with ``left_s`` seconds left as a caller gets
    it, or ``None`` (a miss) when a cool-down that shaped it no longer holds, or its stamp is not
    one (untrusted input). A stamp names only the call's own backends with their own cool-down
    keys (``own_keys``): anything else was planted, and a miss, never a key looked up (a shared
    read each). ``call_left_s()``: the time the call has left, asked before each check (each
    bounds a shared read); none left is a miss."""
    stamp = value.pop(STAMP, None)
    if stamp is None:
        return value
    if not _valid(stamp):
        return None
    notes = value.get("errors")
    notes = notes if type(notes) is list else []
    for backend, keys in stamp["cooldowns"].items():
        own = own_keys(backend)
        if own is None or any(key not in own for key in keys):
            return None
        block = _current_block(check, [key for key in own if key in keys], call_left_s)
        if block is None:
            return None
        _replace_note(notes, backend, dict(block.to_dict()))
    age = max(0.0, stamp["stored_for_s"] - left_s)
    for note in notes:
        waited = note.get("retry_after") if type(note) is dict else None
        if type(waited) in (int, float):
            seconds = _seconds(waited)
            if seconds is None:
                return None
            note["retry_after"] = max(0.0, seconds - age)
    return value


def _current_block(check: Check, keys: list[str], call_left_s: Callable[[], float]) -> Optional[WebBlocked]:
    """The refusal a call would meet now from the first of ``keys`` still cooling down; ``None``
    when none is (lifted, over, or never known to this process: the backend would be asked), or
    when the call's time ran out before it was known."""
    for key in keys:
        left_s = call_left_s()
        if left_s <= 0:
            return None
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


def _valid(stamp: Any) -> bool:
    """Whether a stored stamp is one: a number of seconds (:func:`_seconds`) and ``{backend: [key, ...]}`` of text, small."""
    if type(stamp) is not dict or _seconds(stamp.get("stored_for_s")) is None:
        return False
    shaped = stamp.get("cooldowns")
    return (
        type(shaped) is dict
        and len(shaped) <= _MAX_NAMES
        and all(
            type(name) is str
            and type(keys) is list
            and 0 < len(keys) <= _MAX_NAMES
            and all(type(key) is str for key in keys)
            for name, keys in shaped.items()
        )
    )


def _seconds(value: Any) -> Optional[float]:
    """``value`` as seconds when it is a number of them from 0 to :data:`MAX_EXPIRY_S` (no cache
    keeps anything longer), else ``None``. An int is bounded before it is made a float: a JSON
    integer may have hundreds of digits, which no float holds (``OverflowError``)."""
    if type(value) is int:
        return float(value) if 0 <= value <= MAX_EXPIRY_S else None
    if type(value) is float and math.isfinite(value) and 0.0 <= value <= MAX_EXPIRY_S:
        return value
    return None

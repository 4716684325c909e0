"""What the library says once per process (a warning, a hint, a note), whichever thread says it first.

Its own unit because the same few lines, a set of what was said looked up then added to, stood in
eight modules, five of them without a lock: two threads could both find a key new and both warn.
It sits just above :mod:`~websearch_sync.forks`, which renews its lock in a forked child (a lock a
parent's thread held at the fork would hang the child's first warning), and below ``validate``, the
lowest layer that warns once.
"""

import weakref
from collections.abc import Hashable

from ..forks import instance_lock, module_lock

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


#: Every :class:`Once` that :func:`forget_sayings` forgets (held weakly: a test's own ``Once()`` goes with it).
_SAYINGS: "weakref.WeakSet[Once]" = weakref.WeakSet()
_SAYINGS_LOCK = module_lock(__name__, "_SAYINGS_LOCK")


def forget_sayings() -> None:
    """Say again everything said once per process (a malformed or mistyped variable, a constructor's traceback,
    a built-in backend replaced, a key sent over plain http, a locale's hint...), but what outlives a reset:
    the testing kit's ``reset()``, so that a test's log capture sees what an earlier test said. One mechanism,
    so that a warning added later is forgotten too (they were forgotten one by one, and most were not)."""
    with _SAYINGS_LOCK:
        sayings = list(_SAYINGS)
    for once in sayings:
        once.forget()


class Once:
    """The keys said so far in this process: :meth:`first` is true once for each key.

    A forked child keeps its parent's keys (what the parent said is not said again) with a lock of its own."""

    def __init__(self, *, outlives_reset: bool = False) -> None:
        """``outlives_reset``: what is said stays said past :func:`forget_sayings` (the offline stub's
        warning, said once to a whole test suite); every other saying is said again after it."""
        self._said: set[Hashable] = set()
        self._lock = instance_lock(self)
        if not outlives_reset:
            with _SAYINGS_LOCK:
                _SAYINGS.add(self)

    def first(self, key: Hashable) -> bool:
        """True the first time ``key`` is given in this process (it is then said), false after,
        in whichever thread: of two threads giving a new key at once, one is told true."""
        if key in self._said:  # the common case, said already: no lock taken
            return False
        with self._lock:
            if key in self._said:
                return False
            self._said.add(key)
        return True

    def forget(self) -> None:
        """Say every key again (a test's reset: its log capture sees what an earlier test said)."""
        with self._lock:
            self._said.clear()

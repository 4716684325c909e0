"""Validated calls remembered: a repeated call (a cache hit's usual case) is validated once.

Validation stays in front of every cache lookup: a call's arguments are looked up
here by type and value (``5``, ``5.0`` and ``True`` are different arguments, so a
value validation would refuse never matches one it accepted), and only an exact
repeat of a call validated before, with the same settings object (its endpoints and
provider settings not edited in place since), the same
registered backend classes and nothing registered or unregistered since, reuses that validation. Anything unhashable is
validated afresh. This keeps a memory-cache hit at a few microseconds.

A call with a new query and the arguments of a call validated before (the usual search)
reuses the part of that validation which does not read the query (:meth:`PlanMemo.shape`:
options, backends, their classes and timeouts), under the same conditions; its query and
each backend's refusal of it (:meth:`Backend.check`: a query too long...) are checked anew.
"""

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Callable, NamedTuple, Optional

from ..config import Settings
from ..engine import registry
from ..engine.base import Backend
from ..errors import InvalidInput
from ..models import SearchParams
from .cachekey import SectionsSnapshot
from .forks import renewed_in_children

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Validated calls kept per client (least recently used forgotten).
MAX_PLANS = 256


class Validated(NamedTuple):
    """A validated call: what does not depend on the moment it is made."""

    settings: Settings
    names: list[str]
    params: SearchParams
    classes: tuple[type[Backend], ...]
    timeout_ms: int  #: the longest timeout of the backends (the default budget)
    keys: dict[str, Hashable]  #: search cache keys by strategy, filled on first use
    check: Callable[[dict[str, Any]], bool]  #: accepts a stored answer for this call (see ``answers.py``)
    max_bytes: int  #: the longest stored answer this call can have (see ``answers.py``)
    refused: dict[str, bool]  #: by strategy: the call asks no one (its backends refuse it), so no cache, no flight
    refusing: frozenset[str]  #: the backends that refuse the call before sending (a missing key...)
    generation: int = -1  #: the registry's (:func:`registry.generation`) when validated
    sections: Optional[SectionsSnapshot] = None  #: the endpoints and provider settings it was made with


def _typed(value: Any) -> Hashable:
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_typed(v) for v in value))
    hash(value)  # TypeError for an unhashable value: the call is not remembered
    return (type(value), value)


_SCALARS = frozenset((str, int, float, bool, type(None)))


def call_key(query: Any, backend: Any, max_results: Any, options: dict[str, Any]) -> Optional[Hashable]:
    """The arguments of a search call by type and value; ``None`` when one cannot be hashed."""
    query_type, backend_type, max_type = type(query), type(backend), type(max_results)
    if (
        not options and query_type in _SCALARS and backend_type in _SCALARS and max_type in _SCALARS
    ):  # the usual call, fast
        return (query_type, query, backend_type, backend, max_type, max_results)
    try:
        return (
            _typed(query),
            _typed(backend),
            _typed(max_results),
            tuple(sorted((k, _typed(v)) for k, v in options.items())),
        )
    except TypeError:
        return None


def shape_key(backend: Any, max_results: Any, options: dict[str, Any]) -> Optional[Hashable]:
    """The arguments of a search call but its query, by type and value (``None``: unhashable)."""
    return call_key(None, backend, max_results, options)


class PlanMemo:
    """The calls one client validated lately (thread-safe)."""

    def __init__(self) -> None:
        self._plans: OrderedDict[Hashable, Validated] = OrderedDict()
        self._shapes: OrderedDict[Hashable, Validated] = OrderedDict()
        self._lock = threading.Lock()
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: a parent's thread may have held the lock at the fork."""
        self._lock = threading.Lock()

    def get(self, key: Optional[Hashable], settings: Settings) -> Optional[Validated]:
        """The validation of the call ``key`` with ``settings``, if still true."""
        return self._still_true(self._plans, key, settings)

    def shape(self, key: Optional[Hashable], settings: Settings) -> Optional[Validated]:
        """A validation of a call with the arguments ``key`` (:func:`shape_key`) and ``settings``
        but another query, if still true: what it found of anything but the query holds."""
        return self._still_true(self._shapes, key, settings)

    @staticmethod
    def _still_true(
        plans: "OrderedDict[Hashable, Validated]", key: Optional[Hashable], settings: Settings
    ) -> Optional[Validated]:
        if key is None:
            return None
        found = plans.get(key)
        if found is None or found.settings is not settings or found.generation != registry.generation():
            return None
        if found.sections is None or not found.sections.holds(settings):  # edited in place since
            return None
        try:
            for name, cls in zip(found.names, found.classes):
                if registry.backend_class(name, cls.vertical) is not cls:  # a backend was registered again since
                    return None
        except InvalidInput:  # ... or unregistered
            return None
        return found

    def put(self, key: Optional[Hashable], validated: Validated, shape: Optional[Hashable] = None) -> None:
        """Remember ``validated`` as the validation of the call ``key``, and of its arguments but
        the query ``shape`` (:func:`shape_key`)."""
        with self._lock:
            for plans, at in ((self._plans, key), (self._shapes, shape)):
                if at is None:
                    continue
                plans[at] = validated
                while len(plans) > MAX_PLANS:
                    plans.popitem(last=False)

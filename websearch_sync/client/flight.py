"""Single-flight: while one caller asks the upstream a question, identical callers wait
for its answer instead of asking too.

Identical means the same cache key (backends, strategy, validated parameters, settings
fingerprint). In one process the first caller holds an in-process entry and the others
wait on its event; across processes (a shared state) the first one also holds a short
Redis lock (``state/flights.py``) and the others poll the shared cache while it is held.
A waiter then reads the cache: a hit answers it; a miss (the first caller failed, or
its answer was not cacheable) lets it ask the upstream itself. Every wait ends with the
waiter's budget.
"""

import threading
import time
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Callable, Optional

from ..net.deadline import Deadline
from .tiers import SharedFlightsTier

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How often a waiter in another process looks for the answer in the shared cache.
POLL_S = 0.02

Lookup = Callable[[], Optional[dict[str, Any]]]


class Flights:
    """The questions this process (or, with a shared tier, any process) is asking now."""

    def __init__(self, shared: Optional[SharedFlightsTier] = None) -> None:
        self._shared = shared
        self._asking: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()

    @contextmanager
    def turn(self, key: Hashable, budget: Deadline, lookup: Lookup) -> Iterator[Optional[dict[str, Any]]]:
        """Yields the answer another caller found (read with ``lookup``), or ``None``: then
        this caller asks the upstream, and the others wait until the block ends."""
        with self._lock:
            asking = self._asking.get(key)
            if asking is None:
                mine = self._asking[key] = threading.Event()
        if asking is not None:  # another thread of this process asks: wait, then read the cache
            asking.wait(max(0.0, budget.remaining_s()))
            yield lookup()
            return
        try:
            yield from self._shared_turn(key, budget, lookup)
        finally:
            with self._lock:
                del self._asking[key]
            mine.set()

    def _shared_turn(self, key: Hashable, budget: Deadline, lookup: Lookup) -> Iterator[Optional[dict[str, Any]]]:
        if self._shared is None:
            yield None
            return
        token = self._shared.claim(key, max(0.001, budget.remaining_s()), budget.remaining_s())
        if token is None:  # another process asks: wait for its answer while it holds the question
            found = self._wait_for_answer(key, budget, lookup)
            yield found
            return
        try:
            # the owner before this one may have answered and let go between this caller's cache read and its claim
            yield lookup() if token else None
        finally:
            self._shared.release(key, token, budget.remaining_s())

    def _wait_for_answer(self, key: Hashable, budget: Deadline, lookup: Lookup) -> Optional[dict[str, Any]]:
        assert self._shared is not None
        while True:
            time.sleep(max(0.0, min(POLL_S, budget.remaining_s())))
            found = lookup()
            if found is not None or budget.expired() or not self._shared.busy(key, budget.remaining_s()):
                return found if found is not None else lookup()

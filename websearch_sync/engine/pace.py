"""The pace of a backend's later requests within one call.

A search may need more than one request: a token page before the results (DuckDuckGo's
``vqd`` before ``news.js``), or the next result pages when one page holds fewer than
``max_results``. Each later request keeps the call's pace exactly as a first one does: it
waits for the backend's rate-limit slot inside the call's budget, obeys its cool-downs and
is counted as an attempt; a block it meets is recorded as a cool-down.

The client's runner owns those (:mod:`websearch_sync.client.attempts`); a backend only says
"another request now" (:func:`before_next_request`) and "a later request failed"
(:func:`later_request_failed`). The runner's :class:`Pace` reaches the backend through a
context variable set around the call (:func:`pacing`), so ``Backend.search`` keeps its
signature (plugins and tests override it) and a merge's threads each see their own.
Outside a client (a backend's ``search`` called directly) there is no pace: the requests
go at once.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Optional, Protocol

from ..errors import WebSearchError

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class Pace(Protocol):
    """What the runner does around a backend's later requests."""

    def before_request(self, at_once: bool = False) -> None:
        """Wait for the backend's next rate-limit slot (raises when it does not fit in the budget
        or the backend is cooling down) and count the request. ``at_once``: a best-effort request
        that must not slow the call takes a slot only when one is free now (else it raises)."""

    def failed(self, error: WebSearchError) -> None:
        """A later request failed with ``error`` and the backend answers without it (a page
        after the first): record what a failed request records (a block's cool-down)."""


_CURRENT: ContextVar[Optional[Pace]] = ContextVar("websearch_sync_pace", default=None)


@contextmanager
def pacing(pace: Pace) -> Iterator[None]:
    """Within the block, the backend's later requests keep ``pace``."""
    token = _CURRENT.set(pace)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def before_next_request(at_once: bool = False) -> None:
    """Called by a backend before each request after its first (see :class:`Pace`)."""
    pace = _CURRENT.get()
    if pace is not None:
        pace.before_request(at_once)


def later_request_failed(error: WebSearchError) -> None:
    """Called by a backend that answers without a later request that failed with ``error``."""
    pace = _CURRENT.get()
    if pace is not None:
        pace.failed(error)

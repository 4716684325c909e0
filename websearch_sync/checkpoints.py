"""Cooperative cancellation of CPU work abandoned at its deadline.

Parsing a results page or extracting a page's text cannot be interrupted from outside, so
:func:`websearch_sync.net.deadline.run_within` runs such work in a thread it abandons at the
deadline. Abandoned work must not keep a core busy (and memory growing) afterwards: the
loops that can run long call :func:`checkpoint` as they go (the HTML tree builder, the
parsers' walks, readability's scoring, the renderer, the table and boilerplate passes, the
PDF reader), and once the work was abandoned the next checkpoint raises
:class:`WorkAbandoned`, which ends the thread.

This module sits at the bottom of the package (it imports nothing of it) so that extraction,
a layer below the network, can stop at the same checkpoints as the parsers above it.
"""

import threading
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from typing import Optional, Protocol, TypeVar

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

T = TypeVar("T")


class Abandoned(Protocol):
    """What tells a checkpoint its work was given up: a ``threading.Event`` set by the caller
    that stopped waiting, or a deadline that passes for work run in the caller's own thread."""

    def is_set(self) -> bool:
        """True once the work should stop."""


class _Worker(threading.local):
    """This thread's abandonable work: ``abandoned`` is None outside it. A class-level default
    rather than ``getattr(local, name, None)``: a thread-local attribute never set is looked up
    by raising and catching ``AttributeError`` (2 µs, where this reads in 0.15 µs), and
    extraction passes some thirty checkpoints a small page."""

    abandoned: Optional[Abandoned] = None


_WORKER = _Worker()


class WorkAbandoned(BaseException):
    """Raised by :func:`checkpoint` in work its caller has abandoned.

    Nobody reads it: it only ends the thread. A ``BaseException`` (like ``KeyboardInterrupt``)
    so that an ``except Exception`` in the work, ours or a third party's, cannot catch it and
    carry on with a fallback.
    """


def checkpoint() -> None:
    """Raise :class:`WorkAbandoned` when the work running in this thread was abandoned by
    its caller; a no-op anywhere else. Cheap: one thread-local read."""
    abandoned = _WORKER.abandoned
    if abandoned is not None and abandoned.is_set():
        raise WorkAbandoned("work abandoned at its deadline")


def abandoned_here() -> Optional[Abandoned]:
    """What abandons the work running in this thread (``None`` outside abandonable work)."""
    return _WORKER.abandoned


class abandonable:  # noqa: N801 - used as the function it was: ``with abandonable(event):``
    """Within the block, :func:`checkpoint` in this thread raises once ``abandoned`` is set.

    A class rather than a ``contextmanager`` generator: a fetch enters two such blocks (the look
    for bot walls, the extraction), and a generator's block costs a generator, its frame and
    ``contextlib``'s wrapper each time (about 2 us where this costs a third of it)."""

    __slots__ = ("abandoned", "previous")

    def __init__(self, abandoned: Abandoned) -> None:
        self.abandoned = abandoned
        self.previous: Optional[Abandoned] = None

    def __enter__(self) -> None:
        self.previous = _WORKER.abandoned
        _WORKER.abandoned = self.abandoned

    def __exit__(self, *exc_info: object) -> None:
        _WORKER.abandoned = self.previous


#: How many items :func:`checked` hands out between two checkpoints (well under a millisecond of
#: the work done per element by the walks that use it).
EVERY = 256


def checked(items: Iterable[T], every: int = EVERY) -> Iterator[T]:
    """``items``, with a :func:`checkpoint` every ``every`` of them: a walk over a page's
    elements that stops once its work was abandoned. Lazy: an item is taken from ``items`` only
    when it is asked for (a walk may change the tree it walks). The items are handed on by C
    (``chain`` of ``islice`` runs): Python runs once a run of ``every``, not once an item (a
    DuckDuckGo page's walks hand out about 140 items a search, most in runs of a dozen)."""
    return chain.from_iterable(_runs(iter(items), every))


def _runs(iterator: Iterator[T], every: int) -> Iterator[Iterable[T]]:
    """The runs :func:`checked` chains: the first item of each taken from ``iterator`` and
    checkpointed, then the rest of the run, taken one by one as they are asked for."""
    for first in iterator:
        checkpoint()
        yield (first,)
        yield islice(iterator, every - 1)

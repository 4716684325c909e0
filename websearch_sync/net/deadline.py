"""A whole-call deadline shared by every step of one search or fetch.

CPU-bound steps (parsing a results page, extracting a page's text) run through
:func:`run_within`, which abandons them at the deadline. Abandoned work must not keep
a core busy afterwards, so such steps call :func:`~websearch_sync.checkpoints.checkpoint`
as they go (:mod:`websearch_sync.checkpoints`): once the caller has given up, the next
checkpoint raises ``WorkAbandoned`` and the thread ends.
"""

import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, wait
from typing import Any, Callable, Optional, TypeVar

from ..checkpoints import Abandoned, WorkAbandoned, abandonable, abandoned_here
from .waits import wait_for
from .workers import run_each, submit

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

T = TypeVar("T")
A = TypeVar("A")

#: The largest answer whose parse or extraction by the library's own code may run in the calling
#: thread (``run_within(..., inline=True)``). Hostile pages of this size (tests/hostile_pages.py,
#: flat and nested, every HTML engine) parse whole in at most 60 ms, at most 34 ms between two
#: checkpoints; recorded results pages are 2-875 KB (DuckDuckGo's 20-60 KB, Bing's and Yahoo's
#: mostly below it, Baidu's above), and most article pages are below it too.
INLINE_MAX_BYTES = 256 * 1024


class Deadline:
    """A point in monotonic time by which a call must be finished.

    ``timeout_ms`` is kept for messages ("... within 15000 ms").
    """

    __slots__ = ("timeout_ms", "_end")

    def __init__(self, timeout_ms: float, *, _end: Optional[float] = None) -> None:
        self.timeout_ms = timeout_ms
        self._end = time.monotonic() + timeout_ms / 1000.0 if _end is None else _end

    @classmethod
    def since(cls, started: float, timeout_ms: float) -> "Deadline":
        """A deadline ``timeout_ms`` after ``started`` (a ``time.monotonic()`` reading): a call
        whose own set-up, before the deadline could be made, is part of its time."""
        return cls(timeout_ms, _end=started + timeout_ms / 1000.0)

    def remaining_s(self) -> float:
        """Seconds left (may be negative once the deadline has passed)."""
        return self._end - time.monotonic()

    def remaining_ms(self) -> float:
        """Milliseconds left (may be negative)."""
        return self.remaining_s() * 1000.0

    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.remaining_s() <= 0

    def sooner(self, timeout_ms: Optional[float]) -> "Deadline":
        """A deadline ``timeout_ms`` from now, or this one if it comes first."""
        if timeout_ms is None:
            return self
        end = time.monotonic() + timeout_ms / 1000.0
        if end >= self._end:
            return self
        return Deadline(timeout_ms, _end=end)

    def __repr__(self) -> str:
        return "Deadline(timeout_ms=%r, remaining_ms=%.0f)" % (self.timeout_ms, self.remaining_ms())


class DeadlinePassed(Exception):
    """Raised by :func:`run_within` when the work outlasts the deadline (callers turn it into ``Timeout``)."""


class _Until:
    """Abandons work run in the caller's thread once a point in monotonic time has passed (or
    once the work around it, itself abandonable, was abandoned)."""

    __slots__ = ("end", "outer")

    def __init__(self, end: float, outer: Optional[Abandoned]) -> None:
        self.end, self.outer = end, outer

    def is_set(self) -> bool:
        return time.monotonic() >= self.end or (self.outer is not None and self.outer.is_set())


def run_within(
    deadline: Deadline,
    work: Callable[[], T],
    *,
    minimum_s: float = 0.05,
    name: str = "websearch-work",
    inline: bool = False,
) -> T:
    """``work()``'s result, or :class:`DeadlinePassed` once ``deadline`` has passed.

    For CPU-bound steps that cannot be interrupted (parsing, text extraction): the
    work runs in a daemon thread that is abandoned at the deadline (or when Ctrl-C ends the
    wait for it); it stops at its next :func:`~websearch_sync.checkpoints.checkpoint`. It
    always gets ``minimum_s`` (a small answer read at the last moment is still worth its few
    milliseconds). An exception raised by ``work`` is re-raised here.

    ``inline``: run ``work`` in the calling thread instead, its checkpoints stopping it once the
    deadline has passed. For the library's own parsers on a small answer, whose walks all
    reach a checkpoint within a millisecond or so: handing a 0.5 ms parse to another thread
    (and core) cost a fifth of a warm search's CPU. Code without checkpoints (a plugin's
    parser) or a large body still goes to a thread, so that the call returns at its deadline
    whatever that code does.
    """
    if inline:
        outer = abandoned_here()
        with abandonable(_Until(time.monotonic() + max(deadline.remaining_s(), minimum_s), outer)):
            try:
                return work()
            except WorkAbandoned:
                if outer is not None and outer.is_set():
                    raise  # the work around this one was abandoned: it ends too
                raise DeadlinePassed(name) from None
    outcome: dict[str, Any] = {}
    abandoned, finished = threading.Event(), threading.Lock()
    finished.acquire()  # released when the work has ended

    def run() -> None:
        with abandonable(abandoned):
            try:
                outcome["result"] = work()
            except BaseException as exc:  # carried to the calling thread, re-raised there (if still waiting)
                outcome["error"] = exc
        finished.release()

    try:
        submit(run, name)  # a reused daemon thread (:mod:`.workers`), named ``name`` while it runs this
        done = wait_for(lambda seconds: finished.acquire(timeout=seconds), max(deadline.remaining_s(), minimum_s))
    except BaseException:  # Ctrl-C while handing over or waiting: the work stops at its next checkpoint too
        abandoned.set()
        raise
    if not done:
        abandoned.set()
        raise DeadlinePassed(name)
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["result"]
    return result


def wait_all(futures: "Sequence[Future[Any]]", timeout: float) -> bool:
    """Wait until every one of ``futures`` is done, at most ``timeout`` seconds, in slices
    (:func:`~.waits.wait_for`: a Ctrl-C meanwhile is raised within a slice); true if all are."""
    return wait_for(lambda seconds: not wait(futures, timeout=seconds).not_done, timeout)


def each_within(
    deadline: Deadline,
    work: Callable[[A], T],
    items: Sequence[A],
    *,
    workers: int,
    name: str,
    grace_s: float = 0.0,
) -> "list[Future[T]]":
    """``work(item)`` for every item, in at most ``workers`` threads, until all are done or
    ``deadline`` (plus ``grace_s``) has passed; the futures, in the order of ``items``. What
    has not started by then is cancelled, what is running is no longer waited for (its
    requests end at the same deadline). The one way the library reads several pages at once
    (``include_content``, Baidu's link resolution): each request still waits at the client's
    gate, so the threads keep each host's pace."""
    futures = run_each(work, items, workers, name)
    try:
        wait_all(futures, max(0.0, deadline.remaining_s()) + grace_s)
    finally:
        for future in futures:
            future.cancel()  # those not started: they are not run
    return futures

"""Reusable daemon threads for the work a call hands off: libcurl's transfer (so Ctrl-C reaches
the main thread at once, :mod:`.interrupt`), and a parse or an extraction that must end at the
deadline (:func:`.deadline.run_within`).

Starting a thread per call cost about a sixth of a warm search's CPU; a thread that finished
its job waits here for the next. While it runs a job it carries the job's name
(``websearch-parse``, ``websearch-extract``, ``websearch-perform``), and ``websearch-idle``
between jobs. Abandoned work keeps its thread until it stops (at a checkpoint, or at its own
deadline); new work then gets another thread. Threads do not survive ``fork``: a forked child
(an RQ worker's job, say) starts its own instead of handing work to threads it does not have.
A caller waits for its job with :func:`wait_for`, which Ctrl-C ends within :data:`WAKE_S`.
"""

import os
import queue
import threading
import time
from typing import Callable, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

IDLE_NAME = "websearch-idle"

_idle: list["queue.SimpleQueue[tuple[Callable[[], None], str]]"] = []
_lock = threading.Lock()

#: How long a caller waiting for a job sleeps at a time. A signal (Ctrl-C) that arrives just
#: before the caller starts to sleep interrupts no sleep: its handler runs when the caller wakes.
WAKE_S = 0.25


def wait_for(wait: Callable[[float], bool], timeout: Optional[float] = None) -> bool:
    """Wait until ``wait(seconds)`` (which waits at most that long for something) says it
    happened, within ``timeout`` seconds (``None``: however long it takes); true if it did.

    ``wait`` is asked for at most :data:`WAKE_S` at a time: a thread's wait is interrupted by
    Ctrl-C, but a Ctrl-C that came just before the wait began would otherwise be raised only
    when the thing waited for happens (for a hanging transfer, at its deadline). Used for every
    wait of the calling thread on other threads: a job's lock (a bare lock rather than an
    ``Event``, whose wait builds a condition each time: a hand-off costs 50-56 us of CPU
    instead of 62), pages read side by side, the answer to an identical question another thread
    asks, a batch's next result.
    """
    ends = None if timeout is None else time.monotonic() + timeout
    while True:
        sleep_s = WAKE_S if ends is None else min(WAKE_S, ends - time.monotonic())
        if wait(max(0.0, sleep_s)):
            return True
        if sleep_s <= 0:
            return False


def submit(job: Callable[[], None], name: str) -> None:
    """Run ``job`` (which must not raise: it reports its own outcome) in an idle thread, or a new one."""
    with _lock:
        jobs = _idle.pop() if _idle else None
    if jobs is None:
        jobs = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(jobs,), name=IDLE_NAME, daemon=True).start()
    jobs.put((job, name))


def _serve(jobs: "queue.SimpleQueue[tuple[Callable[[], None], str]]") -> None:
    me = threading.current_thread()
    while True:
        job, name = jobs.get()
        me.name = name
        try:
            job()
        finally:
            me.name = IDLE_NAME
        with _lock:
            _idle.append(jobs)


def _forget_threads() -> None:
    """In a forked child: the parent's threads are not there to take jobs."""
    global _lock
    _lock = threading.Lock()  # it may have been held by a thread that is not there either
    _idle.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_threads)

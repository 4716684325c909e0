"""A forked child's own start for the client's in-process state.

Only the thread that called ``fork`` lives on in the child (a pre-fork server's worker, a forking
job queue's job, ``multiprocessing`` with the fork start method): a lock another thread held at that
moment stays held there for ever (every call needing it hangs past its deadline), and a question
another thread was asking is never answered there (every call of it waits out its budget). The
parts that keep either register here; in the child, before any of its code runs, each is told.
"""

import os
import sys
import threading
import weakref
from typing import Callable, Protocol

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class ForkedChildPart(Protocol):
    """A part whose locks (and work under way) belong to its process's threads."""

    def forked(self) -> None:
        """In a forked child: take fresh locks and forget what the parent's threads were doing."""


_PARTS: "weakref.WeakSet[ForkedChildPart]" = weakref.WeakSet()
_PARTS_LOCK = threading.Lock()


def renewed_in_children(part: ForkedChildPart) -> None:
    """Have ``part.forked()`` called in every child forked from now on, while ``part`` lives."""
    with _PARTS_LOCK:
        _PARTS.add(part)


def in_children(function: Callable[[], None]) -> None:
    """Have ``function()`` called in every child forked from now on (a module's own locks)."""
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=function)


def module_lock(module: str, name: str) -> threading.Lock:
    """A new lock for the global ``name`` of ``module``: in every child forked from now on that
    global is a fresh lock (a parent's thread may have held it at the fork)."""
    where = sys.modules[module]
    in_children(lambda: setattr(where, name, threading.Lock()))
    return threading.Lock()


def _forked() -> None:
    """In the child, with its one thread: every registered part starts afresh."""
    global _PARTS_LOCK
    _PARTS_LOCK = threading.Lock()  # the parent's thread making a client may have held it
    for part in list(_PARTS):
        part.forked()


in_children(_forked)

"""A forked child's own start for the library's in-process state (the lowest layer: it imports
nothing of the package, so every layer that keeps a lock renews it here).

Only the thread that called ``fork`` lives on in the child (a pre-fork server's worker, a forking
job queue's job, ``multiprocessing`` with the fork start method): a lock another thread held at that
moment stays held there for ever (every call needing it hangs past its deadline), and a question
another thread was asking is never answered there (every call of it waits out its budget). The
parts that keep either register here; in the child, before any of its code runs, each is told:
a part (:func:`renewed_in_children`), an object's lock (:func:`instance_lock`), a module's global
(:func:`module_global`, :func:`module_lock`), a module's function (:func:`in_children`). The wires
let go of the parent's connections there (:func:`disown`). One that fails leaves the others to run;
every failure is then reported at once (:class:`RenewalFailed`). Locks inside C libraries (libcurl,
OpenSSL, ``getaddrinfo``) are out of reach: docs/reliability.md says what to do about them.
"""

import os
import sys
import threading
import traceback
import weakref
from collections.abc import Iterable
from typing import Callable, Protocol, TypeVar

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


class ForkedChildPart(Protocol):
    """A part whose locks (and work under way) belong to its process's threads."""

    def forked(self) -> None:
        """In a forked child: take fresh locks and forget what the parent's threads were doing."""


_PARTS: "weakref.WeakSet[ForkedChildPart]" = weakref.WeakSet()
#: Objects whose lock (the attribute named) is renewed in a child: :func:`instance_lock`.
_LOCKED: "weakref.WeakKeyDictionary[object, str]" = weakref.WeakKeyDictionary()
#: ``(what it renews, function)`` of the modules, called in a child in this order: :func:`in_children`.
_FUNCTIONS: list[tuple[str, Callable[[], None]]] = []
_PARTS_LOCK = threading.Lock()


class RenewalFailed(RuntimeError):
    """What failed to start afresh in a forked child, the rest renewed: ``errors``, in order, and
    ``failures``, ``(what, error)``. Raised at the end of the renewal, at the fork, where the
    interpreter reports it (``Exception ignored in ...``, through ``sys.unraisablehook``) and the
    child goes on. That report shows the exception's own line only, never its cause nor a group's
    members, so the message names every failure; its cause is the first (a hook printing chains
    shows that one's traceback). Its public name is ``websearch_sync.errors.RenewalFailed``."""

    def __init__(self, failures: list[tuple[str, BaseException]]) -> None:
        self.failures = failures
        self.errors = [error for _, error in failures]
        super().__init__(
            "%d part(s) of websearch_sync did not start afresh in this forked child (the others did): %s"
            % (len(failures), "; ".join("%s: %s" % (what, _error_line(error)) for what, error in failures))
        )

    def __reduce__(self) -> tuple[object, ...]:
        """Built again from ``failures`` (its one argument; the default would pass the message):
        a copy, or a pickle a hook sends to another process (``multiprocessing``), keeps them."""
        return (type(self), (self.failures,), self.__dict__.copy())


def _error_line(error: BaseException) -> str:
    """``Type: message`` of ``error``, on one line, as a traceback says it: an error whose ``__str__``
    itself raises is named (``<exception str() failed>``), not a reason for this report to fail and
    lose the others."""
    return " ".join(line.strip() for line in traceback.format_exception_only(type(error), error))


def renewed_in_children(part: ForkedChildPart) -> None:
    """Have ``part.forked()`` called in every child forked from now on, while ``part`` lives."""
    with _PARTS_LOCK:
        _PARTS.add(part)


def instance_lock(owner: object, attribute: str = "_lock") -> threading.Lock:
    """A new lock for ``owner.<attribute>``: in every child forked from now on, while ``owner``
    lives, that attribute is a fresh lock (an object whose lock is all a child must renew)."""
    with _PARTS_LOCK:
        _LOCKED[owner] = attribute
    return threading.Lock()


def in_children(function: Callable[[], None], what: str = "") -> None:
    """Have ``function()`` called in every child forked from now on (a module's own state), after
    the parts, in the order given; ``what`` it renews names it in a failure's report (default: the
    function's name)."""
    _FUNCTIONS.append((what or "%s.%s" % (function.__module__, function.__qualname__), function))


T = TypeVar("T")


def module_global(module: str, name: str, make: Callable[[], T]) -> T:
    """``make()``, for the global ``name`` of ``module``: in every child forked from now on that
    global is a new ``make()`` (a lock a parent's thread may have held at the fork, a table of work
    that the parent's threads were doing)."""
    where = sys.modules[module]
    in_children(lambda: setattr(where, name, make()), "%s.%s" % (module, name))
    return make()


def module_lock(module: str, name: str) -> threading.Lock:
    """A new lock for the global ``name`` of ``module``, fresh in every child forked from now on."""
    return module_global(module, name, threading.Lock)


def disown(descriptors: Iterable[int]) -> None:
    """In a forked child: each of ``descriptors`` (the child's copy of a socket a parent's connection
    lives on) points at ``/dev/null`` from now on. The child lets go of the socket without a byte
    on it: no TLS ``close_notify``, no HTTP/2 ``GOAWAY``, no FIN (the parent's copy keeps the
    connection open), and the number stays taken until its holder closes it, so a library closing
    or writing on it later (libcurl's cleanup, at the child's exit too) reaches nothing the child
    opened since. Only descriptors known to be those sockets may be given (an unused number would
    be opened)."""
    targets = list(descriptors)
    if not targets:
        return
    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:  # no descriptor left (EMFILE, ENFILE) or no /dev: the child keeps them, as before
        return
    try:
        for descriptor in targets:
            os.dup2(null, descriptor, inheritable=False)
    finally:
        os.close(null)


def _forked() -> None:
    """In the child, with its one thread: the objects' locks, the parts, then the modules' functions
    start afresh, each whatever the others did; :class:`RenewalFailed` names every one that failed
    (a step is named only then: a fork renews thousands of locks)."""
    global _PARTS_LOCK
    _PARTS_LOCK = threading.Lock()  # the parent's thread making a client may have held it
    failed: list[tuple[str, BaseException]] = []
    for owner, attribute in list(_LOCKED.items()):
        try:
            setattr(owner, attribute, threading.Lock())
        except Exception as error:  # noqa: BLE001 - the other steps still run; every failure is raised below
            failed.append(("%s.%s" % (type(owner).__qualname__, attribute), error))
    for part in list(_PARTS):
        try:
            part.forked()
        except Exception as error:  # noqa: BLE001 - as above
            failed.append(("%s.forked" % type(part).__qualname__, error))
    for what, function in list(_FUNCTIONS):
        try:
            function()
        except Exception as error:  # noqa: BLE001 - as above
            failed.append((what, error))
    if failed:
        raise RenewalFailed(failed) from failed[0][1]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)

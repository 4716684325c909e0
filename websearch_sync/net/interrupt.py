"""Ctrl-C during a call that cannot be interrupted (libcurl's ``perform``).

Python runs a signal handler (``KeyboardInterrupt``) only in the main thread and only
between bytecodes: while the main thread is inside libcurl, Ctrl-C waits for the
transfer to end, up to the whole deadline. :func:`run_interruptibly` runs such work in
a helper thread while the main thread waits on a lock, which Ctrl-C interrupts at
once. The abandoned work is told to stop (its ``abandon`` callback: the transfer's
next callback ends it) and, in any case, ends by its own deadline in the helper, which
then runs ``release``. The work runs in the calling thread itself wherever the hand-off could
not matter (it costs two thread switches, about a twentieth of a warm search's CPU): in any thread
but the main one (Python runs signal handlers in the main thread only), and while SIGINT is not
handled by Python (``SIG_IGN``: Ctrl-C does nothing; ``SIG_DFL``: it ends the process at once;
a handler installed outside Python), where no ``KeyboardInterrupt`` can come.

Only the main thread hands work over, one piece at a time, so one helper thread does it all
(:class:`_Helper`: a daemon, so an abandoned transfer never holds the process up at exit), handed
each piece through its own queue: no thread start or pool per request. A helper whose work
was given up on (Ctrl-C) finishes that work, runs its ``release`` and ends; the next hand-off
starts a new helper. A forked child starts its own (the parent's is not there).
"""

import queue
import signal
import threading
from typing import Callable, Optional

from ..forks import module_global
from .waits import WAKE_S, wait_for

# The handler as set (an int for SIG_IGN/SIG_DFL) from the C module the stdlib's ``signal`` wraps:
# ``signal.getsignal`` converts it to its enum, which for a callable handler raises and catches a
# ValueError (5 us, 21k of the hand-off's 54k instructions: bench/handoff.py).
try:
    from _signal import getsignal as _handler  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - an interpreter without CPython's module
    _handler = signal.getsignal

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The helper thread's name.
HELPER_NAME = "websearch-perform"


class _Job:
    """The work handed to a helper, and who runs ``release`` once: the helper, after the work,
    when the caller stopped waiting while it ran; otherwise the caller."""

    def __init__(self, work: Callable[[], None]) -> None:
        self.work = work
        #: Held until the work has ended: the caller waits by acquiring it (:func:`.waits.wait_for`).
        self.done = threading.Lock()
        self.done.acquire()
        self.started = self.finished = self.cancelled = False
        self.error: Optional[BaseException] = None
        self.lock = threading.Lock()  # guards the three flags and ``release``
        self.release: Optional[Callable[[], None]] = None  # set when the caller left during the work

    def run(self) -> bool:
        """In the helper: the work (unless the caller left before it started), then the release
        the caller left behind; true when the caller waited for the work to its end (the helper
        is free for the next), false when it left during the work (the helper was let go)."""
        with self.lock:
            if self.cancelled:
                return True
            self.started = True
        try:
            self.work()
        except BaseException as exc:  # carried to the waiting thread, re-raised there
            self.error = exc
        with self.lock:
            self.finished = True
            release = self.release
        self.done.release()
        if release is None:
            return True
        release()
        return False

    def leave(self, abandon: Callable[[], None], release: Callable[[], None]) -> bool:
        """The caller stops waiting (Ctrl-C): work under way is told to stop and releases when it
        ends; work that has ended, or never started (and now never will), is released here. True
        when the work was under way (its helper is busy with it until it ends)."""
        with self.lock:
            running = self.started and not self.finished
            if running:
                self.release = release
            else:
                self.cancelled = True
        if running:
            abandon()
        else:
            release()
        return running


class _Helper:
    """The thread that runs the main thread's work, handed one job at a time through its queue
    (a job given up on before it started is skipped there)."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name=HELPER_NAME, daemon=True).start()

    def _serve(self) -> None:
        get = self.jobs.get
        while get().run():
            pass  # the caller waited for the work to its end: on to the next; else it started another helper


#: The main thread's helper, once it has one (none in a forked child: the parent's is not there).
_helpers: list[_Helper] = module_global(__name__, "_helpers", list)


def run_interruptibly(work: Callable[[], None], *, abandon: Callable[[], None], release: Callable[[], None]) -> None:
    """``work()`` (its exception re-raised here), then ``release()``, such that Ctrl-C in the main
    thread raises ``KeyboardInterrupt`` at once (see the module docstring)."""
    if not _sigint_reaches_python():
        try:
            work()
        finally:
            release()
        return
    job = _Job(work)
    helpers = _helpers
    try:  # Ctrl-C while handing the job over counts too: it may not have reached the helper yet
        if not helpers:
            helpers.append(_Helper())
        helpers[0].jobs.put(job)
        if not job.done.acquire(True, WAKE_S):  # Ctrl-C interrupts it; most work ends within the first wait
            wait_for(lambda seconds: job.done.acquire(timeout=seconds))
    except BaseException:
        if job.leave(abandon, release):  # the helper is busy with it until it ends: the next hand-off starts another
            helpers.clear()
        raise
    release()
    if job.error is not None:
        raise job.error


def _sigint_reaches_python() -> bool:
    """Whether a Ctrl-C can raise in this thread: it is the main thread and SIGINT's handler is a
    Python callable (``default_int_handler`` or the program's own), not ``SIG_IGN``/``SIG_DFL``
    (ints) nor ``None`` (a handler set outside Python)."""
    return threading.current_thread() is threading.main_thread() and callable(_handler(signal.SIGINT))

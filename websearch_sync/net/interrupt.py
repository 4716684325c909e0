"""Ctrl-C during a call that cannot be interrupted (libcurl's ``perform``).

Python runs a signal handler (``KeyboardInterrupt``) only in the main thread and only
between bytecodes: while the main thread is inside libcurl, Ctrl-C waits for the
transfer to end, up to the whole deadline. :func:`run_interruptibly` runs such work in
a helper thread while the main thread waits on a lock, which Ctrl-C interrupts at
once. The abandoned work is told to stop (its ``abandon`` callback: the transfer's
next callback ends it) and, in any case, ends by its own deadline in the helper, which
then runs ``release``. The work runs in the calling thread itself wherever the hand-off could
not matter (it costs two thread switches, about a tenth of a warm search's CPU): in any thread
but the main one (Python runs signal handlers in the main thread only), and while SIGINT is not
handled by Python (``SIG_IGN``: Ctrl-C does nothing; ``SIG_DFL``: it ends the process at once;
a handler installed outside Python), where no ``KeyboardInterrupt`` can come.

Helper threads are daemons (an abandoned transfer never holds the process up at exit)
and are kept for the next call (:mod:`.workers`: no thread start per request).
"""

import signal
import threading
from typing import Callable, Optional

from .waits import wait_for
from .workers import submit

# The handler as set (an int for SIG_IGN/SIG_DFL) from the C module the stdlib's ``signal`` wraps:
# ``signal.getsignal`` converts it to its enum, which for a callable handler raises and catches a
# ValueError (5 us, 21k of the hand-off's 54k instructions: bench/handoff.py).
try:
    from _signal import getsignal as _handler  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - an interpreter without CPython's module
    _handler = signal.getsignal

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


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

    def run(self) -> None:
        """In the helper: the work (unless the caller left before it started), then the release
        the caller left behind."""
        with self.lock:
            if self.cancelled:
                return
            self.started = True
        try:
            self.work()
        except BaseException as exc:  # carried to the waiting thread, re-raised there
            self.error = exc
        with self.lock:
            self.finished = True
            release = self.release
        self.done.release()
        if release is not None:
            release()

    def leave(self, abandon: Callable[[], None], release: Callable[[], None]) -> None:
        """The caller stops waiting (Ctrl-C): work under way is told to stop and releases when it
        ends; work that has ended, or never started (and now never will), is released here."""
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
    try:  # Ctrl-C while handing the job over counts too: it may not have reached a helper yet
        submit(job.run, "websearch-perform")
        wait_for(lambda seconds: job.done.acquire(timeout=seconds))  # Ctrl-C interrupts it
    except BaseException:
        job.leave(abandon, release)
        raise
    release()
    if job.error is not None:
        raise job.error


def _sigint_reaches_python() -> bool:
    """Whether a Ctrl-C can raise in this thread: it is the main thread and SIGINT's handler is a
    Python callable (``default_int_handler`` or the program's own), not ``SIG_IGN``/``SIG_DFL``
    (ints) nor ``None`` (a handler set outside Python)."""
    return threading.current_thread() is threading.main_thread() and callable(_handler(signal.SIGINT))

"""``os.fork`` for tests of what a forked child inherits: the child runs one function and exits
0 when it returns, 1 when it raises (its traceback on stderr); the parent waits for it, bounded,
and kills one that hangs."""

import faulthandler
import os
import signal
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Callable, ContextManager

__all__ = ["fork_running", "exit_codes", "held_by_another_thread", "HUNG"]

#: The exit code :func:`exit_codes` gives a child it killed because it hung.
HUNG = -signal.SIGKILL
#: The signal a hung child answers by writing its threads' stacks to stderr (the test's output).
_SHOW_STACKS = signal.SIGUSR2


def fork_running(work: Callable[[], object]) -> int:
    """The id of a forked child running ``work()``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # forking a process that has threads: what servers do
        pid = os.fork()
    if pid == 0:
        status = 1
        # A child that hangs shows where: exit_codes sends this signal before it kills one.
        faulthandler.register(_SHOW_STACKS, all_threads=True)
        try:
            work()
            status = 0
        except BaseException:  # the child's failure, shown in the test's output
            traceback.print_exc()
        finally:
            sys.stdout.flush()  # os._exit flushes nothing
            sys.stderr.flush()
            os._exit(status)
    return pid


def exit_codes(pids: Iterable[int], limit_s: float) -> list[int]:
    """Each child's exit code, or :data:`HUNG` for one still running ``limit_s`` from now."""
    codes = []
    ends = time.monotonic() + limit_s
    for pid in pids:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                codes.append(os.waitstatus_to_exitcode(status))
                break
            if time.monotonic() > ends:
                if _show_stacks(pid) is None:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                codes.append(HUNG)
                break
            time.sleep(0.02)
    return codes


def _show_stacks(pid: int) -> "int | None":
    """Have a hung child write its threads' stacks (faulthandler answers in the signal handler,
    even in a child stuck in a C call), and give it a moment to; its wait status if it ended."""
    os.kill(pid, _SHOW_STACKS)
    for _ in range(50):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.02)
    return None


@contextmanager
def held_by_another_thread(lock: ContextManager[object]) -> Iterator[None]:
    """Within the block, another thread holds ``lock`` (as one of a server's threads would, for
    microseconds, at the moment of a fork); a re-entrant lock is not the forking thread's then."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with lock:
            taken.set()
            release.wait()

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    taken.wait()
    try:
        yield
    finally:
        release.set()
        holder.join()

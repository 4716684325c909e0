"""``os.fork`` for tests of what a forked child inherits: the child runs one function and exits
0 when it returns, 1 when it raises; the parent waits for it, bounded, and kills one that hangs."""

import os
import signal
import time
import warnings
from collections.abc import Iterable
from typing import Callable

__all__ = ["fork_running", "exit_codes", "HUNG"]

#: The exit code :func:`exit_codes` gives a child it killed because it hung.
HUNG = -signal.SIGKILL


def fork_running(work: Callable[[], object]) -> int:
    """The id of a forked child running ``work()``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # forking a process that has threads: what servers do
        pid = os.fork()
    if pid == 0:
        status = 1
        try:
            work()
            status = 0
        finally:
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
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                codes.append(HUNG)
                break
            time.sleep(0.02)
    return codes

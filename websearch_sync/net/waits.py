"""How the calling thread waits for other threads, for a time, or for both: in slices.

A thread's wait is interrupted by Ctrl-C (the signal wakes it), but a Ctrl-C that arrives just
before a wait begins wakes nothing: Python raises it when the thread next runs bytecode, i.e.
when the wait ends (for a hanging transfer, at its deadline; measured: a 60 s wait in 1 run out
of 3 of tests/sockets/test_interrupt_handoff.py before the waits were sliced). Every such wait
of the library therefore lasts at most :data:`WAKE_S` at a time.
"""

import time
from typing import Callable, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The longest the calling thread sleeps at a time in any wait of the library.
WAKE_S = 0.25


def wait_for(wait: Callable[[float], bool], timeout: Optional[float] = None) -> bool:
    """Wait until ``wait(seconds)`` (which waits at most that long for something) says it
    happened, within ``timeout`` seconds (``None``: however long it takes); true if it did.

    ``wait`` is asked for at most :data:`WAKE_S` at a time (see the module docstring). Used for
    every wait of the calling thread on other threads: a job's lock (a bare lock rather than an
    ``Event``, whose wait builds a condition each time: a hand-off costs 50-56 us of CPU
    instead of 62), pages read side by side, the answer to an identical question another thread
    asks, a batch's next result, and a plain sleep (:func:`sleep`).
    """
    ends = None if timeout is None else time.monotonic() + timeout
    while True:
        if wait(WAKE_S if ends is None else max(0.0, min(WAKE_S, ends - time.monotonic()))):
            return True
        if ends is not None and time.monotonic() >= ends:
            return False


def sleep(seconds: float) -> None:
    """``time.sleep(seconds)`` in slices of at most :data:`WAKE_S` (nothing for zero or less):
    the waits of the system clock (rate-limit slots, retries, cool-downs)."""
    if seconds > 0:
        wait_for(_slept, seconds)


def _slept(seconds: float) -> bool:
    """A wait nothing ends early: a plain sleep."""
    time.sleep(seconds)
    return False

"""Children that get Ctrl-C even when this test run ignores it.

A process started with SIGINT ignored (pytest run in the background by a script: a
non-interactive shell ignores SIGINT for its ``&`` jobs) passes the ignoring on to its children,
and Python installs no ``KeyboardInterrupt`` handler in a process started so: every Ctrl-C test
would then wait out its child's whole deadline. A handler, unlike an ignored signal, is reset to
the default by ``exec``, so a child started while this process has one gets Python's own.
"""

import contextlib
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def children_get_sigint() -> Iterator[None]:
    """Within the block, this process takes Ctrl-C as ``KeyboardInterrupt`` and children start with
    SIGINT at its default (see the module docstring)."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if not ignored or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

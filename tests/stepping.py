"""Another thread looks at shared state between every two steps of the code under test: a race test
that does not hope that many iterations make the thread switch inside a window two statements wide.

:func:`looked_at_each_step` traces the calling thread (``sys.settrace`` with opcode events) and, before
each bytecode it runs in the given module's code, hands control to a second thread which runs
``look`` while the traced thread waits. Whatever a thread could see at a switch between two
bytecodes, ``look`` sees, each time the test runs."""

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType, ModuleType
from typing import Any, Optional

__all__ = ["looked_at_each_step"]

#: How long the traced thread waits for one look (it is a read of shared state: far below this even
#: at load 20); longer means the looking thread is blocked, which the test is told of.
_LOOK_TIMEOUT = 10.0


class _Looker:
    """The second thread: runs ``look`` each time the traced thread hands it a step."""

    def __init__(self, look: Callable[[], None]) -> None:
        self.look = look
        self.steps = 0
        self.failures: list[BaseException] = []
        self._turn = threading.Semaphore(0)
        self._answered = threading.Semaphore(0)
        self._done = False
        self._thread = threading.Thread(target=self._run, name="looking", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            self._turn.acquire()
            if self._done:
                return
            try:
                self.look()
            except BaseException as exc:  # reported by the test, with the step it was seen at
                self.failures.append(exc)
            self._answered.release()

    def step(self) -> None:
        self.steps += 1
        self._turn.release()
        if not self._answered.acquire(timeout=_LOOK_TIMEOUT):
            raise AssertionError("a look at step %d waited over %.0f s: blocked" % (self.steps, _LOOK_TIMEOUT))

    def stop(self) -> None:
        self._done = True
        self._turn.release()
        self._thread.join()


@contextlib.contextmanager
def looked_at_each_step(module: ModuleType, look: Callable[[], None]) -> Iterator[_Looker]:
    """Inside the block, before each bytecode the calling thread runs in ``module``'s code, another
    thread runs ``look`` (an assertion on what it reads) while this one waits. The looker's
    ``failures`` are what ``look`` raised, its ``steps`` how many looks were made (a test checks that
    the code under test ran at all)."""
    filename = module.__file__
    looker = _Looker(look)

    def each_opcode(frame: FrameType, event: str, arg: Any) -> Optional[Callable[..., Any]]:
        if event == "opcode":
            looker.step()
        return each_opcode

    def calls(frame: FrameType, event: str, arg: Any) -> Optional[Callable[..., Any]]:
        if frame.f_code.co_filename != filename:
            return None  # not traced inside: only the module's own steps are looked at
        frame.f_trace_opcodes = True
        return each_opcode

    before = sys.gettrace()  # a coverage tracer, if any, is put back
    sys.settrace(calls)
    try:
        yield looker
    finally:
        sys.settrace(before)
        looker.stop()

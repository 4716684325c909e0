"""The requests wire's watchdog thread (:class:`websearch_sync.net.requests_adapter._Watches`):
each watch fires at its time, one due sooner than every other wakes the sleeping thread, and one
due later does not (a wake-up costs a thread switch: two per request made the requests wire's
exchange a third dearer than ``requests`` itself; ``python bench/transport.py``, figure 2)."""

import threading
import time

from websearch_sync.net.requests_adapter import _Watches

#: A bound for a watch due in a fraction of a second (the failure it catches: 60 s late).
FIRED_WITHIN_S = 20.0
FAR_S = 60.0


class _Fired:
    """A watch that records when it fired."""

    def __init__(self) -> None:
        self.fired = threading.Event()

    def fire(self) -> None:
        self.fired.set()


class _CountingCondition(threading.Condition):
    def __init__(self) -> None:
        super().__init__()
        self.notified = 0

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


def _watches() -> tuple[_Watches, _CountingCondition]:
    watches = _Watches()
    watches._wake = wake = _CountingCondition()
    return watches, wake


def test_a_watch_due_sooner_than_the_others_wakes_the_thread_and_fires_at_its_time():
    watches, wake = _watches()
    far, soon = _Fired(), _Fired()
    watches.add(time.monotonic() + FAR_S, far)  # the thread now sleeps until this one
    watches.add(time.monotonic() + 0.05, soon)
    assert soon.fired.wait(FIRED_WITHIN_S)
    assert not far.fired.is_set() and wake.notified == 2


def test_a_watch_due_later_does_not_wake_the_thread_and_still_fires():
    watches, wake = _watches()
    first, later, farther = _Fired(), _Fired(), _Fired()
    watches.add(time.monotonic() + 0.2, first)
    watches.add(time.monotonic() + 0.3, later)  # met when the thread wakes for the first
    watches.add(time.monotonic() + FAR_S, farther)
    if not first.fired.is_set():  # else a stall of 0.2 s between the lines above let it fire (and go)
        assert wake.notified == 1
    assert first.fired.wait(FIRED_WITHIN_S) and later.fired.wait(FIRED_WITHIN_S)
    assert not farther.fired.is_set()

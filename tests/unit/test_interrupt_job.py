"""Who releases a transfer handed to a helper when the caller stops waiting (Ctrl-C), in each
state the work can be in at that moment (:class:`websearch_sync.net.interrupt._Job`): release
runs exactly once, never before the work has ended, and work that has not started never runs.
Single-threaded: the states are reached by calling the job's steps in order. And the caller's
wait (:func:`websearch_sync.net.waits.wait_for`) sleeps in slices, so that a Ctrl-C arriving
just before it sleeps is raised at the next wake-up, not when the work ends."""

import signal
import threading

import pytest

from websearch_sync.net import interrupt
from websearch_sync.net.interrupt import _Job
from websearch_sync.net.waits import WAKE_S, wait_for


def _job(events, during=None):
    def work():
        events.append("work")
        if during is not None:
            during()

    return _Job(work)


def _leave(job, events):
    job.leave(abandon=lambda: events.append("abandon"), release=lambda: events.append("release"))


def test_leaving_before_the_work_starts_releases_at_once_and_the_work_never_runs():
    events = []
    job = _job(events)
    _leave(job, events)
    assert job.run()  # the helper picks the job up afterwards, skips it and stays for the next
    assert events == ["release"]


def test_leaving_while_the_work_runs_abandons_it_and_the_helper_releases_after_it():
    events = []
    job = _job(events, during=lambda: _leave(job, events))
    assert not job.run()  # the helper was let go: the caller's next hand-off starts another
    assert events == ["work", "abandon", "release"]


def test_leaving_after_the_work_ended_releases_at_once():
    events = []
    job = _job(events)
    assert job.run()
    _leave(job, events)
    assert events == ["work", "release"]
    assert job.done.acquire(blocking=False)  # the waiting caller was let go


def test_the_works_error_is_kept_for_the_caller():
    def work():
        raise ValueError("from the work")

    job = _Job(work)
    job.run()
    assert isinstance(job.error, ValueError) and job.finished


class _SlowWait:
    """A wait that succeeds at its ``waits + 1``-th call, recording how long each call was allowed."""

    def __init__(self, waits):
        self.waits, self.timeouts = waits, []

    def __call__(self, seconds):
        self.timeouts.append(seconds)
        return len(self.timeouts) > self.waits


def test_the_caller_waits_in_slices_so_a_ctrl_c_just_before_a_wait_is_seen_soon():
    wait = _SlowWait(waits=3)
    assert wait_for(wait)
    assert wait.timeouts == [WAKE_S] * 4 and 0 < WAKE_S <= 0.5


def test_a_wait_with_no_time_left_looks_once_and_gives_up():
    wait = _SlowWait(waits=1)
    assert not wait_for(wait, timeout=0)
    assert wait.timeouts == [0.0]


@pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread() or not callable(signal.getsignal(signal.SIGINT)),
    reason="the hand-off happens in the main thread, with SIGINT handled by Python",
)
def test_the_main_threads_work_goes_to_one_helper_kept_between_hand_offs():
    """The hand-off costs no thread start, and a helper let go of after a Ctrl-C is not handed
    the next piece of work (it may still be running the abandoned one)."""
    ran_in = []

    def work():
        ran_in.append(threading.current_thread())

    for _ in range(3):
        interrupt.run_interruptibly(work, abandon=lambda: None, release=lambda: None)
    assert len(set(ran_in)) == 1 and ran_in[0] is not threading.main_thread()
    assert ran_in[0].name == interrupt.HELPER_NAME and ran_in[0].daemon
    interrupt._helpers.clear()  # what a Ctrl-C during the work does
    interrupt.run_interruptibly(work, abandon=lambda: None, release=lambda: None)
    assert ran_in[-1] is not ran_in[0]

"""The library's reused work threads (``websearch_sync.net.workers``) in a forked child: the
parent's idle threads are not there, so the child starts its own instead of handing its parse,
extraction or transfer to a thread that does not exist (before, a preloaded RQ worker's forked
job that had done a browser-wire request in the parent waited forever on its transfer)."""

import os
import signal
import time
import warnings

import pytest

from websearch_sync.net.deadline import Deadline, run_within
from websearch_sync.net.interrupt import run_interruptibly


def _use_both():
    assert run_within(Deadline(5000), lambda: 42, name="websearch-parse") == 42
    done = []
    run_interruptibly(lambda: done.append(1), abandon=lambda: None, release=lambda: None)
    assert done == [1]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_forked_child_runs_its_work_in_threads_of_its_own():
    _use_both()  # the parent now has an idle thread of each kind
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # forking a threaded process: what RQ does
        pid = os.fork()
    if pid == 0:  # the child: exit 0 when both kinds of work ran
        try:
            _use_both()
        except BaseException:
            os._exit(1)
        os._exit(0)
    ends = time.monotonic() + 20
    while time.monotonic() < ends:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung handing its work to its parent's threads")
    assert os.waitstatus_to_exitcode(status) == 0

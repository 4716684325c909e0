"""The reused work threads (``net.workers``): what ``run_each`` hands out. Jobs are held, not
run, so no thread or clock decides the outcome."""

import pytest

from websearch_sync.net import workers


@pytest.fixture
def held(monkeypatch):
    """The jobs handed to threads, kept here instead of run."""
    jobs = []
    monkeypatch.setattr(workers, "submit", lambda job, name: jobs.append(job))
    return jobs


def test_run_each_with_no_items_hands_out_no_job(held):
    """An empty list started one thread (``max(1, ...)``) only for it to find nothing to do."""
    assert workers.run_each(str, [], 4, "websearch-test") == []
    assert held == []


def test_a_ctrl_c_while_handing_out_jobs_leaves_no_item_to_run(monkeypatch):
    """A KeyboardInterrupt at the second hand-over (as a SIGINT during ``Thread.start``): the job
    already handed ran every item after the caller had been interrupted; now they are cancelled."""
    jobs = []

    def submit(job, name):
        if jobs:
            raise KeyboardInterrupt
        jobs.append(job)

    monkeypatch.setattr(workers, "submit", submit)
    ran = []
    with pytest.raises(KeyboardInterrupt):
        workers.run_each(ran.append, list(range(10)), 4, "websearch-test")
    jobs[0]()  # the thread that got its job before the interrupt
    assert ran == []

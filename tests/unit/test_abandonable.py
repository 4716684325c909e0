"""``abandonable`` blocks: a checkpoint inside raises once the block's work was abandoned, and
leaving a block (by its end or by an exception) gives the thread back the block around it."""

import threading

import pytest

from websearch_sync.checkpoints import WorkAbandoned, abandonable, abandoned_here, checkpoint


def test_a_checkpoint_raises_only_inside_a_block_whose_work_was_abandoned():
    outer, inner = threading.Event(), threading.Event()
    assert abandoned_here() is None
    with abandonable(outer):
        assert abandoned_here() is outer
        with abandonable(inner):
            assert abandoned_here() is inner
            inner.set()
            with pytest.raises(WorkAbandoned):
                checkpoint()
        assert abandoned_here() is outer
        checkpoint()  # the outer work goes on
        outer.set()
        with pytest.raises(WorkAbandoned):
            checkpoint()
    assert abandoned_here() is None
    checkpoint()  # outside any block: a no-op


def test_an_exception_leaving_a_block_restores_the_block_around_it():
    outer, inner = threading.Event(), threading.Event()
    with abandonable(outer):
        with pytest.raises(ValueError), abandonable(inner):
            raise ValueError("work failed")
        assert abandoned_here() is outer
    assert abandoned_here() is None


def test_each_thread_has_its_own_block():
    event, seen = threading.Event(), []
    with abandonable(event):
        worker = threading.Thread(target=lambda: seen.append(abandoned_here()))
        worker.start()
        worker.join()
    assert seen == [None]

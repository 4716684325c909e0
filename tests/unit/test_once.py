"""What the library says once per process (:class:`~websearch_sync.once.Once`): eight modules each kept
their own record of it (a set, the stub an event), looked up then added to, five of them without a lock
(two threads both warned), three with a lock renewed in a forked child; now each says it through one."""

import os
import threading

import pytest
from forked import exit_codes, fork_running, held_by_another_thread
from races import RacedSet

from websearch_sync.once import Once


def test_each_key_is_first_once():
    said = Once()
    assert [said.first(key) for key in ("a", ("b", 1), "a", ("b", 1), ("b", 2))] == [True, True, False, False, True]


def test_of_two_threads_giving_a_new_key_at_once_one_is_first():
    """Two threads both past the look-up before either added the key: without the lock both were first
    (the locale hint, SearXNG's dropped query, the plain-http key warning... each said twice)."""
    said = Once()
    said._said = RacedSet()  # noqa: SLF001
    answers: list[bool] = []
    threads = [threading.Thread(target=lambda: answers.append(said.first("hint"))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [False, True]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_forked_child_keeps_what_was_said_and_not_the_lock_another_thread_held():
    said = Once()
    said.first("said in the parent")

    def child():
        assert not said.first("said in the parent")
        assert said.first("new in the child")  # a lock of its own: not the one the parent's thread holds

    with held_by_another_thread(said._lock):  # noqa: SLF001
        assert exit_codes([fork_running(child)], 30) == [0]

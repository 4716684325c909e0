"""The requests wire's adapter watches the pools of every proxy's manager, also when several threads
first use the same proxy at once (:meth:`~websearch_sync.net.requests_adapter.DeadlineAdapter.proxy_manager_for`).

Two threads reaching a new proxy together used to wrap its manager's pools twice (``TypeError``:
no consistent method resolution order) or return it before it was wrapped (that proxy's answers
not held to the deadline): 14 of 300 trials of 8 threads."""

import threading
import time
from typing import Any

import pytest

from websearch_sync.net.requests_adapter import DeadlineAdapter, _Watched

THREADS = 8
#: Trials per proxy: with :class:`_YieldingTable`, the race was met in 9 trials of 10 of the old code.
TRIALS = 20
PROXIES = ("http://127.0.0.1:3128", "socks5h://127.0.0.1:1080")


class _YieldingTable(dict):  # type: ignore[type-arg]
    """The adapter's table of proxy managers, letting other threads run each time it is looked up
    (where a check and the use of its answer can be split): the race shows in most trials, not a few in a hundred."""

    def __contains__(self, key: object) -> bool:
        time.sleep(0)
        return super().__contains__(key)


def _watched(manager: Any) -> bool:
    pools = manager.pool_classes_by_scheme.values()
    return all(issubclass(pool.ConnectionCls, _Watched) for pool in pools)


def _first_use_together(proxy: str) -> list[object]:
    """What :data:`THREADS` threads, started together on a fresh adapter, get for ``proxy`` (or
    raised), then the manager the adapter keeps for it."""
    adapter = DeadlineAdapter()
    adapter.proxy_manager = _YieldingTable()
    start = threading.Barrier(THREADS)
    got: list[object] = []

    def use() -> None:
        start.wait()
        try:
            got.append(adapter.proxy_manager_for(proxy))
        except TypeError as exc:  # the race's: reported below, not lost in the thread
            got.append(exc)

    threads = [threading.Thread(target=use) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    got.append(adapter.proxy_manager[proxy])
    adapter.close()
    return got


@pytest.mark.parametrize("proxy", PROXIES)
def test_threads_first_using_a_proxy_together_all_get_its_pools_watched(proxy):
    for _ in range(TRIALS):
        got = _first_use_together(proxy)
        assert [item for item in got if isinstance(item, Exception)] == []
        assert len(got) == THREADS + 1 and all(_watched(manager) for manager in got)

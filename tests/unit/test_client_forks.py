"""A process forked while other threads were inside a client (a threaded server forking workers,
``multiprocessing`` with the fork start method): only the forking thread lives on in the child.

Before, a lock another thread held at the fork stayed held in the child, so every call needing it
hung there past its deadline; and a question another thread was asking stayed "being asked", so
the child's calls of it waited out their budget and failed, every one of them.
"""

import json
import os
import threading
from pathlib import Path

import pytest
from forked import exit_codes, fork_running

import websearch_sync as ws
from websearch_sync.client import default_client, processwide, search_client
from websearch_sync.net.wire_mock import MockResponse, MockWire

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RECORDED = (FIXTURES / "brave" / "brave-search-python-client__1.json").read_bytes()
REFUSED = json.loads((FIXTURES / "tavily" / "http_401_invalid_key.meta.json").read_text())["response"]
#: The child's calls take milliseconds; before, they waited out this budget (or hung).
BUDGET_MS = 10_000
#: A child that has not exited by then hung.
CHILD_LIMIT_S = 3 * BUDGET_MS / 1000


def _client(wire):
    settings = ws.Settings(providers={"brave": {"api_key": "a-key"}, "tavily": {"api_key": "a-refused-key"}})
    return ws.SearchClient("brave", settings=settings, wire=wire, retries=0, budget_ms=BUDGET_MS, min_interval_s=0.001)


def _recorded(request):
    """Brave's recorded answer; Tavily refuses the key."""
    if "tavily" in request.url:
        return MockResponse(REFUSED["status"], REFUSED["headers"], REFUSED["body_text"])
    return MockResponse(headers={"Content-Type": "application/json"}, body=RECORDED)


def _in_child(work) -> int:
    """The exit code of a forked child running ``work()`` (0: it returned; 1: it raised)."""
    return exit_codes([fork_running(work)], CHILD_LIMIT_S)[0]


def test_a_question_another_thread_was_asking_at_the_fork_is_asked_by_the_child():
    parent, asked, done = os.getpid(), threading.Event(), threading.Event()

    def answer(request):
        if os.getpid() == parent:  # the parent's thread is mid-question until the child is done
            asked.set()
            done.wait(CHILD_LIMIT_S)
        return _recorded(request)

    with _client(MockWire(answer)) as client:
        asking = threading.Thread(target=client.search, args=("python",))
        asking.start()
        try:
            assert asked.wait(CHILD_LIMIT_S)
            # before: 1, a Timeout at the end of the budget (and the same for every later call)
            code = _in_child(lambda: [client.search("python") for _ in range(2)])
        finally:
            done.set()
            asking.join(CHILD_LIMIT_S)
    assert code == 0


#: Each lock a thread may hold inside the library, and how a client reaches it.
LOCKS = {
    "rate limiter": lambda client: client._runner.limiter,  # noqa: SLF001
    "cool-downs": lambda client: client._cooldowns,  # noqa: SLF001
    "refused keys": lambda client: client._cooldowns.refused,  # noqa: SLF001
    "questions in flight": lambda client: client._flights,  # noqa: SLF001
    "memory cache": lambda client: client._cache.memory,  # noqa: SLF001
    "validated calls": lambda client: client._plans,  # noqa: SLF001
    "settings fingerprints": lambda client: client._fingerprints,  # noqa: SLF001
}
MODULE_LOCKS = {
    "open clients": (search_client, "_OPEN_LOCK"),
    "process-wide parts": (processwide, "_LOCK"),
    "default client": (default_client, "_lock"),
}


def _use_everything(client):
    """What a child does first: a search (a miss, then a hit), one of a new set of backends, a new
    client, a module-level search and the default client."""
    client.search("asked in the child")
    client.search("asked in the child")
    client.search("asked in the child", backend=["brave", "stub"])
    _client(MockWire(_recorded)).close()
    ws.search("python", backend="stub", settings=ws.Settings())
    default_client.default_client()


@pytest.mark.parametrize("lock", sorted(LOCKS) + sorted(MODULE_LOCKS))
def test_a_lock_another_thread_held_at_the_fork_is_free_in_the_child(lock, monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "stub")  # the default client the child builds
    with _client(MockWire(_recorded)) as client:
        client.search("asked in the parent")
        with pytest.raises(ws.AuthError):  # a refused key is remembered: every later call looks it up
            client.search("asked in the parent", backend="tavily")
        if lock in LOCKS:
            held = LOCKS[lock](client)._lock  # noqa: SLF001
        else:
            module, name = MODULE_LOCKS[lock]
            held = getattr(module, name)
        with held:  # another thread would hold it for microseconds: the fork came then
            code = _in_child(lambda: _use_everything(client))
    default_client.close_default_client()
    assert code == 0  # before: HUNG on the lock

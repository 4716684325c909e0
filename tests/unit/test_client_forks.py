"""A process forked while other threads were inside a client (a threaded server forking workers,
``multiprocessing`` with the fork start method): only the forking thread lives on in the child.

Before, a lock another thread held at the fork stayed held in the child, so every call needing it
hung there past its deadline; and a question another thread was asking stayed "being asked", so
the child's calls of it waited out their budget and failed, every one of them.
"""

import json
import os
import queue
import threading
import warnings
import weakref
from pathlib import Path

import pytest
import requests
from forked import exit_codes, fork_running, held_by_another_thread

import websearch_sync as ws
from websearch_sync import forks
from websearch_sync.backends import searxng_config, stub
from websearch_sync.backends.stub import OfflineResultsWarning, Stub
from websearch_sync.client import default_client, processwide, search_client
from websearch_sync.contract.cases import ReplayClock
from websearch_sync.contract.replay import ReplayWire
from websearch_sync.engine import registry
from websearch_sync.mcp.tools import McpTools
from websearch_sync.net import mocks, transport, wire_requests, workers
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.net.wire_mock import MockResponse, MockWire
from websearch_sync.once import Once
from websearch_sync.reader import pdflog
from websearch_sync.testing import kit
from websearch_sync.tool import ToolSession

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RECORDED = (FIXTURES / "brave" / "brave-search-python-client__1.json").read_bytes()
REFUSED = json.loads((FIXTURES / "tavily" / "http_401_invalid_key.meta.json").read_text())["response"]
#: The child's calls take milliseconds; before, they waited out this budget (or hung).
BUDGET_MS = 10_000
#: A child that has not exited by then hung.
CHILD_LIMIT_S = 3 * BUDGET_MS / 1000
SITE = "https://site.example/page"
#: A module global the renewal test has renewed (forks.module_global).
RENEWED_TABLE: list = []


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
    "page memory cache": lambda client: client._pages.memory,  # noqa: SLF001
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


def _stub_search():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OfflineResultsWarning)
        ws.search("python", settings=ws.Settings())  # the offline default: it warns (a stub named does not)


def _replayed(client, monkeypatch):
    """A replay wire's lock; the child sends the one exchange it recorded."""
    exchanges = [{"request": {"method": "GET", "url": SITE, "headers": {}}, "response": {"status": 200, "headers": {}}}]
    wire = ReplayWire(exchanges, lambda response: b"recorded")
    spec = RequestSpec("GET", SITE)
    return wire._lock, lambda: HttpTransport(wire=wire).send(  # noqa: SLF001
        spec, deadline=Deadline(BUDGET_MS), provider="site", max_bytes=1 << 20
    )


def _unwarned(client, monkeypatch):
    """The stub's warning lock, taken by the first offline search of a process."""
    monkeypatch.setattr(stub, "_WARNED", Once())
    return stub._WARNED._lock, _stub_search  # noqa: SLF001


def _unsaid(client, monkeypatch):
    """The lock of what the transport says once, taken by the first client given a session (not said yet:
    one an earlier test said is looked up without it)."""
    monkeypatch.setattr(mocks, "_SAID", Once())
    return mocks._SAID._lock, lambda: ws.SearchClient(session=requests.Session()).close()  # noqa: SLF001


def _tool_session(client, monkeypatch):
    session = ToolSession(client)
    return session._lock, lambda: session.call_tool("web_search", {"query": "python"})  # noqa: SLF001


def _mcp_tools(client, monkeypatch):
    tools = McpTools(client)
    return tools._lock, tools.definitions  # noqa: SLF001


def _replay_clock(client, monkeypatch):
    clock = ReplayClock()
    return clock.skipped._lock, lambda: clock.sleep(1.0)  # noqa: SLF001


def _work_threads(client, monkeypatch):
    """The work threads' lock; at the fork, a parent's thread waits for work (it is not in the child)."""
    monkeypatch.setattr(workers, "_idle", [queue.SimpleQueue()])  # the waiting thread's queue
    return workers._lock, lambda: workers.run_each(len, ["a job"], 1, "websearch-test")[0].result(BUDGET_MS / 1000)  # noqa: SLF001


def _no_network(client, monkeypatch):
    """The testing kit's lock, taken by each no_network block (a test's, in a forked child)."""

    def block():
        with kit.no_network():
            pass

    return kit._BLOCK_LOCK, block  # noqa: SLF001


def _plugins(client, monkeypatch):
    def reloaded():
        registry.forget_registrations()  # the next question loads the plugins
        _stub_search()

    return registry._PLUGINS_LOCK, reloaded  # noqa: SLF001


#: Each lock of a layer below the client a thread may hold, and what of the child's work takes it:
#: ``(client, monkeypatch) -> (lock, work)``.
LOWER_LOCKS = {
    "mock wire": lambda client, monkeypatch: (client._transport.api._lock, lambda: client.search("child")),  # noqa: SLF001
    "replay wire": _replayed,
    "replay clock": _replay_clock,
    "transport's forks": lambda client, monkeypatch: (transport._FORK_LOCK, lambda: client.search("child")),  # noqa: SLF001
    "work threads": _work_threads,
    "parts renewed": lambda client, monkeypatch: (forks._PARTS_LOCK, lambda: _client(MockWire(_recorded)).close()),  # noqa: SLF001
    "said once": _unsaid,
    "sessions given": lambda client, monkeypatch: (
        wire_requests._GIVEN_LOCK,  # noqa: SLF001
        lambda: ws.SearchClient(session=requests.Session()).close(),
    ),
    "plugins": _plugins,
    "offline warning": _unwarned,
    "pdf notes": lambda client, monkeypatch: (
        pdflog._install,
        lambda: pdflog.pypdf_notes_of("site.example").__enter__(),
    ),  # noqa: SLF001
    "searxng configs": lambda client, monkeypatch: (
        searxng_config._LOCK,  # noqa: SLF001
        lambda: searxng_config.known_config("https://searx.example/config"),
    ),
    "tool session": _tool_session,
    "mcp tools": _mcp_tools,
    "no network": _no_network,
}


@pytest.mark.parametrize("lock", sorted(LOWER_LOCKS))
def test_a_lock_of_a_lower_layer_another_thread_held_at_the_fork_is_free_in_the_child(lock, monkeypatch):
    with _client(MockWire(_recorded)) as client:
        client.search("asked in the parent")
        held, work = LOWER_LOCKS[lock](client, monkeypatch)
        with held_by_another_thread(held):
            code = _in_child(work)
    assert code == 0  # before: HUNG on the lock


def test_a_session_of_a_class_that_is_not_hashable_is_taken():
    class Unhashable(requests.Session):  # a session class defining __eq__ alone is one
        __hash__ = None  # type: ignore[assignment]

    with Unhashable() as session, ws.SearchClient(session=session) as client:
        assert client._transport.api.session is session  # noqa: SLF001 - before the fork check: TypeError


class _BlockingPlugin:
    """An installed plugin's entry point whose loading waits (a parent's thread loads it at the fork)."""

    name = value = "fork_probe_plugin"

    def __init__(self, parent, loading, done):
        self.parent, self.loading, self.done = parent, loading, done

    def load(self):
        if os.getpid() == self.parent:
            self.loading.set()
            self.done.wait(CHILD_LIMIT_S)

        class Plugin(Stub):
            name = "fork_probe_plugin"

        return Plugin


def test_plugins_another_thread_was_loading_at_the_fork_are_loaded_by_the_child(monkeypatch):
    loading, done = threading.Event(), threading.Event()
    plugin = _BlockingPlugin(os.getpid(), loading, done)
    monkeypatch.setattr(registry, "_entry_points", lambda: [plugin])

    def child():
        assert "fork_probe_plugin" in ws.backend_names()  # before: never loaded there (or HUNG on the lock)

    registry.forget_registrations()
    try:
        asking = threading.Thread(target=ws.backend_names)
        asking.start()
        assert loading.wait(CHILD_LIMIT_S)
        code = _in_child(child)
        done.set()
        asking.join(CHILD_LIMIT_S)
    finally:
        done.set()
        monkeypatch.undo()
        registry.forget_registrations()
    assert code == 0


def test_a_part_failing_at_the_fork_leaves_the_others_renewed_in_the_child():
    """Each registered part starts afresh in the child even when one before it fails (a full table of
    file descriptors at the fork: the browser wire could not open /dev/null): the loop stopped at
    the first failure, and the parts after it kept the parent's locks."""

    class Failing:
        called = False

        def forked(self):
            self.called = True
            raise OSError(24, "Too many open files")

    parts = [Failing() for _ in range(3)]
    for part in parts:
        forks.renewed_in_children(part)

    def child():
        assert all(part.called for part in parts)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the child reports the failures as unraisable
        assert exit_codes([fork_running(child)], CHILD_LIMIT_S) == [0]


def test_every_step_failing_at_the_fork_is_reported_and_the_steps_after_it_run(monkeypatch):
    """The child's renewal, run here on registries of the test's own (no fork): an object whose lock
    cannot be set, two parts and a module's function fail; every step after each still runs, and the
    one exception raised at the fork names every failure. Before, only the first part's failure was
    raised (the interpreter reports one exception, and the others were lost), and an object whose lock
    could not be set stopped the renewal there: the parts kept the parent's locks."""

    class Frozen:
        @property
        def _lock(self):  # no setter: setting it is an AttributeError
            return None

    class Owner:
        pass

    class Failing:
        def forked(self):
            raise OSError(24, "Too many open files")

    class Renewed:
        called = False

        def forked(self):
            self.called = True

    def failing_function():
        raise ValueError("no table")

    monkeypatch.setattr(forks, "_LOCKED", weakref.WeakKeyDictionary())
    monkeypatch.setattr(forks, "_PARTS", weakref.WeakSet())
    monkeypatch.setattr(forks, "_FUNCTIONS", [])
    monkeypatch.setattr(forks, "_PARTS_LOCK", forks._PARTS_LOCK)  # noqa: SLF001 - put back after the renewal
    frozen, owner, parts = Frozen(), Owner(), [Failing(), Failing(), Renewed()]
    forks.instance_lock(frozen)
    owner._lock = parents = forks.instance_lock(owner)
    for part in parts:
        forks.renewed_in_children(part)
    forks.in_children(failing_function, "a module's table")
    forks.module_global(__name__, "RENEWED_TABLE", list)  # after the failing function: renewed all the same
    parents_table = RENEWED_TABLE

    with pytest.raises(forks.RenewalFailed) as raised:
        forks._forked()  # noqa: SLF001
    failures = raised.value.failures
    named = [Frozen.__qualname__ + "._lock", Failing.__qualname__ + ".forked", Failing.__qualname__ + ".forked"]
    assert [what for what, _ in failures] == [*named, "a module's table"]
    assert raised.value.errors == [error for _, error in failures]
    assert raised.value.__cause__ is failures[0][1]
    assert all("%s: %s: %s" % (what, type(error).__name__, error) in str(raised.value) for what, error in failures)
    assert str(raised.value).startswith("4 part(s) of websearch_sync did not start afresh")
    assert owner._lock is not parents and parts[2].called and RENEWED_TABLE is not parents_table


def test_a_failure_whose_message_cannot_be_read_is_named_beside_the_others():
    """An error whose ``__str__`` raises is named in the report (as a traceback names it), and the
    failures after it too. Before, the message was built with ``str(error)``: the report's own
    constructor raised that error's ``RuntimeError`` at the fork, and every failure was lost. The
    report is caught by its public name."""

    class Unreadable(Exception):
        def __str__(self):
            raise RuntimeError("str broke")

    failures = [("First.forked", Unreadable()), ("Second.forked", OSError(24, "Too many open files"))]
    raised = ws.errors.RenewalFailed(failures)
    assert ws.errors.RenewalFailed is forks.RenewalFailed
    unreadable = "%s.%s" % (Unreadable.__module__, Unreadable.__qualname__)  # as a traceback names a class
    assert str(raised) == (
        "2 part(s) of websearch_sync did not start afresh in this forked child (the others did): "
        "First.forked: %s: <exception str() failed>; Second.forked: OSError: [Errno 24] Too many open files"
        % unreadable
    )
    assert raised.errors == [error for _, error in failures]


def test_letting_go_of_sockets_without_a_descriptor_left_leaves_them(monkeypatch):
    """No descriptor left to open /dev/null with (EMFILE at the fork): the child keeps those sockets,
    as before letting go of them, instead of failing the fork's renewal."""

    def no_descriptor(*args, **kwargs):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(forks.os, "open", no_descriptor)
    read, write = os.pipe()
    try:
        assert forks.disown([read]) is None
        os.write(write, b"x")
        assert os.read(read, 1) == b"x"  # still the pipe
    finally:
        os.close(read)
        os.close(write)


def test_a_lookup_a_parents_thread_had_under_way_is_no_lookup_a_childs_call_waits_for():
    """A ToolSession's call waits for an identical lookup under way (max_repeats reached, no answer
    yet): one the parent's thread was making at the fork never ends in the child."""
    parent, asked, done = os.getpid(), threading.Event(), threading.Event()

    def answer(request):
        if os.getpid() == parent:  # the parent's lookup is under way until the child is done
            asked.set()
            done.wait(CHILD_LIMIT_S)
        return _recorded(request)

    with _client(MockWire(answer)) as client:
        session = ToolSession(client, max_repeats=1)
        asking = threading.Thread(target=session.call_tool, args=("web_search", {"query": "python"}))
        asking.start()
        try:
            assert asked.wait(CHILD_LIMIT_S)
            code = _in_child(lambda: session.call_tool("web_search", {"query": "python"})["items"])
        finally:
            done.set()
            asking.join(CHILD_LIMIT_S)
    assert code == 0  # before: HUNG, waiting for the parent's lookup


def test_a_wire_first_read_in_a_child_is_built_under_the_child_s_lock():
    """The requests wire is built at its first use; a child reading it first (``transport.api``,
    as tests and wrappers do, not through a request) took the parent's build lock, which a parent's
    thread building at the fork left held: the child hung."""
    with ws.SearchClient("stub") as client:
        made = client._transport  # noqa: SLF001 - the wire is not built: the stub sends nothing
        with held_by_another_thread(made._building):  # noqa: SLF001
            code = _in_child(lambda: made.api)
    assert code == 0  # before: HUNG on the lock


def test_a_wire_the_parent_built_read_first_in_a_child_is_the_child_s_own():
    with ws.SearchClient("stub") as client:
        made = client._transport  # noqa: SLF001
        parents = made.api

        def child_reads_its_own() -> None:
            assert made.api is not parents

        assert _in_child(child_reads_its_own) == 0  # before: the parent's wire, its pooled sockets

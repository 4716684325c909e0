"""Shared fixtures: no network, a clean environment, a fake clock, JSON backends for HTTP-layer tests.

The suite, by kind (``pytest`` runs all of it, offline):

* ``unit/``: no connection at all (answers replayed with ``responses``; ``unit/conftest.py``
  fails a test that connects); ``unit/backends/test_<name>.py``: one backend's own quirks.
* ``conformance/``: what every registered backend must do, from its declaration and its
  recorded cases, and the docs' tables against the code.
* ``sockets/``: real local servers (``servers.py``): the HTTP layer, fetch, the client, the CLI.
* ``reliability/``: the fault lab (``reliability/faultlab.py``), hostile input, races.
* ``../contract_tests/``: every recorded case against its golden.

Helpers at this level: ``servers.py`` (the local server), ``faults.py`` (the catalogue of every way
it misbehaves, also served by the fault lab), ``clocks.py`` (``FakeClock``),
``backend_kit.py`` (a backend's dummy settings and recorded answers), ``fixture_backends.py``,
``json_backend.py`` (``JsonTestBackend``, of the ``testjson`` and ``json_backends`` fixtures),
``search_env.py`` (the developer's search settings out of each test's environment), ``races.py`` (a set two
threads race on), ``stepping.py`` (another thread looks at shared state between every two bytecodes of
the code under test: a race test that does not count on thread switches), ``property_examples.py`` (each hypothesis property's count of examples: moderate in
``pytest``, thorough with ``pytest --hypothesis-profile=deep``, the profile registered here),
``unit_world.py`` (what every unit test runs in: no connection, the requests transport),
``scheduling.py`` (which tests share an xdist worker, and which start first), ``rewrite_cache.py`` (the
workers share one rewriting of the test modules' asserts), ``bytecode.py`` (the library compiled once
for every process of a run when Python writes no bytecode), ``worker_reports.py`` (which test reports a
worker sends its controller).
"""

import sys

import pytest

# The fixtures (websearch_replay, websearch_fake) also where the pytest11 plugin is not installed
# (``websearch_sync.testing`` imports nothing of the library for them). The library and the helpers
# that import it are imported where a fixture or a test needs them: the xdist controller imports
# this module but runs no test (the library's 140 modules compiled and imported for nothing:
# 0.37 s of its CPU).
from websearch_sync.testing import websearch_fake, websearch_replay  # noqa: F401

#: The library's pytest plugin (``setup.cfg``'s addopts load it by this name).
PLUGIN = "websearch_sync.testing"


@pytest.fixture(autouse=True)
def _offline_and_clean_env(request):
    """Every test runs without the developer's search settings (:func:`without_search_settings`)
    and without internet, and with a fresh shared default client (``call_tool(client=None)``, the
    integrations), so no cool-down or cache outlives a test. Set up first and torn down last
    (after the test's own ``monkeypatch``): no ``monkeypatch`` of its own, which cost each of the
    suite's thousands of tests a fixture when there is usually no variable to take away. The
    refused ports the test held (``faults.refused_port``) are let go after it.

    The process-wide state is reset here only where the library's plugin is not loaded: the
    plugin's own fixture, set up just before this one (a plugin's autouse fixtures come before a
    conftest's), has reset it, and nothing runs between the two (a second reset of every test
    cost the suite about 0.35 s of CPU: 27 us a call, tests/unit and tests/conformance, -n 0)."""
    from search_env import without_search_settings

    from websearch_sync.client.default_client import close_default_client
    from websearch_sync.testing import no_network, reset

    with without_search_settings():
        if not request.config.pluginmanager.has_plugin(PLUGIN):
            reset()  # as the plugin does, where it is not loaded (after the environment is cleaned)
        with no_network():
            yield
        close_default_client()
    faults = sys.modules.get("faults")  # not imported for it: most tests use no port
    if faults is not None:
        faults.release_ports()  # the refused ports the test held (faults.refused_port)


@pytest.fixture
def fake_clock(monkeypatch):
    """A :class:`FakeClock` behind the default clock for the test: every client made without
    its own clock (``websearch_sync.search``, the CLI) waits on it, so retries, Retry-After,
    rate-limit slots and cool-downs take no real time and are checked on ``fake_clock.sleeps``."""
    from clocks import FakeClock

    from websearch_sync.client.clock import SYSTEM_CLOCK

    clock = FakeClock()
    for name in ("monotonic", "time", "sleep", "sleep_unless"):
        monkeypatch.setattr(SYSTEM_CLOCK, name, getattr(clock, name))
    return clock


@pytest.fixture
def testjson():
    """Registers the ``testjson`` backend (``json_backend.JsonTestBackend``) for the duration of a test."""
    from json_backend import JsonTestBackend

    from websearch_sync.engine.registry import register, unregister

    register(JsonTestBackend)
    yield JsonTestBackend
    unregister(JsonTestBackend.name)


@pytest.fixture
def json_backends():
    """``json_backends("a", "b")`` registers JSON test backends under those names."""
    from json_backend import JsonTestBackend

    from websearch_sync.engine.registry import register, unregister

    registered = []

    def make(*names, **attributes):
        classes = []
        for name in names:
            cls = type("JsonTestBackend_" + name, (JsonTestBackend,), dict(attributes, name=name))
            register(cls)
            registered.append(name)
            classes.append(cls)
        return classes

    yield make
    for name in registered:
        unregister(name, missing_ok=True)  # registered twice, or removed by the test


def pytest_configure(config):
    """Hypothesis's ``deep`` profile registered (``pytest --hypothesis-profile=deep``: every property
    its thorough count of examples, ``property_examples.py``), before hypothesis's plugin, configured
    after this conftest, loads the profile named; the rewritten test modules read from the run's
    folder, kept between runs, and this process's share of them written there
    (``rewrite_cache.py``); in the run's first process, the library's bytecode for every process of
    the run (``bytecode.py``); in an xdist worker, only the test reports the controller shows sent
    to it (``worker_reports.py``)."""
    import bytecode
    import property_examples
    import rewrite_cache
    import worker_reports

    property_examples.register_profiles()

    rewrite_cache.share(config)
    if bytecode.wanted(config):
        bytecode.compile_all(config)
    worker_reports.send_only_what_is_shown(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """The folder where the xdist workers share their rewritten test modules, when they should
    (``rewrite_cache.py``), and the one where their user pytest runs keep their bytecode
    (``user_pytest.run_folder``); whether the workers order their tests for ``scheduling.py``'s units,
    and whether they need send no test's start and end (``worker_reports.controller_ignores_starts``)."""
    import rewrite_cache
    import scheduling
    import user_pytest
    import worker_reports

    if rewrite_cache.wanted(node.config):
        node.workerinput[rewrite_cache.WORKERINPUT_KEY] = rewrite_cache.make_folder(node.config)
    node.workerinput[user_pytest.WORKERINPUT_KEY] = user_pytest.run_folder(node.config)
    node.workerinput[scheduling.RUN_ORDER_KEY] = node.config.getvalue("dist") == "loadscope"
    node.workerinput[worker_reports.STARTS_IGNORED_KEY] = worker_reports.controller_ignores_starts(node.config)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """The controller's temporary folders removed; in an xdist worker, whose process ends next, the
    collector frozen: every object it holds stays until the exit, and the full collection that
    ending a Python process runs would walk them all (a worker's exit took 1-3 s of CPU, a
    quarter of a second for a process that only imported the library and the test plugins)."""
    import gc

    import bytecode
    import rewrite_cache
    import user_pytest

    rewrite_cache.remove_folder(config)
    user_pytest.remove_run_folder(config)
    bytecode.remove_written(config)
    if hasattr(config, "workerinput"):
        gc.freeze()


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` (the suite's config) by the units of ``scheduling.py``: the modules that
    import the agent frameworks on one worker, the long modules handed out first."""
    if config.getvalue("dist") != "loadscope":
        return None
    from scheduling import make_scheduler

    return make_scheduler(config, log)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """No cyclic garbage collection while collecting: its 575 passes over the growing tree of 8,000
    items took 0.35 s of a process's 3 s of collection. ``pytest_collection_finish`` freezes what
    collecting made, with the few cycles it left (53,000 objects, 7 MB), out of the collector's way;
    a worker then collects as before. (An xdist controller collects nothing.)"""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if enabled:
            gc.enable()


def pytest_collection_finish(session):
    """Note which costly packages collecting imported (``scheduling.NOT_AT_COLLECTION``; checked by
    ``tests/unit/test_suite_setup.py``): every worker collects every module and would pay them.

    Then freeze what the process holds so far out of the collector's way: the imported modules
    and the collected tests (8,000 items and their fixtures' records) live until the process
    ends, and every full collection while the tests run walked them all again (a worker's
    full collections took 0.3 s of CPU, 0.15 s once frozen). What the tests make is collected
    as before."""
    import gc
    import sys

    from scheduling import COLLECTION_IMPORTS, costly_imports

    session.config.stash[COLLECTION_IMPORTS] = costly_imports(sys.modules)
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the last test of a module (its module fixtures torn down), collect what it left and
    freeze the rest, as after collecting: what outlives a module (the agent frameworks' and the
    SDKs' classes, imported by the tests of one worker: a million objects) lives until the
    process ends, and every later full collection walked it all again (that worker's full
    collections: 4.8 s of CPU in a run; the frameworks' modules alone, ``-n 0``: 1.6 s in 10).
    Only what a module leaves is frozen: a test's own objects are collected as before."""
    result = yield
    if nextitem is None or nextitem.path != item.path:
        import gc

        gc.collect()
        gc.freeze()
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A test of the modules that import the agent frameworks (``scheduling.AGENT_FRAMEWORK_MODULES``)
    runs without cyclic garbage collection, and what it imported is then frozen out of the
    collector's way: a framework's import makes a million objects that live until the process
    ends, and the full collections it set off on the way walked them all again and again (1.7 s of
    the CPU of ``test_docs_agent_examples.py``'s 7 tests, 1.5 s of ``test_api_reference.py``'s
    build). A test that imported nothing new gets its collections back at once, as it ended."""
    import gc

    from scheduling import AGENT_FRAMEWORK_MODULES

    if item.nodeid.partition("::")[0] not in AGENT_FRAMEWORK_MODULES or not gc.isenabled():
        return (yield)
    import sys

    imported = len(sys.modules)
    gc.disable()
    try:
        return (yield)
    finally:
        if len(sys.modules) > imported:
            gc.collect()
            gc.freeze()
        gc.enable()


def pytest_collection_modifyitems(config, items):
    """In an xdist worker of a ``--dist loadscope`` run (the controller says so: a worker's own
    ``dist`` option is always "no"), the tests in the order ``scheduling.run_order`` gives, which
    is the order the controller hands their units out in (every worker collects the same order,
    which xdist checks); a run in one process keeps the collected order."""
    from scheduling import RUN_ORDER_KEY, run_order

    if not getattr(config, "workerinput", {}).get(RUN_ORDER_KEY):
        return

    items[:] = [items[i] for i in run_order([item.nodeid for item in items])]


def pytest_addoption(parser):
    parser.addoption(
        "--update-snapshots",
        action="store_true",
        default=False,
        help="rewrite tests/snapshots/* from the current output (review with git diff)",
    )


@pytest.fixture
def snapshot(request):
    """``snapshot("name.txt", text)``: compare with tests/snapshots/name.txt (or rewrite it with --update-snapshots)."""
    from pathlib import Path

    folder = Path(__file__).parent / "snapshots"

    def check(name, text):
        path = folder / name
        if request.config.getoption("--update-snapshots"):
            folder.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        assert path.exists(), "no snapshot %s: run pytest --update-snapshots and review it" % name
        assert text == path.read_text(encoding="utf-8")

    return check


@pytest.fixture
def testhtml_server(monkeypatch):
    """The ``testhtml`` backend registered and pointed (``WEB_SEARCH_ENDPOINT_TESTHTML``) at a
    local server answering a results page of ``fixture_backends.PAGE_RESULTS``."""
    from faults import respond
    from fixture_backends import PAGE_RESULTS, HtmlTestBackend, result_page
    from servers import FaultServer

    from websearch_sync.engine.registry import register, unregister

    register(HtmlTestBackend)
    with FaultServer({"/html": respond(200, result_page(PAGE_RESULTS))}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", server.url("/html"))
        yield server
    unregister(HtmlTestBackend.name)

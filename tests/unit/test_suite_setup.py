"""The suite tests this checkout (issue 23, point 13): the package it imports is the one in
this folder, and the README's test command installs the checkout in editable mode. The unit
and conformance tiers read no wall clock (issue 33.21)."""

import ast
import importlib.util
import re
from pathlib import Path

import pytest
from package_source import statements

import websearch_sync

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_imports_the_package_of_this_checkout():
    assert Path(websearch_sync.__file__).resolve().parent == ROOT / "websearch_sync", (
        "pytest imported %s: install this checkout with pip install -e '.[test]'" % websearch_sync.__file__
    )


def _quickstart_commands() -> list[str]:
    spec = importlib.util.spec_from_file_location("readme_commands", ROOT / ".ci" / "readme_commands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.quickstart_commands((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_test_command_installs_the_checkout_editable():
    tests = [command for command in _quickstart_commands() if command.endswith("&& pytest")]
    assert len(tests) == 1 and "pip install -e '.[test]'" in tests[0], tests


def test_ci_runs_the_readme_commands_with_the_pip_a_new_venv_ships():
    """Issue 34.1: CI proves the Quickstart as a newcomer runs it, so it must not upgrade pip first."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 .ci/readme_commands.py" in ci
    for step in ('eval "${quickstart[0]}"', 'eval "$readme_install"', 'eval "$readme_test"'):
        assert step in ci, step
    upgrades = re.findall(r"^\s*\S*(?:python -m )?pip install\b.*(?:-U|--upgrade) pip\b.*$", ci, re.M)
    assert not upgrades, upgrades


#: Wall-clock reads and real sleeps: what makes a test's outcome depend on the machine's load.
WALL_CLOCK = frozenset({"sleep", "monotonic", "monotonic_ns", "time", "time_ns", "perf_counter", "perf_counter_ns"})
#: Sources without the word ``time`` use no wall clock: they are not parsed (parsing is these checks' cost).
TIME_WORD = re.compile(r"\btime\b")


def _wall_clock_uses(source: str) -> list[tuple[int, str]]:
    """``(line, time.name)`` of every wall-clock use (``time.sleep(...)``, ``from time import monotonic``) in ``source``."""
    found: list[tuple[int, str]] = []
    if not TIME_WORD.search(source):
        return found
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "time":
            names = [node.attr]
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            names = [alias.name for alias in node.names]
        else:
            continue
        found.extend((node.lineno, "time." + name) for name in names if name in WALL_CLOCK)
    return sorted(found)


def test_the_unit_and_conformance_tiers_read_no_wall_clock():
    """Issue 33.21: timing tests failed on a loaded machine. Here time is a FakeClock (tests/clocks.py);
    a test about real time lives in tests/sockets/ or tests/reliability/, its margin from the machine's pace.
    CPU time (``time.thread_time``) is allowed: a loaded machine does not stretch it."""
    files = sorted((ROOT / "tests" / "unit").rglob("*.py")) + sorted((ROOT / "tests" / "conformance").rglob("*.py"))
    assert len(files) > 50
    uses = [
        "%s:%d %s" % (path.relative_to(ROOT), line, name)
        for path in files
        for line, name in _wall_clock_uses(path.read_text(encoding="utf-8"))
    ]
    assert uses == [], "move these to the fake clock or to tests/sockets/: %s" % uses


def test_the_wall_clock_check_finds_a_sleep():
    probe = "import time\nfrom time import monotonic\ntime.sleep(0.1)\ntime.thread_time()\nclock.sleep(1)\n"
    assert _wall_clock_uses(probe) == [(2, "time.monotonic"), (3, "time.sleep")]
    assert _wall_clock_uses("from  time import (perf_counter)\n") == [(1, "time.perf_counter")]


#: The word ``tests`` as an import can spell it: never followed by a slash or a quote, as in
#: the paths and strings that name the folder. Sources without it are not parsed.
TESTS_WORD = re.compile(r"\btests\b(?![/\"'])")


def _package_imports(source: str) -> list[int]:
    """Lines of ``source`` that import through the ``tests`` package (``from tests.clocks import ...``)."""
    if not TESTS_WORD.search(source):
        return []
    return sorted(
        node.lineno
        for node in statements(ast.parse(source))
        if (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "tests")
        or (isinstance(node, ast.Import) and any(alias.name.split(".")[0] == "tests" for alias in node.names))
    )


def test_each_tier_runs_on_its_own_with_plain_pytest():
    """``pytest tests/unit`` (no ``python -m``) puts tests/ on the path, not the checkout's root: a
    helper imported as ``tests.clocks`` failed there while the whole suite passed. Helpers are
    imported by their own names (``from clocks import FakeClock``)."""
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "contract_tests").rglob("*.py"))
    offenders = [
        "%s:%d" % (path.relative_to(ROOT), line)
        for path in files
        for line in _package_imports(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], offenders


def test_the_tier_check_finds_a_package_import():
    probe = "import clocks\nfrom tests.clocks import FakeClock\nimport tests.faults\nfrom testsuite import x\n"
    assert _package_imports(probe) == [2, 3]
    assert _package_imports("ROOT / 'tests' / 'unit'\nimport os, tests\n") == [2]


def _default_alphabet_texts(source: str) -> list[int]:
    """Lines of ``source`` drawing hypothesis text in the default alphabet: ``st.text()`` (or
    ``strategies.text()``) with no alphabet, which builds hypothesis's UTF-8 table (``unicode_text.py``)."""
    if "hypothesis" not in source:
        return []
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "text"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ("st", "strategies")
        and not node.args
        and not any(keyword.arg == "alphabet" for keyword in node.keywords)
    )


def test_hypothesis_text_is_drawn_from_an_alphabet_with_no_table_to_build():
    """``st.text()``'s own alphabet cost each worker 1.3 s of CPU in a fresh clone; ``UTF8_CHARS`` is
    the same characters: every code point but the surrogates, which alone UTF-8 cannot encode."""
    from hypothesis.strategies._internal.lazy import unwrap_strategies
    from unicode_text import UTF8_CHARS

    assert unwrap_strategies(UTF8_CHARS).intervals.intervals == ((0, 0xD7FF), (0xE000, 0x10FFFF))
    for code in (0xD7FF, 0xE000, 0x10FFFF):
        chr(code).encode("utf-8")
    for code in (0xD800, 0xDFFF):
        with pytest.raises(UnicodeEncodeError):
            chr(code).encode("utf-8")
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "contract_tests").rglob("*.py"))
    offenders = [
        "%s:%d" % (path.relative_to(ROOT), line)
        for path in files
        for line in _default_alphabet_texts(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "draw st.text(UTF8_CHARS, ...) (unicode_text.py): %s" % offenders


def test_the_alphabet_check_finds_a_default_text():
    probe = (
        "from hypothesis import strategies as st\nst.text()\nst.text(max_size=3)\nst.text('ab')\nst.text(alphabet=X)\n"
    )
    assert _default_alphabet_texts(probe) == [2, 3]


def _literal_example_counts(source: str) -> list[int]:
    """The lines of ``source`` where a ``max_examples=`` is not :func:`property_examples.examples`."""
    if "max_examples" not in source:
        return []
    return [
        node.value.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.keyword)
        and node.arg == "max_examples"
        and not (
            isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "examples"
        )
    ]


def test_every_property_names_its_moderate_and_its_thorough_count():
    """A property's count is ``examples(default, deep=...)`` (tests/property_examples.py): the README's
    ``pytest`` runs the moderate one, ``pytest --hypothesis-profile=deep`` the thorough one."""
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "contract_tests").rglob("*.py"))
    offenders = [
        "%s:%d" % (path.relative_to(ROOT), line)
        for path in files
        if path.name != "property_examples.py"  # the deep profile's count for a property that names none
        for line in _literal_example_counts(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "max_examples=examples(N, deep=M) (property_examples.py): %s" % offenders


def test_the_count_check_finds_a_literal_count():
    probe = "settings(max_examples=50)\nsettings(max_examples=examples(50, deep=200))\nsettings(max_examples=N)\n"
    assert _literal_example_counts(probe) == [1, 3]


def test_the_deep_profile_gives_each_property_its_thorough_count():
    from hypothesis import settings
    from property_examples import DEEP_EXAMPLES, DEEP_PROFILE, examples

    current = settings.get_current_profile_name()
    assert examples(100, deep=300) == (300 if current == DEEP_PROFILE else 100)
    settings.load_profile(DEEP_PROFILE)
    try:
        assert examples(100, deep=300) == 300 and settings.default.max_examples == DEEP_EXAMPLES
    finally:
        settings.load_profile(current)
    assert settings.get_current_profile_name() == current


def _imported_packages(source: str) -> set[str]:
    """The top-level names of the packages ``source`` imports, anywhere in it."""
    names = set()
    for node in statements(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _spells_any(source: str, packages: frozenset[str]) -> bool:
    """Whether ``source`` spells one of ``packages``: one that does not imports none (and is not parsed)."""
    return any(package in source for package in packages)


#: How a test module imports the integrations by name (``importlib.import_module``), each of which
#: imports its framework: test_tool_host_slips.py did so unlisted, and its worker paid the
#: frameworks' import (2.6 s of CPU) a second time.
INTEGRATION_BY_NAME = "import_module(" + '"websearch_sync.integrations." +'  # split: this module spells it not


def test_the_modules_importing_an_agent_framework_share_one_worker():
    """Each worker that runs such a module pays the frameworks' import (about 6 s of CPU), or the MCP
    SDK's client and an MCP zygote (about 1.5 s): they are one unit of tests/scheduling.py, so one
    worker does. A new one left out costs every worker."""
    import scheduling

    listed = set(scheduling.AGENT_FRAMEWORK_MODULES)
    importing = {
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if (
            _spells_any(text := path.read_text(encoding="utf-8"), scheduling.ONE_WORKER_PACKAGES)
            and _imported_packages(text) & scheduling.ONE_WORKER_PACKAGES
        )
        or INTEGRATION_BY_NAME in text  # each integration's module imports its framework
    }
    assert importing and importing <= listed, sorted(importing - listed)
    units = {scheduling.unit_of(module + "::test") for module in listed}
    assert units == {scheduling.AGENT_FRAMEWORKS}
    named = listed | set(scheduling.RUN_FIRST) - {scheduling.AGENT_FRAMEWORKS, scheduling.SEARCHING_FORKS}
    assert [module for module in sorted(named) if not (ROOT / module).is_file()] == []


def test_the_modules_reading_the_package_trees_share_one_worker():
    """``tests/package_source.py`` parses the package once per process (~0.5 s of CPU) and keeps
    the trees: the modules that read them are one unit of tests/scheduling.py, so one worker parses."""
    import scheduling

    listed = set(scheduling.PACKAGE_SOURCE_MODULES)
    importing = {
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "package_source" in (text := path.read_text(encoding="utf-8"))
        and any(
            isinstance(node, ast.ImportFrom)
            and node.module == "package_source"
            and {"parsed", "spelling"} & {a.name for a in node.names}
            for node in statements(ast.parse(text))
        )
    }
    frameworks = set(scheduling.AGENT_FRAMEWORK_MODULES)  # that unit's import costs more: they stay there
    assert importing and importing <= listed | frameworks, sorted(importing - listed - frameworks)
    assert {scheduling.unit_of(module + "::test") for module in listed} == {scheduling.PACKAGE_SOURCE}
    assert [module for module in sorted(listed) if not (ROOT / module).is_file()] == []
    assert not listed & frameworks


def test_the_modules_running_user_suites_from_the_shared_fork_server_share_one_worker():
    """``user_pytest.shared_forks`` starts a fork server per worker, whose first user run rewrites
    the library's modules: the modules calling it are one unit of tests/scheduling.py, so one
    worker pays both."""
    import scheduling

    listed = set(scheduling.USER_RUN_MODULES)
    calling = {
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "shared_forks" in (text := path.read_text(encoding="utf-8"))
        and any(
            isinstance(node, ast.Call) and getattr(node.func, "id", None) == "shared_forks"
            for node in ast.walk(ast.parse(text))
        )
    }
    assert calling == listed, (sorted(calling - listed), sorted(listed - calling))
    assert {scheduling.unit_of(module + "::test") for module in listed} == {scheduling.USER_RUNS}
    assert not listed & (set(scheduling.AGENT_FRAMEWORK_MODULES) | set(scheduling.PACKAGE_SOURCE_MODULES))


def test_the_modules_forking_from_the_shared_searching_server_share_one_worker():
    """``python_forks.shared_searching`` starts a fork server per worker (the library, its engines
    and pytest imported): the modules calling it are one unit of tests/scheduling.py, so one worker
    starts it."""
    import scheduling

    listed = set(scheduling.SEARCHING_FORK_MODULES)
    calling = {
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "shared_searching" in (text := path.read_text(encoding="utf-8"))
        and any(
            isinstance(node, ast.Call) and getattr(node.func, "id", None) == "shared_searching"
            for node in ast.walk(ast.parse(text))
        )
    }
    assert calling == listed, (sorted(calling - listed), sorted(listed - calling))
    assert {scheduling.unit_of(module + "::test") for module in listed} == {scheduling.SEARCHING_FORKS}
    others = scheduling.AGENT_FRAMEWORK_MODULES + scheduling.PACKAGE_SOURCE_MODULES + scheduling.USER_RUN_MODULES
    assert not listed & set(others)


def test_collecting_the_suite_imports_no_agent_framework_or_sdk(request):
    """Every worker collects every module: a module-level import of the MCP SDK (one test module's
    ``from websearch_sync.mcp.transport import parse_line``) cost each worker 1.3 to 2.4 s of CPU."""
    import scheduling

    assert request.config.stash[scheduling.COLLECTION_IMPORTS] == []


def test_the_costly_import_check_names_the_package():
    import scheduling

    assert scheduling.costly_imports(["json", "mcp.types", "mcp", "openai._client", "mcpx"]) == ["mcp", "openai"]


def test_the_long_units_are_handed_out_first_and_the_rest_as_collected():
    import scheduling

    nodeids = [
        "tests/unit/test_a.py::test_one",
        "tests/reliability/test_fault_matrix.py::test_two",
        "tests/unit/test_a.py::test_three",
        scheduling.AGENT_FRAMEWORK_MODULES[-1] + "::test_four",
        scheduling.AGENT_FRAMEWORK_MODULES[0] + "::test_five",
    ]
    assert scheduling.run_order(nodeids) == [3, 4, 1, 0, 2]


def test_the_workers_share_one_rewriting_of_the_test_modules(request):
    """Every xdist worker collects every module: with no bytecode written, each rewrote every
    module's asserts (3.4 s of CPU apiece) until they shared one folder (tests/rewrite_cache.py),
    which pytest's cache keeps between runs (every run rewrote them all again)."""
    import sys

    import rewrite_cache
    from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc

    assert Path(__file__) in rewrite_cache.rewritten_files(request.config)
    assert "@pytest_ar" in globals(), "this module's asserts are not rewritten"
    folder = getattr(request.config, "workerinput", {}).get(rewrite_cache.WORKERINPUT_KEY)
    if folder is None and sys.dont_write_bytecode and getattr(request.config, "cache", None) is not None:
        folder = getattr(request.config, "_websearch_rewritten_tests", None)  # a run in one process
        assert folder == str(request.config.cache.mkdir(rewrite_cache.CACHE_NAME))
    if folder is not None:
        pyc = Path(folder, *Path(__file__).parts[1:-1], Path(__file__).stem + PYC_TAIL)
        assert _read_pyc(Path(__file__), pyc) is not None, "no rewritten module shared for %s" % __file__


def test_a_temporary_folder_of_rewritten_modules_is_removed_and_the_cache_s_kept(tmp_path):
    import types

    import rewrite_cache

    cached = types.SimpleNamespace(cache=types.SimpleNamespace(mkdir=lambda name: tmp_path / name))
    (tmp_path / rewrite_cache.CACHE_NAME).mkdir()
    kept = rewrite_cache.make_folder(cached)
    rewrite_cache.remove_folder(cached)
    assert kept == str(tmp_path / rewrite_cache.CACHE_NAME) and Path(kept).is_dir()
    uncached = types.SimpleNamespace(cache=None)
    temporary = rewrite_cache.make_folder(uncached)
    assert Path(temporary).is_dir() and Path(temporary).parent != tmp_path
    rewrite_cache.remove_folder(uncached)
    assert not Path(temporary).exists()


def test_a_cache_that_cannot_be_written_gives_a_temporary_folder_not_an_internal_error(tmp_path):
    """pytest only warns when its cache cannot be written (a read-only checkout): so does the suite."""
    import types

    import rewrite_cache

    def unwritable(name):
        raise FileExistsError(17, "File exists", str(tmp_path / name))

    run = types.SimpleNamespace(cache=types.SimpleNamespace(mkdir=unwritable))
    temporary = rewrite_cache.make_folder(run)
    assert Path(temporary).is_dir() and Path(temporary).parent != tmp_path
    rewrite_cache.remove_folder(run)
    assert not Path(temporary).exists()


def test_every_process_of_the_run_reads_the_librarys_bytecode(request):
    """With no bytecode written, each worker and each Python child of the tests compiled the
    modules it imported from source (a quarter to a third of a child's CPU): the run's first
    process compiles them once (tests/bytecode.py), for this worker and the processes it starts."""
    import sys

    import bytecode

    assert not (hasattr(request.config, "workerinput") and bytecode.wanted(request.config))
    compiled = bytecode.sources(request.config)
    assert ROOT / "websearch_sync" / "__init__.py" in compiled and ROOT / "tests" / "faults.py" in compiled
    assert Path(__file__) not in compiled and ROOT / "tests" / "conftest.py" not in compiled  # pytest rewrites them
    if sys.dont_write_bytecode:
        for source in (ROOT / "websearch_sync" / "__init__.py", ROOT / "tests" / "shared_state_worker.py"):
            assert bytecode._fresh(source, Path(importlib.util.cache_from_source(str(source)))), source


def test_the_run_removes_the_bytecode_it_added_and_keeps_the_rest(tmp_path, monkeypatch):
    import py_compile

    import bytecode

    class Config:
        def getini(self, name):
            assert name == "python_files"
            return ["test_*.py"]

    package = tmp_path / "websearch_sync"
    package.mkdir()
    for name, text in {
        "new.py": "A = 1\n",
        "kept.py": "B = 2\n",
        "broken.py": "def (\n",
        "test_x.py": "C = 3\n",
    }.items():
        (package / name).write_text(text)
    kept = Path(importlib.util.cache_from_source(str(package / "kept.py")))
    py_compile.compile(str(package / "kept.py"), cfile=str(kept), doraise=True)
    monkeypatch.setattr(bytecode, "FOLDERS", (package,))
    config = Config()

    bytecode.compile_all(config)
    new = Path(importlib.util.cache_from_source(str(package / "new.py")))
    assert bytecode._fresh(package / "new.py", new) and bytecode._fresh(package / "kept.py", kept)
    assert not Path(importlib.util.cache_from_source(str(package / "broken.py"))).exists()
    test_x = Path(importlib.util.cache_from_source(str(package / "test_x.py")))  # not under tests/: compiled
    assert sorted(config._websearch_bytecode) == sorted([new, test_x])  # kept.py's was there already

    bytecode.remove_written(config)
    assert not new.exists() and kept.exists()


def test_each_test_runs_without_the_developers_search_settings(monkeypatch, testjson):
    """tests/conftest.py takes the project's variables and every registered backend's (a test
    backend registered meanwhile too) out of the environment for a test, and puts them back."""
    import os

    from search_env import without_search_settings

    monkeypatch.setenv("BRAVE_API_KEY", "developer-key")
    monkeypatch.setenv("TESTJSON_API_KEY", "developer-key")
    monkeypatch.setenv("PATH_OF_SOMETHING_ELSE", "kept")
    with without_search_settings():
        assert "BRAVE_API_KEY" not in os.environ and "TESTJSON_API_KEY" not in os.environ
        assert os.environ["PATH_OF_SOMETHING_ELSE"] == "kept"
    assert os.environ["BRAVE_API_KEY"] == os.environ["TESTJSON_API_KEY"] == "developer-key"


def test_the_scheduler_hands_out_and_ends_as_xdists_own():
    """tests/scheduling.py keeps xdist's ``loadscope`` decisions (what each worker gets, when it is
    told to stop) with constant work per finished test: a simulated run of two workers, tests
    finishing in turn, gives the same sequence of events with both schedulers."""
    import random
    import types

    import scheduling
    from xdist.scheduler import LoadScopeScheduling

    class Worker:
        def __init__(self, name, events):
            self.name, self.events, self.shutting_down, self.queue = name, events, False, []
            self.gateway = types.SimpleNamespace(id=name)

        def send_runtest_some(self, indexes):
            self.events.append((self.name, "run", list(indexes)))
            self.queue.extend(indexes)

        def shutdown(self):
            self.events.append((self.name, "shutdown"))
            self.shutting_down = True

    collection = [
        "tests/unit/test_%s.py::test_%d" % (module, i) for module in "abcdefg" for i in range(5 + len(module))
    ]
    collection += [module + "::test" for module in scheduling.AGENT_FRAMEWORK_MODULES[:3]]

    def simulate(make):
        config = types.SimpleNamespace(
            getvalue=lambda name: ["2*popen"], option=types.SimpleNamespace(loadscopereorder=False)
        )
        events, turn = [], random.Random(5)
        sched = make(config)
        workers = [Worker("gw0", events), Worker("gw1", events)]
        for worker in workers:
            sched.add_node(worker)
            sched.add_node_collection(worker, collection)
        sched.schedule()
        while any(worker.queue for worker in workers):
            worker = turn.choice([w for w in workers if w.queue])
            sched.mark_test_complete(worker, worker.queue.pop(0))
            pending = [sched._pending_of(sched.assigned_work[w]) for w in workers]
            events.append(("pending", sched.tests_finished, sched.has_pending, pending))
        return events

    ours = simulate(lambda config: scheduling.make_scheduler(config, None))
    assert ours == simulate(
        lambda config: type("Loadscope", (LoadScopeScheduling,), {"_split_scope": staticmethod(scheduling.unit_of)})(
            config
        )
    )
    assert sum(1 for event in ours if event[0] == "pending") == len(collection)
    assert ours[-1] == ("pending", True, False, [0, 0])


def test_what_collection_made_is_frozen_out_of_the_collectors_way():
    """tests/conftest.py freezes the modules and collected tests once collected (every full
    collection while the tests run walked them again)."""
    import gc

    assert gc.get_freeze_count() > 1000


def test_the_environment_is_as_before_a_test_that_changed_it_without_monkeypatch(monkeypatch):
    """A variable a test sets or removes through ``os.environ`` itself must not reach the next
    test (tests/search_env.py puts the environment back, not only the search settings)."""
    import os

    from search_env import without_search_settings

    monkeypatch.setenv("WSS_SUITE_PROBE_KEPT", "developer's")
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "developer's")
    with without_search_settings():
        assert "WEB_SEARCH_BACKEND" not in os.environ
        os.environ["WSS_SUITE_PROBE_SET"] = "the test's"
        del os.environ["WSS_SUITE_PROBE_KEPT"]
        os.environ["WEB_SEARCH_BACKEND"] = "the test's"
    assert "WSS_SUITE_PROBE_SET" not in os.environ
    assert os.environ["WSS_SUITE_PROBE_KEPT"] == "developer's"
    assert os.environ["WEB_SEARCH_BACKEND"] == "developer's"


def test_only_the_variables_a_test_changed_are_put_back(monkeypatch):
    """pytest rewrites its own ``PYTEST_CURRENT_TEST`` at each phase of every test: that is not the
    test's change, so nothing else is written back (the whole environment was, after every test: a
    sixth of an empty test's cost), and of a variable the test changed, only that one."""
    import os

    from search_env import without_search_settings

    monkeypatch.setenv("WSS_SUITE_PROBE_CHANGED", "before")
    written = []
    real_putenv = os.putenv
    monkeypatch.setattr(os, "putenv", lambda name, value: (written.append(os.fsdecode(name)), real_putenv(name, value)))
    with without_search_settings():
        os.environ["PYTEST_CURRENT_TEST"] = "tests/x.py::test (call)"  # what pytest does at each phase
    assert written == ["PYTEST_CURRENT_TEST"]
    written.clear()
    with without_search_settings():
        os.environ["WSS_SUITE_PROBE_CHANGED"] = "by the test"
    assert written == ["WSS_SUITE_PROBE_CHANGED", "WSS_SUITE_PROBE_CHANGED"]
    assert os.environ["WSS_SUITE_PROBE_CHANGED"] == "before"


def test_a_unit_test_cannot_connect_and_the_world_it_ran_in_is_undone_after_it():
    """tests/unit/conftest.py: connecting fails a unit test, naming where it belongs, and keyless
    engines run on the requests transport; afterwards the socket class inherits ``connect`` again
    and the browser check is the library's own."""
    import socket

    import pytest
    from unit_world import UNIT_WORLD, attributes_set

    from websearch_sync.net import browser

    with pytest.raises(AssertionError, match="move it to tests/sockets/"):
        socket.socket().connect(("127.0.0.1", 9))
    assert browser.browser_available() is False
    original = browser.browser_available
    with attributes_set(UNIT_WORLD):  # inside the test's own: what it finds is put back, the inherited removed
        pass
    assert browser.browser_available is original and "connect" in vars(socket.socket)


def test_the_user_runs_of_every_worker_keep_their_bytecode_in_the_controllers_folder(monkeypatch):
    """The controller makes one folder for the run (``user_pytest.run_folder``), every worker's fork
    server of user runs keeps their bytecode there, and the controller removes it at its end; a
    process that is no worker keeps them in its server's own folder."""
    import types

    import forkserver
    import user_pytest

    controller = types.SimpleNamespace()
    folder = user_pytest.run_folder(controller)
    assert user_pytest.run_folder(controller) == folder and Path(folder).is_dir()  # one for every worker
    monkeypatch.setattr(forkserver, "shared", lambda config, key, start: start())
    monkeypatch.setattr(user_pytest, "UserRuns", lambda shared=None: shared)  # the folder it is given
    worker = types.SimpleNamespace(workerinput={user_pytest.WORKERINPUT_KEY: folder})
    assert user_pytest.shared_forks(worker) == folder
    assert user_pytest.shared_forks(types.SimpleNamespace()) is None
    user_pytest.remove_run_folder(controller)
    assert not Path(folder).exists()

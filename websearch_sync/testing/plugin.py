"""The pytest plugin of :mod:`websearch_sync.testing`: its fixtures, the ``websearch_keep_state``
marker, the reset before each test and ``--websearch-conformance``.

pytest loads an installed plugin in every session of its environment, a project that never
searches included, so this module imports pytest alone: the library (requests, lxml, the
client...) is imported when a test uses it, and until then there is nothing to reset.
"""

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

__all__: list[str] = []  # websearch_sync.testing exports the fixtures

#: The marker that keeps the process-wide state from the test before (no reset).
KEEP_STATE_MARKER = "websearch_keep_state"
#: Loaded once the library is in use (a search, a client, a backend registered): before, there is
#: neither state to reset nor a registry to keep.
_IN_USE = ("websearch_sync.engine.registry", "websearch_sync.client.search_client")
#: The node the conformance checks are collected under (their ids read ``websearch-conformance::...``).
CONFORMANCE_NODE = "websearch-conformance"
#: How a check's node id begins, as the report gives it: ``websearch-conformance::conformance[demo-statuses]``.
_CHECK_ID_START = CONFORMANCE_NODE + "::conformance["
#: The ids that select every check of the ``--websearch-conformance`` backends, as a file's path does its tests.
_WHOLE_NODE = (CONFORMANCE_NODE, CONFORMANCE_NODE + "::conformance")
#: How many checks the error of an id of no check lists (a backend with verticals has dozens).
_LISTED_CHECKS = 20
#: The conformance node ids given as arguments (:func:`pytest_configure` takes them out of the paths).
_GIVEN_IDS = pytest.StashKey[list[str]]()


@pytest.fixture
def websearch_replay() -> Iterator[Callable[..., Any]]:
    """``websearch_replay(fixtures_dir, backends=None)``: backends answer from recorded
    cases until the test ends (see :func:`~websearch_sync.testing.replay_fixtures`); returns
    the ``FixtureReplay``."""
    from .kit import replay_fixtures

    with contextlib.ExitStack() as stack:
        yield lambda fixtures_dir, **kwargs: stack.enter_context(replay_fixtures(fixtures_dir, **kwargs))


@pytest.fixture
def websearch_fake() -> Iterator[Callable[..., Any]]:
    """``websearch_fake(items_or_mapping)``: backends answer with given items until the
    test ends (see :func:`~websearch_sync.testing.fake_results`); returns the ``FakeResults``."""
    from .kit import fake_results

    with contextlib.ExitStack() as stack:
        yield lambda results, **kwargs: stack.enter_context(fake_results(results, **kwargs))


def pytest_configure(config: Any) -> None:
    """Register the ``websearch_keep_state`` marker, and take the conformance checks' node ids given
    as arguments (a failed check's id pasted from its report) out of the paths pytest collects,
    which has no file of that name ("file or directory not found"): they select checks
    (:func:`pytest_collection_modifyitems`), as a test's node id selects it."""
    config.addinivalue_line(
        "markers", KEEP_STATE_MARKER + ": keep the process-wide pace and cool-downs of the test before (no reset)"
    )
    ids = [arg for arg in config.args if _is_conformance_id(arg, config.invocation_params.dir)]
    config.stash[_GIVEN_IDS] = ids
    if ids:
        config.args = [arg for arg in config.args if arg not in ids]


def _is_conformance_id(arg: str, folder: Path) -> bool:
    """Whether ``arg`` names the conformance checks: a check's id, or the bare node name unless a
    file or folder of the user's has that name (pytest collects it, as it always did)."""
    if arg == CONFORMANCE_NODE:
        return not (folder / arg).exists()
    return arg.startswith(CONFORMANCE_NODE + "::")


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: Any, request: Any) -> Iterator[None]:
    """A backend a fixture wider than a test registers or unregisters as it is set up lasts as the
    fixture does, even when a test first asks for it (``request.getfixturevalue``): it is not undone
    after that test (:func:`~websearch_sync.engine.registry.lasting`)."""
    if fixturedef.scope == "function":
        yield
        return
    loaded = "websearch_sync.engine.registry" in sys.modules
    if not loaded:
        yield
        if "websearch_sync.engine.registry" in sys.modules:  # the library came into use in this set-up
            from ..engine import registry

            registry.lasting_since()
        return
    from ..engine import registry

    with registry.lasting():
        yield


@pytest.fixture(autouse=True)
def _websearch_fresh_state(request: Any) -> Iterator[None]:
    """Each test starts with the process-wide state of a fresh process (see
    :func:`~websearch_sync.testing.reset`), and the backends registered as it started: one it
    registers or unregisters is undone (after the test in which the library came into use: the
    backends as installed), except those a module's import or a fixture wider than a test
    registers (docs/contract.md)."""
    if not any(name in sys.modules for name in _IN_USE):
        yield
        if "websearch_sync.engine.registry" in sys.modules:
            from ..engine import registry

            registry.forget_registrations()
        return
    from ..engine import registry
    from .kit import reset

    if request.node.get_closest_marker(KEEP_STATE_MARKER) is None:
        reset()
    with registry.kept():
        yield


class ConformanceChecks(pytest.Collector):
    """The conformance checks of ``--websearch-conformance``, collected as pytest collects a file's
    tests: counted in "collected N items" and shown under ``websearch-conformance`` in the progress."""

    def __init__(self, *, checks: list[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.checks = checks

    def collect(self) -> list[Any]:
        """One item per check, its id given whole: pytest 9's ids built from the name alone read
        ``conformance[demo-x]`` as a name without parameters, so the id the cache keeps (parsed:
        ``conformance`` with parameters ``demo-x``) never matched a check again (``--lf`` reran all)."""
        return [
            ConformanceItem.from_parent(self, name="conformance[%s]" % check, nodeid=_node_id(check), check=check)
            for check in self.checks
        ]


class ConformanceItem(pytest.Item):
    """One conformance check run as a test (``--websearch-conformance``)."""

    def __init__(self, *, check: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check

    def runtest(self) -> None:
        """Run the check."""
        self.check()

    def reportinfo(self) -> tuple[str, Optional[int], str]:
        """Where the report says the test is."""
        return CONFORMANCE_NODE, None, str(self.check)

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        """A check's finding as its one line; anything else (the backend raised) with the
        traceback from the kit down, without pytest's own frames above it."""
        from ..contract.conformance import conformance_checks

        if isinstance(excinfo.value, AssertionError):
            return "%s: %s" % (self.check, excinfo.value)
        excinfo.traceback = excinfo.traceback.cut(path=conformance_checks.__code__.co_filename)
        return super().repr_failure(excinfo, style)


def pytest_addoption(parser: Any) -> None:
    """``--websearch-conformance NAME`` (repeatable) and ``--websearch-fixtures DIR``."""
    group = parser.getgroup("websearch_sync")
    group.addoption(
        "--websearch-conformance",
        action="append",
        default=[],
        metavar="BACKEND",
        help="run the websearch_sync conformance kit on a registered backend (repeatable, or a comma list)",
    )
    group.addoption(
        "--websearch-fixtures",
        default=None,
        metavar="DIR",
        help="recorded cases for --websearch-conformance (websearch-sync record writes them)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    """Add one test per conformance check of each ``--websearch-conformance`` backend (one
    name or a comma list, as ``-b`` takes; an unknown one, e.g. a plugin that failed to load,
    is pytest's usage error saying why, and so is ``--websearch-fixtures`` with no backend).
    A check's node id given as an argument (``websearch-conformance::conformance[demo-statuses]``)
    runs that check alone, its backend checked with or without the option (its files' tests are
    collected only when named too); an id of no check is a usage error naming the checks.
    First of the hook's implementations, so that the others see the checks as any collected test:
    a conftest's (marking them), ``-m``, ``-k``, ``--lf``, ``--deselect``."""
    ids = config.stash.get(_GIVEN_IDS, [])
    given = [
        name.strip()
        for value in config.getoption("websearch_conformance", default=None) or ()
        for name in value.split(",")
    ]
    named_by = {name: "--websearch-conformance" for name in given if name}  # each backend: what named it
    for check_id in ids:
        if check_id not in _WHOLE_NODE:
            named_by.setdefault(_backend_of(check_id), check_id)
    backends = list(named_by)
    fixtures = config.getoption("websearch_fixtures", default=None)
    if not backends and (fixtures is not None or ids):
        raise pytest.UsageError(
            "%s is read by --websearch-conformance BACKEND only: name the backend to check"
            % ("--websearch-fixtures" if fixtures is not None else ids[0])
        )
    if not backends:
        return
    from ..errors import WebSearchError
    from .kit import conformance_checks

    checks = []
    for backend in backends:
        try:
            checks.extend(conformance_checks(backend, fixtures=fixtures))
        except WebSearchError as error:
            raise pytest.UsageError("%s: %s" % (named_by[backend], error.message)) from None
    # Through genitems, as the session collects: each item reported collected (the terminal's count,
    # --collect-only), not appended unseen after "collected N items" was counted.
    node = ConformanceChecks.from_parent(
        session, name=CONFORMANCE_NODE, nodeid=CONFORMANCE_NODE, checks=_named(checks, ids, fixtures is not None)
    )
    items.extend(session.genitems(node))


def _named(checks: list[Any], ids: list[str], with_fixtures: bool) -> list[Any]:
    """The ``checks`` the node ids given as arguments name: all of them when none is given, or the
    whole node is (as a file's path runs all its tests); an id of none of them is a usage error
    listing the checks of its backend, or, for a ``recorded_cases`` id without ``--websearch-fixtures``,
    saying to add it (the check exists only with the folder of the cases it replays)."""
    chosen = set(ids)
    if not chosen or chosen & set(_WHOLE_NODE):
        return checks
    missing = sorted(chosen - {_node_id(check) for check in checks})
    recorded = [each for each in missing if each.endswith("-recorded_cases]")]
    if recorded and not with_fixtures:
        raise pytest.UsageError(
            "not found: %s (a recorded_cases check runs with --websearch-fixtures DIR, the folder of the cases)"
            % ", ".join(recorded)
        )
    if missing:
        backend = _backend_of(missing[0])
        names = [str(check) for check in checks if _backend_of(_node_id(check)) == backend]
        listed = ", ".join(names[:_LISTED_CHECKS]) + (
            ", and %d more" % (len(names) - _LISTED_CHECKS) if len(names) > _LISTED_CHECKS else ""
        )
        raise pytest.UsageError(
            "not found: %s (the checks of %s: %s)" % (", ".join(missing), backend, listed or "none")
        )
    return [check for check in checks if _node_id(check) in chosen]


def _node_id(check: Any) -> str:
    """The node id of ``check``'s test, as reports give it."""
    return "%s::conformance[%s]" % (CONFORMANCE_NODE, check)


def _backend_of(check_id: str) -> str:
    """The backend a check's node id names, before its vertical or its check's name (``demo`` of
    ``demo-statuses``, ``demo[news]-statuses``: a backend's name has neither ``-`` nor ``[``); an id
    of no check is a usage error."""
    check = check_id[len(_CHECK_ID_START) : -1] if check_id.startswith(_CHECK_ID_START) else ""
    ends = [at for at in (check.find("-"), check.find("[")) if at > 0]
    if not (check_id.endswith("]") and ends):
        raise pytest.UsageError(
            "not found: %s (a conformance check's id reads %sBACKEND-CHECK])" % (check_id, _CHECK_ID_START)
        )
    return check[: min(ends)]

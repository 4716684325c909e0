"""What an xdist worker sends its controller of a test: not the report of a setup or teardown that
passed and captured nothing.

A worker sent six messages per test: its start, the setup, call and teardown reports, its end,
and "protocol complete" for the scheduler. The controller decodes each (execnet's decoder is pure
Python), rebuilds each report and calls every plugin's ``pytest_runtest_logreport`` with it: 8 s
of the controller's CPU for the suite's 8,000 tests, beside the workers' encoding. A setup or
teardown that passed and captured nothing shows nothing: the terminal writes nothing for it, the
call report carries the test's outcome and what the setup captured, ``-rP`` shows a teardown's
captured output (a report with sections is sent), and a setup or teardown that failed or skipped
is sent. Leaving those out cut the controller's CPU in the tests by a third (4,732 tests of
unit/, conformance/ and contract_tests/: 5.0 s to 3.3 s).

Everything is sent when the controller records every phase: ``--durations`` (the slowest
setups and teardowns) and ``--junitxml`` (a test's time includes them).

Of the other three messages per test, "protocol complete" tells the scheduler the test is done,
and the start and the end (``logstart``, ``logfinish``) only call ``pytest_runtest_logstart`` and
``pytest_runtest_logfinish`` in the controller, where, in the suite's run, nothing does anything
with them: the terminal writes a test's line as it starts only when verbose (``-v``; xdist turns
its file names off), pytest's logging only moves its live-log handler on, which is a null handler
unless ``--log-cli-level`` or ``log_cli`` is given. The controller checks that every plugin it
calls with them is one of those two, so placed (:func:`controller_ignores_starts`; another plugin,
``-v``, live logs: they are sent), and tells its workers in ``workerinput``. The controller's CPU
for unit/, conformance/ and contract_tests/ (9,433 tests, ``-n 4``, at load 11-18, so noisy):
4.5, 4.6, 6.4, 5.4 s before, 4.8, 4.5, 4.6 s after.

xdist has no interface for this: :func:`send_only_what_is_shown` wraps its worker's
``sendevent`` and does nothing where that is not there, which only sends every report, as before.
"""

from typing import Any

#: The options whose output needs the report of every phase of every test.
EVERY_PHASE_OPTIONS = ("durations", "xmlpath")


#: The keys of a serialised report that pytest and xdist write themselves. A report with another
#: key carries a plugin's payload (hypothesis puts its statistics on the teardown report, which
#: ``--hypothesis-show-statistics`` reads in the controller) and is always sent.
OWN_KEYS = frozenset(
    {"duration", "keywords", "location", "longrepr", "nodeid", "outcome", "sections", "start", "stop"}
    | {"user_properties", "when", "$report_type", "item_index", "worker_id", "testrun_uid"}
)


def shown(data: dict[str, Any]) -> bool:
    """Whether the controller shows or counts anything of this serialised test report: a call
    report, a setup or teardown that did not pass, one that captured output or recorded
    properties, or one that carries a plugin's payload (a key beyond :data:`OWN_KEYS`)."""
    return (
        data.get("when") == "call"
        or data.get("outcome") != "passed"
        or bool(data.get("sections"))
        or bool(data.get("user_properties"))
        or not OWN_KEYS.issuperset(data)
    )


def records_every_phase(config: Any) -> bool:
    """Whether an option of the run (:data:`EVERY_PHASE_OPTIONS`) reads every phase's report."""
    return any(config.getoption(name, None) is not None for name in EVERY_PHASE_OPTIONS)


#: The key, in an xdist worker's ``workerinput``, of whether its controller does nothing with the
#: start and end of a test (:func:`controller_ignores_starts`).
STARTS_IGNORED_KEY = "websearch_test_starts_ignored"
#: The events of a test's start and end, and the controller's hooks they call.
START_EVENTS = ("logstart", "logfinish")
START_HOOKS = ("pytest_runtest_logstart", "pytest_runtest_logfinish")


def controller_ignores_starts(config: Any) -> bool:
    """Whether every plugin the controller calls with a test's start and end does nothing with them
    in this run (:func:`_ignores_starts`): then its workers need not send them."""
    return all(
        _ignores_starts(impl.plugin) for name in START_HOOKS for impl in getattr(config.hook, name).get_hookimpls()
    )


def _ignores_starts(plugin: Any) -> bool:
    """pytest's terminal reporter, neither verbose nor writing file names (xdist turns them off), and
    pytest's logging plugin with no live logs (its live handler a null one); any other plugin may
    do something with a test's start or end."""
    kind = type(plugin).__name__
    if kind == "TerminalReporter":
        return not plugin.showlongtestinfo and not plugin.showfspath
    if kind == "LoggingPlugin":
        return type(getattr(plugin, "log_cli_handler", None)).__name__ == "_LiveLoggingNullHandler"
    return False


def send_only_what_is_shown(config: Any) -> bool:
    """In an xdist worker, send the controller only the test reports it :func:`shown`, unless
    :func:`records_every_phase`, and no test's start and end when the controller said it ignores
    them (:data:`STARTS_IGNORED_KEY`). Whether the worker's sending was wrapped."""
    if not hasattr(config, "workerinput"):
        return False
    reports = not records_every_phase(config)
    starts = bool(config.workerinput.get(STARTS_IGNORED_KEY))
    if not (reports or starts):
        return False
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor" and callable(getattr(plugin, "sendevent", None)):
            plugin.sendevent = _leaving_out(plugin.sendevent, reports=reports, starts=starts)
            return True
    return False


def _leaving_out(send: Any, *, reports: bool, starts: bool) -> Any:
    """``send`` (xdist's ``sendevent(name, **kwargs)``), except, with ``reports``, for a test report
    not :func:`shown`, and with ``starts``, for a test's start and end."""
    left_out = START_EVENTS if starts else ()

    def sendevent(name: str, **kwargs: Any) -> None:
        if name in left_out or (reports and name == "testreport" and not shown(kwargs.get("data", {}))):
            return
        send(name, **kwargs)

    sendevent.leaves_out_unshown_reports = reports  # type: ignore[attr-defined]
    sendevent.leaves_out_starts = starts  # type: ignore[attr-defined]
    return sendevent

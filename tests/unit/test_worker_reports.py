"""tests/worker_reports.py: an xdist worker sends its controller only the test reports it shows."""

import types

import pytest
import worker_reports


def _report(when, outcome="passed", sections=()):
    return {"when": when, "outcome": outcome, "sections": list(sections), "nodeid": "tests/unit/test_a.py::test_b"}


@pytest.mark.parametrize(
    ("report", "sent"),
    [
        (_report("call"), True),
        (_report("setup"), False),
        (_report("teardown"), False),
        (_report("setup", "failed"), True),
        (_report("setup", "skipped"), True),
        (_report("teardown", "failed"), True),
        (_report("teardown", sections=[("Captured stdout teardown", "bye")]), True),
        (dict(_report("teardown"), _hypothesis_stats={"stats": []}), True),  # --hypothesis-show-statistics
        (dict(_report("setup"), user_properties=[("key", "value")]), True),
        (dict(_report("setup"), item_index=3, worker_id="gw0", testrun_uid="u"), False),
    ],
)
def test_what_the_controller_shows_is_sent(report, sent):
    assert worker_reports.shown(report) is sent


class WorkerInteractor:
    """Stands for xdist's worker plugin of that name: what it sends, in order."""

    def __init__(self):
        self.sent = []

    def sendevent(self, name, **kwargs):
        self.sent.append((name, kwargs))


def _worker_config(interactor, starts_ignored=None, **options):
    workerinput = {"workerid": "gw0"}
    if starts_ignored is not None:
        workerinput[worker_reports.STARTS_IGNORED_KEY] = starts_ignored
    return types.SimpleNamespace(
        workerinput=workerinput,
        getoption=lambda name, default=None: options.get(name, default),
        pluginmanager=types.SimpleNamespace(get_plugins=lambda: [object(), interactor]),
    )


def _send_a_test(interactor):
    interactor.sendevent("logstart", nodeid="tests/unit/test_a.py::test_b")
    for when in ("setup", "call", "teardown"):
        interactor.sendevent("testreport", data=_report(when))
    interactor.sendevent("logfinish", nodeid="tests/unit/test_a.py::test_b")
    interactor.sendevent("runtest_protocol_complete", item_index=0, duration=0.1)


def test_a_worker_leaves_out_a_passing_setup_and_teardown_and_sends_the_rest():
    interactor = WorkerInteractor()
    assert worker_reports.send_only_what_is_shown(_worker_config(interactor))
    _send_a_test(interactor)
    assert [(name, kwargs.get("data", {}).get("when")) for name, kwargs in interactor.sent] == [
        ("logstart", None),
        ("testreport", "call"),
        ("logfinish", None),
        ("runtest_protocol_complete", None),
    ]


def test_a_worker_whose_controller_ignores_starts_sends_no_start_or_end():
    interactor = WorkerInteractor()
    assert worker_reports.send_only_what_is_shown(_worker_config(interactor, starts_ignored=True))
    _send_a_test(interactor)
    assert [(name, kwargs.get("data", {}).get("when")) for name, kwargs in interactor.sent] == [
        ("testreport", "call"),
        ("runtest_protocol_complete", None),
    ]


def test_starts_are_left_out_even_when_an_option_reads_every_phase():
    interactor = WorkerInteractor()
    assert worker_reports.send_only_what_is_shown(_worker_config(interactor, starts_ignored=True, durations=5))
    _send_a_test(interactor)
    assert [(name, kwargs.get("data", {}).get("when")) for name, kwargs in interactor.sent] == [
        ("testreport", "setup"),
        ("testreport", "call"),
        ("testreport", "teardown"),
        ("runtest_protocol_complete", None),
    ]


class TerminalReporter:
    """Stands for pytest's terminal reporter (by its class name)."""

    def __init__(self, showlongtestinfo=False, showfspath=False):
        self.showlongtestinfo, self.showfspath = showlongtestinfo, showfspath


class _LiveLoggingNullHandler:
    """Stands for pytest's live-log handler when live logs are off."""


class _LiveLoggingStreamHandler:
    """Stands for pytest's live-log handler with ``--log-cli-level``."""


class LoggingPlugin:
    """Stands for pytest's logging plugin (by its class name)."""

    def __init__(self, live):
        self.log_cli_handler = live()


def _controller(logstart, logfinish):
    """A controller's config whose ``pytest_runtest_logstart`` and ``logfinish`` hooks call those plugins."""
    impls = {
        name: types.SimpleNamespace(
            get_hookimpls=lambda plugins=plugins: [types.SimpleNamespace(plugin=p) for p in plugins]
        )
        for name, plugins in (("pytest_runtest_logstart", logstart), ("pytest_runtest_logfinish", logfinish))
    }
    return types.SimpleNamespace(hook=types.SimpleNamespace(**impls))


@pytest.mark.parametrize(
    ("logstart", "logfinish", "ignored"),
    [
        ([TerminalReporter(), LoggingPlugin(_LiveLoggingNullHandler)], [LoggingPlugin(_LiveLoggingNullHandler)], True),
        ([], [], True),
        ([TerminalReporter(showlongtestinfo=True)], [], False),  # -v: the test's line as it starts
        ([TerminalReporter(showfspath=True)], [], False),
        ([TerminalReporter()], [LoggingPlugin(_LiveLoggingStreamHandler)], False),  # --log-cli-level
        ([TerminalReporter(), object()], [], False),  # another plugin
        ([TerminalReporter()], [object()], False),
    ],
)
def test_the_controller_ignores_starts_only_when_every_plugin_it_calls_does_nothing_with_them(
    logstart, logfinish, ignored
):
    assert worker_reports.controller_ignores_starts(_controller(logstart, logfinish)) is ignored


@pytest.mark.parametrize("option", [{"durations": 0}, {"durations": 10}, {"xmlpath": "report.xml"}])
def test_every_report_is_sent_when_an_option_reads_every_phase(option):
    interactor = WorkerInteractor()
    assert not worker_reports.send_only_what_is_shown(_worker_config(interactor, **option))
    _send_a_test(interactor)
    assert [kwargs["data"]["when"] for name, kwargs in interactor.sent if name == "testreport"] == [
        "setup",
        "call",
        "teardown",
    ]


def test_a_process_that_is_no_worker_is_left_as_it_is():
    interactor = WorkerInteractor()
    config = _worker_config(interactor)
    del config.workerinput
    assert not worker_reports.send_only_what_is_shown(config)
    assert interactor.sendevent.__func__ is WorkerInteractor.sendevent


def test_this_runs_worker_sends_only_what_its_controller_shows(request):
    """tests/conftest.py wraps the sending of the xdist worker this test runs in."""
    config = request.config
    if not hasattr(config, "workerinput"):
        pytest.skip("not in an xdist worker (-n 0)")
    interactors = [p for p in config.pluginmanager.get_plugins() if type(p).__name__ == "WorkerInteractor"]
    assert len(interactors) == 1
    assert getattr(
        interactors[0].sendevent, "leaves_out_unshown_reports", False
    ) is not worker_reports.records_every_phase(config)
    assert getattr(interactors[0].sendevent, "leaves_out_starts", False) is bool(
        config.workerinput.get(worker_reports.STARTS_IGNORED_KEY)
    )

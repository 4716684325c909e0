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


def _worker_config(interactor, **options):
    return types.SimpleNamespace(
        workerinput={"workerid": "gw0"},
        getoption=lambda name, default=None: options.get(name, default),
        pluginmanager=types.SimpleNamespace(get_plugins=lambda: [object(), interactor]),
    )


def _send_a_test(interactor):
    interactor.sendevent("logstart", nodeid="tests/unit/test_a.py::test_b")
    for when in ("setup", "call", "teardown"):
        interactor.sendevent("testreport", data=_report(when))
    interactor.sendevent("runtest_protocol_complete", item_index=0, duration=0.1)


def test_a_worker_leaves_out_a_passing_setup_and_teardown_and_sends_the_rest():
    interactor = WorkerInteractor()
    assert worker_reports.send_only_what_is_shown(_worker_config(interactor))
    _send_a_test(interactor)
    assert [(name, kwargs.get("data", {}).get("when")) for name, kwargs in interactor.sent] == [
        ("logstart", None),
        ("testreport", "call"),
        ("runtest_protocol_complete", None),
    ]


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

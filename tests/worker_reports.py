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


def send_only_what_is_shown(config: Any) -> bool:
    """In an xdist worker, send the controller only the test reports it :func:`shown`, unless
    :func:`records_every_phase`. Whether the worker's sending was wrapped."""
    if not hasattr(config, "workerinput") or records_every_phase(config):
        return False
    for plugin in config.pluginmanager.get_plugins():
        if type(plugin).__name__ == "WorkerInteractor" and callable(getattr(plugin, "sendevent", None)):
            plugin.sendevent = _leaving_out_unshown_reports(plugin.sendevent)
            return True
    return False


def _leaving_out_unshown_reports(send: Any) -> Any:
    """``send`` (xdist's ``sendevent(name, **kwargs)``), except for a test report not :func:`shown`."""

    def sendevent(name: str, **kwargs: Any) -> None:
        if name == "testreport" and not shown(kwargs.get("data", {})):
            return
        send(name, **kwargs)

    sendevent.leaves_out_unshown_reports = True  # type: ignore[attr-defined]
    return sendevent

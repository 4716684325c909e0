"""Replays every recorded fixture case through websearch_sync.search and compares it
with its golden. Regenerate goldens with:

    pytest contract_tests --update-goldens

and review the change with ``git diff fixtures/``.
"""

from pathlib import Path

import pytest

from websearch_sync import backend_names
from websearch_sync.contract.cases import (
    WIRE_KINDS,
    discover,
    orphan_files,
    provenance_of,
    provenance_problems,
    run_case,
    write_golden,
)
from websearch_sync.engine.registry import backend_class
from websearch_sync.errors import InvalidInput

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = discover(FIXTURES)


def _wires_of(case) -> tuple[str, ...]:
    """The wire kinds ``case`` is replayed on: every kind for an engine whose requests are a
    browser's (an HTML engine's: ``Backend._send``), else the ``requests`` wire alone: a JSON API
    or the offline stub sends the very same requests on every kind (the browser-wire runs did the
    same exchanges again; tests/conformance/test_wire_requests.py fails if an API's request reaches
    the browser wire). A case whose engine is not registered runs on every kind (its ERROR verdict)."""
    try:
        browser = backend_class(case.backend, case.meta.get("vertical") or "web").kind == "html"
    except InvalidInput:
        browser = True
    return WIRE_KINDS if browser else ("off",)


#: ``(case, wire kind)`` of every replay.
REPLAYS = [
    pytest.param(case, wire, id="%s-%s" % (case.case_id, "requests-wire" if wire == "off" else wire + "-wire"))
    for case in CASES
    for wire in _wires_of(case)
]


def test_there_are_cases_for_every_registered_backend():
    """Every backend this project ships (a third-party plugin keeps its cases in its own project)."""
    covered = {case.backend for case in CASES}
    missing = [
        name
        for name in backend_names()
        if name not in covered and backend_class(name).__module__.startswith("websearch_sync.")
    ]
    assert not missing, "backends without any contract case: %s" % missing


def test_no_orphan_fixture_files():
    assert orphan_files(FIXTURES) == []


@pytest.mark.parametrize("case", CASES, ids=[c.case_id for c in CASES])
def test_case_says_honestly_what_it_is(case):
    """Provenance is one of recorded (with date and source), provider-docs (with source)
    or synthetic (with why); a case from elsewhere says what was checked by eye."""
    assert provenance_problems(case) == []
    if provenance_of(case) != "synthetic" and case.meta["provenance"].get("recorded_by") is None:
        assert case.meta.get("checked"), "say what was checked by eye against the page"


@pytest.mark.parametrize("case, wire", REPLAYS)
def test_case_matches_golden(case, wire, request):
    """On each wire kind: the ``requests`` wire's request, and the browser wire's request building
    and header merge in front of the replay (every recorded page passes through both)."""
    result = run_case(case, wires=(wire,))
    if request.config.getoption("--update-goldens") and result.status in ("NEW", "DRIFT"):
        write_golden(case, result.outcome)
        print("\n".join(["updated golden %s" % case.case_id] + result.diff))
        return
    assert result.status == "PASS", "%s %s\n%s" % (result.status, case.case_id, "\n".join(result.diff))

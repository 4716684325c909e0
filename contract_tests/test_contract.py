"""Replays every recorded fixture case through websearch_sync.search and compares it
with its golden. Regenerate goldens with:

    pytest contract_tests --update-goldens

and review the change with ``git diff fixtures/``.
"""

from pathlib import Path

import pytest

from websearch_sync import backend_names
from websearch_sync.contract.cases import discover, orphan_files, run_case, write_golden

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = discover(FIXTURES)
PROVENANCE_KEYS = ("repository", "path", "status", "capture_date")


def test_there_are_cases_for_every_registered_backend():
    covered = {case.backend for case in CASES}
    missing = [name for name in backend_names() if name not in covered]
    assert not missing, "backends without any contract case: %s" % missing


def test_no_orphan_fixture_files():
    assert orphan_files(FIXTURES) == []


@pytest.mark.parametrize("case", CASES, ids=[c.case_id for c in CASES])
def test_case_has_provenance(case):
    exchanges = case.exchanges()
    if not exchanges:  # offline backend, nothing recorded
        assert case.meta.get("provenance", {}).get("status") == "offline-deterministic"
        return
    provenance = case.meta.get("provenance") or {}
    if provenance.get("status") == "synthetic":
        assert provenance.get("why"), "a synthetic case must say why no recording covers it"
        return
    # recorded by `websearch-sync record` here, or copied from someone else's repository
    keys = ("capture_date", "recorded_by") if provenance.get("status") == "recorded-live" else PROVENANCE_KEYS
    missing = [k for k in keys if not provenance.get(k)]
    assert not missing, "provenance lacks %s" % missing
    assert case.meta.get("checked"), "say what was checked by eye against the page"


@pytest.mark.parametrize("case", CASES, ids=[c.case_id for c in CASES])
def test_case_matches_golden(case, request):
    result = run_case(case)
    if request.config.getoption("--update-goldens") and result.status in ("NEW", "DRIFT"):
        write_golden(case, result.outcome)
        print("\n".join(["updated golden %s" % case.case_id] + result.diff))
        return
    assert result.status == "PASS", "%s %s\n%s" % (result.status, case.case_id, "\n".join(result.diff))

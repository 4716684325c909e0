"""A recorded case that now fails says why: ``verify``'s DRIFT lines and the conformance kit's
``recorded_cases`` finding carry the error's message, not only its code. A plugin author whose
``parse`` returns a list sees "a list instead of a ParseResult", not just ``bad_parse_result``.
(Goldens keep leaving messages out: only the verdict shows it.)"""

import io
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from websearch_sync.cli import main
from websearch_sync.contract.cases import discover, load_golden, run_case
from websearch_sync.engine import registry
from websearch_sync.testing import conformance_checks

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
#: A results page Mojeek really served (fixtures/mojeek_html), pinned by its golden.
CASE = "mojeek_html/web-search-mcp__mojeek"


@pytest.fixture
def broken_parser(monkeypatch):
    """The engine's parser returns a bare list, as a plugin's first draft might."""
    cls = registry.backend_class("mojeek_html")
    monkeypatch.setattr(cls, "parse", lambda self, response, params: [])


def _case():
    return next(case for case in discover(FIXTURES, "mojeek_html") if case.case_id == CASE)


def test_the_case_passes_before_the_parser_is_broken():
    assert run_case(_case()).status == "PASS"


def test_a_drift_to_an_error_carries_its_message(broken_parser):
    verdict = run_case(_case())
    assert verdict.status == "DRIFT"
    assert verdict.diff[-1] == (
        "+ message: backend mojeek_html returned a parse result of the wrong shape: a list instead of a ParseResult"
    )
    assert "message" not in str(load_golden(_case()))


def test_verify_prints_the_message(broken_parser):
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["verify", "--fixtures", str(FIXTURES), "--backend", "mojeek_html"])
    assert status == 1
    assert "a list instead of a ParseResult" in out.getvalue()


def test_the_conformance_finding_carries_the_message(broken_parser):
    check = next(c for c in conformance_checks("mojeek_html", fixtures=FIXTURES) if c.name == "recorded_cases")
    with pytest.raises(AssertionError, match="a list instead of a ParseResult"):
        check()

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


def test_a_search_that_fails_before_sending_says_so_beside_the_request_count(monkeypatch):
    """``build_request`` returning a dict fails inside the backend before any request: the
    verdict read only "expected 1 request(s), the backend sent 0", as if the request had changed."""
    cls = registry.backend_class("mojeek_html")
    monkeypatch.setattr(cls, "build_request", lambda self, params: {"method": "GET", "url": self.endpoint_url()})
    verdict = run_case(_case())
    assert verdict.status == "ERROR"
    assert verdict.diff[0].startswith("request mismatch: expected 1 request(s), the backend sent 0"), verdict.diff
    assert verdict.diff[1] == (
        "the search failed first: WebProviderError/bad_parse_result: "
        "backend mojeek_html's build_request returned a dict, not a RequestSpec"
    ), verdict.diff


def test_the_conformance_request_check_names_a_request_of_the_wrong_kind(monkeypatch):
    """The kit's request check called ``build_request`` itself and failed on the dict with
    ``AttributeError: 'dict' object has no attribute 'url'``: it says what a search says."""
    cls = registry.backend_class("mojeek_html")
    monkeypatch.setattr(cls, "build_request", lambda self, params: {"method": "GET", "url": self.endpoint_url()})
    check = next(c for c in conformance_checks("mojeek_html") if c.name == "request")
    with pytest.raises(AssertionError) as failed:
        check()
    assert str(failed.value) == "mojeek_html: backend mojeek_html's build_request returned a dict, not a RequestSpec"


def test_a_parse_result_item_without_a_url_names_the_defect(monkeypatch):
    """Items with the vendor's ``link`` instead of ``url`` were all dropped by normalisation: a
    plugin's search answered 0 items, unexplained."""
    cls = registry.backend_class("mojeek_html")
    monkeypatch.setattr(cls, "items", lambda self, markup, params: [{"title": "T", "link": "https://t.example/"}])
    verdict = run_case(_case())
    assert verdict.diff[-1] == (
        "+ message: backend mojeek_html returned a parse result of the wrong shape: "
        "item 1 has no 'url' (its keys: title, link)"
    ), verdict.diff


def test_a_classify_of_the_wrong_kind_names_the_defect(monkeypatch):
    """``classify`` returning a string (a plugin meaning "blocked") was raised as it was:
    ``internal_error`` "TypeError" (exceptions must derive from BaseException)."""
    cls = registry.backend_class("mojeek_html")
    monkeypatch.setattr(cls, "classify", lambda self, response: "blocked")
    verdict = run_case(_case())
    assert verdict.diff[-1] == (
        "+ message: backend mojeek_html's classify returned a str, not a WebSearchError or None"
    ), verdict.diff
    assert "WebProviderError/bad_parse_result" in verdict.diff[1], verdict.diff


class _PluginMojeek(registry.backend_class("mojeek_html")):  # a plugin's subclass (this test module's package)
    name = "plugin_mojeek"


def _failing_parse(self, response, params):
    raise RuntimeError("a bug in parse")


def test_a_built_in_backends_bug_is_raised_by_the_conformance_kit(monkeypatch):
    """A built-in backend's own bug was reported as its finding (``internal_error``), as a plugin's
    is: the library's bug is raised, with its traceback."""
    monkeypatch.setattr(registry.backend_class("mojeek_html"), "parse", _failing_parse)
    check = next(c for c in conformance_checks("mojeek_html") if c.name == "unknown_layout")
    with pytest.raises(RuntimeError, match="a bug in parse"):
        check()


def test_a_plugins_bug_is_the_conformance_kits_finding(monkeypatch):
    from websearch_sync.backends import register

    monkeypatch.setattr(_PluginMojeek, "parse", _failing_parse)
    register(_PluginMojeek)  # undone after the test
    check = next(c for c in conformance_checks("plugin_mojeek") if c.name == "unknown_layout")
    with pytest.raises(AssertionError, match="internal error in backend plugin_mojeek: RuntimeError"):
        check()

"""`websearch-sync check-live`: live queries against a local server standing in for the
service (endpoint pointed at 127.0.0.1 through WEB_SEARCH_ENDPOINT_<NAME>)."""

import json

import pytest
from faults import respond, stall_after_headers
from fixture_backends import (
    CAPTCHA_PAGE,
    PAGE_RESULTS,
    HtmlTestBackend,
    KeyedJsonBackend,
    json_api_body,
    query_of,
    result_page,
)
from requests.structures import CaseInsensitiveDict
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.cli import main
from websearch_sync.contract.livecheck import check_live
from websearch_sync.engine.registry import register, unregister
from websearch_sync.net.transport import HttpResponse

#: What the stand-in service answers, by query.
PAGES = {
    "good": (200, result_page(PAGE_RESULTS)),
    "captcha": (200, CAPTCHA_PAGE),
    "changed": (200, result_page(PAGE_RESULTS, container=False)),
    "no next page": (200, result_page(PAGE_RESULTS, next_page=False)),
    "nothing": (200, result_page([])),
    "limited": (429, b"slow down"),
    "broken": (502, b"<html>bad gateway</html>"),
}


def service(conn, request, server):
    query = query_of(request.path)["q"][0]
    if query == "slow":
        stall_after_headers(5, declared_length=100_000, sent=b"<html>")(conn, request, server)
        return
    status, body = PAGES.get(query, PAGES["good"])
    respond(status, body)(conn, request, server)


@pytest.fixture
def live(monkeypatch):
    register(HtmlTestBackend)
    with FaultServer({"/html": service}) as server:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTHTML", server.url("/html"))
        yield server
    unregister(HtmlTestBackend.name)


def test_a_healthy_backend_passes(live, capsys):
    assert main(["check-live", "testhtml", "good", "nothing"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("ok   testhtml  success        3 items  structure ok ")
    assert out[0].endswith("  good")
    assert out[1].startswith("ok   testhtml  success        0 items  structure ok ")  # "no results" is a success
    assert out[2] == "2 queries, 0 failed"
    assert len(live.requests) == 2


def test_each_failure_is_reported_with_its_kind(live, capsys):
    argv = [
        "check-live",
        "testhtml",
        "good",
        "changed",
        "no next page",
        "broken",
        "slow",
        "captcha",
        "limited",
        "--timeout-ms",
        "1500",
        "--json",
    ]
    assert main(argv) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["backend"] == "testhtml" and report["ok"] is False
    checks = {c["query"]: c for c in report["checks"]}
    assert_parsed_checks(checks)
    assert_failed_checks(checks)
    assert [query_of(r.path)["q"][0] for r in live.requests][-1] == "captcha"


def assert_parsed_checks(checks):
    """The good query, a changed page (parse error) and a page that lost a landmark."""
    assert checks["good"]["ok"] and checks["good"]["status"] == "success" and checks["good"]["items"] == 3
    assert checks["good"]["structure"] == {"results_container": True, "result_links": True, "next_page_form": True}

    parse = checks["changed"]
    assert (parse["ok"], parse["status"], parse["error"]["type"]) == (False, "parse_error", "WebParseError")
    assert parse["structure"] == {"results_container": False, "result_links": False, "next_page_form": True}

    drifted = checks["no next page"]  # parses fine, but a landmark the backend knows is gone
    assert (drifted["status"], drifted["items"], drifted["ok"]) == ("success", 3, False)
    assert drifted["structure"]["next_page_form"] is False


def assert_failed_checks(checks):
    """An upstream error, a timeout, a bot wall, and the query refused during the cool-down after it."""
    assert checks["broken"]["status"] == "bad_gateway" and checks["broken"]["error"]["status"] == 502
    slow = checks["slow"]
    assert slow["status"] == "timeout" and slow["structure"] is None and slow["structure_ok"] is None

    blocked = checks["captcha"]
    assert (blocked["ok"], blocked["status"], blocked["items"]) == (False, "blocked", 0)
    assert blocked["error"]["type"] == "WebBlocked" and blocked["error"]["detail_code"] == "captcha_required"
    assert blocked["structure_ok"] is False

    # after a bot wall the backend cools down: the next query is reported, not sent
    cooled = checks["limited"]
    assert (
        cooled["status"] == "blocked" and "cooling down" in cooled["error"]["message"] and cooled["structure"] is None
    )


def test_rate_limiting_is_blocked_with_its_detail(live, capsys):
    assert main(["check-live", "testhtml", "limited", "--json"]) == 1
    (check,) = json.loads(capsys.readouterr().out)["checks"]
    assert (check["status"], check["error"]["detail_code"], check["error"]["status"]) == ("blocked", "http_429", 429)


def test_text_report_names_missing_landmarks_and_errors(live, capsys):
    assert main(["check-live", "testhtml", "no next page", "captcha"]) == 1
    out = capsys.readouterr().out
    assert "FAIL testhtml  success        3 items  structure CHANGED (missing: next_page_form)" in out
    assert (
        "FAIL testhtml  blocked        0 items  structure CHANGED (missing: results_container, result_links, next_page_form)"
        in out
    )
    assert "     WebBlocked/captcha_required: challenge page" in out
    assert out.rstrip().endswith("2 queries, 2 failed")


def test_default_queries_are_used_when_none_are_given(live):
    checks = check_live("testhtml", settings=ws.Settings(endpoints={"testhtml": live.url("/html")}))
    assert [c.query for c in checks] == ["python requests timeout", "open source web search engine"]
    assert [c.status for c in checks] == ["success", "success"]


def test_configuration_errors_stop_before_any_request(capsys, monkeypatch):
    register(KeyedJsonBackend)
    try:
        assert main(["check-live", "testkeyed", "q"]) == 3
        assert capsys.readouterr().err.startswith("error: AuthError/missing_api_key: ")
        assert main(["check-live", "nope", "q"]) == 2
        assert capsys.readouterr().err.startswith("error: InvalidInput/unknown_backend: ")
    finally:
        unregister(KeyedJsonBackend.name)


@pytest.mark.parametrize("endpoint", [None, "http://127.0.0.1:9/"])
def test_the_offline_stub_is_refused_as_nothing_live_to_check(endpoint, capsys, monkeypatch):
    """The stub sends no request: check-live once told to set WEB_SEARCH_ENDPOINT_STUB, and with it
    set reported two made-up answers as a healthy service. Both ways the CLI argument is refused."""
    if endpoint:
        monkeypatch.setenv("WEB_SEARCH_ENDPOINT_STUB", endpoint)
    assert main(["check-live", "stub"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: InvalidInput/bad_arguments: stub is an offline backend: it sends no request")
    assert "WEB_SEARCH_ENDPOINT_STUB" not in err and "endpoint" not in err
    assert "websearch-sync backends" in err


def test_a_json_backend_uses_the_default_structure_report(monkeypatch, capsys):
    register(KeyedJsonBackend)

    def api(conn, request, server):
        query = query_of(request.path)["q"][0]
        body = json_api_body(["https://a.example/"]) if query == "good" else b'{"web": {"items": []}}'
        respond(200, body, content_type="application/json")(conn, request, server)

    try:
        with FaultServer({"/api": api}) as server:
            monkeypatch.setenv("WEB_SEARCH_ENDPOINT_TESTKEYED", server.url("/api"))
            monkeypatch.setenv("TESTKEYED_API_KEY", "key-for-the-check")
            assert main(["check-live", "testkeyed", "good", "renamed", "--json"]) == 1
    finally:
        unregister(KeyedJsonBackend.name)
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert [(c["status"], c["structure"]) for c in checks] == [
        ("success", {"recognised": True}),
        ("parse_error", {"recognised": False}),
    ]


def test_structure_report_default_rejects_error_responses():
    register(KeyedJsonBackend)  # settings for a backend name nobody registered are refused
    try:
        backend = KeyedJsonBackend(ws.Settings(providers={"testkeyed": {"api_key": "k"}}))
    finally:
        unregister(KeyedJsonBackend.name)

    def response(status, body):
        return HttpResponse(
            status, CaseInsensitiveDict({"Content-Type": "application/json"}), body, "http://127.0.0.1/api"
        )

    assert backend.structure_report(response(200, json_api_body(["https://a.example/"]))) == {"recognised": True}
    assert backend.structure_report(response(500, json_api_body(["https://a.example/"]))) == {"recognised": False}
    assert backend.structure_report(response(200, b"<html>not json</html>")) == {"recognised": False}


def test_a_structure_report_that_raises_fails_its_query_not_the_command(live, monkeypatch, capsys):
    """A plugin's ``structure_report`` hook raising: before, check-live ended in a traceback."""

    def report(self, response, params=None):
        raise RuntimeError("report exploded")

    monkeypatch.setattr(HtmlTestBackend, "structure_report", report)
    assert main(["check-live", "testhtml", "good", "--json"]) == 1
    (check,) = json.loads(capsys.readouterr().out)["checks"]
    assert (check["ok"], check["status"]) == (False, "provider_error")
    assert check["error"]["detail_code"] == "internal_error"
    assert check["error"]["message"] == "internal error in backend testhtml: RuntimeError: report exploded"

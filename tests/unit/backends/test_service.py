"""The service backend (a company search gateway): required URL and key, the request
contract, extra headers that can never replace Authorization, the trace-id header,
parsing, the status mapping and secrets (key and header values) never showing."""

import json

import pytest
import responses
from backend_kit import replay_search

import websearch_sync as ws
from websearch_sync.backends.service import DEFAULT_REQUEST_ID_HEADER, SearchService
from websearch_sync.cli import main
from websearch_sync.models import SearchParams

URL = "https://search-gw.example.com/v1/search"
KEY = "svc-SECRET-77aa88bb99cc"
HEADER_SECRET = "hdr-SECRET-0011223344"

RESULTS = [
    {
        "site_name": "GitHub",
        "title": "cloudwego/eino",
        "url": "https://github.com/cloudwego/eino",
        "snippet": "Eino is an <em>LLM</em> framework &amp; more.",
        "content": "# Eino\n\nFull page text.",
        "date": "2025-07-07",
    },
    {
        "site_name": "",
        "title": "Docs",
        "url": "https://www.cloudwego.io/docs/eino/",
        "snippet": "Overview",
        "content": "",
        "date": None,
    },
    {
        "site_name": "FTP",
        "title": "tarball",
        "url": "ftp://files.example.com/eino.tar.gz",
        "snippet": "not http",
        "content": "x",
        "date": "2024-01-01",
    },
]


def settings(**provider):
    values = {"url": URL, "api_key": KEY}
    values.update(provider)
    return ws.Settings(providers={"service": values})


def search(body, *, url=URL, settings_=None, **kwargs):
    """One service search against a replayed answer; returns (result or error, calls)."""
    return replay_search("service", url, body, settings=settings_ or settings(), **kwargs)


def sent_json(call):
    return json.loads(call.request.body)


def answer(results=RESULTS):
    return {"search_results": results}


# -- configuration ----------------------------------------------------------------------


def test_is_configured_needs_url_and_key_and_an_endpoint_override_stands_in_for_the_url():
    assert not SearchService(ws.Settings()).is_configured()
    assert SearchService(ws.Settings()).missing_settings() == ["url", "api_key"]
    assert SearchService(settings()).is_configured()
    override = ws.Settings(providers={"service": {"api_key": KEY}}, endpoints={"service": "http://gw.internal/search"})
    assert (
        SearchService(override).is_configured()
        and SearchService(override).endpoint_url() == "http://gw.internal/search"
    )


def test_the_url_is_used_as_it_is():
    assert (
        SearchService(settings(url="https://gw.example/api/search/")).endpoint_url() == "https://gw.example/api/search/"
    )


def test_environment_selects_and_configures_the_service(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "service")
    monkeypatch.setenv("WEB_SEARCH_SERVICE_URL", URL)
    monkeypatch.setenv("WEB_SEARCH_SERVICE_KEY", KEY)
    monkeypatch.setenv("WEB_SEARCH_SERVICE_HEADERS", json.dumps({"X-Tenant": "acme", "X-Gateway-Token": HEADER_SECRET}))
    monkeypatch.setenv("WEB_SEARCH_SERVICE_REQUEST_ID_HEADER", "X-Trace-Id")
    monkeypatch.setenv("WEB_SEARCH_SERVICE_TIMEOUT_MS", "8000")
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, json=answer(), headers={"X-Trace-Id": "t-42"})
        result = ws.search("eino", trace_id="t-42")
        sent = mock.calls[0].request
    assert sent.headers["Authorization"] == "Bearer " + KEY
    assert sent.headers["X-Tenant"] == "acme" and sent.headers["X-Gateway-Token"] == HEADER_SECRET
    assert sent.headers["X-Trace-Id"] == "t-42" and DEFAULT_REQUEST_ID_HEADER not in sent.headers
    assert json.loads(sent.body) == {
        "text_query": "eino",
        "limit": 5,
        "enable_page_crawling": False,
        "timeout_seconds": 7,
    }
    assert result["provider_meta"]["provider_name"] == "service"
    assert result["provider_meta"]["request_id"] == "t-42"


# -- the request ------------------------------------------------------------------------


def test_request_shape():
    spec = SearchService(settings()).build_request(SearchParams("eino", 3, site_filter="github.com"))
    assert spec.method == "POST" and spec.url == URL
    assert spec.json == {
        "text_query": "eino site:github.com",
        "limit": 3,
        "enable_page_crawling": False,
        "timeout_seconds": 14,
    }
    assert spec.headers == {"Accept": "application/json", "Authorization": "Bearer " + KEY}


@pytest.mark.parametrize("timeout_ms, seconds", [(15000, 14), (5000, 4), (1500, 1), (900, 1), (60000, 59)])
def test_timeout_seconds_leaves_a_second_to_answer(timeout_ms, seconds):
    assert (
        SearchService(settings(timeout_ms=timeout_ms)).build_request(SearchParams("q", 5)).json["timeout_seconds"]
        == seconds
    )
    shared = ws.Settings(timeout_ms=timeout_ms, providers={"service": {"url": URL, "api_key": KEY}})
    assert SearchService(shared).build_request(SearchParams("q", 5)).json["timeout_seconds"] == seconds


@pytest.mark.parametrize("call_ms, seconds", [(3000, 2), (15000, 14), (60000, 59)])
def test_a_calls_own_timeout_is_the_gateways_timeout(call_ms, seconds):
    """`timeout_ms=3000` on a call: the gateway is told 2 s, not the backend's 14 s (it would go on
    crawling for 11 s after the call gave up); a call's timeout beats the backend's, either way."""
    _, calls = search(answer(), timeout_ms=call_ms)
    assert sent_json(calls[0])["timeout_seconds"] == seconds


def test_include_content_enables_page_crawling_and_returns_page_texts():
    plain, calls = search(answer())
    assert sent_json(calls[0])["enable_page_crawling"] is False
    assert all("content" not in item for item in plain["items"])
    crawled, calls = search(answer(), include_content=True)
    assert sent_json(calls[0])["enable_page_crawling"] is True
    assert (crawled["items"][0]["content"], crawled["items"][0]["content_by"]) == (
        "# Eino\n\nFull page text.",
        "service",
    )
    # empty content: the client reads the page itself (refused here: no network in tests)
    assert crawled["items"][1]["content"] == ""
    assert [(e["provider"], e["url"]) for e in crawled["errors"]] == [("fetch", crawled["items"][1]["url"])]


def test_trace_id_goes_in_the_request_id_header():
    _, calls = search(answer(), trace_id="abc-123")
    assert calls[0].request.headers["X-Request-Id"] == "abc-123"
    _, calls = search(answer())
    assert "X-Request-Id" not in calls[0].request.headers
    _, calls = search(answer(), trace_id="abc-123", settings_=settings(request_id_header="X-Correlation-Id"))
    assert calls[0].request.headers["X-Correlation-Id"] == "abc-123" and "X-Request-Id" not in calls[0].request.headers


def test_trace_id_beats_a_configured_header_of_the_same_name():
    _, calls = search(answer(), trace_id="per-call", settings_=settings(headers={"X-Request-Id": "static"}))
    assert calls[0].request.headers["X-Request-Id"] == "per-call"


def test_extra_headers_are_sent():
    _, calls = search(answer(), settings_=settings(headers={"X-Tenant": "acme", "X-Gateway-Token": HEADER_SECRET}))
    headers = calls[0].request.headers
    assert headers["X-Tenant"] == "acme" and headers["X-Gateway-Token"] == HEADER_SECRET
    assert headers["Authorization"] == "Bearer " + KEY


@pytest.mark.parametrize(
    "name", ["Authorization", "authorization", "AUTHORIZATION", "Content-Type", "Host", "Content-Length"]
)
def test_extra_headers_can_never_override_authorization_or_the_body_headers(name):
    outcome, calls = search(answer(), settings_=settings(headers={name: "Bearer " + HEADER_SECRET}))
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "bad_setting"
    assert "WEB_SEARCH_SERVICE_HEADERS" in outcome.message and HEADER_SECRET not in outcome.message
    assert calls == []


def test_authorization_from_environment_headers_is_refused_too(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_SERVICE_URL", URL)
    monkeypatch.setenv("WEB_SEARCH_SERVICE_KEY", KEY)
    monkeypatch.setenv("WEB_SEARCH_SERVICE_HEADERS", '{"Authorization": "Bearer %s"}' % HEADER_SECRET)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(ws.InvalidInput) as info:
            ws.search("q", backend="service")
        assert len(mock.calls) == 0
    assert HEADER_SECRET not in str(info.value)


@pytest.mark.parametrize(
    ("headers", "got"),
    [
        ('{"X-Tenant": "%s' % HEADER_SECRET, "text that is no JSON (Unterminated string starting at)"),
        ('["X-Tenant", "%s"]' % HEADER_SECRET, "the JSON text of an array"),
        ("null", "the JSON text of null"),
    ],
)
def test_headers_text_set_in_code_that_is_no_json_object_is_refused_when_the_settings_are_built(headers, got):
    """docs/configuration.md: settings are checked when built, `headers` a mapping (or a JSON object's
    text); such text was taken and refused only by a search of the service, its secret unquoted."""
    with pytest.raises(ws.InvalidInput) as info:
        settings(headers=headers)
    assert info.value.detail_code == "bad_setting"
    assert str(info.value).endswith(
        "(WEB_SEARCH_SERVICE_HEADERS) must be a mapping (or a JSON object's text), got " + got
    )
    assert HEADER_SECRET not in str(info.value)


@pytest.mark.parametrize("text", ['["X-Tenant", "%s"]' % HEADER_SECRET, "[" * 100_000 + '"%s"' % HEADER_SECRET])
def test_headers_text_from_the_environment_that_is_no_json_object_is_refused_at_use(monkeypatch, text):
    """The environment's is left to its use, as a malformed URL is: a stray variable stops no other command.
    Nested 100,000 deep, it was a RecursionError out of json.loads at the search."""
    monkeypatch.setenv("WEB_SEARCH_SERVICE_HEADERS", text)
    built = ws.Settings.from_env(providers={"service": {"url": URL, "api_key": KEY}})
    outcome, calls = search(answer(), settings_=built)
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "bad_setting"
    assert "WEB_SEARCH_SERVICE_HEADERS" in outcome.message and HEADER_SECRET not in outcome.message
    assert calls == []


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Tenant": 3},
        {"X-Tenant": "a\r\nX-Evil: 1"},
        {"X-Tenant": "acme\n"},
        {"bad name": "x"},
        {"X-Tenant\n": "x"},
        {"X-Tenant": None},
    ],
)
def test_malformed_headers_setting_is_invalid_input_before_any_request(headers):
    outcome, calls = search(answer(), settings_=settings(headers=headers))
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "bad_setting"
    assert "WEB_SEARCH_SERVICE_HEADERS" in outcome.message
    assert calls == []


@pytest.mark.parametrize("name", ["Authorization", "bad header", "X-Id\nX-Other"])
def test_bad_request_id_header_name_is_invalid_input_before_any_request(name):
    outcome, calls = search(answer(), settings_=settings(request_id_header=name), trace_id="t")
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "bad_setting"
    assert "WEB_SEARCH_SERVICE_REQUEST_ID_HEADER" in outcome.message
    assert calls == []


@pytest.mark.parametrize("key, value, variable", [("headers", 42, "HEADERS"), ("request_id_header", 7, "REQUEST_ID")])
def test_a_header_setting_of_the_wrong_kind_is_refused_when_the_settings_are_built(key, value, variable):
    with pytest.raises(ws.InvalidInput) as info:
        settings(**{key: value})
    assert info.value.detail_code == "bad_setting"
    assert "Settings.providers['service'][%r] (WEB_SEARCH_SERVICE_%s" % (key, variable) in info.value.message


# -- parsing ----------------------------------------------------------------------------


def test_site_name_date_and_cleaning():
    result, _ = search(answer())
    assert [(i["url"], i.get("source"), i.get("published_at")) for i in result["items"]] == [
        ("https://github.com/cloudwego/eino", "GitHub", "2025-07-07"),
        ("https://www.cloudwego.io/docs/eino/", None, None),
    ]
    assert result["items"][0]["snippet"] == "Eino is an LLM framework & more."


def test_empty_search_results_is_success_with_no_items():
    result, _ = search(answer([]))
    assert result["items"] == []


@pytest.mark.parametrize("words", [{"error": "quota exceeded"}, {"error": {"message": "quota exceeded"}}])
def test_an_error_beside_empty_search_results_is_that_error_not_no_results(words):
    error, _ = search(dict(answer([]), **words), query="quota check")
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "api_error"
    assert "quota exceeded" in error.message


def test_words_beside_results_are_not_an_error():
    result, _ = search(dict(answer(RESULTS[:1]), message="ok"))
    assert [item["url"] for item in result["items"]] == [RESULTS[0]["url"]]


@pytest.mark.parametrize(
    "body", [{"results": []}, {"search_results": {"x": 1}}, {"search_results": None}, ["x"], "<html></html>"]
)
def test_unknown_shapes_are_parse_errors(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError)


# -- statuses ---------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403])
def test_refused_key_is_auth_error_with_the_gateways_words(status):
    error, _ = search({"error": {"message": "tenant acme is not allowed"}}, status=status)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_%d" % status
    assert "tenant acme is not allowed" in error.message


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_is_bad_gateway(status):
    error, _ = search({"error": "engine down"}, status=status)
    assert isinstance(error, ws.BadGateway) and error.retryable and "engine down" in error.message


def test_400_is_a_provider_error_with_the_gateways_words():
    error, _ = search({"detail": "limit must be <= 10"}, status=400)
    assert (
        isinstance(error, ws.WebProviderError)
        and error.detail_code == "http_400"
        and "limit must be <= 10" in error.message
    )


# -- secrets ------------------------------------------------------------------------------


def _assert_clean(text):
    assert KEY not in text and HEADER_SECRET not in text, text


def test_header_values_of_a_refused_setting_are_still_secrets():
    backend = SearchService(settings(headers={"Authorization": "Bearer " + HEADER_SECRET}))
    assert "Bearer " + HEADER_SECRET in backend.secrets()


# -- documentation ------------------------------------------------------------------------


def test_the_docs_describe_the_gateway_contract():
    """(The settings' rows are checked for every backend by tests/conformance/test_docs_tables.py.)"""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[3] / "docs" / "backends.md").read_text(encoding="utf-8")
    assert "### Search service gateway" in readme
    for field in ("text_query", "limit", "enable_page_crawling", "timeout_seconds", "search_results", "site_name"):
        assert field in readme


def test_a_case_recorded_with_headers_from_the_environment_replays(monkeypatch, tmp_path, capsys):
    """WEB_SEARCH_SERVICE_HEADERS is a JSON object's text: the case keeps its header names beside
    the placeholders (a lone placeholder is no JSON object, the replay refused the setting)."""
    monkeypatch.setenv("WEB_SEARCH_SERVICE_URL", URL)
    monkeypatch.setenv("WEB_SEARCH_SERVICE_KEY", KEY)
    monkeypatch.setenv("WEB_SEARCH_SERVICE_HEADERS", json.dumps({"X-Tenant": HEADER_SECRET}))
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, json={"search_results": RESULTS})
        code = main(["record", "service", "eino", "--fixtures", str(tmp_path)])
    assert code == 0, capsys.readouterr()
    meta = json.loads((tmp_path / "service" / "eino.meta.json").read_text("utf-8"))
    assert meta["settings"]["providers"]["service"]["headers"] == {"X-Tenant": "<redacted>"}
    assert main(["verify", "--fixtures", str(tmp_path), "--backend", "service"]) == 0
    assert HEADER_SECRET not in capsys.readouterr().out + "".join(
        p.read_text("utf-8") for p in tmp_path.rglob("*.json")
    )

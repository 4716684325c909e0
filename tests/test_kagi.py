"""The kagi backend: the Bot token, the request, parsing (search results only), Kagi's
error envelope (codes by name, also inside HTTP 200) and keys never showing."""

import json
import logging
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
import responses

import websearch_sync as ws
from websearch_sync.backends.kagi import Kagi
from websearch_sync.models import SearchParams

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "kagi"
URL = "https://kagi.com/api/v0/search"
KEY = "kg-SECRET-9f8e7d6c5b4a"


def recorded(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def doc_example():
    return recorded("kagi-docs__steve_jobs.json")


def settings(**provider):
    return ws.Settings(providers={"kagi": {"api_key": KEY, **provider}})


def search(body, *, status=200, headers=None, query="q", settings_=None, **kwargs):
    """One kagi search against a replayed answer; returns (result or error, calls)."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        payload = body if isinstance(body, (bytes, str)) else json.dumps(body, ensure_ascii=False)
        mock.add(responses.GET, URL, body=payload, status=status, headers=headers or {}, content_type="application/json")
        try:
            outcome = ws.search(query, backend="kagi", settings=settings_ or settings(), **dict({"retries": 0}, **kwargs))
        except ws.WebSearchError as error:
            outcome = error
        return outcome, list(mock.calls)


def sent_params(call):
    return {k: v[0] for k, v in parse_qs(urlsplit(call.request.url).query).items()}


def kagi_error(code, msg="upstream words", request_id="req-0001"):
    return {"meta": {"id": request_id, "node": "us-east", "ms": 2}, "data": None, "error": [{"code": code, "msg": msg, "ref": None}]}


# -- configuration ----------------------------------------------------------------------


def test_missing_key_is_auth_error_before_any_request():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(ws.AuthError) as info:
            ws.search("q", backend="kagi", settings=ws.Settings())
        assert len(mock.calls) == 0
    assert info.value.detail_code == "missing_api_key" and "KAGI_API_KEY" in info.value.message


def test_environment_selects_and_configures_kagi(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "kagi")
    monkeypatch.setenv("KAGI_API_KEY", KEY)
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, URL, json=doc_example())
        result = ws.search("steve jobs", max_results=3)
        call = mock.calls[0]
    assert call.request.headers["Authorization"] == "Bot " + KEY
    assert sent_params(call) == {"q": "steve jobs", "limit": "3"}
    assert [i["url"] for i in result["items"]] == [
        "https://en.wikipedia.org/wiki/Steve_Jobs",
        "https://www.britannica.com/biography/Steve-Jobs",
        "https://www.britannica.com/summary/Steve-Jobs",
    ]


def test_endpoint_override_replaces_the_whole_url():
    config = ws.Settings(providers={"kagi": {"api_key": KEY}}, endpoints={"kagi": "https://kagi.com/api/v1/search"})
    assert Kagi(config).endpoint_url() == "https://kagi.com/api/v1/search"
    assert Kagi(settings()).endpoint_url() == URL


# -- the request ------------------------------------------------------------------------


def test_request_shape_uses_the_bot_scheme():
    spec = Kagi(settings()).build_request(SearchParams("steve jobs", 10, site_filter="apple.com"))
    assert spec.method == "GET" and spec.url == URL
    assert spec.params == {"q": "steve jobs site:apple.com", "limit": 10}
    assert spec.headers["Authorization"] == "Bot " + KEY
    assert not spec.headers["Authorization"].startswith("Bearer")


# -- parsing ----------------------------------------------------------------------------


def test_only_search_results_become_items_and_highlights_vanish():
    result, _ = search(doc_example(), max_results=10)
    items = result["items"]
    assert len(items) == 10  # 11 data objects, the last one is related searches (t == 1)
    assert items[0]["snippet"].startswith("Steven Paul Jobs (February 24, 1955")
    assert items[1]["title"] == "Steve Jobs | Biography, Education, Apple, & Facts | Britannica"
    assert result["provider_meta"]["request_id"] == "f82bee15-ae0b-4b32-9a9e-05490fe3a8e4"


def test_published_becomes_published_at():
    result, _ = search(doc_example(), max_results=10)
    dated = {i["rank"]: i["published_at"] for i in result["items"] if "published_at" in i}
    assert dated == {2: "2023-02-20T00:00:00Z", 4: "2023-03-21T03:18:37Z", 5: "2023-03-07T16:05:24Z"}


def test_only_related_searches_means_no_results():
    body = doc_example()
    body["data"] = [entry for entry in body["data"] if entry["t"] == 1]
    result, _ = search(body)
    assert result["items"] == []


@pytest.mark.parametrize("body", [{"meta": {"id": "x"}, "data": None}, {"meta": {}, "data": {"t": 0}}, ["x"], "<html></html>"])
def test_unknown_shapes_are_parse_errors(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError)


# -- Kagi's error envelope ------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, status, cls, detail",
    [
        (2, 401, ws.AuthError, "invalid_api_key"),
        (101, 400, ws.AuthError, "insufficient_credit"),
        (101, 200, ws.AuthError, "insufficient_credit"),
        (100, 400, ws.AuthError, "no_billing"),
        (1, 400, ws.InvalidInput, "invalid_params"),
    ],
)
def test_documented_codes_decide_the_error_whatever_the_status(code, status, cls, detail):
    error, _ = search(kagi_error(code, "Kagi's own words"), status=status)
    assert isinstance(error, cls) and error.detail_code == detail and error.status == status
    assert "Kagi's own words" in error.message and "req-0001" in error.message


@pytest.mark.parametrize("code", [0, 7, None])
def test_internal_or_unknown_codes_leave_it_to_the_status(code):
    body = kagi_error(code)
    error, _ = search(body, status=500)
    assert isinstance(error, ws.BadGateway) and error.detail_code == "http_500"
    error, _ = search(body, status=200)
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "api_error" and "upstream words" in error.message


def test_code_is_not_mistaken_for_an_http_status():
    error, _ = search(kagi_error(2), status=200)  # code 2 must not be read as "HTTP 2"
    assert isinstance(error, ws.AuthError) and error.detail_code == "invalid_api_key"


def test_401_without_an_envelope_is_auth_error():
    error, _ = search("Unauthorized", status=401)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_401"


def test_429_is_blocked_and_retryable_with_retry_after():
    error, _ = search("Too Many Requests", status=429, headers={"Retry-After": "12"})
    assert isinstance(error, ws.WebBlocked) and error.detail_code == "http_429"
    assert error.retryable is True and error.retry_after == 12.0


@pytest.mark.parametrize("status", [500, 502, 503])
def test_5xx_is_bad_gateway(status):
    error, _ = search("<html>bad gateway</html>", status=status)
    assert isinstance(error, ws.BadGateway) and error.retryable


# -- secrets ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status, body",
    [
        (401, kagi_error(2, "token %s is not valid" % KEY)),
        (400, kagi_error(101, "no credit left for %s" % KEY)),
        (200, "<html>%s</html>" % KEY),
    ],
)
def test_error_paths_never_show_the_key(status, body, caplog):
    caplog.set_level(logging.DEBUG)
    with ws.SearchClient(settings=settings()) as client:
        with responses.RequestsMock() as mock:
            mock.add(responses.GET, URL, body=body if isinstance(body, str) else json.dumps(body), status=status)
            with pytest.raises(ws.WebSearchError) as info:
                client.search("q", backend="kagi", retries=0)
            assert mock.calls[0].request.headers["Authorization"] == "Bot " + KEY
        assert KEY not in repr(client)
    for text in (str(info.value), repr(info.value), json.dumps(info.value.to_dict()), caplog.text):
        assert KEY not in text


def test_transport_errors_never_show_the_key():
    with responses.RequestsMock() as mock:
        mock.add(responses.GET, URL, body=requests.exceptions.ConnectTimeout("connect to %s timed out" % KEY))
        with pytest.raises(ws.Timeout) as info:
            ws.search("q", backend="kagi", settings=settings(), retries=0)
    assert KEY not in str(info.value)


def test_reprs_never_show_the_key(monkeypatch):
    monkeypatch.setenv("KAGI_API_KEY", KEY)
    from_env = ws.Settings.from_env()
    assert from_env.provider("kagi")["api_key"] == KEY
    for text in (repr(from_env), repr(Kagi(from_env)), repr(ws.SearchClient("kagi", settings=from_env))):
        assert KEY not in text


# -- documentation ------------------------------------------------------------------------


def test_readme_documents_the_settings_and_every_detail_code_of_the_contract_cases():
    readme = "\n".join(p.read_text(encoding="utf-8") for p in sorted((FIXTURES.parent.parent / "docs").glob("*.md")))
    for var in Kagi.env_vars.values():
        assert "| `%s` |" % var in readme, "%s missing from the configuration table in docs/" % var
    assert "| `kagi` |" in readme
    for golden in FIXTURES.glob("*.expected.json"):
        outcome = json.loads(golden.read_text(encoding="utf-8"))
        for entry in [outcome.get("error")] + outcome.get("errors", []):
            if entry and entry.get("detail_code"):
                assert "`%s`" % entry["detail_code"] in readme or entry["detail_code"].startswith("http_"), golden.name
    for detail in ("insufficient_credit", "no_billing", "invalid_api_key", "invalid_params"):
        assert "`%s`" % detail in readme

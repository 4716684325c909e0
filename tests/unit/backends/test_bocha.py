"""The bocha backend: settings (key, base URL, timeout, top-k), request body, parsing,
and Bocha's error envelopes (string codes, also inside HTTP 200)."""

import json

import pytest
import responses
from backend_kit import recorded_json, replay_search

import websearch_sync as ws
from websearch_sync.backends.bocha import Bocha
from websearch_sync.models import SearchParams

URL = "https://api.bochaai.com/v1/web-search"
KEY = "bocha-test-key-0001"


def recorded(name):
    return recorded_json("bocha", name)


def settings(**provider):
    return ws.Settings(providers={"bocha": {"api_key": KEY, **provider}})


def search(body, *, url=URL, settings_=None, **kwargs):
    """One bocha search against a replayed answer; returns (result or error, calls)."""
    return replay_search("bocha", url, body, settings=settings_ or settings(), **kwargs)


def sent_json(call):
    return json.loads(call.request.body)


# -- configuration ----------------------------------------------------------------------


def test_environment_selects_and_configures_bocha(monkeypatch):
    monkeypatch.setenv("WEB_SEARCH_BACKEND", "bocha")
    monkeypatch.setenv("BOCHA_API_KEY", KEY)
    monkeypatch.setenv("BOCHA_BASE_URL", "https://bocha-gw.example/")
    monkeypatch.setenv("BOCHA_TOP_K_DEFAULT", "8")
    with responses.RequestsMock() as mock:
        mock.add(
            responses.POST, "https://bocha-gw.example/v1/web-search", json=recorded("cherry-studio__sanitized.json")
        )
        result = ws.search("hello")
        call = mock.calls[0]
    assert call.request.headers["Authorization"] == "Bearer " + KEY
    assert sent_json(call) == {"query": "hello", "count": 8, "freshness": "noLimit", "summary": False}
    assert result["provider_meta"]["provider_name"] == "bocha"
    assert result["provider_meta"]["request_id"] == "d71841ad20095f61"


def test_settings_providers_is_the_code_side_configuration():
    config = settings(base_url="https://gw.example", timeout_ms=4000, top_k_default=12)
    backend = Bocha(config)
    assert backend.endpoint_url() == "https://gw.example/v1/web-search"
    assert backend.timeout_ms() == 4000 and backend.timeout_ms(900) == 900
    assert backend.build_request(SearchParams("q", 5)).json["count"] == 12


@pytest.mark.parametrize("base", [URL, URL + "/", "https://api.bochaai.com/", "https://api.bochaai.com"])
def test_a_base_url_copied_with_the_endpoint_path_is_not_given_it_twice(base):
    """Bocha's docs show the endpoint ``POST https://api.bochaai.com/v1/web-search`` (UPSTREAMS.md):
    a BOCHA_BASE_URL copied from there is the endpoint itself."""
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, json=recorded("cherry-studio__sanitized.json"))
        result = ws.search("hello", backend="bocha", settings=settings(base_url=base))
        assert [call.request.url for call in mock.calls] == [URL] and result["items"]


def test_a_404_at_the_base_url_names_the_setting_and_where_requests_go():
    """A base URL with the API version in it (``.../v1``) gets ``/v1/web-search`` after it: a 404."""
    wrong = "https://api.bochaai.com/v1/v1/web-search"
    error, calls = search(
        {"code": "404", "message": "Not Found"},
        url=wrong,
        status=404,
        settings_=settings(base_url="https://api.bochaai.com/v1"),
    )
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_404" and len(calls) == 1
    assert "BOCHA_BASE_URL, the API root: requests go to <base URL>/v1/web-search" in error.message


def test_a_base_url_that_is_no_url_names_bocha_base_url_not_the_endpoint_override():
    with pytest.raises(ws.InvalidInput) as caught:
        ws.search("hello", backend="bocha", settings=settings(base_url="api.bochaai.com"))
    assert caught.value.detail_code == "bad_endpoint" and "BOCHA_BASE_URL" in caught.value.message
    assert "WEB_SEARCH_ENDPOINT_BOCHA" not in caught.value.message


def test_endpoint_override_replaces_the_whole_url():
    config = ws.Settings(
        providers={"bocha": {"api_key": KEY, "base_url": "https://ignored.example"}},
        endpoints={"bocha": "http://mirror.example/ws"},
    )
    assert Bocha(config).endpoint_url() == "http://mirror.example/ws"


@pytest.mark.parametrize("value", ["ten", 0, True, -3])
def test_bad_top_k_default_is_invalid_input_when_the_settings_are_built(value):
    with pytest.raises(ws.InvalidInput) as info:
        settings(top_k_default=value)
    assert info.value.detail_code == "bad_setting"
    assert "Settings.providers['bocha']['top_k_default'] (BOCHA_TOP_K_DEFAULT)" in info.value.message


@pytest.mark.parametrize("text, sent", [("12", 12), ("0", 5), ("ten", 5), ("-3", 5)])
def test_top_k_default_from_the_environment_is_a_number_and_a_malformed_one_is_ignored(monkeypatch, text, sent):
    monkeypatch.setenv("BOCHA_API_KEY", KEY)
    monkeypatch.setenv("BOCHA_TOP_K_DEFAULT", text)
    spec = Bocha(ws.Settings.from_env()).build_request(SearchParams("q", 5))
    assert spec.json["count"] == sent


# -- the request ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "top_k, max_results, count",
    [(None, 4, 4), (10, 4, 10), (3, 6, 6), (80, 5, 50)],
)
def test_count_is_top_k_default_when_it_asks_for_more_than_max_results(top_k, max_results, count):
    provider = {} if top_k is None else {"top_k_default": top_k}
    spec = Bocha(settings(**provider)).build_request(SearchParams("q", max_results))
    assert spec.json["count"] == count


def test_never_more_items_than_max_results_even_when_top_k_asks_for_more():
    result, calls = search(
        recorded("bocha-docs__web_search_example.json"), max_results=3, settings_=settings(top_k_default=50)
    )
    assert sent_json(calls[0])["count"] == 50
    assert len(result["items"]) == 3


@pytest.mark.parametrize(
    "time_range, freshness",
    [(None, "noLimit"), ("day", "oneDay"), ("week", "oneWeek"), ("month", "oneMonth"), ("year", "oneYear")],
)
def test_freshness(time_range, freshness):
    spec = Bocha(settings()).build_request(SearchParams("q", 5, time_range=time_range))
    assert spec.method == "POST" and spec.json["freshness"] == freshness


def test_bad_summary_option_is_invalid_input():
    outcome, calls = search(recorded("cherry-studio__sanitized.json"), summary="yes")
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "bad_summary"
    assert calls == []


# -- parsing ----------------------------------------------------------------------------


def test_snippet_by_default_and_summary_when_asked():
    body = recorded("unidentified-vendors-notes__1.json")
    pages = body["data"]["webPages"]["value"]
    plain, calls = search(body)
    assert sent_json(calls[0])["summary"] is False
    assert plain["items"][0]["snippet"] == " ".join(pages[0]["snippet"].split())
    with_summary, calls = search(body, summary=True)
    assert sent_json(calls[0])["summary"] is True
    assert with_summary["items"][0]["snippet"] == " ".join(pages[0]["summary"].split())
    assert len(with_summary["items"][0]["snippet"]) > len(plain["items"][0]["snippet"])


def test_site_name_and_date_published():
    result, _ = search(recorded("unidentified-vendors-notes__1.json"))
    assert [(i["source"], i["published_at"]) for i in result["items"]] == [
        ("外唐智库", "2024-07-24T00:00:00Z"),  # 2024-07-24T08:00:00+08:00 in UTC
        ("手机搜狐网", "2024-08-12T15:57:00Z"),  # 2024-08-12T23:57:00+08:00
    ]
    assert result["provider_meta"]["request_id"] == "5cc4ea524eac0d82"


def test_top_level_web_pages_from_a_gateway():
    body = recorded("cherry-studio__sanitized.json")
    flat = {"code": 200, "log_id": body["log_id"], **body["data"]}
    result, _ = search(flat)
    assert [i["url"] for i in result["items"]] == ["https://bocha.example/result"]


def test_search_response_without_web_pages_has_no_results():
    body = recorded("cherry-studio__sanitized.json")
    del body["data"]["webPages"]
    result, _ = search(body)
    assert result["items"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"code": 200, "data": {"images": []}},
        {"code": 200, "data": {"webPages": {"total": 0}}},
        {"code": 200, "data": {"webPages": "x"}},
        ["x"],
    ],
)
def test_unknown_shapes_are_parse_errors(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError)


# -- error envelopes ----------------------------------------------------------------------


def test_403_quota_is_auth_error_with_bochas_words():
    error, _ = search(recorded("dsh-web-search-pro__bocha_403_live.json"), status=403)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_403"
    assert "You do not have enough money or package quota" in error.message
    assert "9a4c880abc39956b" in error.message


def test_401_is_auth_error():
    error, _ = search(recorded("bocha-docs__401_invalid_key.json"), status=401)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_401" and "Invalid API KEY" in error.message


@pytest.mark.parametrize(
    "code, cls, detail",
    [
        ("401", ws.AuthError, "http_401"),
        ("403", ws.AuthError, "http_403"),
        ("429", ws.WebBlocked, "http_429"),
        ("500", ws.BadGateway, "http_500"),
        (503, ws.BadGateway, "http_503"),
        ("400", ws.WebProviderError, "http_400"),
    ],
)
def test_a_200_whose_body_code_is_not_200_is_classified_by_that_code(code, cls, detail):
    error, _ = search({"code": code, "message": "upstream words", "log_id": "abc123"}, status=200)
    assert isinstance(error, cls), repr(error)
    assert error.detail_code == detail and error.status == 200
    assert "upstream words" in error.message and "abc123" in error.message


def test_a_200_with_a_non_numeric_error_code_is_a_provider_error():
    error, _ = search({"code": "InvalidParameter", "message": "count too big"}, status=200)
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "api_error"
    assert "InvalidParameter" in error.message and "count too big" in error.message


def test_string_code_200_is_success():
    body = recorded("cherry-studio__sanitized.json")
    body["code"] = "200"
    result, _ = search(body)
    assert len(result["items"]) == 1


# -- documentation ------------------------------------------------------------------------

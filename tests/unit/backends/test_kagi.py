"""The kagi backend: the Bot token, the request, parsing (search results only), Kagi's
error envelope (codes by name, also inside HTTP 200) and keys never showing."""

from urllib.parse import parse_qs, urlsplit

import pytest
from backend_kit import recorded_json, replay_search

import websearch_sync as ws
from websearch_sync.backends.kagi import Kagi
from websearch_sync.models import SearchParams

URL = "https://kagi.com/api/v0/search"
KEY = "kg-SECRET-9f8e7d6c5b4a"


def recorded(name):
    return recorded_json("kagi", name)


def doc_example():
    return recorded("kagi-docs__steve_jobs.json")


def settings(**provider):
    return ws.Settings(providers={"kagi": {"api_key": KEY, **provider}})


def search(body, *, url=URL, settings_=None, **kwargs):
    """One kagi search against a replayed answer; returns (result or error, calls)."""
    return replay_search("kagi", url, body, settings=settings_ or settings(), **kwargs)


def sent_params(call):
    return {k: v[0] for k, v in parse_qs(urlsplit(call.request.url).query).items()}


def kagi_error(code, msg="upstream words", request_id="req-0001"):
    return {
        "meta": {"id": request_id, "node": "us-east", "ms": 2},
        "data": None,
        "error": [{"code": code, "msg": msg, "ref": None}],
    }


# -- configuration ----------------------------------------------------------------------


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


@pytest.mark.parametrize(
    "body", [{"meta": {"id": "x"}, "data": None}, {"meta": {}, "data": {"t": 0}}, ["x"], "<html></html>"]
)
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
    assert (
        isinstance(error, ws.WebProviderError)
        and error.detail_code == "api_error"
        and "upstream words" in error.message
    )


def test_code_is_not_mistaken_for_an_http_status():
    error, _ = search(kagi_error(2), status=200)  # code 2 must not be read as "HTTP 2"
    assert isinstance(error, ws.AuthError) and error.detail_code == "invalid_api_key"


# -- secrets ------------------------------------------------------------------------------


# -- documentation ------------------------------------------------------------------------

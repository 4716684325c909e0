"""The jina backend: key handling, the request (no page texts unless asked), parsing,
Jina's error envelope and keys never showing."""

from urllib.parse import parse_qs, urlsplit

import pytest
from backend_kit import recorded_json, replay_search

import websearch_sync as ws
from websearch_sync.backends.jina import SNIPPET_FROM_CONTENT_CHARS, Jina
from websearch_sync.models import SearchParams

URL = "https://s.jina.ai/"
KEY = "jina_SECRET_1122334455aa"


def recorded(name):
    return recorded_json("jina", name)


def doc_example():
    return recorded("jina-docs__when_founded.json")


def settings(**provider):
    return ws.Settings(providers={"jina": {"api_key": KEY, **provider}})


def search(body, *, url=URL, settings_=None, **kwargs):
    """One jina search against a replayed answer; returns (result or error, calls)."""
    return replay_search("jina", url, body, settings=settings_ or settings(), **kwargs)


def sent_params(call):
    return {k: v[0] for k, v in parse_qs(urlsplit(call.request.url).query).items()}


def jina_error(code, name, message, status=None):
    return {
        "data": None,
        "code": code,
        "name": name,
        "status": status or code * 100,
        "message": message,
        "readableMessage": "%s: %s" % (name, message),
    }


# -- configuration ----------------------------------------------------------------------


def test_jina_is_spaced_for_its_free_rate_limit():
    from websearch_sync.cli.backends_cmd import backend_rows

    row = next(r for r in backend_rows(ws.Settings()) if r["name"] == "jina")
    assert row["min_interval_s"] == 1.5 and row["missing"] == ["JINA_API_KEY"]


# -- the request ------------------------------------------------------------------------


def test_request_shape_without_page_texts():
    spec = Jina(settings()).build_request(SearchParams("jina reader", 5, site_filter="jina.ai"))
    assert spec.method == "GET" and spec.url == URL
    assert spec.params == {"q": "jina reader site:jina.ai"}
    assert spec.headers == {
        "Accept": "application/json",
        "Authorization": "Bearer " + KEY,
        "X-Respond-With": "no-content",
    }


def test_include_content_asks_for_page_texts():
    spec = Jina(settings()).build_request(SearchParams("q", 5, include_content=True))
    assert "X-Respond-With" not in spec.headers


def test_the_header_travels_through_search(fake_clock):
    _, calls = search(doc_example())
    assert calls[0].request.headers["X-Respond-With"] == "no-content"
    assert calls[0].request.headers["Accept"] == "application/json"
    _, calls = search(doc_example(), include_content=True)
    assert "X-Respond-With" not in calls[0].request.headers


# -- parsing ----------------------------------------------------------------------------


def test_description_is_the_snippet_and_content_only_when_asked(fake_clock):
    plain, _ = search(doc_example())
    assert (
        plain["items"][0]["snippet"]
        == "Our frontier models form the search foundation for high-quality enterprise search..."
    )
    assert all("content" not in item for item in plain["items"])
    with_content, _ = search(doc_example(), include_content=True)
    assert [i["content"] for i in with_content["items"]] == [
        "Jina AI - Your Search Foundation, Supercharged...",
        "Jina AI Management Team...",
    ]


def test_snippet_falls_back_to_the_start_of_the_page_text():
    body = doc_example()
    del body["data"][0]["description"]
    body["data"][0]["content"] = "word " * 200
    result, _ = search(body, include_content=True)
    assert len(result["items"][0]["snippet"]) < SNIPPET_FROM_CONTENT_CHARS
    assert result["items"][0]["snippet"].startswith("word word")
    assert len(result["items"][0]["content"]) > SNIPPET_FROM_CONTENT_CHARS


def test_date_becomes_published_at():
    body = doc_example()
    body["data"][1]["date"] = "Jul 7, 2025"
    result, _ = search(body)
    assert result["items"][1]["published_at"] == "Jul 7, 2025" and "published_at" not in result["items"][0]


def test_empty_data_is_success_with_no_items():
    result, _ = search({"code": 200, "status": 20000, "data": []})
    assert result["items"] == []


@pytest.mark.parametrize(
    "body", [{"code": 200, "status": 20000}, {"code": 200, "data": None}, {"code": 200, "data": {"title": "x"}}, ["x"]]
)
def test_unknown_shapes_are_parse_errors(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError)


def test_a_text_answer_is_a_parse_error():
    error, _ = search("Title: Jina AI\nURL Source: https://jina.ai/\n", content_type="text/plain")
    assert isinstance(error, ws.WebParseError) and error.detail_code == "not_json"


# -- statuses and Jina's envelope ---------------------------------------------------------------


@pytest.mark.parametrize(
    "status, name",
    [(401, "AuthenticationRequiredError"), (402, "InsufficientBalanceError"), (403, "SecurityCompromiseError")],
)
def test_refused_key_or_empty_balance_is_auth_error_with_jinas_words(status, name):
    error, _ = search(jina_error(status, name, "Jina's own words"), status=status)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_%d" % status
    assert name in error.message and "Jina's own words" in error.message


def test_a_200_whose_body_code_is_an_error_is_that_error():
    error, _ = search(jina_error(401, "AuthenticationRequiredError", "no key"), status=200)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_401" and error.status == 200


def test_422_is_a_provider_error():
    error, _ = search(jina_error(422, "ParamValidationError", "q is required"), status=422)
    assert (
        isinstance(error, ws.WebProviderError) and error.detail_code == "http_422" and "q is required" in error.message
    )


def test_jinas_422_for_a_query_without_results_is_no_results_not_an_error():
    """The live answer of egoist/chatwise-releases#1288 (fixtures/jina/chatwise-releases-1288__no_results_422)."""
    body = jina_error(422, "AssertionFailureError", "No search results available for query zxqv", status=42206)
    result, calls = search(body, status=422, query="zxqv")
    assert result["items"] == [] and len(calls) == 1


def test_another_assertion_failure_of_jina_stays_an_error():
    body = jina_error(422, "AssertionFailureError", "Invalid query", status=42206)
    error, _ = search(body, status=422, query="assert other")
    assert (
        isinstance(error, ws.WebProviderError) and error.detail_code == "http_422" and "Invalid query" in error.message
    )


# -- secrets ------------------------------------------------------------------------------


# -- documentation ------------------------------------------------------------------------

"""The jina backend: key handling, the request (no page texts unless asked), parsing,
Jina's error envelope and keys never showing."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from backend_kit import recorded_json, replay_search
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.backends.jina import SNIPPET_FROM_CONTENT_CHARS, Jina
from websearch_sync.models import SearchParams
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.response import HttpResponse

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


def test_the_backends_listing_says_how_many_results_one_call_can_give():
    """A user asking 50 learns from ``backends --json`` that Jina gives 20, before any call."""
    from websearch_sync.cli.backends_cmd import backend_rows

    limits = {row["name"]: row["max_results_limit"] for row in backend_rows(ws.Settings())}
    assert (limits["jina"], limits["tavily"], limits["ddg_html"]) == (20, 20, None)


# -- the request ------------------------------------------------------------------------


def test_request_shape_without_page_texts():
    spec = Jina(settings()).build_request(SearchParams("jina reader", 5, site_filter="jina.ai"))
    assert spec.method == "GET" and spec.url == URL
    assert spec.params == {"q": "jina reader site:jina.ai", "num": "5"}
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


@pytest.mark.parametrize("asked, num", [(3, "3"), (20, "20"), (50, "20")])
def test_num_is_max_results_up_to_jinas_twenty(asked, num):
    """Without `num` Jina gives 10 (reading as many pages when content is asked): a call for 3
    would be billed for 10, a call for 20 would get 10."""
    assert Jina(settings()).build_request(SearchParams("q", asked)).params["num"] == num


@pytest.mark.parametrize(
    "locale, gl, hl",
    [
        ("en-US", "us", "en"),
        ("de-AT", "at", "de"),
        ("zh-TW", "tw", "zh-tw"),
        ("zh-Hans-CN", "cn", "zh-cn"),
        ("zh-Hans-TW", "tw", "zh-cn"),  # the script said wins over the region's: before, zh-tw
        ("zh-Hant-CN", "cn", "zh-tw"),
        ("pt-BR", "br", "pt-br"),
        ("he-IL", "il", "iw"),  # Google's older code, the one Jina lists
        ("es-419", None, "es-419"),
        ("fr", None, "fr"),
    ],
)
def test_the_locale_is_gl_and_hl_as_jina_lists_them(locale, gl, hl):
    params = Jina(settings()).build_request(SearchParams("q", 5, locale=locale)).params
    assert params.get("gl") == gl and params.get("hl") == hl


@pytest.mark.parametrize("locale", ["en-UK", "en-ZZ"])
def test_a_region_jina_does_not_list_is_not_sent(locale):
    """Jina refuses a `gl` outside its country list (HTTP 400, which would end a fallback chain):
    `en-UK` (a common slip for en-GB) sends the language alone."""
    params = Jina(settings()).build_request(SearchParams("q", 5, locale=locale)).params
    assert "gl" not in params and params["hl"] == "en"


def test_a_language_jina_does_not_list_is_not_sent():
    """Jina refuses an `hl` outside its list: the region alone is sent."""
    params = Jina(settings()).build_request(SearchParams("q", 5, locale="dv-MV")).params
    assert "hl" not in params and params["gl"] == "mv"


#: Deadlines whose share for Jina ends at .9 of a second: a loaded machine's delay before the
#: request is fitted (under 1 s) does not change the whole seconds sent.
@pytest.mark.parametrize("timeout_ms, seconds", [(15500, "12"), (60200, "50"), (3700, "2"), (1000, "1")])
def test_page_texts_are_asked_within_the_calls_deadline(timeout_ms, seconds):
    """Reading the pages, Jina races them against its own 15 s unless `X-Timeout` says otherwise
    (jina-ai/reader src/api/searcher.ts), then answers with what it read: without it, a call of 15 s
    timed out before Jina answered. With it, Jina answers within what is left of the deadline."""
    backend = Jina(settings())
    spec = backend.fit_request(backend.build_request(SearchParams("q", 5, include_content=True)), Deadline(timeout_ms))
    assert spec.headers["X-Timeout"] == seconds


def test_no_timeout_is_sent_without_page_texts():
    """Without page texts Jina answers the result list at once: nothing to race."""
    backend = Jina(settings())
    spec = backend.fit_request(backend.build_request(SearchParams("q", 5)), Deadline(15000))
    assert "X-Timeout" not in spec.headers


def test_num_gl_hl_travel_through_search(fake_clock):
    _, calls = search(doc_example(), locale="ja-JP", max_results=7)
    assert sent_params(calls[0]) == {"q": "q", "num": "7", "gl": "jp", "hl": "ja"}


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
    assert result["items"][1]["published_at"] == "2025-07-07" and "published_at" not in result["items"][0]


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


def test_check_live_reads_jinas_no_results_answer_as_recognised():
    """``websearch-sync check-live`` judges an answer by the same rule as a search (``answer_error``)."""
    body = jina_error(422, "AssertionFailureError", "No search results available for query zxqv", status=42206)
    headers = CaseInsensitiveDict({"Content-Type": "application/json"})
    answer = HttpResponse(status=422, headers=headers, content=json.dumps(body).encode(), url=URL)
    assert Jina(settings()).structure_report(answer) == {"recognised": True}

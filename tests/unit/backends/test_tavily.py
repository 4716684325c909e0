"""The tavily backend: key handling, the request body, parsing, Tavily's statuses and
error bodies, and keys never showing."""

import json

import pytest
import responses
from backend_kit import recorded_json, replay_search
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.backends.tavily import Tavily
from websearch_sync.models import SearchParams
from websearch_sync.net.response import HttpResponse

URL = "https://api.tavily.com/search"
KEY = "tvly-SECRET-0a1b2c3d4e5f"


def recorded(name):
    return recorded_json("tavily", name)


def doc_example():
    return recorded("tavily-python-docs__leo_messi.json")


def settings(**provider):
    return ws.Settings(providers={"tavily": {"api_key": KEY, **provider}})


def search(body, *, url=URL, settings_=None, **kwargs):
    """One tavily search against a replayed answer; returns (result or error, calls)."""
    return replay_search("tavily", url, body, settings=settings_ or settings(), **kwargs)


def sent_json(call):
    return json.loads(call.request.body)


def error_body(message):
    return {"detail": {"error": message}}


# -- configuration ----------------------------------------------------------------------


def test_auto_picks_tavily_once_its_key_is_set(monkeypatch):
    monkeypatch.setenv("TAVILY_API_KEY", KEY)
    with responses.RequestsMock() as mock:
        mock.add(responses.POST, URL, json=doc_example())
        result = ws.search("q", backend="auto")
    assert result["provider_meta"]["provider_name"] == "tavily"


# -- the request ------------------------------------------------------------------------


def test_request_shape():
    spec = Tavily(settings()).build_request(SearchParams("who is leo messi", 7))
    assert spec.method == "POST" and spec.url == URL
    assert spec.json == {"query": "who is leo messi", "max_results": 7}
    assert spec.headers["Authorization"] == "Bearer " + KEY and spec.headers["Accept"] == "application/json"


def test_options_map_to_tavily_fields():
    params = SearchParams(
        "q", 3, time_range="month", site_filter="fifa.com", include_content=True, options={"topic": "news"}
    )
    assert Tavily(settings()).build_request(params).json == {
        "query": "q site:fifa.com",
        "max_results": 3,
        "topic": "news",
        "time_range": "month",
        "include_raw_content": True,
    }


def test_topic_travels_through_search():
    _, calls = search(doc_example(), topic="finance")
    assert sent_json(calls[0])["topic"] == "finance"


@pytest.mark.parametrize("topic", ["sports", "", 3, True])
def test_bad_topic_is_invalid_input_before_any_request(topic):
    outcome, calls = search(doc_example(), topic=topic)
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "bad_topic"
    assert calls == []


# -- parsing ----------------------------------------------------------------------------


def test_content_is_the_snippet_and_raw_content_only_when_asked():
    body = doc_example()
    body["results"][0]["raw_content"] = "Page text\n\nwith paragraphs"
    plain, _ = search(body)
    assert "content" not in plain["items"][0]
    assert plain["items"][0]["snippet"] == " ".join(body["results"][0]["content"].split())
    with_content, calls = search(body, include_content=True)
    assert sent_json(calls[0])["include_raw_content"] is True
    assert with_content["items"][0]["content"] == "Page text\n\nwith paragraphs"
    # raw_content null: the client reads those pages itself (refused here: no network in tests)
    without = [item["url"] for item in with_content["items"][1:]]
    assert all(item["content"] == "" for item in with_content["items"][1:])
    assert [(e["provider"], e["url"]) for e in with_content["errors"]] == [("fetch", url) for url in without]


def test_published_date_and_request_id():
    body = doc_example()
    body["results"][1]["published_date"] = "Mon, 15 Jul 2024 10:00:00 GMT"
    body["request_id"] = "123e4567-e89b-12d3-a456-426614174111"
    result, _ = search(body)
    assert result["items"][1]["published_at"] == "2024-07-15T10:00:00Z"  # canonical, as news items' dates
    assert "published_at" not in result["items"][0]
    assert result["provider_meta"]["request_id"] == "123e4567-e89b-12d3-a456-426614174111"


def test_empty_results_is_success_with_no_items():
    result, _ = search({"query": "q", "results": [], "response_time": 0.3})
    assert result["items"] == []


@pytest.mark.parametrize("body", [{"query": "q"}, {"results": "x"}, ["x"], "not json at all"])
def test_unknown_shapes_are_parse_errors(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError)


# -- statuses and error bodies ---------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403, 432, 433])
def test_refused_key_or_exhausted_plan_is_auth_error_with_tavilys_words(status):
    error, _ = search(error_body("This request exceeds your plan's set usage limit."), status=status)
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_%d" % status and error.status == status
    assert "exceeds your plan's set usage limit" in error.message
    assert error.retryable is False


def test_400_is_a_provider_error_carrying_fastapi_detail():
    error, _ = search({"detail": "Invalid topic"}, status=400)
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_400"
    assert "Invalid topic" in error.message


# -- secrets ------------------------------------------------------------------------------


# -- documentation ------------------------------------------------------------------------


def test_a_query_over_400_characters_is_refused_before_any_request():
    """Tavily's limit, in its own words (CherryHQ/cherry-studio#2201): "Max query length is 400 characters."."""
    error, calls = search(doc_example(), query="x" * 401)
    assert isinstance(error, ws.InvalidInput) and error.detail_code == "query_too_long" and calls == []
    result, calls = search(doc_example(), query="y" * 400)
    assert result["items"] and len(calls) == 1


def test_tavilys_query_too_long_answer_is_invalid_input():
    """The live answer of CherryHQ/cherry-studio#2201 (HTTP 400, nginx): should Tavily count a limit
    our check lets through (300 CJK characters are 900 bytes), its refusal says what to fix."""
    body = error_body("Query is too long. Max query length is 400 characters.")
    error, calls = search(body, status=400, query="测" * 300)
    assert isinstance(error, ws.InvalidInput) and error.detail_code == "query_too_long" and error.status == 400
    assert "Max query length is 400 characters" in error.message and len(calls) == 1


# -- the locale's country ---------------------------------------------------------------


@pytest.mark.parametrize(
    "locale, country",
    [("en-US", "united states"), ("de-DE", "germany"), ("en_GB", "united kingdom"), ("zh-Hant-TW", "taiwan")],
)
def test_the_locales_region_is_tavilys_country_name(locale, country):
    """Tavily's `country` is a lower-case name from its API reference's list, not a code."""
    assert Tavily(settings()).build_request(SearchParams("q", 5, locale=locale)).json["country"] == country


@pytest.mark.parametrize("locale", [None, "de", "en-HK", "es-419"])
def test_no_country_without_a_region_tavily_lists(locale):
    """No region, or one outside Tavily's list (Hong Kong), sends none: Tavily would refuse it."""
    assert "country" not in Tavily(settings()).build_request(SearchParams("q", 5, locale=locale)).json


@pytest.mark.parametrize("topic, sent", [("general", True), ("news", False), ("finance", False)])
def test_country_goes_with_the_general_topic_only(topic, sent):
    """Tavily's reference: "Available only if topic is general"."""
    body = Tavily(settings()).build_request(SearchParams("q", 5, locale="fr-FR", options={"topic": topic})).json
    assert ("country" in body) is sent and body["topic"] == topic


def test_country_travels_through_search():
    _, calls = search(doc_example(), locale="ja-JP")
    assert sent_json(calls[0])["country"] == "japan"


# -- the page text the service gives ------------------------------------------------------


def test_max_content_chars_caps_the_page_text_tavily_gives():
    """`max_content_chars` caps `content` whatever gave it (docs/fetch.md): Tavily's `raw_content` of
    a long page is cut as a fetched page would be, not handed to the model whole."""
    body = doc_example()
    body["results"][0]["raw_content"] = "word " * 4000
    result, _ = search(body, include_content=True, max_content_chars=500)
    assert len(result["items"][0]["content"]) == 500
    default, _ = search(body, include_content=True)
    assert len(default["items"][0]["content"]) == 4000  # the documented default


# -- a query of site: operators alone -----------------------------------------------------

#: Tavily's answer to a query of `site:` operators alone, as verified against api.tavily.com in
#: miurla/morphic#1020 (HTTP 400).
SITE_ONLY = error_body("Query cannot consist only of site: operators. Please provide search terms.")


@pytest.mark.parametrize("query", ["site:python.org", "site:a.org  site:b.org", "SITE:python.org"])
def test_a_query_of_site_operators_alone_is_refused_before_sending(query):
    outcome, calls = search(doc_example(), query=query)
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "unsupported_query"
    assert calls == []


def test_tavilys_own_refusal_of_it_reads_the_same():
    outcome, _ = search(SITE_ONLY, status=400, query="site:python.org")
    assert outcome.detail_code == "unsupported_query"
    headers = CaseInsensitiveDict({"Content-Type": "application/json"})
    answer = HttpResponse(400, headers, json.dumps(SITE_ONLY).encode(), URL)
    error = Tavily(settings()).classify(answer)
    assert isinstance(error, ws.InvalidInput) and error.detail_code == "unsupported_query"


@pytest.mark.parametrize("query", ["asyncio site:python.org", "site:", "site: python"])
def test_terms_beside_a_site_operator_are_sent(query):
    """A word that is no `site:<domain>` operator is a search term (`site:` alone included)."""
    _, calls = search(doc_example(), query=query)
    assert sent_json(calls[0])["query"] == query


def test_a_fallback_chain_goes_on_past_it(fake_clock):
    """Another engine takes `site:python.org` alone: the chain is not ended by Tavily's refusal."""
    brave = "https://api.search.brave.com/res/v1/web/search"
    both = ws.Settings(providers={"tavily": {"api_key": KEY}, "brave": {"api_key": "brave-key"}})
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(responses.GET, brave, json=recorded_json("brave", "brave-api__minimal_trimmed.json"))
        result = ws.search("site:python.org", backend=["tavily", "brave"], settings=both, retries=0)
    assert result["provider_meta"]["provider_name"] == "brave"
    assert result["errors"][0]["detail_code"] == "unsupported_query"


def test_the_model_is_told_to_correct_a_site_only_query():
    """Through the agent tool, the refusal counts as the model's argument to correct (not a failure of
    the service), so frameworks that retry bad arguments ask the model again."""
    from websearch_sync.integrations.agent_tool import ToolOutcome

    error = {"type": "InvalidInput", "detail_code": "unsupported_query", "message": "m", "retryable": False}
    assert ToolOutcome("text", {"error": error}, True).bad_arguments

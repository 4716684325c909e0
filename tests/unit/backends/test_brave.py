"""The brave backend: key handling, request building, parsing, Brave's error envelopes."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
import responses
from backend_kit import recorded_json, replay_search
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.backends.brave import Brave
from websearch_sync.models import SearchParams

URL = "https://api.search.brave.com/res/v1/web/search"
KEY = "brave-test-key-0001"


def recorded(name):
    return recorded_json("brave", name)


def settings(**kwargs):
    return ws.Settings(providers={"brave": {"api_key": KEY}}, **kwargs)


def search(body, *, url=URL, settings_=None, **kwargs):
    """One brave search against a replayed answer; returns (result or error, calls)."""
    return replay_search("brave", url, body, settings=settings_ or settings(), **kwargs)


def brave_error(status, code, detail, *, as_list=False):
    error = {"id": "5d832250", "status": status, "code": code, "detail": detail, "meta": {"component": "x"}}
    body = {"type": "ErrorResponse", "time": 1663072993}
    body.update({"errors": [error]} if as_list else {"error": error})
    return body


def sent_params(call):
    return {k: v[0] for k, v in parse_qs(urlsplit(call.request.url).query).items()}


# -- configuration ----------------------------------------------------------------------


def test_search_with_explicit_settings():
    result, calls = search(recorded("larallama__1.json"), max_results=3)
    assert [item["rank"] for item in result["items"]] == [1, 2, 3]
    assert result["provider_meta"]["provider_name"] == "brave"
    assert calls[0].request.headers["X-Subscription-Token"] == KEY
    assert calls[0].request.headers["Accept"] == "application/json"


# -- the request ------------------------------------------------------------------------


def test_count_is_max_results_and_options_map_to_brave_parameters():
    _, calls = search(
        recorded("larallama__1.json"), max_results=7, locale="de-DE", time_range="month", safe_search="off"
    )
    assert sent_params(calls[0]) == {
        "q": "q",
        "count": "7",
        "search_lang": "de",
        "country": "DE",
        "freshness": "pm",
        "safesearch": "off",
    }


@pytest.mark.parametrize("time_range, freshness", [("day", "pd"), ("week", "pw"), ("month", "pm"), ("year", "py")])
def test_freshness(time_range, freshness):
    spec = Brave(settings()).build_request(SearchParams("q", 5, time_range=time_range))
    assert spec.params["freshness"] == freshness


@pytest.mark.parametrize(
    "locale, search_lang, country",
    [
        ("en-US", "en", "US"),
        ("en-GB", "en-gb", "GB"),
        ("de", "de", None),
        ("ja-JP", "jp", "JP"),
        ("zh-CN", "zh-hans", "CN"),
        ("zh-Hant-TW", "zh-hant", "TW"),
        ("zh_HK", "zh-hant", "HK"),
        # the script said wins over the region's (Simplified Chinese in Taiwan): before, zh-hant
        ("zh-Hans-TW", "zh-hans", "TW"),
        ("zh-Hant-CN", "zh-hant", "CN"),
        ("pt-BR", "pt-br", "BR"),
        ("nb-NO", "nb", "NO"),
    ],
)
def test_locale_to_search_lang_and_country(locale, search_lang, country):
    spec = Brave(settings()).build_request(SearchParams("q", 5, locale=locale))
    assert spec.params.get("search_lang") == search_lang
    assert spec.params.get("country") == country


@pytest.mark.parametrize(
    "locale, search_lang, country",
    [
        ("en-SG", "en", None),  # brave/brave-search-mcp-server#74: SG is not among Brave's countries
        ("vi-VN", "vi", None),  # openclaw/openclaw#55636: country=VN is a 422
        ("fa-IR", None, None),  # no Persian among Brave's search languages
        ("sw", None, None),
    ],
)
def test_a_country_or_language_brave_does_not_list_is_not_sent(locale, search_lang, country):
    """Brave's `country` and `search_lang` are closed lists (its API's enums, as its own MCP server
    declares them): any other value is a 422 VALIDATION, InvalidInput, which ends a fallback chain
    (`auto` with a Singapore locale failed everywhere). The locale is a hint: what Brave lacks is not sent."""
    spec = Brave(settings()).build_request(SearchParams("q", 5, locale=locale))
    assert spec.params.get("search_lang") == search_lang
    assert spec.params.get("country") == country


def test_nothing_optional_is_sent_by_default():
    spec = Brave(settings()).build_request(SearchParams("q", 5))
    assert spec.params == {"q": "q", "count": 5}


@pytest.mark.parametrize("query", ["x" * 401, " ".join(["w"] * 51)])
def test_queries_brave_refuses_are_invalid_input_before_any_request(query):
    outcome, calls = search(recorded("larallama__1.json"), query=query)
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "query_too_long"
    assert calls == []


def test_longest_accepted_query_is_sent():
    result, calls = search(recorded("larallama__1.json"), query="x" * 400)
    assert len(calls) == 1 and result["items"]


# -- parsing ----------------------------------------------------------------------------


def test_strong_tags_are_removed_and_page_age_is_published_at(fake_clock):
    result, _ = search(recorded("brave-api__minimal_trimmed.json"))
    item = result["items"][0]
    assert "<" not in item["snippet"] and "Bostik, commonly" in item["snippet"]
    assert "reusable putty-like pressure-sensitive adhesive" in item["snippet"]
    assert item["published_at"] == "2023-11-23T09:26:19Z"  # no offset: UTC


def test_results_without_page_age_have_no_published_at():
    body = recorded("brave-search-python-client__1.json")
    missing = [i for i, r in enumerate(body["web"]["results"]) if "page_age" not in r]
    assert missing, "the recording has results without page_age"
    result, _ = search(body, max_results=10)
    for index in missing:
        if index < 10:
            assert "published_at" not in result["items"][index]


def test_entities_in_descriptions_are_unescaped():
    result, _ = search(recorded("brave-search-python-client__1.json"), max_results=1)
    assert result["items"][0]["snippet"].startswith('A "Hello, World!" program is usually')


def test_search_answer_without_web_means_no_results():
    body = recorded("larallama__1.json")
    del body["web"]
    result, _ = search(body)
    assert result["items"] == []


@pytest.mark.parametrize("body", [{"results": []}, {"type": "search", "web": {"type": "search"}}, [1, 2]])
def test_other_json_is_a_parse_error(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError)


# -- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("as_list", [False, True])
def test_422_subscription_token_invalid_is_auth_error(as_list):
    body = brave_error(
        422, "SUBSCRIPTION_TOKEN_INVALID", "The provided subscription token is invalid.", as_list=as_list
    )
    error, _ = search(body, status=422)
    assert isinstance(error, ws.AuthError)
    assert (error.detail_code, error.status, error.retryable) == ("invalid_api_key", 422, False)
    assert "SUBSCRIPTION_TOKEN_INVALID" in error.message and "subscription token is invalid" in error.message


def test_422_validation_is_invalid_input():
    error, _ = search(brave_error(422, "VALIDATION", "Unable to validate request parameter(s)"), status=422)
    assert isinstance(error, ws.InvalidInput) and error.detail_code == "invalid_params"


def test_422_with_another_code_is_a_provider_error():
    error, _ = search(brave_error(422, "SOMETHING_NEW", "?"), status=422)
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_422"
    assert "SOMETHING_NEW" in error.message


def test_a_vendor_code_of_any_length_reaches_the_message_on_one_line_and_cut():
    """The vendor's code is its own words, as its message is: a hostile 20 KB code with line breaks
    went whole into the error (and the tool's error line a model reads)."""
    code = "CODE_" + "X\n" * 10_000
    error, _ = search(brave_error(422, code, "?"), status=422)
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_422"
    assert "\n" not in error.message and "CODE_X X" in error.message
    assert len(error.message) < 1000 and "CODE_" + "X " * 146 + "...: ?" in error.message  # 300 characters


def test_429_carries_the_rate_limit_reset():
    headers = {"X-RateLimit-Limit": "1, 2000", "X-RateLimit-Remaining": "0, 1998", "X-RateLimit-Reset": "1, 1419704"}
    error, _ = search(
        brave_error(429, "RATE_LIMITED", "Request rate limit exceeded for plan."), status=429, headers=headers
    )
    assert isinstance(error, ws.WebBlocked) and error.detail_code == "http_429"
    assert error.retryable is True and error.retry_after == 1.0
    assert "RATE_LIMITED" in error.message


def test_429_with_the_months_quota_used_up_waits_for_the_month_not_a_second():
    """The recorded headers (Brave's documented form), the monthly window at 0 instead of the
    per-second one: the wait is the month window's reset (capped at a day), so no retry is sent
    within the call and the cool-down keeps brave aside, instead of a retry every second."""
    headers = {"X-RateLimit-Limit": "1, 2000", "X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 1419704"}
    clock = FakeClock()
    with ws.SearchClient("brave", settings=settings(), retries=2, cache_ttl_s=0, clock=clock) as client:
        error, calls = search(
            brave_error(429, "RATE_LIMITED", "Request rate limit exceeded for plan."),
            status=429,
            headers=headers,
            client=client,
        )
        again, more = search(brave_error(429, "RATE_LIMITED", "?"), status=429, headers=headers, client=client)
    assert isinstance(error, ws.WebBlocked) and error.retry_after == 86400.0 and "retry after 86400 s" in error.message
    assert len(calls) == 1 and clock.sleeps == []
    assert isinstance(again, ws.WebBlocked) and more == []  # cooling down: not asked again


def test_429_prefers_retry_after():
    error, _ = search(
        brave_error(429, "RATE_LIMITED", "slow down"),
        status=429,
        headers={"Retry-After": "7", "X-RateLimit-Reset": "1, 9"},
    )
    assert error.retry_after == 7.0


# -- documentation ------------------------------------------------------------------------


# -- more results than one request gives -----------------------------------------------------


def _pages(mock, *bodies):
    for body in bodies:
        mock.get(URL, body=json.dumps(body), content_type="application/json")


def test_more_than_twenty_results_are_read_as_pages_of_twenty(fake_clock):
    """Brave's web search gives at most 20 results a request (``count`` above 20 is a 422
    ``VALIDATION``), and ``offset`` is a page index of ``count`` results. ``max_results=50``
    asks ``count=20`` at offsets 0, 1, 2 (before: one request with ``count=50``, refused).
    Pages: three recorded answers (20 + 18 + 20 results, distinct URLs)."""
    pages = [recorded("brave-search-python-client__1.json"), recorded("larallama__1.json")]
    pages.append(recorded("brave-search-python-client__1.json"))  # page 3: all repeats
    with responses.RequestsMock() as mock, ws.SearchClient("brave", settings=settings(), cache_ttl_s=0) as client:
        _pages(mock, *pages)
        result = client.search("q", max_results=50)
        sent = [sent_params(call) for call in mock.calls]
    assert [(params["count"], params.get("offset")) for params in sent] == [("20", None), ("20", "1"), ("20", "2")]
    urls = [item["url"] for item in result["items"]]
    assert len(urls) == len(set(urls)) == 38 and result["provider_meta"]["pages"] == 3
    assert [item["rank"] for item in result["items"]] == list(range(1, 39))


@pytest.mark.parametrize("more", [False, "false", 0, {"value": True}], ids=repr)
def test_paging_stops_where_brave_says_no_more_results_are_available(fake_clock, more):
    """``false`` stops, and so does a value that is no boolean (the string ``"false"`` went on paging, each page a
    billed request)."""
    last = recorded("brave-search-python-client__1.json")
    last["query"]["more_results_available"] = more
    with responses.RequestsMock() as mock, ws.SearchClient("brave", settings=settings(), cache_ttl_s=0) as client:
        _pages(mock, last)
        result = client.search("q", max_results=30)
        calls = len(mock.calls)
    assert calls == 1 and len(result["items"]) == 20 and result["provider_meta"]["pages"] == 1


def test_twenty_results_or_fewer_are_one_request():
    _, calls = search(recorded("brave-search-python-client__1.json"), max_results=20)
    assert len(calls) == 1 and sent_params(calls[0])["count"] == "20" and "offset" not in sent_params(calls[0])

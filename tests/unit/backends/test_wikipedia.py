"""wikipedia: the request (edition, User-Agent), article URLs, the answer, the error envelope.

Answers come from fixtures/wikipedia (real recordings); a variant edits one.
"""

import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.backends.wikipedia import DEFAULT_USER_AGENT, article_url

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "wikipedia"
JSON = "application/json; charset=utf-8"


def body(name):
    return (FIXTURES / name).read_text(encoding="utf-8")


def search(answer, *, status=200, headers=None, edition="en", settings=None, query="q", **kwargs):
    """ws.search (no retries) against one replayed answer of ``edition``'s API; (result or error, the request sent)."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add(
            "GET",
            "https://%s.wikipedia.org/w/api.php" % edition,
            body=answer,
            status=status,
            headers=headers or {},
            content_type=JSON,
        )
        try:
            result = ws.search(query, backend="wikipedia", settings=settings or ws.Settings(), retries=0, **kwargs)
        except ws.WebSearchError as error:
            result = error
        return result, (mock.calls[0].request if mock.calls else None)


# -- article URLs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "opensearch_elon.json",
        "mediawiki__opensearch_new-york_resolve.json",
        "mediawiki__opensearch_new-york_return.json",
    ],
)
def test_article_urls_are_built_as_wikipedia_builds_them(name):
    _, titles, _, urls = json.loads(body(name))  # opensearch answers pair each title with Wikipedia's own URL
    assert [article_url("en", title) for title in titles] == urls


def test_article_url_of_other_editions_and_characters():
    assert article_url("de", "C++") == "https://de.wikipedia.org/wiki/C%2B%2B"
    assert article_url("zh", "搜索引擎") == "https://zh.wikipedia.org/wiki/%E6%90%9C%E7%B4%A2%E5%BC%95%E6%93%8E"
    assert (
        article_url("en", "Rust (programming language)") == "https://en.wikipedia.org/wiki/Rust_(programming_language)"
    )


# -- the request -----------------------------------------------------------------------------------


def test_request_is_list_search_with_a_descriptive_user_agent():
    _, request = search(body("perito-moreno__list-search.json"), query="perito moreno", max_results=4)
    assert request.url.startswith("https://en.wikipedia.org/w/api.php?")
    assert dict(parse_qsl(urlsplit(request.url).query)) == {
        "action": "query",
        "list": "search",
        "srsearch": "perito moreno",
        "srlimit": "4",
        "format": "json",
        "formatversion": "2",
        "utf8": "1",
    }
    assert (
        request.headers["User-Agent"]
        == DEFAULT_USER_AGENT
        == "websearch-sync/%s (contact not set; see WIKIPEDIA_CONTACT)" % ws.__version__
    )
    assert "Mozilla" not in request.headers["User-Agent"]
    assert request.headers["Accept"] == "application/json"


def test_user_agent_and_edition_from_the_environment(monkeypatch):
    monkeypatch.setenv("WIKIPEDIA_USER_AGENT", "MyAgent/1.0 (https://example.org/bot; bot@example.org)")
    monkeypatch.setenv("WIKIPEDIA_LANG", "de")
    result, request = search(body("celina__wiki_search.json"), edition="de", settings=ws.Settings.from_env())
    assert request.headers["User-Agent"] == "MyAgent/1.0 (https://example.org/bot; bot@example.org)"
    assert result["items"][0]["url"] == "https://de.wikipedia.org/wiki/Caffeine-induced_sleep_disorder"


def test_the_user_agent_names_no_page_that_does_not_exist_and_carries_the_operators_contact(monkeypatch, fake_clock):
    """The project is published nowhere: a made-up home page (the old pypi.org one) is no contact."""
    _, request = search(body("perito-moreno__list-search.json"), query="perito moreno", max_results=4)
    assert "http" not in request.headers["User-Agent"]
    monkeypatch.setenv("WIKIPEDIA_CONTACT", "https://ops.example.org/bot; bot@example.org")
    _, request = search(
        body("perito-moreno__list-search.json"), query="perito moreno", max_results=4, settings=ws.Settings.from_env()
    )
    assert (
        request.headers["User-Agent"]
        == "websearch-sync/%s (https://ops.example.org/bot; bot@example.org)" % ws.__version__
    )


@pytest.mark.parametrize(
    "options, edition",
    [
        ({"locale": "fr-FR"}, "fr"),
        ({"lang": "zh-Hant-TW"}, "zh"),
        ({"wiki": "simple"}, "simple"),
        ({"wiki": "de", "locale": "fr-FR"}, "de"),
    ],
)
def test_the_edition_follows_the_wiki_option_then_the_locale(options, edition):
    result, request = search(body("celina__wiki_search.json"), edition=edition, **options)
    assert request.url.startswith("https://%s.wikipedia.org/w/api.php?" % edition)
    assert result["items"][0]["url"].startswith("https://%s.wikipedia.org/wiki/" % edition)


@pytest.mark.parametrize("wiki", ["", "en.wikipedia.org/", "../x", 7])
def test_a_bad_wiki_option_is_refused_before_any_request(wiki):
    result, request = search(body("celina__wiki_search.json"), wiki=wiki)
    assert isinstance(result, ws.InvalidInput) and result.detail_code == "bad_wiki" and request is None


@pytest.mark.parametrize(("wiki", "tag"), [("english", "en"), ("German", "de"), ("old church slavonic", "cu")])
def test_a_languages_name_as_the_wiki_option_names_its_tag(wiki, tag):
    """``wiki="english"`` was refused with no hint, while ``locale="english"`` named ``en`` (one table)."""
    result, request = search(body("celina__wiki_search.json"), wiki=wiki)
    assert isinstance(result, ws.InvalidInput) and request is None
    assert result.message.endswith("got %r (a language's name: give its tag, %s)" % (wiki, tag))


def test_a_wiki_option_naming_no_language_gets_no_such_hint():
    result, _ = search(body("celina__wiki_search.json"), wiki="wikipedia")
    assert "language's name" not in result.message


def test_site_filter_does_not_reach_the_search_and_pageno_sets_the_offset():
    _, request = search(
        body("celina__wiki_search.json"), query="glacier", site_filter="example.com", pageno=3, max_results=5
    )
    query = dict(parse_qsl(urlsplit(request.url).query))
    assert (query["srsearch"], query["sroffset"], query["srlimit"]) == ("glacier", "10", "5")


def test_queries_over_300_characters_are_refused_before_any_request():
    result, request = search(body("celina__wiki_search.json"), query="a" * 301)
    assert isinstance(result, ws.InvalidInput) and result.detail_code == "query_too_long" and request is None


# -- the answer ------------------------------------------------------------------------------------


def test_a_formatversion_2_answer_reads_like_the_recorded_formatversion_1_one(fake_clock):
    recorded = json.loads(body("perito-moreno__list-search.json"))
    v1, _ = search(json.dumps(recorded), max_results=10)
    recorded["batchcomplete"] = True  # what formatversion=2 changes in a list=search answer
    v2, _ = search(json.dumps(recorded), max_results=10)
    expected = json.loads(body("perito-moreno__list-search.expected.json"))["items"]
    assert v1["items"] == v2["items"] == expected


def test_an_empty_search_list_is_zero_results():
    recorded = json.loads(body("celina__wiki_search.json"))
    recorded["query"]["search"] = []
    result, _ = search(json.dumps(recorded))
    assert result["items"] == []


@pytest.mark.parametrize("shape", ["titles", "nulls", "numbers"])
def test_a_search_list_of_no_json_object_is_an_unknown_shape_not_zero_results(shape):
    """The recorded answer with each result replaced by its title (opensearch's way of listing
    them), by ``null`` or by its page id: the URL is built from a result's title, so the shared
    check for results without a URL never ran, and the answer was "no results", cached as a success."""
    recorded = json.loads(body("celina__wiki_search.json"))
    listed = recorded["query"]["search"]
    assert listed
    recorded["query"]["search"] = [
        {"titles": entry["title"], "nulls": None, "numbers": entry["pageid"]}[shape] for entry in listed
    ]
    result, _ = search(json.dumps(recorded))
    assert isinstance(result, ws.WebParseError) and result.detail_code == "unexpected_shape", result
    assert "%d result(s), none a JSON object" % len(listed) in result.message, result.message


@pytest.mark.parametrize("key", ["warnings", "*"], ids=["formatversion-2", "formatversion-1"])
def test_an_answer_the_search_module_warned_about_is_not_cached(key, fake_clock):
    """CirrusSearch answers a search that timed out with what it found and a warning
    (``cirrussearch-timed-out``, Searcher.php), which the API's default ``bc`` error format writes
    as English text under ``warnings.search`` (``ApiErrorFormatter_BackCompat``). The text here
    stands for any: the reading does not depend on it. Before: the answer was cached as complete
    (the same search within the TTL sent nothing); an answer without a warning still is."""
    recorded = json.loads(body("celina__wiki_search.json"))
    warned = dict(recorded, warnings={"search": {key: "The search timed out, only partial results are available."}})
    with ws.SearchClient(backend="wikipedia", cache_ttl_s=300, retries=0, clock=fake_clock) as client:
        for query, answer, sent in (("celina warned", warned, [1, 2]), ("celina", recorded, [1, 1])):
            calls = []
            with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
                mock.add("GET", "https://en.wikipedia.org/w/api.php", body=json.dumps(answer), content_type=JSON)
                for _ in range(2):
                    result = client.search(query, max_results=3)
                    calls.append(len(mock.calls))
            assert result["items"] and calls == sent


@pytest.mark.parametrize("answer", ['{"batchcomplete": ""}', "[]", '{"query": {"search": {}}}'])
def test_answers_without_a_search_list_are_parse_errors(answer):
    result, _ = search(answer)
    assert isinstance(result, ws.WebParseError) and result.detail_code == "unexpected_shape"


def test_an_html_page_where_json_belongs_is_not_json():
    result, _ = search("<html><body><h1>Wikimedia Error</h1><p>Our servers are busy</p></body></html>")
    assert isinstance(result, ws.WebParseError) and result.detail_code == "not_json"


def test_a_bot_wall_where_json_belongs_is_a_block():
    """A challenge page (DDG's recorded anomaly page here) is the block it is, not "not JSON"."""
    result, _ = search((FIXTURES.parent / "ddg_html" / "meka__ddg_anomaly.html").read_bytes())
    assert isinstance(result, ws.WebBlocked) and result.detail_code == "captcha_required"


def test_a_403_is_a_blocked_client_not_an_api_key_problem():
    result, _ = search("<html><body>Please set a user-agent and respect our robot policy</body></html>", status=403)
    assert isinstance(result, ws.WebBlocked) and result.detail_code == "http_403"


def test_a_402_is_an_unexpected_status_not_a_refused_key():
    """docs/errors.md: a keyless backend's 402 is ``WebProviderError`` ``http_402`` (no key to check)."""
    result, _ = search("Payment Required", status=402)
    assert type(result) is ws.WebProviderError and result.detail_code == "http_402", result


# -- the error envelope ------------------------------------------------------------------------------


def test_maxlag_is_a_retryable_bad_gateway_with_the_wait_wikimedia_asked_for():
    result, _ = search(body("maxlag.json"), headers={"Retry-After": "5"})
    assert isinstance(result, ws.BadGateway)
    assert (result.detail_code, result.status, result.retryable, result.retry_after) == ("maxlag", 200, True, 5.0)
    assert "seconds lagged" in result.message


def test_the_client_waits_out_maxlag_and_asks_again():
    clock = FakeClock()
    with responses.RequestsMock() as mock:
        mock.add(
            "GET",
            "https://en.wikipedia.org/w/api.php",
            body=body("maxlag.json"),
            headers={"Retry-After": "5"},
            content_type=JSON,
        )
        mock.add("GET", "https://en.wikipedia.org/w/api.php", body=body("celina__wiki_search.json"), content_type=JSON)
        with ws.SearchClient(
            "wikipedia", settings=ws.Settings(), retries=1, cache_ttl_s=0, clock=clock, budget_ms=60000
        ) as client:
            result = client.search("caffeine sleep")
    assert result["provider_meta"]["attempts"] == 2 and len(result["items"]) == 1
    assert 5.0 in clock.sleeps


@pytest.mark.parametrize(
    "code, error, detail",
    [
        ("ratelimited", ws.WebBlocked, "http_429"),
        ("badvalue", ws.InvalidInput, "invalid_params"),
        ("cirrussearch-query-too-long", ws.InvalidInput, "query_too_long"),
        ("internal_api_error_DBQueryError", ws.WebProviderError, "api_error"),
        # CirrusSearch's Searcher.php, its pool counter's full queue: Status::newFatal of these keys;
        # before: a non-retryable api_error for an answer that says "Please try again later"
        ("cirrussearch-too-busy-error", ws.BadGateway, "search_busy"),
        ("cirrussearch-regex-too-busy-error", ws.BadGateway, "search_busy"),
        ("cirrussearch-backend-error", ws.BadGateway, "search_busy"),
    ],
)
def test_other_error_codes(code, error, detail):
    answer = body("maxlag.json").replace('"code":"maxlag"', '"code":"%s"' % code)
    result, _ = search(answer)
    assert type(result) is error and result.detail_code == detail


@pytest.mark.parametrize("wiki", ["en-US", "pt-BR", "zh-TW", "zh-Hant", "sr-Latn", "zh-Hans-CN", "sr-Cyrl"])
def test_a_locale_as_the_wiki_option_is_refused_before_any_request(wiki):
    """``wiki="en-US"`` was sent to ``en-us.wikipedia.org``, ``wiki="zh-Hant"`` to ``zh-hant.wikipedia.org``:
    no editions (an edition is a language, ``en``, ``zh``; ``locale`` takes the tag). Refused naming
    the form an edition has."""
    result, request = search(body("celina__wiki_search.json"), wiki=wiki)
    assert isinstance(result, ws.InvalidInput) and result.detail_code == "bad_wiki" and request is None
    assert "language alone" in result.message


@pytest.mark.parametrize("wiki", ["nds-nl", "zh-yue", "zh-min-nan", "zh-classical", "roa-tara", "be-tarask", "simple"])
def test_editions_with_subtags_are_still_taken(wiki):
    _, request = search(body("celina__wiki_search.json"), wiki=wiki, edition=wiki)
    assert request.url.startswith("https://%s.wikipedia.org/w/api.php?" % wiki)

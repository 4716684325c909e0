"""The searxng backend: configuration, request building, parsing, error mapping.

Bodies come from the recorded responses in fixtures/searxng/ (edited copies where
a test needs a field the recordings lack, e.g. publishedDate)."""

import json
import re
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from backend_kit import recorded_json, replay_search
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.backends.searxng import JS_CHALLENGE, SearXNG
from websearch_sync.models import SearchParams
from websearch_sync.net.botwall import bot_wall

BASE = "https://searx.example.org"
URL = BASE + "/search"


def recorded(name):
    return recorded_json("searxng", name)


def settings(**provider):
    return ws.Settings(providers={"searxng": {"base_url": BASE, **provider}})


def search(body=None, *, url=URL, settings_=None, **kwargs):
    """One searxng search against a replayed answer; returns (result or error, calls)."""
    return replay_search("searxng", url, body, settings=settings_ or settings(), **kwargs)


def sent_params(call):
    from urllib.parse import parse_qs, urlsplit

    return {k: v[0] for k, v in parse_qs(urlsplit(call.request.url).query).items()}


# -- configuration ----------------------------------------------------------------------


def test_base_url_with_a_path_and_trailing_slash():
    backend = SearXNG(ws.Settings(providers={"searxng": {"base_url": "https://host.example/searx/"}}))
    assert backend.build_request(SearchParams("q", 5)).url == "https://host.example/searx/search"


def test_endpoint_override_replaces_the_url_and_stands_in_for_the_base_url():
    backend = SearXNG(ws.Settings(endpoints={"searxng": "http://mirror.example/s"}))
    assert backend.is_configured()
    assert backend.build_request(SearchParams("q", 5)).url == "http://mirror.example/s"


def test_a_base_urls_query_string_is_dropped_with_one_warning_naming_its_fields_not_their_values(caplog):
    """``SEARXNG_BASE_URL=https://searx.example/?token=...`` lost its query string without a word
    (dropped on purpose: users paste ``/search?q=`` URLs): now said once, the token never shown."""
    import logging

    base = "https://searx.example/?token=s3cr3t-t0ken&k=v2&bare-secret"
    backend = SearXNG(ws.Settings(providers={"searxng": {"base_url": base}}))
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        for _ in range(3):
            backend.check(SearchParams("q", 5))
            SearXNG(ws.Settings(providers={"searxng": {"base_url": base}})).check(SearchParams("q", 5))
    assert backend.build_request(SearchParams("q", 5)).url == "https://searx.example/search"
    said = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert len(said) == 1
    assert "SEARXNG_BASE_URL" in said[0] and "'token'" in said[0] and "'k'" in said[0]
    assert not any(secret in said[0] for secret in ("s3cr3t", "v2", "bare-secret"))


# -- the request ------------------------------------------------------------------------


def test_request_carries_language_time_range_safesearch_and_options():
    _, calls = search(
        recorded("shortlist__1.json"),
        locale="en_US",
        time_range="week",
        safe_search="strict",
        categories=["general", "news"],
        engines="google,bing",
        pageno=2,
    )
    call, *config = calls  # the time range has /config read after the search (unanswered here: no warning)
    assert [c.request.url for c in config] == [BASE + "/config"]
    params = sent_params(call)
    assert (
        float(params.pop("timeout_limit")) > 0
    )  # what is left of the deadline (tests/sockets/test_searxng_metaengine.py)
    assert params == {
        "q": "q",
        "format": "json",
        "locale": "en",
        "language": "en-US",
        "time_range": "week",
        "safesearch": "2",
        "categories": "general,news",
        "engines": "google,bing",
        "pageno": "2",
    }
    assert call.request.headers["Accept"] == "application/json, text/html;q=0.9"
    assert call.request.headers["Accept-Language"] == "en-US,en;q=0.9"
    assert "Authorization" not in call.request.headers


def test_api_key_is_sent_as_a_bearer_token():
    _, calls = search(recorded("shortlist__1.json"), settings_=settings(api_key="sx-key-123"))
    assert calls[0].request.headers["Authorization"] == "Bearer sx-key-123"


@pytest.mark.parametrize(
    "option, value, detail",
    [
        ("categories", [], "bad_categories"),
        ("engines", [1], "bad_engines"),
        ("engines", " ", "bad_engines"),
        ("pageno", 0, "bad_pageno"),
        ("pageno", True, "bad_pageno"),
    ],
)
def test_bad_option_values_are_invalid_input_before_any_request(option, value, detail):
    outcome, calls = search(recorded("shortlist__1.json"), **{option: value})
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == detail
    assert calls == []


# -- parsing ----------------------------------------------------------------------------


def test_published_date_becomes_published_at_and_unknown_fields_are_ignored():
    body = recorded("shortlist__1.json")
    body["results"][0]["publishedDate"] = "2025-01-30T00:00:00"
    body["results"][1].pop("content")
    body["results"][1]["brand_new_field"] = {"x": 1}
    body["number_of_results"] = 0  # older instances send it (often 0): ignored
    body["another_new_top_level_key"] = []
    del body["unresponsive_engines"]
    result, _ = search(body)
    assert result["items"][0]["published_at"] == "2025-01-30T00:00:00Z"  # no offset: UTC
    assert "published_at" not in result["items"][1]
    assert result["items"][1]["snippet"] == ""
    assert "errors" not in result


def test_unresponsive_engines_are_reported_without_failing_the_call():
    result, _ = search(recorded("shortlist__1.json"), max_results=5)
    assert len(result["items"]) == 5
    errors = result["errors"]
    assert [(e["type"], e["detail_code"], e["retryable"]) for e in errors] == [
        ("WebBlocked", "http_429", False),
        ("WebBlocked", "captcha_required", False),
        ("WebBlocked", "captcha_required", False),
    ]
    assert all(e["provider"] == "searxng" for e in errors)
    assert "'brave'" in errors[0]["message"] and "too many requests" in errors[0]["message"]
    assert set(errors[0]) >= {"type", "message", "retryable"}


def test_connection_errors_of_engines_are_provider_errors():
    result, _ = search(recorded("browse-API__1.json"))
    assert {(e["type"], e["detail_code"]) for e in result["errors"]} == {("WebProviderError", "engine_error")}
    assert len(result["errors"]) == 4


@pytest.mark.parametrize(
    "engines, code, detail",
    [
        # the instance skips the blocked engine from now on; the one that timed out may answer at once
        ([["duckduckgo", "CAPTCHA"], ["google", "timeout"]], "Timeout", "engine_timeout"),
        ([["bing", "HTTP connection error"], ["google", "timeout"]], "Timeout", "engine_timeout"),
        ([["bing", "HTTP connection error"]], "WebProviderError", "engine_error"),
        ([["qwant", "access denied"]], "WebBlocked", "http_403"),
    ],
)
def test_no_results_while_engines_failed_is_an_error_not_an_empty_list(engines, code, detail):
    body = recorded("shortlist__1.json")
    body["results"] = []
    body["unresponsive_engines"] = engines
    error, _ = search(body)
    assert isinstance(error, ws.WebSearchError)
    assert (error.code, error.detail_code) == (code, detail)
    assert len(error.errors) == len(engines)  # each engine's failure once
    assert all(name in e.message for (name, _), e in zip(engines, error.errors))


def test_genuinely_empty_answer_is_success_with_no_items():
    body = recorded("shortlist__1.json")
    body["results"] = []
    body["unresponsive_engines"] = []
    result, _ = search(body)
    assert result["items"] == []


@pytest.mark.parametrize("body", [{"answers": []}, {"results": {"url": "x"}}, ["results"]])
def test_json_of_another_shape_is_a_parse_error(body):
    error, _ = search(body)
    assert isinstance(error, ws.WebParseError) and error.detail_code == "unexpected_shape"


def test_html_answer_with_200_is_a_parse_error():
    error, _ = search("<!DOCTYPE html><html><body>results</body></html>", content_type="text/html")
    assert isinstance(error, ws.WebParseError) and error.detail_code == "not_json"


# -- errors -----------------------------------------------------------------------------


def test_403_with_html_says_to_enable_json_in_search_formats():
    page = "<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n"
    error, _ = search(page, status=403, content_type="text/html; charset=utf-8")
    assert isinstance(error, ws.AuthError) and error.status == 403
    assert "`json`" in error.message and "search.formats" in error.message


def test_403_without_html_is_auth_error_without_the_formats_hint():
    error, _ = search("Forbidden", status=403, content_type="text/plain")
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_403"
    assert "search.formats" not in error.message


#: What a reverse proxy (nginx ``auth_basic``, Caddy ``basicauth``) in front of an instance answers.
BASIC_CHALLENGE = {"WWW-Authenticate": 'Basic realm="SearXNG"'}


@pytest.mark.parametrize("key", [None, "sx-bearer-0001"])
def test_a_401_asking_for_basic_auth_says_to_put_user_and_password_in_the_base_url(key):
    provider = {"api_key": key} if key else {}
    error, calls = search(
        "401 Authorization Required",
        status=401,
        content_type="text/plain",
        headers=BASIC_CHALLENGE,
        settings_=settings(**provider),
        query="basic %s" % key,
    )
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_401" and len(calls) == 1
    assert "https://user:password@host/" in error.message and "SEARXNG_BASE_URL" in error.message
    assert ("bearer token, which it does not take" in error.message) == bool(key)
    assert key is None or key not in error.message


def test_a_401_refusing_the_user_and_password_of_the_base_url_says_to_check_them():
    base = "https://alice:s3cret-pw@searx.example.org"
    error, calls = search(
        "401 Authorization Required",
        status=401,
        content_type="text/plain",
        headers=BASIC_CHALLENGE,
        settings_=ws.Settings(providers={"searxng": {"base_url": base}}),
        url=re.compile(r"https://alice:s3cret-pw@searx\.example\.org/search.*"),  # requests keeps the userinfo
    )
    assert isinstance(error, ws.AuthError) and "refused the user name and password" in error.message
    assert "s3cret-pw" not in str(error) and calls[0].request.headers["Authorization"].startswith("Basic ")


@pytest.mark.parametrize("key, remedy", [(None, "no key was sent: set one in"), ("sx-bearer-0002", "check the key in")])
def test_a_401_of_a_token_proxy_says_whether_a_key_was_sent(key, remedy):
    provider = {"api_key": key} if key else {}
    error, _ = search(
        "Unauthorized", status=401, content_type="text/plain", settings_=settings(**provider), query="token %s" % key
    )
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_401"
    assert "%s Settings.providers['searxng']['api_key'] (SEARXNG_API_KEY)" % remedy in error.message


def test_a_402_with_no_key_sent_names_the_instances_account_not_a_key_to_set():
    error, _ = search("Payment Required", status=402, content_type="text/plain")
    assert isinstance(error, ws.AuthError) and error.detail_code == "http_402"
    assert error.message.endswith(
        "no key was sent, so the account refused is the service's own: its plan or credit used up"
    )


def test_400_carries_searxng_s_own_message():
    error, _ = search({"error": "No query"}, status=400)
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_400"
    assert "No query" in error.message


# -- documentation ------------------------------------------------------------------------


def test_soft_errors_of_a_successful_search_never_show_the_key():
    key = "sx-SECRET-9f8e7d6c5b4a"
    body = {
        "query": "q",
        "results": [{"title": "A", "url": "https://a.example/", "content": "a"}],
        "unresponsive_engines": [["google", "rejected token %s" % key]],
    }
    result, _ = search(body, settings_=settings(api_key=key))
    assert result["errors"] and result["items"]
    assert key not in json.dumps(result)


def test_the_answers_and_suggestions_an_instance_passes_on_never_show_the_key():
    """Items, soft errors and the request id were cleaned of the key; ``extras`` (SearXNG's answers, suggestions,
    corrections, infoboxes) were passed on as the instance wrote them, an echoed key included."""
    key = "sx-SECRET-9f8e7d6c5b4a"
    body = recorded("shortlist__1.json")
    body["answers"] = ["your token is %s" % key]
    body["suggestions"] = ["try %s" % key]
    body["infoboxes"] = [
        {"infobox": "Token", "content": "the key %s" % key, "urls": [{"title": key, "url": "https://i/"}]}
    ]
    result, _ = search(body, settings_=settings(api_key=key))
    extras = result["provider_meta"]["extras"]
    assert {"answers", "suggestions", "infoboxes"} <= set(extras) and result["items"]
    assert key not in json.dumps(result) and "***" in json.dumps(extras)


def test_answers_past_their_cap_in_all_are_left_out_and_counted():
    """Each answer's fields were capped but not the answers together: ten answers with a URL of 8 KB
    each came to 80 KB. Those past ``MAX_ANSWERS_CHARS`` are left out, and a warning counts them."""
    from websearch_sync.backends.searxng_extras import MAX_ANSWERS_CHARS
    from websearch_sync.tool import format_results

    body = recorded("shortlist__1.json")
    long_url = "https://answers.example/" + "a" * 8000
    body["answers"] = [{"answer": "answer %d" % n, "url": long_url + str(n), "engine": "e"} for n in range(10)]
    result, _ = search(body)
    answers = result["provider_meta"]["extras"]["answers"]
    assert [a["text"] for a in answers] == ["answer 0"] and result["items"]
    assert len(json.dumps(result["provider_meta"]["extras"])) < 2 * MAX_ANSWERS_CHARS
    warnings = [e for e in result["errors"] if e.get("detail_code") == "answers_left_out"]
    assert [w["message"] for w in warnings] == [
        "searxng's answers come to over %d characters, the most kept of them in all: 1 answer kept,"
        " 9 others left out" % MAX_ANSWERS_CHARS
    ]
    assert "Note: searxng's answers come to over" in format_results(result, untrusted_notice=False)


@pytest.mark.parametrize(
    "answers",
    [["42", "42"], [{"answer": "42", "engine": "duckduckgo"}, {"answer": "42", "engine": "wikidata"}]],
    ids=["strings", "two_engines"],
)
def test_an_answer_given_twice_is_kept_once(answers):
    """``["42", "42"]`` (an older instance's strings, or two engines' same answer) gave two answers of one
    text: SearXNG keeps its answers in a set (one per text), which an instance or a proxy did not. The
    first is kept."""
    body = recorded("shortlist__1.json")
    body["answers"] = answers + ["7"]
    result, _ = search(body)
    kept = result["provider_meta"]["extras"]["answers"]
    assert [a["text"] for a in kept] == ["42", "7"], kept
    assert kept[0]["engine"] == (None if answers[0] == "42" else "duckduckgo"), kept


def test_short_answers_are_all_kept_without_a_warning():
    body = recorded("shortlist__1.json")
    body["answers"] = [{"answer": "answer %d" % n, "url": "https://a.example/%d" % n, "engine": "e"} for n in range(10)]
    result, _ = search(body)
    assert len(result["provider_meta"]["extras"]["answers"]) == 10
    assert not [e for e in result.get("errors") or [] if e.get("detail_code") == "answers_left_out"]


# -- a public instance's JavaScript challenge --------------------------------------------------

JS_CHALLENGE_PAGE = (
    Path(__file__).resolve().parents[3] / "fixtures" / "searxng" / "searx-be__js_challenge.html"
).read_text(encoding="utf-8")


def test_the_recorded_js_challenge_is_the_wall_whole_and_no_page_with_part_of_it():
    """searx.be's "Verifying your request" page is the wall; a page with only some of its marks
    (a download page's countdown, a ``<noscript>`` asking for JavaScript) is none: the wall
    needs the heading, the countdown and the ``<noscript>`` together."""
    assert bot_wall(URL, JS_CHALLENGE_PAGE, [JS_CHALLENGE]) == JS_CHALLENGE.name
    download = (
        "<html><body><h1>Your download starts soon</h1><p>in <span id='countdowntimer'>5</span> s</p>"
        "<noscript>Please enable JavaScript to start it.</noscript></body></html>"
    )
    assert bot_wall(URL, download, [JS_CHALLENGE]) is None
    without_countdown = JS_CHALLENGE_PAGE.replace('id="countdowntimer"', 'id="timer"')
    assert bot_wall(URL, without_countdown, [JS_CHALLENGE]) is None


def test_the_engines_asked_beyond_ten_are_counted_not_dropped():
    """Before: the 'asked' list of time_range_skipped stopped at ten names without saying more were asked."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import TIME_RANGE

    engines = [{"name": "e%d" % i, "categories": ["general"], "time_range_support": i != 0} for i in range(15)]
    warning = TIME_RANGE.skipped(read_config({"categories": ["general"], "engines": engines}), None, None)
    assert warning.message.endswith(": e0; asked: e1, e2, e3, e4, e5, e6, e7, e8, e9, e10 and 4 more")


def test_a_cached_time_range_note_revised_keeps_its_place_among_the_notes(monkeypatch):
    """Once ``/config`` is known, a cached answer's note that the time range was unverified becomes
    the engines it skipped, where the note was: before, the revised note went to the end of
    ``errors`` (after a later backend's notes in a merge, say)."""
    from websearch_sync.backends.searxng_config import Engine, InstanceConfig
    from websearch_sync.backends.searxng_names import TIME_RANGE

    config = InstanceConfig(
        engines=(
            Engine("google", ("general",), True, None, True),
            Engine("wikipedia", ("general",), True, None, False),
        ),
        categories=("general",),
    )
    backend = SearXNG(settings())
    monkeypatch.setattr(backend, "instance", lambda: config)
    later = ws.WebProviderError("a later backend's note", provider="brave", detail_code="internal_error").to_dict()
    unverified = TIME_RANGE.unverified("/config was not read").to_dict()
    params = SearchParams("q", 10, time_range="week")
    skipped = TIME_RANGE.skipped(config, None, None)
    assert skipped is not None and "wikipedia" in skipped.message
    assert backend.revise_cached(params, [unverified, later]) == [skipped.to_dict(), later]
    assert backend.revise_cached(params, [later, unverified]) == [later, skipped.to_dict()]


# -- engines asked beside categories ------------------------------------------------------

#: An instance's ``/config`` as ``searx/webapp.py: config`` builds it (the fields the backend reads),
#: with engines of SearXNG's settings.yml: ``wikipedia`` (``categories: [general]``), ``bing news``
#: (its module's ``categories = ['news']``) and ``wikinews`` (``categories: [news, wikimedia]``).
#: ``paging``: ``searx/engines/bing_news.py`` and ``mediawiki.py`` (wikinews) set it, ``wikipedia.py``
#: leaves ``ENGINE_DEFAULT_ARGS``' ``False``. ``shortcut``: settings.yml's (``wp``, ``bin``, ``wn``).
INSTANCE_CONFIG = {
    "categories": ["general", "news", "wikimedia"],
    "engines": [
        {
            "name": "wikipedia",
            "categories": ["general"],
            "enabled": True,
            "timeout": 3.0,
            "time_range_support": False,
            "paging": False,
            "shortcut": "wp",
        },
        {
            "name": "bing news",
            "categories": ["news"],
            "enabled": True,
            "timeout": 3.0,
            "time_range_support": True,
            "paging": True,
            "shortcut": "bin",
        },
        {
            "name": "wikinews",
            "categories": ["news", "wikimedia"],
            "enabled": True,
            "timeout": 5.0,
            "paging": True,
            "shortcut": "wn",
        },
    ],
}


def test_the_engines_asked_beside_categories_run_with_the_categories_engines():
    """``searx/webadapter.py: parse_generic``: with an ``engines`` name it has, an instance also asks
    the engines of the ``categories`` sent beside it. Before: only the named engines were counted,
    so ``timeout_limit`` was capped at their timeouts and a time range judged by them alone."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import TIME_RANGE

    config = read_config(INSTANCE_CONFIG)
    asked = config.engines_asked(["wikipedia"], ["news"])
    assert [e.name for e in asked] == ["wikipedia", "bing news", "wikinews"]
    assert config.engines_timeout_s(["wikipedia"], ["news"]) == 5.0
    assert [e.name for e in config.engines_asked(["wikipedia"], [""])] == ["wikipedia"]
    assert [e.name for e in config.engines_asked(["nosuch"], ["news"])] == ["bing news", "wikinews"]
    skipped = TIME_RANGE.skipped(config, "wikipedia", "news")
    assert skipped is not None and skipped.message.endswith(": wikipedia; asked: bing news, wikinews")


def _config_answer(body):
    return lambda mock: mock.add("GET", BASE + "/config", json=body)


@pytest.mark.parametrize(
    "engines, warned",
    [("wikipedia", None), ("wikipedias", "unknown_engines")],
)
def test_engines_that_found_nothing_beside_categories_are_not_said_ignored(engines, warned):
    """The recorded news answer (``categories=news``: results from ``bing news`` only) for a call
    that also asks an engine: the instance asked it beside the news engines, so no result from it
    proves nothing; ``/config`` (read in the call) tells an engine it has (no warning) from a name
    it ignored. Before: ``unknown_engines`` either way, read from the results alone."""
    result, calls = search(
        recorded("browse-API__news.json"),
        categories=["news"],
        engines=engines,
        extra=[_config_answer(INSTANCE_CONFIG)],
    )
    assert [c.request.url for c in calls[1:]] == [BASE + "/config"]
    warnings = [e for e in result.get("errors", ()) if e.get("detail_code") != "engine_error"]
    assert [e["detail_code"] for e in warnings] == ([warned] if warned else [])
    # parse_generic runs the categories' engines in place of the names it ignored (before: "its default engines")
    assert all("runs the engines of the categories sent beside them (news)" in e["message"] for e in warnings)


@pytest.mark.parametrize(
    "categories, runs",
    [
        (["news", "nosuch"], "the engines of the categories sent beside them (news)"),
        (["nosuch"], "its default engines"),
    ],
)
def test_an_ignored_engine_s_warning_names_only_the_categories_the_instance_has(categories, runs):
    """``parse_generic`` adds the engines of the categories sent beside ``engines`` that it knows and
    ignores the rest; with none it knows, it runs its default engines. Before: every category sent
    was named as run ("(news, nosuch)", "(nosuch)")."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import ignored_names

    results = recorded("browse-API__news.json")["results"]
    warning = ignored_names("engines", "wikipedias", results, [], read_config(INSTANCE_CONFIG), ",".join(categories))
    assert warning is not None and warning.detail_code == "unknown_engines"
    assert "runs %s" % runs in warning.message


@pytest.mark.parametrize(
    "engines, config, warned",
    [
        ("wikipedia", INSTANCE_CONFIG, "option_overridden"),
        ("wikipedias", INSTANCE_CONFIG, "unknown_engines"),
        ("wikipedia", None, None),  # /config unanswered: nothing tells an override from an unknown name
    ],
)
def test_a_bang_in_the_query_that_won_over_the_engines_asked_is_not_called_an_unknown_name(engines, config, warned):
    """``searx/query.py: BangParser``: a ``!name`` the instance knows (``!bing_news`` is its engine
    ``bing news``) sets ``specific``, and ``searx/webadapter.py`` then searches the query's engines
    only, whatever ``engines=`` says. The recorded news answer (results from ``bing news`` alone) for
    a call asking ``wikipedia`` with that bang: ``/config`` (read in the call) tells an engine it has,
    overridden by the bang, from a name it ignored. Before: ``unknown_engines`` from the results
    alone ("the instance ignores names it does not know"), for an engine it has."""
    extra = [_config_answer(config)] if config else []
    result, calls = search(
        recorded("browse-API__news.json"), query="!bing_news artificial intelligence", engines=engines, extra=extra
    )
    assert [c.request.url for c in calls[1:]] == [BASE + "/config"]
    warnings = [e for e in result.get("errors", ()) if e.get("detail_code") != "engine_error"]
    assert [e["detail_code"] for e in warnings] == ([warned] if warned else [])
    if warned == "option_overridden":
        assert "a `!name` in the query" in warnings[0]["message"]
    if warned == "unknown_engines":  # before: "runs its default engines", yet the bang picked them
        assert warnings[0]["message"].endswith("and runs the engines the `!name` in the query picked")


@pytest.mark.parametrize(
    "config, code, tail",
    [
        (INSTANCE_CONFIG, "paging_skipped", ": wikipedia; asked: bing news, wikinews"),
        (None, "paging_unverified", "the results may lack those engines' results"),
    ],
)
def test_a_later_page_names_the_engines_the_instance_did_not_ask_for_it(config, code, tail):
    """``searx/search/processors/abstract.py: get_params``: for ``pageno`` 2 on, an engine without
    ``paging`` is not asked at all, and the answer says nothing of it (no result, no
    ``unresponsive_engines`` entry); ``/config`` (each engine's ``paging``) names it, as for a time
    range. The recorded news answer (results from ``bing news``) for page 2 of ``wikipedia`` beside
    the news category. Before: no note, and no ``/config`` read: a later page of engines that do
    not page read as an empty one."""
    extra = [_config_answer(config)] if config else []
    result, calls = search(
        recorded("browse-API__news.json"), engines="wikipedia", categories=["news"], pageno=2, extra=extra
    )
    assert [c.request.url for c in calls[1:]] == [BASE + "/config"]
    notes = [e for e in result["errors"] if e["detail_code"] != "engine_error"]
    assert [e["detail_code"] for e in notes] == [code]
    assert notes[0]["message"].endswith(tail)


def test_a_cached_later_page_note_is_revised_once_config_is_known(monkeypatch):
    """A ``paging_unverified`` note served from the cache becomes what ``/config`` says, in its place."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import PAGING

    config = read_config(INSTANCE_CONFIG)
    backend = SearXNG(settings())
    monkeypatch.setattr(backend, "instance", lambda: config)
    params = SearchParams("q", 10, options={"engines": ["wikipedia"], "pageno": 2})
    skipped = PAGING.skipped(config, "wikipedia", None)
    assert skipped is not None and skipped.message.endswith(": wikipedia; that was every engine of this search")
    later = ws.WebProviderError("a later backend's note", provider="brave", detail_code="internal_error").to_dict()
    unverified = PAGING.unverified("/config was not read").to_dict()
    assert backend.revise_cached(params, [unverified, later]) == [skipped.to_dict(), later]
    first_page = SearchParams("q", 10, options={"engines": ["wikipedia"]})
    assert backend.revise_cached(first_page, [unverified, later]) == [unverified, later]


@pytest.mark.parametrize(
    "query, bangs, may_pick",
    [
        ("!", [], False),  # a lone ! names nothing
        ("!!", [], False),  # feeling lucky
        ("!!g", [], False),  # an external bang
        ("wow!", [], False),
        ("!wp", ["wp"], True),
        ("x !WP", ["wp"], True),
        ("x\u00a0!wp", ["wp"], True),  # SearXNG splits on \s+, a non-breaking space too
        ("!Bing-News ai !bing_news", ["bing news", "bing news"], True),
        ("a != b", ["="], False),
    ],
)
def test_the_bangs_of_a_query_are_read_as_searxng_reads_them(query, bangs, may_pick):
    """``searx/query.py``: ``BangParser.check`` takes a word starting with one ``!``, ``__call__``
    reads ``-``/``_`` as spaces and lower-cases it. Before: ``a != b`` held a bang, so without
    ``/config`` no ``unknown_engines`` was said for it."""
    from websearch_sync.backends.searxng_query import could_be_name, engine_bangs

    assert engine_bangs(query) == bangs
    assert any(map(could_be_name, bangs)) is may_pick


def test_a_bang_that_can_name_nothing_leaves_an_unknown_engine_said():
    """``a != b`` with an unknown engine: judged from the results, as ``a b`` is (before: nothing
    said, ``/config`` read for it)."""
    result, calls = search(recorded("browse-API__news.json"), query="a != b", engines="wikipedias")
    assert [urlsplit(c.request.url).path for c in calls] == ["/search"]
    assert "unknown_engines" in [e["detail_code"] for e in result["errors"]]


def test_the_engines_of_bangs_as_config_resolves_them():
    """``BangParser._parse``: a shortcut stands for its engine, a name is that engine, a category its
    enabled engines; a name it lacks picks nothing."""
    from websearch_sync.backends.searxng_config import read_config

    config = read_config(INSTANCE_CONFIG)
    assert [[e.name for e in side] for side in config.bang_engines(["wp"])] == [["wikipedia"], ["wikipedia"]]
    assert [[e.name for e in side] for side in config.bang_engines(["news", "bin"])] == [
        ["bing news"],
        ["bing news", "wikinews"],
    ]
    assert config.bang_engines(["=", "nosuch"]) == ([], [])


def test_an_engine_asked_that_a_bang_s_category_searched_is_not_said_overridden():
    """``!news`` picks the news engines (``bing news``, ``wikinews``): ``wikinews`` asked and no
    result from it means it found nothing, not that the bang overrode it. The recorded news answer
    (results from ``bing news``). Before the bang was resolved: ``option_overridden``."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import ignored_names

    results = recorded("browse-API__news.json")["results"]
    config = read_config(INSTANCE_CONFIG)
    assert ignored_names("engines", "wikinews", results, [], config, None, ["news"]) is None
    overridden = ignored_names("engines", "wikipedia", results, [], config, None, ["news"])
    assert overridden is not None and overridden.detail_code == "option_overridden"


def _empty_answer():
    """The shortlist answer with no result and no engine failed (an empty later page)."""
    body = recorded("shortlist__1.json")
    body["results"] = []
    body["unresponsive_engines"] = []
    return body


@pytest.mark.parametrize(
    "query, body, config, code, tail",
    [
        # the bang's engine pages: nothing was skipped (before: "wikipedia; that was every engine")
        ("!bing_news artificial intelligence", recorded("browse-API__news.json"), INSTANCE_CONFIG, None, None),
        # the bang's engine does not page (before: no note, as engines=bing news pages)
        (
            "!wikipedia ai",
            _empty_answer(),
            INSTANCE_CONFIG,
            "paging_skipped",
            ": wikipedia; that was every engine of this search",
        ),
        (
            "ai !WP",
            _empty_answer(),
            INSTANCE_CONFIG,
            "paging_skipped",
            ": wikipedia; that was every engine of this search",
        ),
        ("!wp ai", _empty_answer(), None, "paging_unverified", "the results may lack those engines' results"),
    ],
    ids=["bang-pages", "bang-does-not-page", "shortcut", "config-unknown"],
)
def test_a_later_page_judges_the_engines_a_bang_in_the_query_picked(query, body, config, code, tail):
    """``searx/query.py: BangParser``: a ``!name`` the instance knows (an engine, its ``shortcut``
    as ``/config`` publishes it, a category; ``-``/``_`` read as spaces, lower-cased) picks the
    engines searched, whatever ``engines=`` says; a later page skips those of them without paging.
    Before: the engines were taken from ``engines=`` alone."""
    extra = [_config_answer(config)] if config else []
    other = "wikipedia" if "bing" in query else "bing news"
    result, calls = search(body, query=query, engines=other, pageno=2, extra=extra)
    assert [c.request.url for c in calls[1:]] == [BASE + "/config"]
    notes = [e for e in result["errors"] if e["detail_code"].startswith("paging")]
    assert [e["detail_code"] for e in notes] == ([code] if code else [])
    assert not code or notes[0]["message"].endswith(tail)


def test_a_time_range_judges_the_engines_a_bang_in_the_query_picked():
    """As for a later page: with ``!wp`` the instance searched wikipedia (no time-range support),
    not the ``bing news`` asked. Before: no note."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import TIME_RANGE

    config = read_config(INSTANCE_CONFIG)
    skipped = TIME_RANGE.skipped(config, "bing news", None, ["wp"])
    assert skipped is not None and skipped.message.endswith(": wikipedia; that was every engine of this search")
    assert TIME_RANGE.skipped(config, "bing news", None) is None
    assert TIME_RANGE.skipped(config, "bing news", None, ["nosuch"]) is None  # a name it lacks: engines= holds


#: ``duckduckgo`` as the stock settings.yml's ``/config`` publishes it (SearXNG HEAD): a general
#: engine that pages, beside ``wikipedia``, which does not.
DUCKDUCKGO = {
    "name": "duckduckgo",
    "categories": ["general", "web"],
    "enabled": True,
    "paging": True,
    "time_range_support": True,
    "shortcut": "ddg",
}


def test_a_later_page_of_a_default_search_does_not_note_the_category_engines_that_do_not_page():
    """A stock instance's general category holds engines without paging (wikipedia, currency,
    wikidata, ...): every later page of a default search skips them, and their results were on the
    first. Before: each later page said so (``paging_skipped``). Still noted: one named in
    ``engines=`` or by a ``!name``, or every engine asked; and a time range's skip, whose results
    are missing from the search."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import PAGING, TIME_RANGE

    published = {
        "categories": ["general", "news", "web", "wikimedia"],
        "engines": [*INSTANCE_CONFIG["engines"], DUCKDUCKGO],
    }
    config = read_config(published)
    result, calls = search(recorded("shortlist__1.json"), pageno=2, extra=[_config_answer(published)])
    assert [c.request.url for c in calls[1:]] == [BASE + "/config"]
    assert not [e for e in result["errors"] if e["detail_code"].startswith("paging")]
    assert PAGING.skipped(config, None, None) is None
    assert PAGING.skipped(config, None, "web") is None  # duckduckgo alone: nothing skipped
    named = PAGING.skipped(config, "wikipedia", "general")
    assert named is not None and named.message.endswith(": wikipedia; asked: duckduckgo")
    assert PAGING.skipped(config, None, None, ["general"]) is None  # a category: its engines are not named
    assert PAGING.skipped(config, None, None, ["wp"]) is not None
    every = PAGING.skipped(read_config(INSTANCE_CONFIG), None, None)  # wikipedia was all of general
    assert every is not None and every.message.endswith(": wikipedia; that was every engine of this search")
    assert TIME_RANGE.skipped(config, None, None).message.endswith(": wikipedia; asked: duckduckgo")


def test_a_cached_answer_with_both_notes_unverified_has_both_revised_in_place(monkeypatch):
    """A later page with a time range, served from the cache once ``/config`` is known: each note
    becomes what its rule says, where it was."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import PAGING, TIME_RANGE

    config = read_config(INSTANCE_CONFIG)
    backend = SearXNG(settings())
    monkeypatch.setattr(backend, "instance", lambda: config)
    params = SearchParams("q", 10, time_range="week", options={"engines": ["wikipedia"], "pageno": 2})
    later = ws.WebProviderError("a later backend's note", provider="brave", detail_code="internal_error").to_dict()
    notes = [TIME_RANGE.unverified("/config was not read").to_dict(), later, PAGING.unverified("idem").to_dict()]
    revised = backend.revise_cached(params, notes)
    assert [e["detail_code"] for e in revised] == ["time_range_skipped", "internal_error", "paging_skipped"]
    assert revised == [
        TIME_RANGE.skipped(config, "wikipedia", None).to_dict(),
        later,
        PAGING.skipped(config, "wikipedia", None).to_dict(),
    ]


def test_an_engine_asked_beside_categories_that_failed_was_searched_without_config():
    """The shortlist answer: results from 'google cse' (of the categories sent), and 'brave', the engine
    asked, among the engines that failed: it was searched, no ``/config`` needed to tell (as the
    warning's judge says). Before: ``/config`` was read for it (here unanswered, so the answer was
    not cached)."""
    client = ws.SearchClient(settings=settings(), backend="searxng", cache_ttl_s=300, retries=0)
    body = recorded("shortlist__1.json")
    assert "brave" in [engine for engine, _ in body["unresponsive_engines"]]
    result, calls = search(body, client=client, engines="brave", categories=["general"])
    assert [urlsplit(c.request.url).path for c in calls] == ["/search"]
    assert {e["detail_code"] for e in result["errors"]} <= {"http_429", "captcha_required"}
    _, none_sent = search(body, client=client, engines="brave", categories=["general"])
    assert none_sent == []


# -- a sign-in page on the instance's own host ----------------------------------------------


@pytest.mark.parametrize(
    "location",
    [
        # oauth2-proxy's nginx integration: `return 302 /oauth2/sign_in?rd=$scheme://$host$request_uri;`
        # ($request_uri as it is: not encoded), and the same address encoded
        "/oauth2/sign_in?rd=https://searx.example.org/search?q=q&format=json&locale=en&language=all",
        "/oauth2/start?rd=%2Fsearch%3Fq%3Dq%26format%3Djson",
    ],
)
def test_a_sign_in_page_on_the_instances_host_blames_the_login_not_the_base_url(location):
    """Before: "set SEARXNG_BASE_URL to the address it redirects to", the sign-in page's."""
    error, calls = search(b"", status=302, headers={"Location": location}, content_type="text/html")
    assert len(calls) == 1
    assert isinstance(error, ws.WebProviderError) and (error.detail_code, error.retryable) == ("http_302", False)
    assert "sign-in page" in error.message and "SEARXNG_API_KEY" in error.message
    assert "address it redirects to" not in error.message


@pytest.mark.parametrize(
    "path, query",
    [
        ("/search", "/search"),
        ("/search", "https://www.google.com/search?q=foo"),
        ("/search", "https://searx.example.org/search?q=foo"),
        ("/search", "/search?q=foo"),
        ("/searx/search", "https://www.google.com/search?q=foo"),
    ],
)
def test_a_moved_search_still_names_the_base_url_though_its_query_holds_a_path(path, query):
    """A moved search keeps the search's own parameters, a query of ``/search`` or an address with a
    query on ``/search`` too: on the search's own path (http to https), where no sign-in page lives,
    or on another (the instance moved under ``/searx/``) with an address on another host, not the
    search's own. Before: the addresses read as "a sign-in page"."""
    location = "https://searx.example.org%s?%s" % (path, urlencode({"q": query, "format": "json"}))
    error, _ = search(
        b"",
        url="http://searx.example.org/search",
        status=301,
        headers={"Location": location},
        content_type="text/html",
        query=query,
        settings_=ws.Settings(providers={"searxng": {"base_url": "http://searx.example.org"}}),
    )
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_301"
    assert "address it redirects to" in error.message and "sign-in" not in error.message


@pytest.mark.parametrize("location", ["https://searx.example.org/", "https://searx.example.org"])
def test_an_http_base_url_sent_to_the_https_home_page_is_the_base_url_to_fix_not_the_limiter(location):
    """A server that moves every plain-http request to its https home page (nginx's
    ``return 301 https://$host/;``): before, "the limiter treats this client as a bot ... use an
    instance you run", a block with a cool-down. The limiter sends a client to the home page on the
    scheme it was asked on; another scheme is a server moving plain http to https: the base URL to fix."""
    error, calls = search(
        b"",
        url="http://searx.example.org/search",
        status=301,
        headers={"Location": location},
        content_type="text/html",
        settings_=ws.Settings(providers={"searxng": {"base_url": "http://searx.example.org"}}),
    )
    assert len(calls) == 1
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "http_301", error
    assert "address it redirects to" in error.message and "limiter" not in error.message


# -- the limiter's 429 ---------------------------------------------------------------------------------

#: The limiter's answer (``searx/botdetection/_helpers.py: too_many_requests``).
LIMITER_429 = b"Too Many Requests"


#: Petal Search's crawler's User-Agent (its webmaster page): ``PetalBot`` not at the start.
PETALBOT = (
    "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 "
    "(compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)"
)


@pytest.mark.parametrize("agent", ["python-requests/2.32.3", "curl/8.5.0", "Go-http-client/1.1", PETALBOT])
def test_a_user_agent_the_bot_detection_refuses_is_named_not_the_hourly_window(agent):
    """``searx/botdetection/http_user_agent.py`` answers every request whose User-Agent starts with
    one of its bot names (or holds ``PetalBot`` anywhere: its ``.*PetalBot.*``) with the limiter's 429. Before: the message blamed the 4 JSON requests an
    hour, which a wait does not heal."""
    error, calls = search(LIMITER_429, status=429, content_type="text/html", settings_=settings_with_agent(agent))
    assert len(calls) == 1 and calls[0].request.headers["User-Agent"] == agent
    assert isinstance(error, ws.WebBlocked) and (error.detail_code, error.retryable) == ("http_429", False)
    assert repr(agent) in error.message and "WEB_SEARCH_USER_AGENT" in error.message
    assert "per hour" not in error.message


@pytest.mark.parametrize("agent", [None, "MyAgent/1.0 (python-requests)"])
def test_a_user_agent_the_bot_detection_lets_through_keeps_the_hourly_window(agent):
    error, _ = search(LIMITER_429, status=429, content_type="text/html", settings_=settings_with_agent(agent))
    assert isinstance(error, ws.WebBlocked) and "per hour" in error.message and error.retry_after == 3600.0


@pytest.mark.parametrize("agent", [None, "curl/8.5.0"])
def test_an_ip_on_the_limiter_s_block_list_is_said_whatever_the_user_agent(agent):
    """``searx/limiter.py: filter_request`` checks the block list (after its pass list) before the bot
    detection: its 429 says ``IP is on BLOCKLIST - <why>``. Before: a refused User-Agent was blamed (and,
    without one, the hourly window, which a wait heals); then the message said a wait would not heal it
    while ``retry_after`` named the hourly window."""
    error, _ = search(
        b"IP is on BLOCKLIST - 203.0.113.7", status=429, content_type="text/html", settings_=settings_with_agent(agent)
    )
    assert isinstance(error, ws.WebBlocked) and (error.detail_code, error.retryable) == ("http_429", False)
    assert "block list" in error.message and "a wait does not heal it" in error.message
    assert error.retry_after is None  # as for a refused User-Agent: no wait to name
    assert "User-Agent" not in error.message and "per hour" not in error.message


def settings_with_agent(agent):
    return ws.Settings(user_agent=agent, providers={"searxng": {"base_url": BASE}})


# -- query words the instance cannot read ------------------------------------------------------------


@pytest.mark.parametrize("query", ["area <² units", "<①"])
def test_a_time_limit_word_of_digits_the_instance_cannot_read_is_refused_before_sending(query):
    """``searx/query.py: TimeoutParser`` takes ``<`` and ``str.isdigit`` characters for a time limit and
    calls ``int`` on them, which fails on ``²``: the search answers 500 ``{"error": "search error"}``
    (``searx/webapp.py: search``, ``index_error``), which was sent and retried as an instance fault."""
    outcome, calls = search({"error": "search error"}, status=500, query=query)
    assert calls == []
    assert isinstance(outcome, ws.InvalidInput) and outcome.detail_code == "unsupported_query"
    assert "space after the `<`" in outcome.message


@pytest.mark.parametrize("query", ["< ² units", "I <3 NY", "a<²", "a <b", "‹٣", "x <٣"])
def test_time_limit_words_the_instance_reads_are_sent(query):
    _, calls = search(recorded("shortlist__1.json"), query=query)
    assert len(calls) == 1


# -- an answer without the engines that timed out ------------------------------------------------------


def timed_out(name):
    """A recorded answer whose engine failures are timeouts (``searx/webutils.py``: ``timeout``, the
    reason an instance asked for ``locale=en`` gives)."""
    body = recorded(name)
    body["unresponsive_engines"] = [[engine, "timeout"] for engine, _ in body["unresponsive_engines"]]
    return body


#: A deadline whose ``timeout_limit`` (what is left minus the margin: about 1.45 s) is below SearXNG's
#: default engine timeout (3 s, the cap until ``/config`` is known): the deadline sets the limit.
SHORT_DEADLINE_MS = 2000


def test_an_answer_without_the_engines_that_timed_out_is_not_cached():
    """The instance gave its engines this call's ``timeout_limit``, set by its short deadline; a later
    call (with a longer deadline, say) asks again. Before: the truncated answer was served from the
    cache for its TTL. Other failures (the recorded 'HTTP connection error' of four engines) are
    still cached."""
    client = ws.SearchClient(settings=settings(), backend="searxng", cache_ttl_s=300, retries=0)
    for _ in range(2):
        result, calls = search(timed_out("browse-API__1.json"), client=client, timeout_ms=SHORT_DEADLINE_MS)
        assert len(calls) == 1 and {e["detail_code"] for e in result["errors"]} == {"engine_timeout"}
        assert float(sent_params(calls[0])["timeout_limit"]) < 3.0
    search(recorded("browse-API__1.json"), query="other", client=client)
    cached, none_sent = search(recorded("browse-API__1.json"), query="other", client=client)
    assert none_sent == [] and cached["provider_meta"]["cached"] is True


def test_a_later_page_without_engines_that_timed_out_keeps_the_answer_from_the_cache():
    """15 results asked: page 1 (the shortlist answer, every engine answered) then page 2 (the
    browse-API answer, four engines timed out). Before: the later page's timeouts were in ``errors``
    but the answer was cached."""
    client = ws.SearchClient(settings=settings(), backend="searxng", cache_ttl_s=300, retries=0)
    first_page = recorded("shortlist__1.json")
    del first_page["unresponsive_engines"]
    later_page = json.dumps(timed_out("browse-API__1.json"))

    def pages(mock):
        mock.add("GET", URL, body=later_page, content_type="application/json")

    for _ in range(2):
        result, calls = search(first_page, client=client, max_results=15, extra=[pages], timeout_ms=SHORT_DEADLINE_MS)
        assert [sent_params(c).get("pageno") for c in calls] == [None, "2"]
        assert len(result["errors"]) == 4 and not result["provider_meta"].get("cached")


def _config_read(client, config=INSTANCE_CONFIG):
    """A first search with a time range, which has the client read ``config`` as the instance's
    ``/config`` right after the answer."""
    _, calls = search(
        recorded("browse-API__news.json"),
        client=client,
        time_range="week",
        extra=[_config_answer(config)],
        categories=["news"],
    )
    assert [c.request.url for c in calls[1:]] == [BASE + "/config"]


@pytest.mark.parametrize("known", [True, False], ids=["config-known", "config-unknown"])
@pytest.mark.parametrize("reason", ["timeout", "Suspended: timeout"])
def test_an_answer_without_engines_that_timed_out_is_cached_when_their_known_timeouts_set_their_limit(reason, known):
    """A 30 s deadline sends 3 s as ``timeout_limit``: with ``/config`` read, the own timeout of the
    engine asked (``wikipedia``, the default category's), and the instance gives every engine
    ``min(the slowest asked engine's timeout, timeout_limit)`` (``searx/search/__init__.py``), so a
    longer deadline would not give the late ones more: cached. Before ``/config`` is known, 3 s is
    our guess (SearXNG's default engine timeout); the instance may give them more: not cached. Nor
    is an answer with an engine suspended after a timeout: SearXNG suspends it for seconds
    (``ban_time_on_fail``), not the cache's TTL. Before: cached in all but the first case too."""
    body = recorded("browse-API__1.json")
    body["unresponsive_engines"] = [[engine, reason] for engine, _ in body["unresponsive_engines"]]
    client = ws.SearchClient(settings=settings(), backend="searxng", cache_ttl_s=300, retries=0)
    if known:
        _config_read(client)
    result, calls = search(body, client=client, timeout_ms=30000)
    assert sent_params(calls[0])["timeout_limit"] == "3.00"
    assert {e["detail_code"] for e in result["errors"]} == {"engine_timeout"}
    again, sent = search(body, client=client, timeout_ms=30000)
    cached = known and reason == "timeout"
    assert len(sent) == (0 if cached else 1) and bool(again["provider_meta"].get("cached")) is cached


def test_a_config_without_engine_timeouts_leaves_the_deadline_the_only_cap():
    """A ``/config`` whose engines give no ``timeout`` (a trimmed or older one): nothing caps
    ``timeout_limit`` but the deadline, so a 30 s call sends what is left of it (not the 3 s guess
    kept for an unknown ``/config``), and an answer without engines that timed out is not cached."""
    client = ws.SearchClient(settings=settings(), backend="searxng", cache_ttl_s=300, retries=0)
    untimed = {
        **INSTANCE_CONFIG,
        "engines": [{k: v for k, v in e.items() if k != "timeout"} for e in INSTANCE_CONFIG["engines"]],
    }
    _config_read(client, untimed)
    for _ in range(2):
        _, calls = search(timed_out("browse-API__1.json"), client=client, timeout_ms=30000)
        assert len(calls) == 1 and float(sent_params(calls[0])["timeout_limit"]) > 20.0


def test_once_config_is_known_the_engines_own_timeouts_are_the_cap_a_deadline_may_cut():
    """``/config`` (read after a first answer with a time range) gives the news engines 3 s and 5 s: a
    5 s deadline sends about 4 s, below the slowest, so the answer without engines that timed out
    is not cached; a 30 s one sends 5 s, all a longer deadline would send, so it is."""
    client = ws.SearchClient(settings=settings(), backend="searxng", cache_ttl_s=300, retries=0)
    news = {"categories": ["news"]}
    _config_read(client)
    for _ in range(2):
        _, calls = search(timed_out("browse-API__1.json"), client=client, timeout_ms=5000, **news)
        assert len(calls) == 1 and float(sent_params(calls[0])["timeout_limit"]) < 5.0
    _, calls = search(timed_out("browse-API__1.json"), client=client, timeout_ms=30000, **news)
    assert sent_params(calls[0])["timeout_limit"] == "5.00"
    _, none_sent = search(timed_out("browse-API__1.json"), client=client, timeout_ms=30000, **news)
    assert none_sent == []


def test_a_suspended_engine_s_timeout_is_not_cached_when_the_deadline_set_the_limit():
    """SearXNG suspends an engine whose request hit its timeout (``searx/search/processors/online.py``
    ``handle_exception(..., suspend=True)``) for ``ban_time_on_fail`` (5 s): a call with a short
    deadline has the instance suspend the engines it cut, and a call again within 5 s gets
    "Suspended: timeout". Before: that answer was cached for the cache's TTL (300 s)."""
    body = recorded("browse-API__1.json")
    body["unresponsive_engines"] = [[engine, "Suspended: timeout"] for engine, _ in body["unresponsive_engines"]]
    client = ws.SearchClient(settings=settings(), backend="searxng", cache_ttl_s=300, retries=0)
    for _ in range(2):
        result, calls = search(body, client=client, timeout_ms=SHORT_DEADLINE_MS)
        assert float(sent_params(calls[0])["timeout_limit"]) < 3.0 and result["errors"][0]["retry_after"] > 0
        assert len(calls) == 1 and not result["provider_meta"].get("cached")


def test_no_results_while_some_engines_failed_does_not_say_those_were_all_it_asked():
    """The shortlist answer without its results: 'google cse' (which gave them) found nothing this
    time, three engines failed. Before: "the 3 engine(s) it asked failed", as if no other was asked."""
    body = recorded("shortlist__1.json")
    body["results"] = []
    error, _ = search(body)
    assert isinstance(error, ws.WebBlocked)
    assert "3 of the engines it asked failed (brave, duckduckgo, startpage)" in error.message
    assert "any other it asked found nothing" in error.message


NEWS_FAILED = [name for name, _ in recorded("browse-API__news.json")["unresponsive_engines"]]


def test_an_engine_asked_that_failed_was_searched_whatever_answered():
    """The recorded news answer: results from 'bing news' only, 'wikinews' among the engines that
    failed. Asked for 'wikinews', the instance searched it: no warning, ``/config`` or not."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import ignored_names

    results = recorded("browse-API__news.json")["results"]
    assert "wikinews" in NEWS_FAILED
    for config in (None, read_config(INSTANCE_CONFIG)):
        assert ignored_names("engines", "wikinews", results, NEWS_FAILED, config) is None


def test_results_that_name_no_category_leave_the_categories_asked_unjudged():
    """Results that say nothing of their category prove nothing: no warning that 'general' was
    ignored, and nothing for ``/config`` to decide."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import categories_undecided, ignored_names

    results = [{k: v for k, v in r.items() if k != "category"} for r in recorded("browse-API__news.json")["results"]]
    assert not categories_undecided("general", results)
    assert ignored_names("categories", "general", results, [], read_config(INSTANCE_CONFIG)) is None


def test_an_ignored_engine_beside_categories_of_an_instance_listing_none_names_them_as_run():
    """A ``/config`` without a ``categories`` list does not tell which categories the instance has:
    the categories sent are named as what it runs instead, not its default engines."""
    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import ignored_names

    config = read_config({**INSTANCE_CONFIG, "categories": []})
    results = recorded("browse-API__news.json")["results"]
    warning = ignored_names("engines", "wikipedias", results, [], config, "news")
    assert warning is not None and warning.detail_code == "unknown_engines"
    assert "runs the engines of the categories sent beside them (news)" in warning.message
    alone = ignored_names("engines", "wikipedias", results, [], config, None)
    assert alone is not None and "runs its default engines" in alone.message  # none sent: none named


def test_no_config_read_names_no_engine_skipped_for_a_time_range():
    from websearch_sync.backends.searxng_names import PAGING, TIME_RANGE

    assert TIME_RANGE.skipped(None, "wikipedia", "general") is None
    assert PAGING.skipped(None, "wikipedia", "general", ["wp"]) is None


def test_some_names_shows_ten_and_counts_the_rest():
    from websearch_sync.backends.searxng_names import some_names

    names = ["e%d" % n for n in range(11)]
    assert some_names(names) == ", ".join(names[:10]) + " and 1 more"
    assert some_names(names[:10]) == ", ".join(names[:10])


def test_a_config_is_read_only_from_values_of_the_shapes_searxng_publishes():
    """``/config`` is upstream JSON: a value of another shape is not read (a boolean is no timeout, a
    string no list of categories nor a time-range flag), and a list of no engine is no config."""
    from websearch_sync.backends.searxng_config import read_config

    wikipedia = dict(INSTANCE_CONFIG["engines"][0], timeout=True, time_range_support="yes")
    config = read_config({"categories": "general", "engines": [wikipedia]})
    assert config is not None and config.categories == ()
    [engine] = config.engines
    assert (engine.name, engine.timeout_s, engine.time_range_support) == ("wikipedia", None, None)
    assert read_config({"categories": ["general"], "engines": []}) is None
    assert read_config({"categories": ["general"], "engines": [5, {"name": 7}]}) is None


def test_the_engines_asked_are_the_enabled_ones():
    """``parse_generic`` asks the enabled engines of the categories sent; with none there (here, no
    enabled engine in ``general``, the default category), every enabled engine."""
    from websearch_sync.backends.searxng_config import read_config

    disabled = dict(INSTANCE_CONFIG["engines"][0], enabled=False)
    config = read_config({**INSTANCE_CONFIG, "engines": [disabled, *INSTANCE_CONFIG["engines"][1:]]})
    assert [e.name for e in config.engines_asked([], ["general"])] == ["bing news", "wikinews"]
    assert [e.name for e in config.engines_asked([], [])] == ["bing news", "wikinews"]
    news_disabled = dict(INSTANCE_CONFIG["engines"][1], enabled=False)
    config = read_config({**INSTANCE_CONFIG, "engines": [INSTANCE_CONFIG["engines"][0], news_disabled]})
    assert [e.name for e in config.engines_asked([], ["news"])] == ["wikipedia"]


@pytest.mark.parametrize(
    ("body", "headers"),
    [(LIMITER_429, {"Retry-After": "7"}), (b"rate limited", {})],
    ids=["with-retry-after", "another-body"],
)
def test_a_429_that_is_not_the_limiters_keeps_the_shared_mapping(body, headers):
    """The limiter answers its few words and no ``Retry-After``: a proxy's 429 saying when to come
    back, or another body, is no hourly window of the limiter's."""
    error, _ = search(body, status=429, content_type="text/html", headers=headers, settings_=settings_with_agent(None))
    assert isinstance(error, ws.WebBlocked) and "limiter" not in error.message
    assert error.retry_after == (7.0 if headers else None)


def test_a_401_challenge_is_read_whatever_the_case_of_its_scheme():
    """RFC 9110 11.1: an auth scheme's name is case-insensitive (``basic realm=...``)."""
    error, _ = search(
        "401 Authorization Required",
        status=401,
        content_type="text/plain",
        headers={"WWW-Authenticate": 'basic realm="SearXNG"'},
    )
    assert isinstance(error, ws.AuthError) and "https://user:password@host/" in error.message


def test_a_401_refusing_a_user_name_without_a_password_says_to_check_them():
    """A base URL with a user name only still sends Basic credentials (``alice:``): it is those the
    instance refused, not credentials it lacks."""
    error, _ = search(
        "401 Authorization Required",
        status=401,
        content_type="text/plain",
        headers=BASIC_CHALLENGE,
        settings_=ws.Settings(providers={"searxng": {"base_url": "https://alice@searx.example.org"}}),
        url=re.compile(r"https://alice@searx\.example\.org/search.*"),
    )
    assert isinstance(error, ws.AuthError) and "refused the user name and password" in error.message


def test_an_unresponsive_engines_entry_is_read_as_sent_and_redacted():
    """``unresponsive_engines`` entries as the instance lists them (``[name, reason]``): an empty
    one is none, a reason of ``null`` is none given, a secret in the name is redacted, and a
    suspended engine's entry says when it is back."""
    from websearch_sync.backends.searxng_failures import engine_failure

    assert engine_failure([], "searxng", []) is None
    assert engine_failure(["x", None], "searxng", []).message == "searxng engine 'x' failed: no reason given"
    leaked = engine_failure(["key-SECRET", "timeout"], "searxng", ["SECRET"])
    assert "SECRET" not in leaked.engine and "SECRET" not in leaked.message
    assert engine_failure(["brave", "Suspended: timeout"], "searxng", []).to_dict()["retry_after"] == 5.0


@pytest.mark.parametrize(
    "entry, engine, reason",
    [
        ([None, "timeout"], "unnamed", "timeout"),
        ([{"name": "brave"}, "timeout"], "unnamed", "timeout"),
        (["brave", {"code": 429}], "brave", "no reason given"),
        (["brave", ["CAPTCHA"]], "brave", "no reason given"),
        (["brave", True], "brave", "no reason given"),
        (["brave\x1b[31m\u202e", "time\x1b[2Jout\x07\u202e"], "brave[31m", "time[2Jout"),
    ],
)
@pytest.mark.parametrize("results", [True, False])
def test_an_unresponsive_engine_named_or_explained_in_no_text_is_said_in_clean_words(entry, engine, reason, results):
    """The recorded answer with one ``unresponsive_engines`` pair changed: a name or reason that is no
    text was shown in Python's spelling (``failed (None)``, ``failed: {'code': 429}``), and an ANSI escape
    or a bidi override in them reached the message (a terminal through the CLI's error line) as sent.
    They are read as every vendor's words are (``vendor_text``): a name of no text is an unnamed engine,
    a reason of no text none given."""
    body = recorded("shortlist__1.json")
    body["unresponsive_engines"] = [entry]
    if not results:
        body["results"] = []
    outcome, _ = search(body)
    failures = outcome.errors if isinstance(outcome, ws.WebSearchError) else outcome["errors"]
    messages = [f.message if isinstance(f, ws.WebSearchError) else f["message"] for f in failures]
    names = [f.to_dict()["engine"] if isinstance(f, ws.WebSearchError) else f["engine"] for f in failures]
    assert names == [engine], names
    assert messages == ["searxng engine %r failed: %s" % (engine, reason)], messages
    if isinstance(outcome, ws.WebSearchError):
        assert "failed (%s)" % engine in outcome.message and outcome.message.isprintable(), outcome.message


def test_a_result_url_with_a_backslash_is_the_address_a_browser_goes_to():
    """The recorded answer with its first result's URL behind ``https://evil.example\\@``, and its
    second result's URL that real one: the library read the host after the ``@`` (``urlsplit``), a
    browser reads the backslash as a slash (evil.example). Before: the hostile URL was kept as sent,
    which fetch refuses (``bad_url``), and took the real result's place as its duplicate (same dedupe
    key). Now the result is the browser's address, its own page; the real one stays."""
    body = recorded("shortlist__1.json")
    real = body["results"][0]["url"]
    hostile = "https://evil.example\\@" + real.split("://", 1)[1]
    body["results"][0]["url"], body["results"][1]["url"] = hostile, real
    result, _ = search(body, max_results=5)
    urls = [item["url"] for item in result["items"]]
    assert urls[:2] == ["https://evil.example/@" + real.split("://", 1)[1], real], urls
    from websearch_sync.net.urls import request_url

    assert request_url(urls[0])  # fetch can follow what the search gave


def test_engine_names_the_instance_writes_reach_a_warning_in_clean_words():
    """Engine names are the instance's words, in its results' ``engines`` and in its ``/config``:
    the recorded answer with its results' engine renamed, and the documented ``/config`` with an
    engine renamed, each with an ANSI escape and a bidi override. Before: the warnings that name
    engines (an ``engines=`` name the instance ignored; a time range's skipped engines) carried them
    as sent, to a terminal through the CLI; now read as the instance's other words are (``vendor_text``)."""
    import copy

    from websearch_sync.backends.searxng_config import read_config
    from websearch_sync.backends.searxng_names import TIME_RANGE, ignored_names

    results = recorded("shortlist__1.json")["results"]
    for result in results:
        result["engines"] = [name.replace("google cse", "google\x1b[31m cse\u202e") for name in result["engines"]]
    ignored = ignored_names("engines", "wikipedias", results, [])
    assert ignored is not None and "only from google[31m cse:" in ignored.message, ignored
    config = copy.deepcopy(INSTANCE_CONFIG)
    config["engines"][0]["name"] = "wiki\x1b[31mpedia\u202e"
    skipped = TIME_RANGE.skipped(read_config(config), None, "general")
    assert skipped is not None and skipped.message.endswith(": wiki[31mpedia; that was every engine of this search")
    assert ignored.message.isprintable() and skipped.message.isprintable()


@pytest.mark.parametrize("results", [True, False])
def test_an_engine_listed_twice_as_unresponsive_failed_once(results):
    """The recorded answer's three ``unresponsive_engines`` pairs each listed twice (SearXNG keeps them
    in a set; an instance or a proxy that repeats them does not): before, six failures, and with no
    results "6 of the engines it asked failed (brave, duckduckgo, startpage, brave, ...)". Each engine
    failed once: its first pair is its failure."""
    body = recorded("shortlist__1.json")
    listed = body["unresponsive_engines"]
    body["unresponsive_engines"] = listed + [[name, "timeout"] for name, _ in listed]
    if not results:
        body["results"] = []
    outcome, _ = search(body)
    failures = outcome.errors if isinstance(outcome, ws.WebSearchError) else outcome["errors"]
    named = [(f.to_dict() if isinstance(f, ws.WebSearchError) else f) for f in failures]
    assert [(f["engine"], f["detail_code"]) for f in named] == [
        ("brave", "http_429"),
        ("duckduckgo", "captcha_required"),
        ("startpage", "captcha_required"),
    ]
    if not results:
        assert "3 of the engines it asked failed (brave, duckduckgo, startpage)" in outcome.message, outcome.message


def test_no_results_while_every_engine_waits_is_the_blocked_engines_error():
    """Every engine asked suspended or blocked: the block decides what the error is (a CAPTCHA), and
    the first engine back says when (the timeout's 5 s suspension)."""
    from websearch_sync.backends.searxng_failures import engine_failure, no_results_because

    suspended = engine_failure(["brave", "Suspended: timeout"], "searxng", [])
    blocked = engine_failure(["google", "Suspended: CAPTCHA"], "searxng", [])
    error = no_results_because([suspended, blocked], 200, "searxng")
    assert isinstance(error, ws.WebBlocked) and error.detail_code == "captcha_required"
    assert error.retry_after == 5.0


# -- an error of each page said once ---------------------------------------------------------------


def _paged(*pages, max_results=20):
    """A call for ``max_results`` (more than a page holds) answered by the recorded ``pages`` in turn,
    each the answer to its own ``pageno`` (any other request fails the test)."""
    from clocks import FakeClock
    from expected_requests import expected_requests, serve

    with (
        expected_requests() as mock,
        ws.SearchClient("searxng", settings=settings(), clock=FakeClock(), cache_ttl_s=0, retries=0) as client,
    ):
        for number, body in enumerate(pages, 1):
            query = {"q": "q", "format": "json", "locale": "en", "language": "all"}
            query.update({"pageno": str(number)} if number > 1 else {})
            serve(mock, URL, query, body, content_type="application/json", uncompared=("timeout_limit",))
        return client.search("q", max_results=max_results)


def _failed(response):
    return [(e["type"], e["detail_code"], e.get("engine")) for e in response["errors"]]


def test_engines_failing_each_page_are_each_said_once():
    """Page 1 (shortlist__1): brave 429, duckduckgo and startpage CAPTCHA; page 2 (browse-API__1):
    brave, duckduckgo, startpage and wikipedia 'HTTP connection error', new failures, each said;
    page 3 (browse-API__news, an instance's answer naming its news engines): five more engines
    failing as page 2's did, each said: the kind holds the engine (without it, they were repeats)."""
    pages = (
        json.dumps(recorded(name)).encode()
        for name in ("shortlist__1.json", "browse-API__1.json", "browse-API__news.json")
    )
    response = _paged(*pages, max_results=36)  # 6, 20 and 10 distinct results
    assert [engine for _, _, engine in _failed(response)] == [
        "brave",
        "duckduckgo",
        "startpage",
        "brave",
        "duckduckgo",
        "startpage",
        "wikipedia",
        "brave.news",
        "duckduckgo news",
        "reuters",
        "startpage news",
        "wikinews",
    ]
    assert len({(kind, code) for kind, code, _ in _failed(response)[3:]}) == 1  # one kind but for the engine
    assert response["provider_meta"]["pages"] == 3 and not any("page" in e for e in response["errors"])


def test_a_page_failing_as_its_engines_failed_page_one_does_not_repeat_them():
    """Page 2 recorded as SearXNG's 'no results' naming the engines that failed
    (engines_failed_no_results: brave, duckduckgo, startpage, as page 1 shortlist__1 named them): the
    page's failure is said, its engines' failures were already: not listed again in its errors."""
    first = json.dumps(recorded("shortlist__1.json")).encode()
    meta = recorded("engines_failed_no_results.meta.json")
    response = _paged(first, meta["response"]["body_text"].encode())
    assert [engine for _, _, engine in _failed(response)] == ["brave", "duckduckgo", "startpage", None]
    failure = response["errors"][-1]
    assert failure["page"] == 2 and "errors" not in failure and response["provider_meta"]["pages"] == 1
    assert failure["message"].endswith("(as on page 1: the failures above)")


def test_a_page_beyond_the_instances_max_page_ends_the_call_without_a_note():
    """Past an engine's ``max_page`` (or the instance's ``search.max_page``) SearXNG skips it without
    a word (``get_params`` returns None; 9fea412 ``searx/search/processors/abstract.py``): a page
    beyond every engine's is the empty answer (no_results: ``get_json_response``'s envelope). A call
    for 20 whose page 1 (shortlist__1) gave 6 asks page 2 once, gets none, and asks no page 3: the
    answer is page 1's, with no error of page 2's."""
    first = json.dumps(recorded("shortlist__1.json")).encode()
    beyond = recorded("no_results.meta.json")["response"]["body_text"].encode()
    assert json.loads(beyond)["results"] == [] and json.loads(beyond)["unresponsive_engines"] == []
    response = _paged(first, beyond)  # a request for page 3 would fail the test
    assert len(response["items"]) == 6 and response["provider_meta"]["pages"] == 2
    assert [(e["type"], e.get("engine")) for e in response["errors"]] == [
        ("WebBlocked", "brave"),
        ("WebBlocked", "duckduckgo"),
        ("WebBlocked", "startpage"),
    ]  # page 1's own failures: nothing of page 2


def test_two_warnings_of_one_code_saying_different_things_are_both_said():
    """SearXNG's option_overridden for its engines and for its categories share a code, provider
    and no engine: the kind holds their words (before: the second page's was dropped as a repeat)."""
    from websearch_sync.engine.base import _error_kind

    engines, categories = (
        ws.WebProviderError(
            "searxng: the instance searched %s though the call asked for %s" % (which, which),
            provider="searxng",
            detail_code="option_overridden",
        ).to_dict()
        for which in ("engines", "categories")
    )
    assert _error_kind(engines) != _error_kind(categories) and _error_kind(engines) == _error_kind(dict(engines))


def test_pageno_one_given_is_asked_apart_from_pageno_omitted():
    """SearXNG is sent ``pageno`` only when the call gives it (the instance's default page
    otherwise): ``pageno=1`` is another request, so not the cached answer of a call without it."""
    import responses
    from clocks import FakeClock

    body = json.dumps(recorded("shortlist__1.json")).encode()
    with (
        responses.RequestsMock() as mock,
        ws.SearchClient("searxng", settings=settings(), clock=FakeClock(), retries=0) as client,
    ):
        mock.add("GET", URL, body=body, content_type="application/json")
        client.search("q", max_results=5)
        again = client.search("q", max_results=5, pageno=1)
        assert [sent_params(call).get("pageno") for call in mock.calls] == [None, "1"]
    assert again["provider_meta"]["cached"] is False


def test_a_cached_answer_tells_an_engine_suspension_as_it_stands_when_served():
    """An answer with engines the instance suspended (``retry_after``: 180 s for brave's too many
    requests) served from the cache 100 s later said 180 s still: the suspension is counted from
    when the answer was cached, on the cache's own expiry (every tier keeps it)."""
    clock = FakeClock()
    with ws.SearchClient("searxng", settings=settings(), clock=clock, retries=0) as client:
        first, _ = replay_search("searxng", URL, recorded("shortlist__1.json"), client=client, max_results=5)
        clock.advance(100)
        later, calls = replay_search("searxng", URL, recorded("shortlist__1.json"), client=client, max_results=5)
    assert later["provider_meta"]["cached"] is True and calls == []
    waits = [(e["engine"], e.get("retry_after")) for e in first["errors"]]
    assert [wait for _, wait in waits] == [180.0, 3600.0, 3600.0]
    assert [(e["engine"], e.get("retry_after")) for e in later["errors"]] == [
        (name, wait - 100) for name, wait in waits
    ]


@pytest.mark.parametrize(
    "locale, language",
    [
        ("zh-Hans-TW", "zh"),
        ("zh-Hans-HK", "zh"),
        ("zh-Hans-MO", "zh"),
        ("zh-Hant-CN", "zh-TW"),
        ("zh-Hant-SG", "zh-TW"),
        # a script the region's own reading agrees with keeps the region
        ("zh-Hant-HK", "zh-HK"),
        ("zh-Hant-TW", "zh-TW"),
        ("zh-Hans-CN", "zh-CN"),
        ("zh-Hans-SG", "zh-SG"),
    ],
)
def test_a_chinese_script_its_region_would_contradict_is_kept_over_the_region(locale, language):
    """SearXNG reads ``language`` with babel (searx/locales.py ``get_engine_locale``:
    ``babel.Locale.parse(searxng_locale, sep='-')``, then ``language_tag``: ``zh_Hant`` for ``zh-TW``,
    ``zh-HK``, ``zh-MO``, ``zh`` (Simplified) for ``zh-CN``, ``zh-SG``). Before: the script was dropped
    and the region kept, so ``zh-Hans-TW`` (Simplified) was sent as ``zh-TW``, read as Traditional,
    and ``zh-Hant-CN`` as ``zh-CN``, read as Simplified. The script is what the results are written
    in: kept, said as ``zh-Hant`` and ``zh-Hans`` alone are (``zh-TW``, ``zh``)."""
    from websearch_sync.backends.searxng import searxng_language

    assert searxng_language(locale) == language


def test_an_answer_naming_thousands_of_failed_engines_lists_the_first_and_counts_the_others():
    """The recorded answer with 3,000 invented engines in ``unresponsive_engines``: the response had 3,001
    entries in ``errors`` (~500 KB). It lists the first 20 (as a tool result does) and counts the others
    under ``engines_not_listed``."""
    body = recorded("shortlist__1.json")
    recorded_failures = [name for name, _reason in body["unresponsive_engines"]]
    body["unresponsive_engines"] += [["engine%d" % n, "timeout"] for n in range(3000)]
    result, _ = search(body)
    listed = [e["engine"] for e in result["errors"] if e.get("engine")]
    total = len(recorded_failures) + 3000
    assert listed == (recorded_failures + ["engine%d" % n for n in range(3000)])[:20], listed
    assert result["engines_not_listed"] == total - 20 and result["items"]
    assert len(json.dumps(result)) < 40_000


def _recorded_429() -> dict:
    """The recorded answer of SearXNG's limiter (fixtures/searxng/http_429_retry_after.meta.json)."""
    meta = json.loads(
        (Path(__file__).resolve().parents[3] / "fixtures/searxng/http_429_retry_after.meta.json").read_text()
    )
    return meta["response"]


@pytest.mark.parametrize("status", [200, 429])
def test_the_limiters_too_many_requests_page_is_a_rate_limit_whatever_its_status(status):
    """The limiter's answer (``Too Many Requests``, plain text) served with a 200 (a proxy or cache in
    front of the instance) was a parse error ("not JSON"): no cool-down, the next call sent at once. It
    is the rate limit it says, its ``Retry-After`` read, as under its own 429."""
    recorded_429 = _recorded_429()
    error, _ = search(
        recorded_429["body_text"],
        status=status,
        content_type=recorded_429["headers"]["Content-Type"],
        headers={"Retry-After": recorded_429["headers"]["Retry-After"]},
    )
    assert isinstance(error, ws.WebBlocked) and error.detail_code == "http_429", error
    assert error.status == status and error.retry_after == 30, error
    assert ("[HTTP 200 with a 'Too Many Requests' page]" in error.message) is (status == 200), error.message


def test_no_results_while_thousands_of_engines_failed_lists_the_first_and_one_of_each_kind():
    """The recorded shortlist answer without its results, 3,000 invented engines timed out and, after
    them, one engine with a connection error: the error carried 3,004 failures in ``errors`` (its
    ``to_dict()`` ~620 KB, the command line's lines ~470 KB). It lists the first 20, and the first
    failure of each other kind (what single flight's mendability and the cool-downs read), counts
    the others under ``engines_not_listed``, in ``to_dict()`` and in its message."""
    from websearch_sync.cli.output import error_lines
    from websearch_sync.engine.engines_listed import ENGINES_NOT_LISTED, MAX_LISTED_ENGINES
    from websearch_sync.errors import error_from_code

    body = recorded("shortlist__1.json")
    recorded_failures = [name for name, _reason in body["unresponsive_engines"]]
    body["results"] = []
    body["unresponsive_engines"] += [["engine%d" % n, "timeout"] for n in range(3000)]
    body["unresponsive_engines"].append(["lastengine", "HTTP connection error"])
    error, _ = search(body)
    assert isinstance(error, ws.Timeout) and error.detail_code == "engine_timeout"
    names = recorded_failures + ["engine%d" % n for n in range(3000)]
    listed = [e.engine for e in error.errors]
    assert listed == names[:MAX_LISTED_ENGINES] + ["lastengine"], listed
    total = len(names) + 1
    assert error.engines_not_listed == total - len(listed)
    form = error.to_dict()
    assert form[ENGINES_NOT_LISTED] == total - len(listed)
    assert "%d of the engines it asked failed" % total in error.message
    assert "%d not listed" % (total - len(listed)) in error.message
    sizes = (len(str(error)), len(json.dumps(form)), len("\n".join(error_lines(error))))
    print("sizes of the error: str %d, to_dict JSON %d, command line %d" % sizes)
    assert max(sizes) < 20_000, sizes
    fields = {key: value for key, value in form.items() if key not in ("type", "message")}
    assert error_from_code(form["type"], form["message"], **fields).to_dict() == form  # the form is read back

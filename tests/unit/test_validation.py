"""Input validation: every bad input is InvalidInput, raised before any request."""

import pytest

import websearch_sync as ws


@pytest.mark.parametrize("query", ["", "   ", "\n\t ", None, 123, b"bytes", ["list"], "x" * 2001])
def test_bad_queries(query):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search(query)
    assert info.value.code == "InvalidInput"
    assert info.value.retryable is False


def test_query_of_2000_characters_is_accepted():
    assert ws.search("x" * 2000)["items"]


def test_query_is_stripped():
    assert ws.search("  hello  ")["items"][0]["title"] == "hello - Overview"


@pytest.mark.parametrize("value", [0, 51, -1, True, False, "5", 5.0, 1e9])
def test_bad_max_results(value):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", max_results=value)
    assert info.value.detail_code == "bad_max_results"


@pytest.mark.parametrize("value", [1, 2, 10])
def test_max_results_bounds(value):
    assert len(ws.search("q", max_results=value)["items"]) == min(value, 3)


@pytest.mark.parametrize("value", [0, -5, True, "100", 10**9, float("nan")])
def test_bad_timeout(value):
    with pytest.raises(ws.InvalidInput):
        ws.search("q", timeout_ms=value)


@pytest.mark.parametrize("backend", ["nope", ["stub", "nope"], "", 42, ["stub", "stub"], [None]])
def test_unknown_or_malformed_backend_names(backend):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend=backend)
    assert info.value.detail_code == "unknown_backend"


def test_unknown_backend_in_settings_code_is_invalid_input():
    with pytest.raises(ws.InvalidInput):
        ws.search("q", settings=ws.Settings(backend="nope"))


def test_unknown_backend_in_client_constructor_is_invalid_input():
    with pytest.raises(ws.InvalidInput):
        ws.SearchClient("nope")


@pytest.mark.parametrize(
    "options",
    [
        {"time_range": "decade"},
        {"time_range": 7},
        {"locale": "not a locale"},
        {"safe_search": "maybe"},
        {"site_filter": "has space.com"},
        {"trace_id": "bad\r\nheader"},
        {"include_content": "yes"},
        {"max_content_chars": 0},
        {"locale": "en-US", "lang": "de"},
    ],
)
def test_bad_options(options):
    with pytest.raises(ws.InvalidInput):
        ws.search("q", **options)


def test_good_options_are_accepted():
    result = ws.search(
        "q", locale="en-US", time_range="week", safe_search="strict", trace_id="abc-123", site_filter="python.org"
    )
    assert result["items"][0]["title"] == "q site:python.org - Overview"


def test_unknown_keyword_is_a_programming_error():
    with pytest.raises(TypeError):
        ws.search("q", colour="blue")


def test_settings_validate_their_numbers():
    for kwargs in ({"timeout_ms": 0}, {"max_results": 51}, {"timeout_ms": True}, {"max_response_bytes": -1}):
        with pytest.raises(ws.InvalidInput):
            ws.Settings(**kwargs)


@pytest.mark.parametrize("name", ["timeout_ms", "budget_ms"])
@pytest.mark.parametrize("value", [1500.5, 2000.0, float("nan"), float("inf"), True, "2000"])
def test_a_per_call_timeout_must_be_a_whole_number_of_milliseconds(name, value):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", **{name: value})
    assert info.value.detail_code == ("bad_timeout" if name == "timeout_ms" else "bad_budget_ms")


@pytest.mark.parametrize("locale", ["english", "English", "deutsch", "e", "en-"])
def test_a_language_name_is_not_a_locale(locale):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", locale=locale)
    assert info.value.detail_code == "bad_locale" and "en-US" in info.value.message


@pytest.mark.parametrize("locale", ["en", "en-US", "en_GB", "zh-Hant-TW", "es-419", "fil-PH", "pt-br"])
def test_language_tags_are_locales(locale):
    assert ws.search("q", locale=locale)["items"]


def test_max_content_chars_without_include_content_is_refused_not_dropped():
    """It caps the page text include_content reads: without it, it would be ignored without a word."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", max_content_chars=100)
    assert info.value.detail_code == "bad_max_content_chars" and "include_content" in info.value.message
    with pytest.raises(ws.InvalidInput):
        ws.search("q", include_content=False, max_content_chars=100)

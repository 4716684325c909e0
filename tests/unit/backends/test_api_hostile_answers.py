"""The keyed JSON APIs (brave, tavily, kagi, bocha, jina, service) against what a real upstream
can send besides its usual answer: each case is a recorded answer of the service with one value
changed (or a bare status). The vendor's words reach an error message as one line of text (no
control character, no Python spelling of an object); a code of other digits is no HTTP status; an
error body inside a 200 is the vendor's error; a 402 is a refused account; a number that is no
number (``NaN``) is no title, an object no page text, ``-1`` no date; a result without an http(s)
address is left out with an INFO record; a request id is text of a bounded length, the key redacted; JSON
is read as UTF-8 unless a legacy charset is declared; a ``Retry-After`` is read as a header's digits, a past
date as no wait."""

import json
from typing import Any

import pytest
from backend_kit import recorded_exchanges, recorded_json, recorded_success, replay_search
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.engine.normalize import clean_text, normalize_items
from websearch_sync.errors import cut_end
from websearch_sync.net.status import retry_after_seconds
from websearch_sync.net.urls import result_url

KEY = "hostile-SECRET-5e4d3c2b"
#: Each keyed API's default endpoint (the service gateway's: its configured URL).
ENDPOINTS = {
    "brave": "https://api.search.brave.com/res/v1/web/search",
    "tavily": "https://api.tavily.com/search",
    "kagi": "https://kagi.com/api/v0/search",
    "bocha": "https://api.bochaai.com/v1/web-search",
    "jina": "https://s.jina.ai/",
    "service": "https://gw.hostile.test/search",
}


def settings_for(name: str) -> ws.Settings:
    provider: dict[str, Any] = {"api_key": KEY}
    if name == "service":
        provider["url"] = ENDPOINTS["service"]
    return ws.Settings(providers={name: provider})


def search(name: str, body: Any, **kwargs: Any) -> Any:
    outcome, calls = replay_search(name, ENDPOINTS[name], body, settings=settings_for(name), **kwargs)
    assert len(calls) == 1
    return outcome


def recorded_body(name: str, case: str) -> Any:
    """The JSON body of ``fixtures/<name>/<case>`` (a recorded or documented answer)."""
    return json.loads(next(r for r in recorded_exchanges(name) if r.case.name == case).body)


def success(name: str) -> Any:
    """A copy of the backend's best recorded success, parsed."""
    return json.loads(recorded_success(name).body)


def first_result(name: str, data: Any) -> dict[str, Any]:
    """The first vendor result of a recorded success (where each API lists its results)."""
    if name == "brave":
        return data["web"]["results"][0]
    if name == "bocha":
        inner = data["data"] if isinstance(data.get("data"), dict) else data
        return inner["webPages"]["value"][0]
    if name == "kagi":
        return next(entry for entry in data["data"] if entry.get("t") == 0)
    return data[{"tavily": "results", "jina": "data", "service": "search_results"}[name]][0]


#: The field holding a result's title, per API.
TITLE_FIELD = {
    "brave": "title",
    "tavily": "title",
    "kagi": "title",
    "bocha": "name",
    "jina": "title",
    "service": "title",
}

#: Words with a terminal's escapes, a bell, a NUL, a bidi override and a C1 CSI: none may reach a message.
HOSTILE_WORDS = "no \x1b[2Jmoney\x07 left\x00 \u202eevil \x9b31m here"
CLEAN_WORDS = "no [2Jmoney left evil 31m here"


def with_words(name: str, words: Any) -> tuple[Any, int]:
    """A recorded error answer of ``name`` with its message replaced by ``words``, and its status."""
    if name == "bocha":
        return dict(recorded_json("bocha", "bocha-docs__403_no_money.json"), message=words), 403
    if name == "kagi":
        body = recorded_json("kagi", "kagi-docs__error_missing_q.json")
        body["error"][0]["msg"] = words
        return body, 400
    if name == "jina":
        return dict(recorded_body("jina", "http_402_insufficient_balance"), message=words), 402
    if name == "tavily":
        body = recorded_body("tavily", "http_400_bad_request")
        body["detail"]["error"] = words
        return body, 400
    if name == "brave":
        body = recorded_body("brave", "http_422_validation")
        body["error"]["detail"] = words
        return body, 422
    return dict(recorded_body("service", "http_400"), detail=words), 400


KEYED = sorted(ENDPOINTS)


# -- the vendor's words in an error message ------------------------------------------------------


@pytest.mark.parametrize("name", KEYED)
def test_control_characters_in_the_vendors_words_never_reach_the_message(name):
    """An ANSI escape from an upstream's message reached the terminal through the CLI's error line."""
    body, status = with_words(name, HOSTILE_WORDS)
    error = search(name, body, status=status)
    assert isinstance(error, ws.WebSearchError) and error.detail_code != "internal_error", error
    assert CLEAN_WORDS in error.message and error.message.isprintable(), repr(error.message)


@pytest.mark.parametrize("name", ["bocha", "kagi", "jina", "brave"])
def test_a_vendor_message_that_is_no_text_is_left_out_not_shown_in_python_spelling(name):
    body, status = with_words(name, {"zh": "余额不足", "en": ["no money"]})
    error = search(name, body, status=status)
    assert isinstance(error, ws.WebSearchError), error
    assert "{'" not in error.message and "['no money']" not in error.message and "余额" not in error.message, (
        error.message
    )


def test_a_kagi_request_id_that_is_an_object_is_not_shown():
    body = recorded_json("kagi", "kagi-docs__error_missing_q.json")
    body["meta"]["id"] = {"node": "us-east"}
    error = search("kagi", body, status=400)
    assert error.message.endswith("Missing q parameter"), error.message


# -- vendor codes that are digits of another kind ---------------------------------------------------


@pytest.mark.parametrize("name", ["bocha", "jina"])
@pytest.mark.parametrize("code", ["²", "١٢٣", "0", "9" * 30, "999", 0, 999])
def test_a_vendor_code_of_other_digits_is_the_vendors_code_not_an_http_status(name, code):
    """``"²".isdigit()`` is true yet ``int("²")`` fails: an internal error; ``"١٢٣"`` was HTTP 123,
    ``"0"`` "unexpected HTTP 0" (``http_0``); three digits, or a number, outside 100-599 are no status."""
    body, _ = with_words(name, "words")
    body["code"] = code
    error = search(name, body, status=200)
    assert isinstance(error, ws.WebProviderError), error
    assert (error.detail_code, error.status) == ("api_error", 200), error.message
    assert "answered with an error envelope: " in error.message and "HTTP %s" % code not in error.message
    if isinstance(code, str):  # the vendor's code is shown as its text
        assert "answered with an error envelope: %s: " % code in error.message


@pytest.mark.parametrize("name", ["bocha", "jina"])
@pytest.mark.parametrize("code", [404, "404"])
def test_a_vendor_code_that_is_an_http_status_is_that_status(name, code):
    body, _ = with_words(name, "words")
    body["code"] = code
    error = search(name, body, status=200)
    assert isinstance(error, ws.WebProviderError) and (error.detail_code, error.status) == ("http_404", 200), error
    assert "unexpected HTTP 404 [HTTP 200 with body code 404]" in error.message


# -- values that are no text -------------------------------------------------------------------------


@pytest.mark.parametrize("name", KEYED)
@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_a_title_that_is_a_number_of_no_value_is_no_title(name, token):
    """Python's JSON reader takes ``NaN`` and ``Infinity``: the title read "nan" or "inf"."""
    data = success(name)
    first_result(name, data)[TITLE_FIELD[name]] = "@@TOKEN@@"
    result = search(name, json.dumps(data).replace('"@@TOKEN@@"', token))
    assert result["items"][0]["title"] == "", result["items"][0]


def test_clean_text_reads_no_number_of_no_value_and_keeps_finite_ones():
    assert [clean_text(value) for value in (float("nan"), float("inf"), 12.5, 7)] == ["", "", "12.5", "7"]


def test_c1_controls_leave_text_and_disqualify_a_url():
    """U+009B is a terminal's CSI (ESC ``[``); U+0085 is a line break, a space."""
    assert clean_text("a\x9b31mb\x85c", markup=False) == "a31mb c"
    assert result_url("https://example.com/a\x9bb") is None


# -- Kagi's entries without their kind ---------------------------------------------------------------


def test_kagi_entries_none_of_a_known_kind_are_an_unknown_shape_not_no_results():
    """Results whose ``t`` was renamed were all dropped as "not search results": "no results", cached."""
    data = success("kagi")
    for entry in data["data"]:
        entry["type"] = entry.pop("t")
    error = search("kagi", data)
    assert isinstance(error, ws.WebParseError) and error.detail_code == "unexpected_shape", error
    assert "none a search result (t 0) or related searches (t 1)" in error.message


# -- request ids ---------------------------------------------------------------------------------------


REQUEST_ID_AT = {"tavily": ("request_id",), "kagi": ("meta", "id"), "bocha": ("log_id",)}


def _set(data: Any, path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@pytest.mark.parametrize("name", sorted(REQUEST_ID_AT))
@pytest.mark.parametrize("value, shown", [("req\x1b[31m-7\u202e", "req[31m-7"), ("x" * 201, None), (7, "7")])
def test_a_request_id_is_one_line_of_bounded_text(name, value, shown):
    data = success(name)
    _set(data, REQUEST_ID_AT[name], value)
    result = search(name, data)
    assert result["provider_meta"].get("request_id") == shown


@pytest.mark.parametrize("name", sorted(REQUEST_ID_AT))
def test_a_request_id_that_echoes_the_key_does_not_show_it(name):
    """The items' text was redacted, the request id was not: ``provider_meta.request_id`` showed the key."""
    data = success(name)
    _set(data, REQUEST_ID_AT[name], "req-%s-7" % KEY)
    result = search(name, data)
    assert KEY not in json.dumps(result) and result["provider_meta"]["request_id"].startswith("req-")


@pytest.mark.parametrize(
    "value, shown", [("gw\x1b[31m-7\x9b", "gw[31m-7"), ("x" * 201, None), ("gw-%s-7" % KEY, "gw-***-7")]
)
def test_the_gateways_request_id_header_is_read_as_a_request_id(value, shown):
    result = search("service", recorded_body("service", "basic"), headers={"X-Request-Id": value})
    assert result["provider_meta"].get("request_id") == shown


# -- Retry-After -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["3_0", "\u0663\u0660", "\uff13\uff10"])
def test_a_retry_after_in_other_digits_is_no_duration(value):
    """``float`` reads ``"3_0"``, Arabic-Indic and full-width digits as 30: no header means that."""
    assert retry_after_seconds({"Retry-After": value}) is None
    assert retry_after_seconds({"X-RateLimit-Reset": value}) is None
    error = search("brave", recorded_body("brave", "http_429_rate_limited"), status=429, headers={"Retry-After": value})
    assert isinstance(error, ws.WebBlocked) and error.retry_after is None, error


@pytest.mark.parametrize("value", ["inf", "Infinity", "1e3", "+30", "3.", ".5", "3.5.1", "-0.5"])
def test_a_retry_after_of_other_than_digits_is_no_duration(value):
    """RFC 9110 (10.2.3) writes ``Retry-After`` as an HTTP date or delay-seconds, ``1*DIGIT``: ``float``
    read ``inf`` as a day's wait and ``1e3`` as 1000 s, neither of which the header says. It is no
    duration: the block's own cool-down applies (digits past a day are still capped at a day; a decimal
    fraction, ``3.5``, says a wait as plainly and is read)."""
    assert retry_after_seconds({"Retry-After": value}) is None
    error = search("brave", recorded_body("brave", "http_429_rate_limited"), status=429, headers={"Retry-After": value})
    assert isinstance(error, ws.WebBlocked) and error.retry_after is None, error
    assert retry_after_seconds({"Retry-After": "99999999999999999999"}) == 86400.0
    assert (retry_after_seconds({"Retry-After": "3.5"}), retry_after_seconds({"Retry-After": " 3.0 "})) == (3.5, 3.0)


# -- an account without credit; an error inside a 200 ----------------------------------------------------


@pytest.mark.parametrize("name", KEYED)
def test_a_402_payment_required_is_a_refused_account_naming_the_key_setting(name):
    """Was ``WebProviderError(http_402)`` ("unexpected HTTP 402") everywhere but Jina: the key was sent
    again on every call, and the message did not say to look at the account's credit."""
    error = search(name, "Payment Required", status=402, content_type="text/plain")
    assert isinstance(error, ws.AuthError) and (error.detail_code, error.status) == ("http_402", 402), error
    assert "its account's plan or credit" in error.message and KEY not in error.message


@pytest.mark.parametrize(
    "name, case", [("tavily", "http_401_invalid_key"), ("tavily", "http_432_plan_limit"), ("service", "http_403")]
)
def test_an_error_body_without_a_code_inside_a_200_is_the_vendors_error_not_an_unknown_shape(name, case):
    """Read as "answered without 'results'": the vendor's own words were lost."""
    body = recorded_body(name, case)
    error = search(name, body, status=200)
    assert isinstance(error, ws.WebProviderError) and (error.detail_code, error.status) == ("api_error", 200), error
    words = body["detail"]["error"] if name == "tavily" else body["error"]["message"]
    assert error.message.endswith(": " + cut_end(words, 300))


def test_searxngs_error_inside_a_200_is_its_error_too():
    """The shared mapping, for SearXNG's ``{"error": "No query"}`` (UPSTREAMS.md; sent with 400) inside a 200."""
    error, _ = replay_search(
        "searxng",
        "https://searx.hostile.test/search",
        {"error": "No query"},
        settings=ws.Settings(providers={"searxng": {"base_url": "https://searx.hostile.test"}}),
    )
    assert isinstance(error, ws.WebProviderError) and error.detail_code == "api_error", error
    assert error.message.endswith(": No query"), error.message


def test_a_searxng_answer_with_results_is_one_whatever_its_error_says():
    """The guard on results is the shared JSON path's (``results_at``), not Tavily's alone: a SearXNG 200
    with its results and an ``error`` string beside them was ``WebProviderError(api_error)``."""
    data = json.loads(recorded_success("searxng").body)
    data["error"] = "a note beside the results"
    result, _ = replay_search(
        "searxng",
        "https://searx.hostile.test/search",
        data,
        settings=ws.Settings(providers={"searxng": {"base_url": "https://searx.hostile.test"}}),
    )
    assert isinstance(result, dict), result
    assert [item["url"] for item in result["items"]] == [entry["url"] for entry in data["results"]][:5]


def test_a_tavily_answer_with_results_is_one_whatever_its_detail_says():
    data = success("tavily")
    data["detail"] = {"error": "a note beside the results"}
    result = search("tavily", data)
    assert [item["url"] for item in result["items"]] == [entry["url"] for entry in data["results"]][:5]


# -- results left out ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", KEYED)
@pytest.mark.parametrize(
    "address",
    ["javascript:alert(1)", "data:text/html,<b>x</b>", "/relative/page", "https://example.com/" + "a" * 8200],
    ids=["javascript", "data", "relative", "over-8-KB"],
)
def test_a_result_without_an_http_address_is_left_out_with_an_info_record(name, address, caplog):
    """It was dropped without a word: an answer of 10 results gave 9 items, nothing said why. Logged at
    INFO, not WARNING: an engine's own relative cards are in ordinary answers (a real Baidu page's video
    card), and a WARNING reached a script's stderr through Python's last-resort handler."""
    data = success(name)
    first_result(name, data)["url"] = address
    with caplog.at_level("DEBUG", logger="websearch_sync"):
        result = search(name, data, max_results=3)
    assert result["items"] and address not in [item["url"] for item in result["items"]]
    logged = [(r.levelname, r.getMessage()) for r in caplog.records if "left out" in r.getMessage()]
    assert logged == [
        (
            "INFO",
            "%s: 1 web result(s) left out, without an http(s) address (a relative, javascript: or data: "
            "link, one over 8 KB, or none)" % name,
        )
    ]


@pytest.mark.parametrize("address", ["https://exa\U000e0041mple.com/", "https://example.com/a\x1bb"])
def test_a_result_whose_address_holds_an_invisible_character_is_logged_saying_so(address, caplog):
    """A tag character in the host (or a control anywhere) left a result out with the line of a missing
    address ("a relative, javascript: or data: link, one over 8 KB, or none"), none of which it was."""
    raw = {"title": "t", "url": address, "snippet": ""}
    with caplog.at_level("DEBUG", logger="websearch_sync"):
        assert normalize_items([raw], "brave", 5) == []
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "INFO",
            "brave: 1 web result(s) left out, their address holding an invisible character (a tag or control "
            "character, in its host or unencoded: the link shown would not be the one followed)",
        )
    ]


@pytest.mark.parametrize("name", KEYED)
def test_a_result_address_with_user_info_keeps_the_host_a_browser_goes_to(name):
    """``https://www.paypal.com@evil.example/`` was kept as sent: a reader (or a model) saw paypal.com where a
    browser goes to evil.example (the user info, before the last ``@``, is no host). The result keeps the host."""
    data = success(name)
    first_result(name, data)["url"] = "https://www.paypal.com@evil.example/login?next=1"
    items = search(name, data)["items"]
    assert items[0]["url"] == "https://evil.example/login?next=1", items[0]
    assert not any("paypal" in item["url"] for item in items), items


def test_an_image_without_its_image_address_is_left_out_saying_or(caplog):
    """An image result needs both addresses: one missing is enough to leave it out ("or", not "and")."""
    raw = {"title": "t", "url": "https://example.com/page", "image_url": "/relative.jpg"}
    with caplog.at_level("DEBUG", logger="websearch_sync"):
        assert normalize_items([raw], "bing_images", 5, vertical="images") == []
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "INFO",
            "bing_images: 1 images result(s) left out, without an http(s) address or an image address "
            "(a relative, javascript: or data: link, one over 8 KB, or none)",
        )
    ]


# -- page text that is no text -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [{"text": "page words"}, ["page", "words"], True, 5])
def test_page_text_that_is_no_string_is_no_content(value):
    """Tavily's ``raw_content`` as an object became the content ``"{'text': 'page words'}"``; now it is
    none, as a ``null`` one is (the client then reads the page itself: docs/backends.md)."""
    raw = {"title": "t", "url": "https://example.com/", "snippet": "", "content": value}
    assert "content" not in normalize_items([raw], "tavily", 5)[0]
    data = success("tavily")
    data["results"] = data["results"][:1]
    data["results"][0]["raw_content"] = value
    item = search("tavily", data, max_results=1, include_content=True)["items"][0]
    assert item.get("content_by") != "tavily" and "page" not in item.get("content", ""), item


@pytest.mark.parametrize("summary", [{"text": "a summary"}, ["a summary"], "   "])
def test_a_bocha_summary_that_is_no_text_leaves_the_snippet(summary):
    """With ``summary=True`` an object in ``summary`` replaced the snippet, which normalisation then emptied."""
    data = success("bocha")
    result = first_result("bocha", data)
    result["summary"] = summary
    item = search("bocha", data, summary=True)["items"][0]
    assert item["snippet"] == clean_text(result["snippet"], markup=False) != "", item


# -- JSON's encoding -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tavily", "bocha"])
@pytest.mark.parametrize("padding", ["", " "], ids=["even", "odd"])
def test_json_in_utf8_is_read_as_utf8_whatever_charset_the_header_names(name, padding):
    """JSON has no charset parameter (RFC 8259, 11): declared ``charset=utf-16`` yet sent in UTF-8, a body
    was decoded as UTF-16 and read, or not, by its length's parity."""
    data = success(name)
    body = (json.dumps(data, ensure_ascii=False) + padding).encode("utf-8")
    result = search(name, body, content_type="application/json; charset=utf-16")
    assert result["items"][0]["title"] == clean_text(first_result(name, data)[TITLE_FIELD[name]], markup=False)


def test_json_in_a_legacy_charset_is_read_by_its_declared_charset():
    """Bocha's Chinese text sent in GBK, as its header says: not UTF-8, so read as the header names it."""
    data = success("bocha")
    body = json.dumps(data, ensure_ascii=False).encode("gbk", "replace")
    result = search("bocha", body, content_type="application/json; charset=gbk")
    assert result["items"][0]["title"] == clean_text(first_result("bocha", data)["name"], markup=False)


@pytest.mark.parametrize("word", ["学校", "图片"])
def test_json_declared_gbk_whose_bytes_are_also_utf8_is_read_as_gbk(word):
    """学校 in GBK is valid UTF-8 too (``ѧУ``): read UTF-8 first whatever the header said, it was
    misread without a sign. A declared legacy charset is the one the body is read by."""
    data = success("bocha")
    first_result("bocha", data)["name"] = word
    escaped = json.dumps(data)  # ASCII: every other character a \u escape, so only the title is GBK
    body = escaped.replace(json.dumps(word)[1:-1], word, 1).encode("gbk")
    assert body.decode("utf-8") != body.decode("gbk")  # the case: valid UTF-8, another text
    result = search("bocha", body, content_type="application/json; charset=gbk")
    assert result["items"][0]["title"] == word


@pytest.mark.parametrize("charset", ["windows-1251", "koi8-r", "iso-8859-5"])
def test_json_in_utf8_under_a_single_byte_charset_is_read_as_utf8(charset):
    """A single-byte legacy label on UTF-8 JSON (the classic wrong label): its non-ASCII bytes are valid UTF-8, which
    they hardly ever are by chance, so they are UTF-8; read by the label, ``Café Привет`` was ``CafГ© РџСЂРёРІРµС‚``."""
    data = success("bocha")
    first_result("bocha", data)["name"] = "Café Привет"
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    assert body.decode(charset, "replace") != body.decode("utf-8")  # the case: the label reads other text
    result = search("bocha", body, content_type="application/json; charset=" + charset)
    assert result["items"][0]["title"] == "Café Привет"


@pytest.mark.parametrize("name", KEYED)
def test_a_429_whose_retry_after_date_is_past_is_not_retried_at_once(name):
    """A date behind our clock read as "retry after 0 s": every retry went out at once to a service
    rate-limiting us. It is no wait now (the block's own cool-down applies, as for a past reset time)."""
    clock = FakeClock()
    with ws.SearchClient(name, settings=settings_for(name), retries=2, cache_ttl_s=0, clock=clock) as client:
        error, calls = replay_search(
            name,
            ENDPOINTS[name],
            "rate limited",
            status=429,
            content_type="text/plain",
            headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"},
            client=client,
        )
    assert isinstance(error, ws.WebBlocked) and error.retry_after is None, error
    assert "retry after 0 s" not in error.message and all(sleep > 0 for sleep in clock.sleeps), clock.sleeps


# -- dates ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, field", [("tavily", "published_date"), ("kagi", "published"), ("service", "date")])
@pytest.mark.parametrize("value", [0, -1, 86400])
def test_a_date_field_of_zero_or_a_small_number_is_no_date_in_1970(name, field, value):
    """A service's ``0`` or ``-1`` for "no date" became ``1970-01-01T00:00:00Z`` (a string of digits had to have
    nine of them, 1973 on, to be read as epoch seconds; a number had no such floor)."""
    data = success(name)
    first_result(name, data)[field] = value
    item = search(name, data)["items"][0]
    assert "published_at" not in item, item


@pytest.mark.parametrize("name, field", [("tavily", "published_date"), ("kagi", "published"), ("service", "date")])
@pytest.mark.parametrize(
    "value",
    [
        "1970-01-01T00:00:00Z",  # the epoch written out: a number 0 was already no date
        "1970-01-01",
        "0001-01-01T00:00:00",  # Go's zero time, .NET's DateTime.MinValue
        "0001-01-01T00:00:00Z",
        -62135596800,  # the year 1 in epoch seconds
        "9999-12-31T23:59:59Z",  # .NET's DateTime.MaxValue, a "never" of many databases
        253402300799,  # the same in epoch seconds: was read as milliseconds, 1978-01-11
        "253402300799",
        253402300799999,  # and in milliseconds
    ],
)
def test_a_placeholder_date_is_no_date(name, field, value):
    """The epoch, the year 1 and the year 9999 are what a service writes for "no date" (an unset field's
    zero, a type's least or greatest value): they were read as dates (and 253402300799, the last second of
    9999, as milliseconds: January 1978), where ``0`` was no date."""
    data = success(name)
    first_result(name, data)[field] = value
    item = search(name, data)["items"][0]
    assert "published_at" not in item, item


@pytest.mark.parametrize("name, field", [("tavily", "published_date"), ("kagi", "published"), ("service", "date")])
def test_a_date_field_of_a_number_no_float_holds_is_no_date(name, field):
    """A JSON integer of 400 digits (Python's reader takes it whole) raised ``OverflowError`` out of the
    search, no error of the vocabulary, where any other number that is no date is none."""
    data = success(name)
    first_result(name, data)[field] = 10**400
    item = search(name, data)["items"][0]
    assert "published_at" not in item, item


@pytest.mark.parametrize("name", KEYED)
def test_an_integer_longer_than_python_reads_in_a_field_not_read_leaves_the_answer_readable(name, fake_clock):
    """A recorded success with one more field holding an integer of 5,000 digits: Python's ``int``
    refuses over 4,300 (``ValueError``), and the whole answer was "JSON that does not parse". Its
    results are read as without it. (The second search waits out the engine's pace on the fake
    clock: 1.5 s of real time for Jina's, 1 s for Brave's.)"""
    data = success(name)
    plain = search(name, data)
    data["zz_count"] = "@@DIGITS@@"
    result = search(name, json.dumps(data).replace('"@@DIGITS@@"', "9" * 5000))
    assert not isinstance(result, ws.WebSearchError), result
    assert result["items"] == plain["items"] and plain["items"]


def test_a_brave_error_body_served_with_a_200_is_the_status_it_says():
    """Brave's error body names its status (``"error": {"status": 429, ...}``); the recorded 429 served
    with a 200 (a gateway or cache in front of the API) was ``WebProviderError(api_error)``: a rate limit
    not cooled down. The status it says decides, as a numeric vendor code does; its words still follow."""
    body = recorded_body("brave", "chatwise-releases-1296__429_rate_limited")
    error = search("brave", body, status=200)
    assert isinstance(error, ws.WebBlocked) and error.detail_code == "http_429" and error.status == 200, error
    assert "[HTTP 200 with body code 429]" in error.message, error.message
    assert error.message.endswith(": Request rate limit exceeded for plan"), error.message

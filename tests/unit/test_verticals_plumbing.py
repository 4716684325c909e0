"""Issue 31: ``vertical=`` from every entry point to the registry, typed items per vertical,
refusals before any request, ``auto`` per vertical, and paging (pages read at the call's pace,
deduplicated, a failed later page keeping the pages before it)."""

import datetime
import json
from typing import Any, Optional

import pytest
import responses
from backend_kit import registered
from clocks import FakeClock
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync import tool
from websearch_sync.engine import registry
from websearch_sync.engine.base import Backend, Page, answered_at
from websearch_sync.engine.normalize import normalize_items
from websearch_sync.models import ParseResult, SearchParams
from websearch_sync.net.transport import HttpResponse, RequestSpec
from websearch_sync.testing import assert_contract, no_network

ENDPOINT = "https://pages.example/search"


@pytest.mark.parametrize("vertical", ["web", "news", "images", "videos"])
def test_every_vertical_answers_in_its_own_shape(vertical):
    response = ws.search("red panda", backend="stub", vertical=vertical)
    assert_contract(response, provider="stub")
    assert response["provider_meta"].get("vertical") == (None if vertical == "web" else vertical)
    if vertical == "images":
        assert all(item["image_url"].startswith("https://") for item in response["items"])
        assert "snippet" not in response["items"][0]


def test_web_items_are_unchanged_by_the_vertical_argument():
    assert ws.search("q", backend="stub")["items"] == ws.search("q", backend="stub", vertical="web")["items"]
    assert "vertical" not in ws.search("q", backend="stub", vertical="web")["provider_meta"]


def test_a_backend_without_the_vertical_refuses_before_any_request_naming_those_with_it():
    with no_network(), pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="wikipedia", vertical="images")
    assert info.value.detail_code == "unsupported_vertical"
    assert "stub" in info.value.message and "wikipedia" in info.value.message
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend=["stub", "wikipedia"], vertical="news")
    assert info.value.detail_code == "unsupported_vertical"


@pytest.mark.parametrize("vertical", ["books", "WEB ", 3, True])
def test_an_unknown_vertical_is_bad_input(vertical):
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", vertical=vertical)
    assert info.value.detail_code == "bad_vertical"


def test_the_registry_says_who_serves_what():
    assert registry.verticals_of("stub") == ("web", "news", "images", "videos")
    assert registry.verticals_of("wikipedia") == ("web",)
    assert "stub" in registry.backends_for("videos") and "wikipedia" not in registry.backends_for("videos")
    assert registry.backend_class("stub", "news").vertical == "news"
    assert registry.primary_class("stub").vertical == "web"


def test_the_vertical_is_part_of_the_cache_key():
    with ws.SearchClient("stub") as client:
        client.search("q")
        news = client.search("q", vertical="news")
        assert news["provider_meta"]["cached"] is False and news["provider_meta"]["vertical"] == "news"
        assert client.search("q", vertical="news")["provider_meta"]["cached"] is True


# -- auto, one chain per vertical ----------------------------------------------------------------


class _Blocked(Backend):
    name = "vertical_probe_a"
    kind = "json"
    vertical = "news"
    auto_rank = 100  # first of the keyless chain
    default_endpoint = ENDPOINT

    def search(self, params, transport, deadline):
        self.check(params)
        raise ws.WebBlocked("blocked", provider=self.name, detail_code="captcha_required")


class _Answers(Backend):
    name = "vertical_probe_b"
    kind = "json"
    vertical = "news"
    auto_rank = 101
    text_format = "text"
    default_endpoint = ENDPOINT

    def search(self, params, transport, deadline):
        self.check(params)
        return ParseResult(items=[{"title": "T", "url": "https://news.example/a", "published_at": "2026-08-01"}])


@pytest.fixture
def news_chain():
    with registered(_Blocked, _Answers):
        yield


def test_auto_news_moves_past_a_blocked_keyless_engine(news_chain):
    from websearch_sync.client.selection import auto_backends, keyless_chain

    assert keyless_chain("news")[:2] == ("vertical_probe_a", "vertical_probe_b")
    assert "vertical_probe_a" not in auto_backends(ws.Settings())  # the web chain has no news-only engine
    with no_network(), ws.SearchClient(cache_ttl_s=0, retries=0) as client:
        response = client.search("q", backend="auto", vertical="news")
    assert response["provider_meta"]["provider_name"] == "vertical_probe_b"
    assert response["items"][0]["published_at"] == "2026-08-01"
    assert response["errors"][0]["type"] == "WebBlocked" and response["errors"][0]["provider"] == "vertical_probe_a"


# -- the LLM tool -----------------------------------------------------------------------------------


def test_the_tool_takes_a_vertical_and_keeps_ten_results_at_most():
    schema = tool.tool_schema("web.search")
    assert schema["properties"]["vertical"]["enum"] == ["web", "news", "images", "videos"]
    assert schema["properties"]["max_results"]["maximum"] == 10
    result = tool.call_tool("web.search", {"query": "q", "vertical": "videos"}, client=ws.SearchClient("stub"))
    assert result["items"][0]["duration"] == 60
    assert "Duration (s): 60" in tool.format_results(result)
    refused = tool.call_tool("web.search", {"query": "q", "max_results": 20})
    assert refused["error"]["type"] == "InvalidInput"


def test_the_tool_caps_a_configured_default_above_ten():
    client = ws.SearchClient("stub", settings=ws.Settings(max_results=30))
    with responses.RequestsMock():  # the stub sends nothing
        result = tool.call_tool("web.search", {"query": "q"}, client=client)
    assert len(result["items"]) == 3 and result["provider_meta"]["provider_name"] == "stub"


@pytest.mark.parametrize(
    "vertical, item",
    [
        ("videos", {"url": "https://v.example/1", "uploader": "U" * 1_000_000, "publisher": "P" * 1_000_000}),
        ("news", {"url": "https://n.example/1", "source": "S" * 1_000_000}),
    ],
)
def test_a_megabyte_of_a_services_source_publisher_or_channel_does_not_reach_the_model(vertical, item):
    """A video's uploader and publisher (a news item's source) were passed on whole: a hostile service's
    megabyte uploader gave the model a 2 MB tool text. Each is cut at MAX_TITLE_CHARS, in the MCP tool's
    text and in its structured copy."""
    from websearch_sync.mcp.tools import McpTools
    from websearch_sync.testing import fake_results

    with fake_results({"ddg_html": [dict(item, title="a video")]}):
        with ws.SearchClient(settings=ws.Settings(backend="ddg_html")) as client:
            out = McpTools(client).call("web_search", {"query": "q", "vertical": vertical})
    (shown,) = out.structured["items"]
    for name in set(item) - {"url"}:
        assert len(shown[name]) == tool.MAX_TITLE_CHARS and shown[name].endswith("...")
    assert len(out.text) < 3 * tool.MAX_TITLE_CHARS + 600


# -- paging -----------------------------------------------------------------------------------------


class _Paged(Backend):
    """Three results a page, the page number in the URL; page 4 repeats page 3."""

    name = "paging_probe"
    kind = "json"
    text_format = "text"
    default_endpoint = ENDPOINT
    min_interval_s = 1.0
    results_per_page = 3

    def build_request(self, params: SearchParams) -> RequestSpec:
        return RequestSpec("GET", ENDPOINT, params={"q": params.query, "page": "1"})

    def next_page(self, params: SearchParams, page: Page) -> Optional[RequestSpec]:
        return RequestSpec(
            "GET", ENDPOINT, params={"q": params.query, "page": str(page.number), "from": str(page.read)}
        )

    def parse(self, response: HttpResponse, params: SearchParams) -> ParseResult:
        return ParseResult(items=response.json()["items"])


def _page(number: int, urls: list[str]) -> dict[str, Any]:
    return {"items": [{"title": "r%s" % u, "url": "https://r.example/%s" % u, "snippet": "s"} for u in urls]}


@pytest.fixture
def paged():
    registry.register(_Paged)
    yield
    registry.unregister(_Paged.name)


def _serve(mock: responses.RequestsMock, pages: dict[int, Any]) -> None:
    for number, body in pages.items():
        query = {"q": "q", "page": str(number)}
        if number > 1:
            query["from"] = str(3 * (number - 1))
        status, payload = body if isinstance(body, tuple) else (200, body)
        mock.get(
            ENDPOINT,
            match=[responses.matchers.query_param_matcher(query)],
            status=status,
            body=json.dumps(payload),
            content_type="application/json",
        )


def test_more_results_than_a_page_reads_the_next_pages_at_the_pace(paged):
    clock = FakeClock()
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=clock, cache_ttl_s=0) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"]), 2: _page(2, ["3", "4", "5"]), 3: _page(3, ["6", "7", "8"])})
        response = client.search("q", max_results=7)
    assert [item["url"][-1] for item in response["items"]] == list("1234567")  # the repeat of 3 dropped
    assert [item["rank"] for item in response["items"]] == list(range(1, 8))
    assert response["provider_meta"]["pages"] == 3 and response["provider_meta"]["attempts"] == 3
    assert clock.sleeps == pytest.approx([1.0, 1.0])  # each later page waited for the backend's slot


def test_a_call_its_first_page_answers_sends_one_request(paged):
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=FakeClock()) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"])})
        response = client.search("q", max_results=3)
    assert len(response["items"]) == 3 and "pages" not in response["provider_meta"]


def test_a_first_page_short_of_the_call_reads_the_next_though_the_call_is_within_a_page(paged):
    """Page 1 holds 2 results of a call for 3 (a page's declared size): page 2 is read. Before, a call
    within ``results_per_page`` read one page whatever it held (Yahoo's 7 of a call for 10)."""
    clock = FakeClock()
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=clock, cache_ttl_s=0) as client:
        _serve(mock, {1: _page(1, ["1", "2"])})
        mock.get(  # page 2 starts after the 2 results read
            ENDPOINT,
            match=[responses.matchers.query_param_matcher({"q": "q", "page": "2", "from": "2"})],
            body=json.dumps(_page(2, ["3", "4", "5"])),
            content_type="application/json",
        )
        response = client.search("q", max_results=3)
    assert [item["url"][-1] for item in response["items"]] == list("123")
    assert response["provider_meta"]["pages"] == 2 and clock.sleeps == pytest.approx([1.0])


class _Repeating(_Paged):
    """A page whose "next" is the request that brought it (DuckDuckGo's Next form carrying the values
    its page was posted with)."""

    name = "repeating_probe"

    def next_page(self, params: SearchParams, page: Page) -> Optional[RequestSpec]:
        return self.build_request(params)


@pytest.fixture
def repeating():
    registry.register(_Repeating)
    yield
    registry.unregister(_Repeating.name)


REPEATED = "the next page of page 1 asks for page 1 again (the request that brought it), so paging stopped"


def test_a_next_page_repeating_the_request_just_made_is_a_warning_when_the_call_asked_more(repeating):
    """Paging stopped at it without a word: the call for 7 got 3 and did not learn why."""
    with responses.RequestsMock() as mock, ws.SearchClient("repeating_probe", clock=FakeClock()) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"])})
        response = client.search("q", max_results=7)
        requests_sent = len(mock.calls)
    assert requests_sent == 1 and len(response["items"]) == 3
    assert [(e["type"], e["detail_code"], e["message"]) for e in response["errors"]] == [
        ("WebProviderError", "next_page_repeated", "page 2 was not read (the results are those of page 1): " + REPEATED)
    ]
    assert "page_not_read" not in response["provider_meta"] and "partial" not in response["provider_meta"]
    assert "Note: page 2 was not read (the results are those of page 1): " + REPEATED in tool.format_results(response)


def test_a_fill_up_page_repeating_the_request_just_made_is_said_in_page_not_read(repeating):
    """A call within a page's size, its first page short: the fill-up page is best effort (the answer
    stands whole), so why it was not read is ``page_not_read``, as for a fill-up page that failed."""
    with responses.RequestsMock() as mock, ws.SearchClient("repeating_probe", clock=FakeClock()) as client:
        _serve(mock, {1: _page(1, ["1", "2"])})
        response = client.search("q", max_results=3)
        requests_sent = len(mock.calls)
    assert requests_sent == 1 and len(response["items"]) == 2 and "errors" not in response
    assert response["provider_meta"]["page_not_read"] == "page 2 was not read (the results are those of page 1): " + (
        REPEATED
    )


def test_paging_stops_at_a_page_that_brings_nothing_new(paged):
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=FakeClock()) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"]), 2: _page(2, ["1", "2", "3"])})
        response = client.search("q", max_results=20)
    assert len(response["items"]) == 3 and response["provider_meta"]["pages"] == 2


def test_a_next_page_of_the_wrong_kind_is_a_failed_page_2_naming_the_method(paged, monkeypatch):
    """``next_page`` returning a dict reached the sending code's ``AttributeError``; it is the plugin's
    ``bad_parse_result``, met on page 2: page 1's results stand, the answer partial (docs/backends.md)."""
    monkeypatch.setattr(_Paged, "next_page", lambda self, params, page: {"method": "GET", "url": ENDPOINT})
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=FakeClock(), retries=0) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"])})
        response = client.search("q", max_results=10)
        client.search("q", max_results=10)  # partial: not cached, asked again
        assert len(mock.calls) == 2
    assert [item["rank"] for item in response["items"]] == [1, 2, 3]
    assert (response["errors"][0]["type"], response["errors"][0]["detail_code"]) == (
        "WebProviderError",
        "bad_parse_result",
    )
    assert response["errors"][0]["message"] == (
        "page 2 (the results are those of page 1): backend paging_probe's next_page returned a dict, not a RequestSpec"
    )


def test_a_later_page_parsed_to_the_wrong_shape_is_that_pages_failure(paged, monkeypatch):
    """Page 2's parse of the wrong shape (items that are no list) was read as page 1's were: an
    ``AttributeError`` that lost page 1's results (``internal_error``). It is page 2's ``bad_parse_result``."""
    parse = _Paged.parse

    def broken_after_page_one(self, response, params):
        return parse(self, response, params) if "page=1" in response.url else ParseResult(items="not a list")

    monkeypatch.setattr(_Paged, "parse", broken_after_page_one)
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=FakeClock(), retries=0) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"]), 2: _page(2, ["4", "5", "6"])})
        response = client.search("q", max_results=10)
    assert [item["rank"] for item in response["items"]] == [1, 2, 3] and response["provider_meta"]["pages"] == 1
    assert (response["errors"][0]["detail_code"], response["errors"][0]["page"]) == ("bad_parse_result", 2)
    assert response["errors"][0]["message"].startswith(
        "page 2 (the results are those of page 1): backend paging_probe's parse returned a page of the wrong shape"
    )


def test_an_error_every_page_gives_is_said_once(paged, monkeypatch):
    """A meta-engine's engine that failed page 1 fails page 2 too (SearXNG: "CAPTCHA", then
    "Suspended: CAPTCHA"): the answer said it once a page ("2 source(s) failed" for one). The
    entry names its engine, as SearXNG's do: one naming none is told apart by its words too."""
    parse = _Paged.parse

    def with_a_failed_engine(self, response, params):
        words = "CAPTCHA" if "page=1" in response.url else "Suspended: CAPTCHA"
        error = {"type": "WebBlocked", "message": words, "retryable": False, "detail_code": "captcha_required"}
        error["engine"] = "duckduckgo"
        return ParseResult(items=parse(self, response, params).items, errors=[dict(error, provider=self.name)])

    monkeypatch.setattr(_Paged, "parse", with_a_failed_engine)
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=FakeClock(), retries=0) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"]), 2: _page(2, ["4", "5", "6"])})
        response = client.search("q", max_results=6)
    assert len(response["items"]) == 6 and response["provider_meta"]["pages"] == 2
    assert [error["message"] for error in response["errors"]] == ["CAPTCHA"]


def test_a_continue_request_of_the_wrong_kind_names_the_method(paged, monkeypatch):
    """A flow's later step returning a tuple is the plugin's ``bad_parse_result``, not an ``AttributeError``."""
    monkeypatch.setattr(_Paged, "continue_request", lambda self, response, params, step: ("GET", ENDPOINT))
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=FakeClock(), retries=0) as client:
        _serve(mock, {1: _page(1, ["1"])})
        with pytest.raises(ws.WebProviderError) as refused:
            client.search("q", max_results=2)
    assert refused.value.detail_code == "bad_parse_result"
    assert refused.value.message == "backend paging_probe's continue_request returned a tuple, not a RequestSpec"


def test_a_failed_later_page_keeps_the_pages_before_it_and_is_not_cached(paged):
    clock = FakeClock()
    with responses.RequestsMock() as mock, ws.SearchClient("paging_probe", clock=clock, retries=0) as client:
        _serve(mock, {1: _page(1, ["1", "2", "3"]), 2: (429, {"error": "slow down"})})
        response = client.search("q", max_results=10)
        assert [item["rank"] for item in response["items"]] == [1, 2, 3]
        assert response["errors"][0]["type"] == "WebBlocked" and response["errors"][0]["detail_code"] == "http_429"
        assert response["errors"][0]["message"].startswith("page 2 (the results are those of page 1): ")
        assert response["errors"][0]["page"] == 2
        shown = tool.format_results(response)  # what a model and the command line read
        assert "paging_probe's page 2 failed (WebBlocked): the results above are those of page 1" in shown
        assert "source(s) failed" not in shown  # the source answered: its results are above
        assert response["provider_meta"]["pages"] == 1
        with pytest.raises(ws.WebBlocked) as info:  # the block started the cool-down; nothing was cached
            client.search("q", max_results=10)
    assert "cool" in info.value.message and "page 2 (" not in info.value.message  # the block as met, for later calls


# -- values of the verticals ---------------------------------------------------------------------------


ANSWERED = datetime.datetime(2026, 8, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)


def _one(vertical: str, **raw: Any) -> dict[str, Any]:
    items = normalize_items([{"title": "t", "url": "https://a.example/", **raw}], "stub", 5, vertical, ANSWERED)
    return dict(items[0]) if items else {}


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("3 hours ago", "2026-08-01T09:00:00Z"),
        ("2d", "2026-07-30"),
        ("yesterday", "2026-07-31"),
        ("an hour ago", "2026-08-01T11:00:00Z"),
        (1754049600, "2025-08-01T12:00:00Z"),
        ("1754049600", "2025-08-01T12:00:00Z"),
        ("1754049600.25", "2025-08-01T12:00:00Z"),  # epoch seconds as text with a fraction: no date before
        ("1754049600000.5", "2025-08-01T12:00:00Z"),  # milliseconds, the same
        ("1754049600.", None),
        ("1754049600.2.5", None),
        ("2026/07/09", "2026-07-09"),  # year first, slashed (as Japanese and Chinese pages write it): no date before
        ("2026/7/9", "2026-07-09"),
        ("2026/02/30", None),  # no such day
        ("2026/13/01", None),
        ("2026/07/09 12:30", "2026-07-09T12:30:00Z"),  # its time read, as "2026-07-09 12:30"'s (None before)
        ("2026/7/9T12:30:05+02:00", "2026-07-09T10:30:05Z"),
        ("2026/07/09 foo", None),
        ("2026/07/09/10", None),
        ("2026-07-09T10:11:12+02:00", "2026-07-09T08:11:12Z"),
        ("2026-07-09T10:11:12.123456789Z", "2026-07-09T10:11:12Z"),
        ("2026-07-09", "2026-07-09"),
        ("Jul 9, 2026", "2026-07-09"),
        ("7/9/2026", None),  # month or day first: the page does not say
        ("sometime", None),
        # RFC 5322, as RSS's pubDate writes it: a numeric offset or a zone the RFC names
        ("Fri, 07 May 2021 12:00:00 GMT", "2021-05-07T12:00:00Z"),
        ("Fri, 07 May 2021 12:00:00 +0200", "2021-05-07T10:00:00Z"),
        ("07 May 2021 12:00 EST", "2021-05-07T17:00:00Z"),
        ("Fri, 07 May 2021 12:00:00 CEST", None),  # a zone the RFC does not name: not taken for UTC
        ("Fri, 07 May 2021 12:00:00 -0000", None),  # the RFC's "local time, zone unknown"
        ("Fri, 07 May 2021 12:00:00", None),
    ],
)
def test_dates_become_iso_utc_resolved_against_the_answer(raw, expected):
    assert _one("news", published_at=raw).get("published_at") == expected


@pytest.mark.parametrize(
    "answered, raw, expected",
    [
        # months and years are the calendar's (30 and 365 days before: 2026-06-02, 2025-08-01's 5 days off)
        ((2026, 8, 1), "2 months ago", "2026-06-01"),
        ((2026, 8, 1), "12 months ago", "2025-08-01"),
        ((2026, 8, 1), "1 year ago", "2025-08-01"),
        ((2026, 8, 1), "a month ago", "2026-07-01"),
        ((2026, 8, 1), "3mo", "2026-05-01"),
        ((2026, 8, 1), "2y", "2024-08-01"),
        ((2026, 8, 1), "14 months ago", "2025-06-01"),
        ((2026, 3, 31), "1 month ago", "2026-02-28"),  # the day clamped to the target month's last
        ((2024, 3, 31), "1 month ago", "2024-02-29"),
        ((2026, 5, 31), "1 month ago", "2026-04-30"),
        ((2024, 2, 29), "1 year ago", "2023-02-28"),
        ((2024, 2, 29), "4 years ago", "2020-02-29"),
        ((2026, 1, 15), "1 month ago", "2025-12-15"),  # across a year's start
        ((2026, 3, 31), "5 weeks ago", "2026-02-24"),  # weeks and days stay days
        ((1, 6, 1), "9999 years ago", None),  # before the year 1: no date
    ],
)
def test_months_and_years_back_are_calendar_months_and_years(answered, raw, expected):
    moment = datetime.datetime(*answered, 12, 0, tzinfo=datetime.timezone.utc)
    items = normalize_items(
        [{"title": "t", "url": "https://a.example/", "published_at": raw}], "stub", 5, "news", moment
    )
    assert dict(items[0]).get("published_at") == expected


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("1:02:03", 3723),
        ("2:03", 123),
        ("PT1M2S", 62),
        ("PT1H", 3600),
        ("PT1H2M", 3720),
        (95, 95),
        ("95", 95),
        ("x", None),
        # a length written in words, as video pages print it
        ("12 min", 720),
        ("12 minutes", 720),
        ("1 hr 2 min", 3720),
        ("1 hour, 2 minutes, 3 seconds", 3723),
        ("1h 2m 3s", 3723),
        ("1h2m", 3720),
        ("45 sec.", 45),
        ("12 min ago", None),  # an age, not a length
        ("2 days", None),  # no video length is counted in days
        ("2 min 1 h", None),  # the units out of order: not a length as written
        ("3:75", None),  # seconds past 59: no clock (it read as 255 s)
        ("1:75:00", None),  # minutes past 59 after hours
        ("75:00", 4500),  # minutes alone may pass 59, as some video pages write a long one
    ],
)
def test_durations_become_seconds(raw, expected):
    assert _one("videos", duration=raw).get("duration") == expected


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("1.2M views", 1_200_000),
        ("12K", 12_000),
        ("1,234 views", 1234),
        ("640", 640),
        (7, 7),
        # read as the engines read a page's counts (values.count_opening): a thousands dot, as German
        # pages write it (a fraction is no count)
        ("1.234", 1234),
        ("1 234 views", 1234),
        ("1.5", None),
        ("1,234.5", None),
        ("12 apples", None),
        # a decimal comma before a multiplier (as engine/media_fields reads it): not ten times the count
        ("3,4 M", 3_400_000),
        ("1,2K views", 1200),
    ],
)
def test_counts_become_ints(raw, expected):
    assert _one("videos", view_count=raw).get("view_count") == expected


def test_an_image_is_one_result_per_image_and_needs_the_image():
    raw = [
        {"title": "a", "url": "https://page.example/", "image_url": "https://img.example/1.png", "width": "640"},
        {"title": "b", "url": "https://page.example/", "image_url": "https://img.example/2.png"},
        {"title": "c", "url": "https://page.example/", "image_url": "https://img.example/1.png"},
        {"title": "d", "url": "https://page.example/", "image_url": "javascript:alert(1)"},
    ]
    items = normalize_items(raw, "stub", 10, "images", ANSWERED)
    assert [item["title"] for item in items] == ["a", "b"] and items[0]["width"] == 640


def test_relative_dates_resolve_against_the_date_header():
    params = SearchParams(query="q", max_results=5, vertical="news")
    dated = HttpResponse(200, CaseInsensitiveDict({"Date": "Sat, 01 Aug 2026 12:00:00 GMT"}), b"", "https://x.example/")
    assert answered_at(dated, params) == ANSWERED
    assert answered_at(HttpResponse(200, CaseInsensitiveDict(), b"", "https://x.example/"), params) == params.now


def test_a_date_header_past_the_last_representable_moment_is_no_date():
    """``Date: Mon, 31 Dec 9999 23:59:59 -2359`` is a moment of the year 10000 in UTC, which no
    ``datetime`` holds: the answer is read against the moment of the search (before: an
    ``OverflowError``, the search an internal error)."""
    params = SearchParams(query="q", max_results=5, vertical="news")
    late = CaseInsensitiveDict({"Date": "Mon, 31 Dec 9999 23:59:59 -2359"})
    assert answered_at(HttpResponse(200, late, b"", "https://x.example/"), params) == params.now


def test_the_repeat_guard_counts_each_vertical_apart():
    session = tool.ToolSession(ws.SearchClient("stub"), max_repeats=1)
    assert "items" in session.call_tool("web_search", {"query": "rust"})
    news = session.call_tool("web_search", {"query": "rust", "vertical": "news"})
    assert "items" in news and "note" not in news  # looked up: not a repeat of the web search
    assert "note" in session.call_tool("web_search", {"query": "Rust ", "vertical": "news"})
    assert "note" in session.call_tool("web_search", {"query": "rust"})


def test_the_mcp_and_framework_tools_offer_the_vertical():
    from websearch_sync.integrations.agent_tool import agent_tools

    (search,) = [t for t in tool.tool_definitions("json_schema") if t["name"] == "web.search"]
    assert search["parameters"]["properties"]["vertical"]["enum"] == ["web", "news", "images", "videos"]
    (web_search,) = [t for t in agent_tools(ws.SearchClient("stub")) if t.name == "web_search"]
    outcome = web_search.run({"query": "red panda", "vertical": "images"})
    assert not outcome.is_error and "Image: https://example.com/image-1.png" in outcome.text

"""yahoo_html: the request, RU= link decoding, both layouts, sponsored and vertical blocks,
no-result pages, bot walls. Pages come from fixtures/ (real recordings); a variant edits one.
"""

import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses
from clocks import FakeClock
from expected_requests import expected_requests, serve

import websearch_sync as ws
from websearch_sync.backends.yahoo import decode_yahoo_href
from websearch_sync.tool import tool_schema

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
URL = "https://search.yahoo.com/search"
HTML = "text/html; charset=utf-8"


def page(name):
    return (FIXTURES / "yahoo_html" / name).read_text(encoding="utf-8")


def golden(name):
    return json.loads((FIXTURES / "yahoo_html" / name).read_text(encoding="utf-8"))["items"]


def search(body, *, status=200, query="q", **kwargs):
    """ws.search against one replayed Yahoo answer; (result or error, the request sent)."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add("GET", URL, body=body, status=status, content_type=HTML)
        try:
            result = ws.search(query, backend="yahoo_html", settings=ws.Settings(), **kwargs)
        except ws.WebSearchError as error:
            result = error
        return result, (mock.calls[0].request if mock.calls else None)


@pytest.mark.parametrize(
    "href, target",
    [
        # 2020 (search-engine-parser): RU decoded once, the target's own '+' stays
        (
            "https://r.search.yahoo.com/_ylt=AwrJ6yicGOVeiaMAByZXNyoA;_ylu=X3oDMTByOHZyb21tBGNvbG8DYmYxBHBvcwMxBHZ0aWQDBHNlYwNzcg--"
            "/RV=2/RE=1592101149/RO=10/RU=https%3a%2f%2fidioms.thefreedictionary.com%2fpreach%2bto%2bthe%2bchoir/RK=2/RS=fsLS4TIU3gkRANSkuXzCBIO1Dzk-",
            "https://idioms.thefreedictionary.com/preach+to+the+choir",
        ),
        # 2015 (GoogleScraper), http scheme and RK=0
        (
            "http://r.search.yahoo.com/_ylt=A9mSs2o5V7ZUWFEAIYQzCQx.;_ylu=X3oDMTBydWpobjZlBHNlYwNzcgRwb3MDMQRjb2xvA2lyMgR2dGlkAw--"
            "/RV=2/RE=1421264826/RO=10/RU=http%3a%2f%2fminecraft.gamepedia.com%2fSnow/RK=0/RS=EawNpGTTVTmR4cm4KGTzxmk_7dE-",
            "http://minecraft.gamepedia.com/Snow",
        ),
        # a doubly encoded character in the target stays encoded once
        (
            "https://r.search.yahoo.com/_ylt=x/RV=2/RU=https%3a%2f%2fx.example%2fs%3fq%3da%252Bb/RK=2/RS=y-",
            "https://x.example/s?q=a%2Bb",
        ),
        ("https://www.w3schools.com/Js/", "https://www.w3schools.com/Js/"),  # direct (Apr 2026 capture)
        ("https://r.search.yahoo.com/_ylt=x/RV=2/RE=1/RO=10/RK=2/RS=y-", None),  # no RU: dropped
        ("http://[::1", "http://[::1"),
    ],
)
def test_decode_yahoo_href(href, target):
    assert decode_yahoo_href(href) == target


# -- the request -------------------------------------------------------------------------------


def test_request_is_a_get_with_p_and_browser_headers():
    _, request = search(page("web-search-mcp__yahoo.html"), query="javascript tutorial")
    assert dict(parse_qsl(urlsplit(request.url).query)) == {"p": "javascript tutorial"}
    assert request.headers["Referer"] == "https://search.yahoo.com/"
    assert "Cookie" not in request.headers


@pytest.mark.parametrize(
    "options, sent",
    [
        ({"time_range": "week"}, {"btf": "w"}),
        ({"time_range": "year"}, {}),
        ({"site_filter": "w3schools.com"}, {"p": "q site:w3schools.com"}),
    ],
)
def test_request_parameters(options, sent):
    _, request = search(page("web-search-mcp__yahoo.html"), **options)
    assert dict(parse_qsl(urlsplit(request.url).query)) == dict({"p": "q"}, **sent)


@pytest.mark.parametrize("pageno", [2, 3, 4, 5])
def test_pageno_asks_what_the_recorded_pages_own_page_links_ask(pageno):
    """The 2026 page links its pages 2 to 5 as ``b=8``, ``15``, ``22``, ``29`` (``pz=7``): pageno counts
    seven a page, as those links (and ddgs) do. Before: ten a page, and ``b=11`` skipped results 8 to 10."""
    text = page("web-search-mcp__yahoo.html")
    linked = sorted({int(first) for first in re.findall(r"[?&;]b=(\d+)&amp;pz=7&amp;", text)})
    assert len(linked) == 4
    _, request = search(text, pageno=pageno)
    assert dict(parse_qsl(urlsplit(request.url).query)) == {"p": "q", "b": str(linked[pageno - 2])}


def test_safe_search_and_language_go_in_the_preference_cookie():
    _, request = search(page("web-search-mcp__yahoo.html"), safe_search="strict", locale="de-DE")
    assert request.headers["Cookie"] == "sB=vm=r&vl=lang_de&v=1"


# -- the page ----------------------------------------------------------------------------------


def test_the_2026_title_is_the_heading_only_not_the_site_name_and_address_around_it(fake_clock):
    text = page("web-search-mcp__yahoo.html")
    assert "W3School</span>https://www.w3schools.com" in text.replace("\n", "").replace("  ", "")
    result, _ = search(text, max_results=10)
    assert result["items"][0]["title"] == "JavaScript Tutorial - W3Schools"


def test_vertical_cards_and_the_sponsored_block_are_never_items(fake_clock):
    snow = page("GoogleScraper__snow_de_ip.html")
    assert snow.count('class="res sc') == 2
    result, _ = search(snow, max_results=10)
    assert not any("search.yahoo.com" in item["url"] for item in result["items"])
    literal = page("GoogleScraper__no_results_literal.html")
    assert 'class="ads horiz' in literal and "RU=http%3a%2f%2fde.yahoo.com" in literal
    result, _ = search(literal, max_results=10)
    assert not any("de.yahoo.com" in item["url"] for item in result["items"])


def test_a_result_shaped_block_inside_a_sponsored_container_is_skipped():
    text = page("GoogleScraper__no_results_literal.html")
    ads = text[text.index('<div  class="ads horiz') :]
    ads = ads[: ads.index("</ul></div>") + len("</ul></div>")]
    shaped = ads.replace('<li  class="res rais last">', '<li><div class="res">').replace(
        "</div></li></ul>", "</div></div></li></ul>"
    )
    assert shaped.count('<div class="res">') == 1
    moved = text.replace(ads, "").replace('<ol start="1" data-bns="API">', shaped + '<ol start="1" data-bns="API">')
    result, _ = search(moved, max_results=10)
    assert [item["url"] for item in result["items"]] == [
        item["url"] for item in golden("GoogleScraper__no_results_literal.expected.json")
    ]


def _without_results(text):
    start = text.index('<div id="web"')
    end = text.index('<div id="right"')
    return text[:start], text[end:]


def test_no_results_notice_gives_an_empty_list():
    head, tail = _without_results(page("search-engine-parser__30464b2.html"))
    notice = (
        '<div id="web"><ol><li><div class="dd zrp"><p>We did not find results for: <b>q</b></p>'
        "<p>Check spelling or type a new query.</p></div></li></ol></div>"
    )
    result, _ = search(head + notice + tail)
    assert result["items"] == []


def test_a_results_region_without_results_or_notice_is_a_parse_error():
    head, tail = _without_results(page("search-engine-parser__30464b2.html"))
    result, _ = search(head + '<div id="web"><ol></ol></div>' + tail)
    assert isinstance(result, ws.WebParseError) and result.detail_code == "unexpected_shape"


@pytest.mark.parametrize("name", ["ddg_html/meka__ddg_anomaly.html", "bing_html/web-search-mcp__turnstile.html"])
def test_recorded_bot_walls_are_blocks(name):
    result, _ = search((FIXTURES / name).read_bytes(), status=200)
    assert isinstance(result, ws.WebBlocked) and result.detail_code == "captcha_required"


def test_a_blocked_status_without_a_wall_page_is_the_generic_status_error():
    result, _ = search("<html><body>Forbidden</body></html>", status=403)
    assert isinstance(result, ws.WebBlocked) and result.detail_code == "http_403"


# -- later pages -------------------------------------------------------------------------------


def _asked(b):
    """The query of the request for "javascript tutorial" starting at ``b`` (``None``: none sent)."""
    return {"p": "javascript tutorial"} if b is None else {"p": "javascript tutorial", "b": b}


def _pages_asked(pages, max_results, **kwargs):
    """A search of ``max_results`` answered by ``pages``, each ``(b, page)`` the answer to the one
    request starting at ``b`` (a request for any other, or one more, fails the test): the answer."""
    with (
        expected_requests() as mock,
        ws.SearchClient("yahoo_html", settings=ws.Settings(), clock=FakeClock(), cache_ttl_s=0) as client,
    ):
        for b, body in pages:
            serve(mock, URL, _asked(b), body)
        return client.search("javascript tutorial", max_results=max_results, **kwargs)


def test_page_two_starts_after_the_results_page_one_showed_not_at_eleven():
    """The 2026 page shows 7 results, and its own "Next" link asks ``b=8&pz=7``
    (fixtures/yahoo_html/web-search-mcp__yahoo.html): page 2 starts at the 8th result.
    Before, it asked ``b=11`` (ten a page), and results 8 to 10 were never read."""
    assert "b=8&amp;pz=7" in page("web-search-mcp__yahoo.html")
    other = page("GoogleScraper__snow_de_ip.html")  # no recording of that page 2: another recorded page
    response = _pages_asked([(None, page("web-search-mcp__yahoo.html")), ("8", other)], 14)
    assert response["provider_meta"]["pages"] == 2 and len(response["items"]) == 14


def _depth_search(max_results, settings=None, **kwargs):
    """A search of ``max_results`` answered by the 2026 page (7 results, its "Next" link ``b=8``),
    then by the 2015 page (10 results, none of them the 2026 page's; it links another query's
    pages: the next starts after its 10, ``b=18``), then by nothing (that third request fails;
    any other request fails the test): the ``b`` of each request sent, the answer and the clock."""
    clock = FakeClock()
    with (
        expected_requests(all_asked=False) as mock,
        ws.SearchClient(
            "yahoo_html", settings=settings or ws.Settings(), clock=clock, cache_ttl_s=0, retries=0
        ) as client,
    ):
        serve(mock, URL, _asked(None), page("web-search-mcp__yahoo.html"))
        serve(mock, URL, _asked("8"), page("GoogleScraper__snow_de_ip.html"))
        serve(mock, URL, _asked("18"), "", status=503)
        response = client.search("javascript tutorial", max_results=max_results, **kwargs)
        sent = [dict(parse_qsl(urlsplit(call.request.url).query)).get("b") for call in mock.calls]
    return sent, response, clock


def test_a_call_for_ten_reads_page_two_when_page_one_shows_seven():
    """ddgs reads on until it has max_results; a call for 10 answered 7 (a page's size was taken
    to be 10: only a call for more than 10 read page 2). Page 2 comes after the 7 read, at Yahoo's pace."""
    first = golden("web-search-mcp__yahoo.expected.json")
    second = golden("GoogleScraper__snow_de_ip.expected.json")
    assert len(first) == 7 and not {item["url"] for item in first} & {item["url"] for item in second}
    sent, response, clock = _depth_search(10)
    assert sent == [None, "8"]
    assert [item["url"] for item in response["items"]] == [item["url"] for item in first + second[:3]]
    assert [item["rank"] for item in response["items"]] == list(range(1, 11))
    assert response["provider_meta"]["pages"] == 2 and response["provider_meta"]["attempts"] == 2
    assert clock.sleeps == [1.0]  # the second request waited for Yahoo's slot, on the fake clock
    assert "errors" not in response


def test_max_pages_bounds_the_pages_read():
    sent, response, clock = _depth_search(20, max_pages=2)
    assert sent == [None, "8"] and len(response["items"]) == 17  # 7 + 10: no third request
    assert response["provider_meta"]["pages"] == 2 and "errors" not in response
    sent, response, clock = _depth_search(10, max_pages=1)
    assert sent == [None] and len(response["items"]) == 7  # the first page only
    assert "pages" not in response["provider_meta"] and clock.sleeps == []
    sent, response, _ = _depth_search(20)  # unbounded: page 3 is asked, and its failure is said
    assert sent == [None, "8", "18"] and len(response["items"]) == 17 and response["errors"][0]["page"] == 3


def _short_page_then(second, queries=("javascript tutorial",) * 2, **client_kwargs):
    """Calls for 10 of one client (a cache, the fake clock): the 2026 page (7 results), then
    ``second`` for page 2 (``status``, ``body``), then nothing. The requests sent, the answers (or
    errors), the clock."""
    clock = FakeClock()
    answers = []
    with (
        expected_requests(all_asked=False) as mock,
        ws.SearchClient("yahoo_html", clock=clock, cache_ttl_s=600, retries=0, **client_kwargs) as client,
    ):
        serve(mock, URL, _asked(None), page("web-search-mcp__yahoo.html"))
        serve(mock, URL, _asked("8"), second[1], status=second[0])
        for query in queries:
            try:
                answers.append(client.search(query, max_results=10))
            except ws.WebSearchError as error:
                answers.append(error)
        sent = [dict(parse_qsl(urlsplit(call.request.url).query)).get("b") for call in mock.calls]
    return sent, answers, clock


def test_a_fill_up_page_without_a_slot_in_the_budget_leaves_the_first_page_whole():
    """A call for no more than a page holds reads page 2 only to fill up a short page: best effort.
    Before: at one request every 20 s (the budget 15 s), page 2 could get no slot, and every short
    page was a Timeout(budget_exhausted), partial, not cached, the same call again a Timeout."""
    sent, (first, again), clock = _short_page_then((200, page("GoogleScraper__snow_de_ip.html")), min_interval_s=20)
    assert sent == [None] and clock.sleeps == []  # page 2 waited for no slot it could not have
    assert [item["url"] for item in first["items"]] == [
        item["url"] for item in golden("web-search-mcp__yahoo.expected.json")
    ]
    assert "errors" not in first and first["provider_meta"]["pages"] == 1
    assert first["provider_meta"]["page_not_read"].startswith("page 2 was not read (the results are those of page 1)")
    assert "20.0 s" in first["provider_meta"]["page_not_read"]
    assert again["provider_meta"]["cached"] is True and again["items"] == first["items"]


def test_a_fill_up_page_that_meets_a_block_cools_down_and_the_first_page_stands():
    """The block on page 2 is real: the backend cools down (the next call, another query, is
    refused without a request); page 1's answer stays a success, cached."""
    queries = ("javascript tutorial", "javascript tutorial", "other")
    sent, (first, again, other), _ = _short_page_then((429, "Too Many Requests"), queries)
    assert sent == [None, "8"] and len(first["items"]) == 7 and "errors" not in first
    assert "429" in first["provider_meta"]["page_not_read"] and again["provider_meta"]["cached"] is True
    assert isinstance(other, ws.WebBlocked) and "cooling down" in other.message


def test_an_operators_max_pages_bounds_the_calls_that_give_none():
    """WEB_SEARCH_MAX_PAGES=1 (Settings.max_pages) keeps one request per call: the 2026 page's 7
    stay 7 (before: no knob, every short page cost a second request); a call's own max_pages wins."""
    settings = ws.Settings.from_env({"WEB_SEARCH_MAX_PAGES": "1"})
    assert settings.max_pages == 1 and ws.Settings().max_pages == 8
    sent, response, clock = _depth_search(10, settings=settings)
    assert sent == [None] and len(response["items"]) == 7 and clock.sleeps == []
    assert "pages" not in response["provider_meta"] and "page_not_read" not in response["provider_meta"]
    sent, response, _ = _depth_search(10, settings=settings, max_pages=2)
    assert sent == [None, "8"] and len(response["items"]) == 10
    assert "max_pages" not in tool_schema("web.search", settings=settings)["properties"]  # the operator's


def test_a_merge_names_each_backends_fill_up_page_not_read():
    """Yahoo's 2026 page (7) and Bing's recorded page (9), merged at one request every 20 s: neither
    page 2 gets a slot; the merged answer stands and says both, each named (before: not said)."""
    clock = FakeClock()
    bing = (FIXTURES / "bing_html" / "search-engine-parser__30464b2.html").read_text(encoding="utf-8")
    with (
        expected_requests() as mock,
        ws.SearchClient(clock=clock, cache_ttl_s=0, retries=0, min_interval_s=20) as client,
    ):
        serve(mock, URL, {"p": "q"}, page("web-search-mcp__yahoo.html"))
        serve(mock, "https://www.bing.com/search", {"q": "q", "count": "10"}, bing)
        response = client.search("q", backend="yahoo_html,bing_html", strategy="merge", max_results=10)
    unread = response["provider_meta"]["page_not_read"]
    assert unread.startswith("yahoo_html: page 2 was not read") and "; bing_html: page 2 was not read" in unread
    assert len(response["items"]) == 10 and "errors" not in response


@pytest.mark.parametrize("value", [0, 9, -1, True, "2", 2.0])
def test_a_bad_max_pages_is_refused_before_any_request(value):
    with responses.RequestsMock() as mock:  # no request may be sent
        with pytest.raises(ws.InvalidInput) as info:
            ws.search("q", backend="yahoo_html", settings=ws.Settings(), max_pages=value)
        assert not mock.calls
    assert (info.value.detail_code, info.value.provider) == ("bad_max_pages", "yahoo_html")
    assert info.value.message.startswith("max_pages must be ") and "in 1..8, got %r" % (value,) in info.value.message


def test_a_page_of_ten_results_asks_the_next_at_eleven_and_a_later_pageno_counts_on():
    """The 2015 pages show 10 results and link page 2 as ``b=11`` (GoogleScraper__snow_de_ip.html)."""
    assert "&b=11" in page("GoogleScraper__snow_de_ip.html")
    _pages_asked([(None, page("GoogleScraper__snow_de_ip.html")), ("11", page("web-search-mcp__yahoo.html"))], 15)
    assert "b=15&amp;pz=7" in page("web-search-mcp__yahoo.html")  # today's page 3
    # the call's own page (seven a page), then after the ten results it read (its links are another query's)
    pages = [("15", page("GoogleScraper__snow_de_ip.html")), ("25", page("web-search-mcp__yahoo.html"))]
    _pages_asked(pages, 15, pageno=3)

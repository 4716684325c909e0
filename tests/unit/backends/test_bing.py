"""bing_html: the request, ck/a link decoding, ads, dates, no-result pages, the Turnstile wall.

Pages come from fixtures/ (real recordings); a variant edits a real page.
"""

import html
import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses

import websearch_sync as ws
from websearch_sync.backends.bing import decode_bing_href
from websearch_sync.engine.registry import bot_walls
from websearch_sync.net.botwall import bot_wall

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
URL = "https://www.bing.com/search"
HTML = "text/html; charset=utf-8"


def page(name):
    return (FIXTURES / "bing_html" / name).read_text(encoding="utf-8")


def golden(name):
    return json.loads((FIXTURES / "bing_html" / name).read_text(encoding="utf-8"))["items"]


def search(body, *, status=200, query="q", **kwargs):
    """ws.search against one replayed Bing answer; (result or error, the request sent)."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add("GET", URL, body=body, status=status, content_type=HTML)
        try:
            result = ws.search(query, backend="bing_html", settings=ws.Settings(), **kwargs)
        except ws.WebSearchError as error:
            result = error
        return result, (mock.calls[0].request if mock.calls else None)


# -- ck/a links --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "href, target",
    [
        # from web-search-mcp__http-bing (2026, en-US)
        (
            "https://www.bing.com/ck/a?!&&p=c47218b2e23102798c924bdc09eb8b6f95bbcc714b3236495069134c51400b38JmltdHM9MTc3NTE3NDQwMA"
            "&ptn=3&ver=2&hsh=4&fclid=17c95149-7aa5-693a-3083-46797b85682c&u=a1aHR0cHM6Ly93d3cudzNzY2hvb2xzLmNvbS9Kcy8&ntb=1",
            "https://www.w3schools.com/Js/",
        ),
        # a payload that needs base64 padding ("==") to decode
        (
            "https://www.bing.com/ck/a?!&&p=7ab5&u=a1aHR0cHM6Ly93d3cudzNzY2hvb2xzLmNvbS9Kcy9qc19jbGFzc2VzLmFzcA&ntb=1",
            "https://www.w3schools.com/Js/js_classes.asp",
        ),
        # direct links (2015-2021) and Bing's own home page as an organic result stay as they are
        ("http://www.taz.de/!50869/", "http://www.taz.de/!50869/"),
        ("https://www.bing.com/", "https://www.bing.com/"),
        # ck/a links without a decodable target are dropped
        ("https://www.bing.com/ck/a?!&&p=7ab5&ntb=1", None),
        ("https://www.bing.com/ck/a?!&&p=7ab5&u=a2aHR0cHM6Ly93d3cudzNzY2hvb2xzLmNvbS9Kcy8&ntb=1", None),
        ("https://www.bing.com/ck/a?!&&p=7ab5&u=a1%25%25&ntb=1", None),
        ("https://www.bing.com/ck/a?!&&p=7ab5&u=a1_w&ntb=1", None),  # decodes to a byte that is not UTF-8
        ("http://[::1", "http://[::1"),  # malformed: kept, normalisation drops it
    ],
)
def test_decode_bing_href(href, target):
    assert decode_bing_href(href) == target


def test_a_result_whose_ck_link_does_not_decode_is_dropped_never_returned_as_a_bing_url(fake_clock):
    body = page("web-search-mcp__http-bing.html").replace("u=a1aHR0cHM6Ly93d3cudzNzY2hvb2xzLmNvbS9Kcy8&", "u=zz&")
    result, _ = search(body, max_results=10)
    expected = [item["url"] for item in golden("web-search-mcp__http-bing.expected.json")]
    assert [item["url"] for item in result["items"]] == expected[1:]
    assert not any("bing.com" in item["url"] for item in result["items"])


# -- the request -------------------------------------------------------------------------------


def test_request_is_a_get_with_q_count_and_browser_headers():
    _, request = search(page("web-search-mcp__http-bing.html"), query="javascript tutorial", max_results=7)
    assert request.method == "GET" and request.url.startswith(URL + "?")
    assert dict(parse_qsl(urlsplit(request.url).query)) == {"q": "javascript tutorial", "count": "7"}
    assert request.headers["Referer"] == "https://www.bing.com/"
    assert request.headers["Accept"].startswith("text/html")
    assert "Mozilla/5.0" in request.headers["User-Agent"]


@pytest.mark.parametrize(
    "options, sent",
    [
        ({"locale": "de-DE"}, {"setlang": "de-DE", "cc": "DE"}),
        ({"lang": "fr"}, {"setlang": "fr"}),
        ({"locale": "de-u-zz"}, {"setlang": "de"}),  # an extension's subtag is no region (cc=ZZ before)
        ({"locale": "en-GB-x-us"}, {"setlang": "en-GB", "cc": "GB"}),  # the region before private use
        ({"time_range": "day"}, {"filters": 'ex1:"ez1"'}),
        ({"time_range": "week"}, {"filters": 'ex1:"ez2"'}),
        ({"time_range": "month"}, {"filters": 'ex1:"ez3"'}),
        ({"time_range": "year"}, {}),  # Bing's "past year" needs calendar dates: not sent
        ({"safe_search": "strict"}, {"adlt": "strict"}),
        ({"safe_search": False}, {"adlt": "off"}),
        ({"pageno": 3}, {"first": "21"}),
        ({"site_filter": "w3schools.com"}, {"q": "q site:w3schools.com"}),
    ],
)
def test_request_options(options, sent):
    _, request = search(page("web-search-mcp__http-bing.html"), max_results=10, **options)
    expected = {"q": "q", "count": "10"}
    expected.update(sent)
    assert dict(parse_qsl(urlsplit(request.url).query)) == expected


@pytest.mark.parametrize("pageno", [0, "2", 1.5, True])
def test_a_bad_pageno_is_refused_before_any_request(pageno):
    result, request = search(page("web-search-mcp__http-bing.html"), pageno=pageno)
    assert isinstance(result, ws.InvalidInput) and result.detail_code == "bad_pageno"
    assert request is None


# -- the page ----------------------------------------------------------------------------------


def test_ads_are_never_items(fake_clock):
    text = page("se-scraper__page1.html")
    assert text.count('class="b_ad') >= 2 and "bing.com/aclick" in text
    result, _ = search(text, max_results=10)
    assert len(result["items"]) == text.count('<li class="b_algo"') == 6
    assert not any("aclick" in item["url"] for item in result["items"])


def test_an_ad_block_is_skipped_even_when_it_also_says_b_algo(fake_clock):
    text = page("se-scraper__page1.html").replace('<li class="b_ad">', '<li class="b_algo b_ad">', 1)
    assert text != page("se-scraper__page1.html")
    result, _ = search(text, max_results=10)
    assert [item["url"] for item in result["items"]] == [
        item["url"] for item in golden("se-scraper__page1.expected.json")
    ]


@pytest.mark.parametrize(
    "locale, published",
    [(None, None), ("es-ES", "2016-10-06"), ("en-US", "2016-06-10")],
)
def test_an_ambiguous_slashed_date_is_read_in_the_order_of_the_market_asked_for(locale, published):
    options = {"locale": locale} if locale else {}
    result, _ = search(page("serp-parser__bing-nojs.html"), max_results=10, **options)
    rtve = result["items"][2]
    assert rtve["url"] == "https://www.rtve.es/infantil/series/bing/"
    assert rtve.get("published_at") == published
    assert rtve["snippet"].startswith("6/10/2016 ·" if published is None else "Bing, serie online")
    assert result["items"][1]["published_at"] == "2013-01-24"  # 24/1/2013: unambiguous in any market


def test_no_results_page_gives_an_empty_list():
    result, _ = search(page("serp-parser__no-results-nojs.html"))
    assert result["items"] == []


def test_a_results_list_without_results_or_notice_is_a_parse_error():
    text = page("serp-parser__no-results-nojs.html")
    text = text.replace(text[text.index('<li class="b_no">') : text.index("</ol>")], "")
    result, _ = search(text)
    assert isinstance(result, ws.WebParseError) and result.detail_code == "unexpected_shape"


@pytest.mark.parametrize("body", ["", "<html><body><p>new design</p></body></html>", '{"results": []}'])
def test_unrecognised_pages_are_parse_errors(body):
    result, _ = search(body)
    assert isinstance(result, ws.WebParseError)


# -- the bot wall ------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [200, 403, 429])
def test_turnstile_page_is_a_captcha_whatever_the_status(status):
    result, _ = search(page("web-search-mcp__turnstile.html"), status=status)
    assert isinstance(result, ws.WebBlocked)
    assert (result.detail_code, result.status, result.retryable) == ("captcha_required", status, False)


def test_a_turnstile_page_with_more_inline_script_before_the_box_is_still_a_captcha():
    text = page("web-search-mcp__turnstile.html")
    assert 150_000 < text.index('<div class="captcha_header">') < 200_000
    padded = text.replace("</head>", "<script>%s</script></head>" % ("var x = 1;" * 20_000), 1)
    assert 350_000 < padded.index('<div class="captcha_header">') < 500_000
    result, _ = search(padded)
    assert isinstance(result, ws.WebBlocked) and result.detail_code == "captcha_required"


def test_another_engines_wall_is_recognised_too():
    result, _ = search((FIXTURES / "ddg_html" / "meka__ddg_anomaly.html").read_bytes())
    assert isinstance(result, ws.WebBlocked) and result.detail_code == "captcha_required"


def test_a_results_page_for_a_query_naming_the_wall_is_not_a_block():
    query = '<div class="captcha_header">One last step</div><div id="turnstile-widget"></div>'
    text = page("web-search-mcp__http-bing.html").replace("javascript tutorial", html.escape(query))
    assert text.count("captcha_header") >= 3
    assert bot_wall(URL, text, bot_walls()) is None
    result, _ = search(text, max_results=10)
    assert len(result["items"]) == 10


# -- check-live landmarks ----------------------------------------------------------------------


def _report(text):
    from requests.structures import CaseInsensitiveDict

    from websearch_sync.engine.registry import backend_class
    from websearch_sync.net.transport import HttpResponse

    response = HttpResponse(
        status=200, headers=CaseInsensitiveDict({"Content-Type": HTML}), content=text.encode("utf-8"), url=URL
    )
    return backend_class("bing_html")(ws.Settings()).structure_report(response)


@pytest.mark.parametrize(
    "name", ["web-search-mcp__http-bing.html", "GoogleScraper__hello_de_ip.html", "serp-parser__no-results-nojs.html"]
)
def test_recorded_pages_match_every_landmark(name):
    assert all(_report(page(name)).values()), _report(page(name))


def test_the_wall_and_a_renamed_caption_are_noticed():
    assert _report(page("web-search-mcp__turnstile.html"))["not_blocked"] is False
    found = _report(page("web-search-mcp__http-bing.html").replace("b_caption", "b_summary"))
    assert found["result_blocks"] is True and found["snippets"] is False
    found = _report("<html><body><p>new design</p></body></html>")
    assert found["results_region"] is False and found["result_blocks"] is False

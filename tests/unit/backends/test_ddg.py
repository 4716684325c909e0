"""ddg_html / ddg_lite: link decoding, ads, filters, empty pages, bot walls, the request.

Pages come from fixtures/ (real recordings); where a test needs a variant (an ad
without its class, a non-http link) it edits a real page.
"""

import json
from pathlib import Path
from urllib.parse import parse_qsl

import lxml.html
import pytest
import responses
from backend_kit import replay_search

import websearch_sync as ws
from websearch_sync.backends.ddg import decode_ddg_href, parse_ddg_page
from websearch_sync.backends.ddg_regions import DDG_REGIONS, ddg_region
from websearch_sync.engine import html_parsing
from websearch_sync.engine.html_parsing import iso_datetime, parse_fragment, reduce_markup, region, text_of
from websearch_sync.vocabulary.ddgs import DDGS_REGION_LIST

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
URLS = {"ddg_html": "https://html.duckduckgo.com/html/", "ddg_lite": "https://lite.duckduckgo.com/lite/"}
HTML = "text/html; charset=UTF-8"


def page(name):
    return (FIXTURES / name).read_text(encoding="utf-8")


def golden(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def search(body, *, backend="ddg_html", **kwargs):
    """Run ws.search against one replayed answer; return (result or error, calls)."""
    return replay_search(backend, URLS[backend], body, content_type=HTML, **kwargs)


# -- uddg decoding ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "href, target",
    [
        ("https://github.com/cloudwego/eino", "https://github.com/cloudwego/eino"),
        ("//duckduckgo.com/l/?uddg=https%3A%2F%2Fbun.sh%2F&rut=0a1b", "https://bun.sh/"),
        ("/l/?kh=-1&uddg=https%3A%2F%2Fbun.sh%2F", "https://bun.sh/"),
        ("https://duckduckgo.com/l/?uddg=https%3A%2F%2Fbun.sh%2F&rut=0a1b", "https://bun.sh/"),
        # decoded exactly once: an encoded %2B / %20 / %26 inside the target stays encoded
        ("//duckduckgo.com/l/?uddg=https%3A%2F%2Fx.example%2Fs%3Fq%3Da%252Bb&rut=1", "https://x.example/s?q=a%2Bb"),
        ("//duckduckgo.com/l/?uddg=https%3A%2F%2Fx.example%2Fc%2B%2B&rut=1", "https://x.example/c++"),
        ("//duckduckgo.com/l/?uddg=https%3A%2F%2Fx.example%2F%3Fa%3D1%26b%3D2&rut=1", "https://x.example/?a=1&b=2"),
        ("//duckduckgo.com/l/?uddg=https%3A%2F%2Fx.example%2F%3Fa%3D1%2526b%3D2&rut=1", "https://x.example/?a=1%26b=2"),
        (
            "//duckduckgo.com/l/?uddg=https%3A%2F%2Fzh.wikipedia.org%2Fwiki%2F%E4%B8%AD%E6%96%87&rut=1",
            "https://zh.wikipedia.org/wiki/中文",
        ),
        # a real relative link from search-engine-parser__1 (2020)
        (
            "/l/?kh=-1&uddg=https%3A%2F%2Fwww.urbandictionary.com%2Fdefine.php%3Fterm%3Dpreaching%2520to%2520the%2520choir",
            "https://www.urbandictionary.com/define.php?term=preaching%20to%20the%20choir",
        ),
        # a link elsewhere that merely carries a uddg parameter is not a DDG redirect
        (
            "https://other.example/l/?uddg=https%3A%2F%2Fbun.sh%2F",
            "https://other.example/l/?uddg=https%3A%2F%2Fbun.sh%2F",
        ),
    ],
)
def test_decode_ddg_href(href, target):
    assert decode_ddg_href(href) == target


def test_uddg_links_of_a_real_page_are_decoded():
    result, _ = search(page("ddg_html/meka__2.html"), max_results=10)
    urls = [item["url"] for item in result["items"]]
    assert "duckduckgo.com" not in " ".join(urls)
    assert urls[0] == "https://www.rtings.com/keyboard/reviews/best/mechanical"


# -- ads, filters, truncation ----------------------------------------------------------------


def test_ads_are_dropped():
    body = page("ddg_html/meka__2.html")
    assert body.count("result--ad") == 1 and "y.js" in body
    result, _ = search(body, max_results=10)
    assert len(result["items"]) == 10
    assert not any("y.js" in item["url"] or "duckduckgo.com" in item["url"] for item in result["items"])


def test_an_ad_link_is_dropped_even_without_the_ad_class():
    body = page("ddg_html/meka__2.html").replace("result--ad", "result--plain")
    result, _ = search(body, max_results=10)
    assert [i["url"] for i in result["items"]] == [i["url"] for i in golden("ddg_html/meka__2.expected.json")["items"]]


def test_uddg_wrapped_ads_of_the_fragment_are_dropped():
    items = parse_ddg_page(page("ddg_html/tpi__fragment.html"), "ddg_html")
    assert len(items) == 4 and not any("y.js" in i["url"] for i in items)


def test_sponsored_lite_rows_are_dropped():
    body = page("ddg_lite/rafiki__1.html")
    first_row = body.index("<tr>", body.index("Web results are present"))
    body = body[:first_row] + "<tr class='result-sponsored'>" + body[first_row + len("<tr>") :]
    items = parse_ddg_page(body, "ddg_lite")
    expected = golden("ddg_lite/rafiki__1.expected.json")["items"]
    assert [i["url"] for i in items] == [i["url"] for i in expected[1:]]


def test_non_http_links_are_filtered_and_ranks_stay_contiguous(fake_clock):
    body = page("ddg_html/eino-ext__1.html")
    body = body.replace('href="https://github.com/cloudwego/eino"', 'href="javascript:alert(1)"')
    body = body.replace('href="https://ai-bot.cn/eino/"', 'href="ftp://ai-bot.cn/eino/"')
    result, _ = search(body, max_results=10)
    expected = [i["url"] for i in golden("ddg_html/eino-ext__1.expected.json")["items"]]
    urls = [item["url"] for item in result["items"]]
    assert urls == [u for u in expected if u not in ("https://github.com/cloudwego/eino", "https://ai-bot.cn/eino/")]
    assert [item["rank"] for item in result["items"]] == list(range(1, len(urls) + 1))


@pytest.mark.parametrize("max_results", [1, 3, 10])
def test_max_results_truncates_with_ranks_1_to_n(max_results):
    result, _ = search(page("ddg_html/proxy-collector__1.html"), max_results=max_results)
    expected = golden("ddg_html/proxy-collector__1.expected.json")["items"][:max_results]
    assert [i["url"] for i in result["items"]] == [i["url"] for i in expected]
    assert [i["rank"] for i in result["items"]] == list(range(1, max_results + 1))
    assert all(i["provider"] == "ddg_html" for i in result["items"])


# -- empty pages and unknown pages -----------------------------------------------------------


@pytest.mark.parametrize("name", ["ddg_html/eino-ext__2.html", "ddg_html/eino-ext__3.html"])
def test_no_result_pages_give_an_empty_list(name):
    result, _ = search(page(name))
    assert result["items"] == []


def test_eof_result_alone_means_no_results():
    body = (
        page("ddg_html/eino-ext__2.html")
        .replace('class="no-results"', 'class="gone"')
        .replace("result--no-result", "x")
    )
    assert parse_ddg_page(body, "ddg_html") == []


def test_results_region_without_results_or_notice_is_a_parse_error():
    body = page("ddg_html/eino-ext__3.html").replace("No more results.", "").replace("result--no-result", "x")
    body = body.replace('class="no-results"', 'class="gone"')
    result, _ = search(body)
    assert isinstance(result, ws.WebParseError) and result.detail_code == "unexpected_shape"


@pytest.mark.parametrize("body", ["", "<html><body><h1>Welcome</h1></body></html>", '{"results": []}'])
def test_unrecognised_200_pages_are_parse_errors(body):
    result, _ = search(body)
    assert isinstance(result, ws.WebParseError)


# -- bot walls and statuses ------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["ddg_html", "ddg_lite"])
@pytest.mark.parametrize("status", [200, 202, 403])
def test_challenge_page_is_blocked_whatever_the_status(backend, status):
    result, calls = search(page("ddg_html/meka__ddg_anomaly.html"), backend=backend, status=status)
    assert isinstance(result, ws.WebBlocked)
    assert (result.detail_code, result.status, result.retryable) == ("captcha_required", status, False)
    assert len(calls) == 1


def test_a_results_page_mentioning_the_challenge_text_is_not_a_block():
    body = page("ddg_html/meka__1.html").replace(
        "Rust is a fast", "Unfortunately, bots use DuckDuckGo too. Rust is a fast"
    )
    result, _ = search(body, max_results=10)
    assert len(result["items"]) == 10


# -- the request -----------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["ddg_html", "ddg_lite"])
def test_request_is_a_browser_like_form_post(backend):
    _, calls = search(page("ddg_html/eino-ext__1.html"), backend=backend, query="eino")
    request = calls[0].request
    assert request.method == "POST" and request.url == URLS[backend]
    assert dict(parse_qsl(request.body)) == {"q": "eino"}
    assert request.headers["Referer"] == URLS[backend].rsplit("/", 2)[0] + "/"
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert "Mozilla/5.0" in request.headers["User-Agent"]


def _listed_regions(name):
    """The values of the ``kl`` select of a recorded DuckDuckGo page: the regions it takes."""
    select = lxml.html.fromstring(page(name)).xpath('//select[@name="kl"]')[0]
    return {value for value in select.xpath(".//option/@value") if value}


#: DuckDuckGo's regions as its pages of 2025-2026 list them (SearXNG's duckduckgo traits agree).
LISTED = _listed_regions("ddg_html/lofi__1.html")


def test_the_region_table_is_duckduckgos_list():
    """Every region DuckDuckGo's select lists is sent for some locale, and no other one is: ``ct-ca``
    is the second code of Spain in Catalan (``es-ca``, which ``ca-ES`` sends)."""
    assert _listed_regions("ddg_lite/nlos__1.html") == LISTED
    assert set(DDG_REGIONS.values()) == LISTED - {"ct-ca"}
    assert LISTED <= DDGS_REGION_LIST  # each one a ddgs user may pass is hinted as one


@pytest.mark.parametrize(
    "locale, region",
    [
        ("en-GB", "uk-en"),  # DuckDuckGo's own codes (its regions list): not gb-en
        ("ja-JP", "jp-jp"),
        ("ko-KR", "kr-kr"),
        ("zh-Hant-TW", "tw-tzh"),
        ("zh-HK", "hk-tzh"),
        ("es-US", "us-es"),
        ("ca-ES", "es-ca"),
        ("nb-NO", "no-no"),
        ("no-NO", "no-no"),  # Norwegian's other code
        ("sl-SI", "sl-sl"),
        ("ar-SA", "xa-ar"),
        ("he-IL", "il-en"),  # Israel's one region is in English
        ("iw-IL", "il-en"),
        ("fil-PH", "ph-en"),
        ("en-PH", "ph-en"),
        ("th-TH", "th-en"),  # "Thailand (en)", DuckDuckGo's Thailand
        ("en-TH", "th-en"),
        ("ms-MY", "my-en"),  # my-ms, on DuckDuckGo's earlier list, folded into my-en
        ("fr-CA", "ca-fr"),  # a region per language
        ("en-CA", "ca-en"),
        ("en-US", "us-en"),
        ("it-CH", None),  # Switzerland is ch-de or ch-fr: no guess
        ("en-DE", None),  # Germany is de-de, in German: no guess either
        ("ar-EG", None),  # no region for Egypt
        ("sr-Latn-RS", None),  # no region for Serbia (rs-sr was sent, which DuckDuckGo does not list)
        ("es-419", None),  # no country: unsent, as locale=language-only declares
        ("de-u-co-phonebk", None),
        ("de", None),
    ],
)
def test_a_locale_is_sent_as_duckduckgos_region(locale, region):
    assert ddg_region(locale) == region
    assert region is None or region in LISTED


@pytest.mark.parametrize(
    "locale, not_sent",
    [("de-DE", []), ("he-IL", []), ("fr-CA", []), ("ar-EG", ["locale"]), ("en-DE", ["locale"]), ("es-419", ["locale"])],
)
def test_what_the_region_leaves_out_is_reported(locale, not_sent):
    """A locale DuckDuckGo has no region for is sent without one (its "All Regions"), and said so."""
    result, calls = search(page("ddg_html/eino-ext__1.html"), query="eino", locale=locale)
    assert result["provider_meta"].get("not_sent", []) == not_sent
    assert ("kl", ddg_region(locale) or "") in parse_qsl(calls[0].request.body, keep_blank_values=True)


def test_the_form_sends_duckduckgos_own_region():
    _, calls = search(page("ddg_html/eino-ext__1.html"), query="eino", locale="en-GB")
    assert ("kl", "uk-en") in parse_qsl(calls[0].request.body, keep_blank_values=True)


def test_locale_time_range_safe_search_and_site_filter_go_into_the_form_and_cookies():
    """Issue 21.5: the form a browser submits from the results page (q, the named search
    button b, the kl and df selects), DDG's setting cookies (kl, df as chosen, kp for safe
    search: not a form field), and what a browser adds on that same-origin form post."""
    options = {"locale": "de-DE", "time_range": "week", "safe_search": "strict", "site_filter": "github.com"}
    _, calls = search(page("ddg_html/eino-ext__1.html"), query="eino", **options)
    request = calls[0].request
    assert parse_qsl(request.body, keep_blank_values=True) == [
        ("q", "eino site:github.com"),
        ("b", ""),
        ("kl", "de-de"),
        ("df", "w"),
    ]
    assert request.headers["Cookie"] == "kl=de-de; df=w; kp=1"
    assert (
        request.headers["Origin"] == "https://html.duckduckgo.com"
        and request.headers["Referer"] == "https://html.duckduckgo.com/"
    )
    assert request.headers["Sec-Fetch-Site"] == "same-origin" and request.headers["Accept-Language"] == "de-DE,de;q=0.9"
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"


def test_the_lite_form_has_no_search_button_field():
    _, calls = search(page("ddg_html/eino-ext__1.html"), backend="ddg_lite", query="eino")
    assert parse_qsl(calls[0].request.body, keep_blank_values=True) == [("q", "eino"), ("kl", ""), ("df", "")]
    assert "Cookie" not in calls[0].request.headers


def test_a_language_without_country_sends_no_region():
    _, calls = search(page("ddg_html/eino-ext__1.html"), query="eino", locale="en")
    assert dict(parse_qsl(calls[0].request.body, keep_blank_values=True)) == {"q": "eino", "b": "", "kl": "", "df": ""}


@pytest.mark.parametrize("backend", ["ddg_html", "ddg_lite"])
def test_queries_of_500_characters_are_refused_before_any_request(backend, fake_clock):
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        with pytest.raises(ws.InvalidInput) as caught:
            ws.search("x" * 500, backend=backend, settings=ws.Settings())
        assert len(mock.calls) == 0
    assert caught.value.detail_code == "query_too_long"
    result, calls = search(page("ddg_html/eino-ext__1.html"), backend=backend, query="x" * 499)
    assert len(calls) == 1 and "items" in result


def test_endpoint_override_is_used_and_sets_the_referer():
    settings = ws.Settings(endpoints={"ddg_html": "http://mirror.test/html/"})
    with responses.RequestsMock() as mock:
        mock.add("POST", "http://mirror.test/html/", body=page("ddg_html/meka__1.html"), content_type=HTML)
        result = ws.search("q", backend="ddg_html", settings=settings)
        assert mock.calls[0].request.headers["Referer"] == "http://mirror.test/"
    assert len(result["items"]) == 5


def test_dates_become_published_at():
    items = parse_ddg_page(page("ddg_html/eino-ext__1.html"), "ddg_html")
    assert items[1]["published_at"] == "2025-06-23T00:00:00"
    assert "published_at" not in items[0]


# -- through a real socket -------------------------------------------------------------------


def test_a_date_inside_the_display_url_is_not_a_publication_date():
    body = page("ddg_html/eino-ext__1.html")
    display = "                  github.com/cloudwego/eino\n"  # the display URL of result 1, which has no date
    assert body.count(display) == 1
    items = parse_ddg_page(body.replace(display, "                  github.com/2024-01-02/eino\n"), "ddg_html")
    assert "published_at" not in items[0]


# -- the shared HTML helpers (websearch_sync/engine/html_parsing.py) ------------------------


def test_reduce_markup_keeps_text_and_drops_noise():
    markup = (
        '<div class="a"><script>if (a < b) { x = "</div>"; }</script><!-- <p>gone</p> -->\n'
        '   <p>The <b>Rust</b> <em>Programming</em><br/>Language<img src="x.png"><i class="icon"></i></p>\n'
        "   <style>p { color: red }</style><i>kept</i></div>"
    )
    reduced = reduce_markup(markup)
    assert "script" not in reduced and "gone" not in reduced and "style" not in reduced and "img" not in reduced
    assert "\n   <" not in reduced
    root = parse_fragment(markup)
    assert " ".join(text_of(root.find(".//p")).split()) == "The Rust Programming Language"
    assert text_of(root.find(".//i")) == "kept"


@pytest.mark.parametrize(
    "noise",
    ["<script>x</script>", "<style>x</style>", "<!-- x -->", "<img src=x>", "<input>", "<link rel=x>", "<meta x>"]
    + ["<source>", "<wbr>", "<b>", "</b>", "<em>", "</em>", "<strong>", "</strong>", "<font x>", "</font>"]
    + ["<mark>", "</mark>", "<u>", "</u>", '<i class="icon"></i>'],
)
def test_reduce_markup_drops_each_kind_of_noise_in_either_case(noise):
    for spelt in (noise, noise.upper()):
        assert reduce_markup("<p>a%sb</p>" % spelt) == "<p>ab</p>", spelt
    assert reduce_markup("<p>a<br>b<BR/>c</p>") == "<p>a\nb\nc</p>"
    assert reduce_markup("<p>a<i>b</i><div>c</div></p>") == "<p>a<i>b</i><div>c</div></p>"  # kept


def _reduced_with_a_call_per_match(markup, images=False):
    """reduce_markup as it was before its shortcut: the noise pass calls back for every match."""
    noise = html_parsing._NOISE_BUT_IMAGES if images else html_parsing._NOISE
    return html_parsing._INDENT.sub("><", noise.sub(html_parsing._noise_replacement, markup))


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*/*.html")), ids=lambda path: path.parent.name + "/" + path.name)
def test_reduce_markup_answers_what_a_call_per_match_answers(path):
    """The noise pass replaces its matches by nothing without calling back when the markup holds
    no ``<br`` (in any case): every recorded page reduces as before, with and without images."""
    text = path.read_text(encoding="utf-8", errors="replace")
    for markup in (text, text.replace("<br", "<bR"), text + "<Br >", "<p>a<b>b</b>c</p>"):
        for images in (False, True):
            assert reduce_markup(markup, images) == _reduced_with_a_call_per_match(markup, images)


def test_region_cuts_at_the_tags_holding_the_markers():
    text = '<html><div class="x" id="links"><p>1</p></div><div class="nav-link">next</div></html>'
    assert region(text, ['id="links"'], ['class="nav-link"']) == '<div class="x" id="links"><p>1</p></div>'
    assert region(text, ['id="links"']) == text[text.index("<div") :]
    assert region(text, ['id="nothing"']) is None


@pytest.mark.parametrize(
    "text, expected",
    [
        ("\xa0 \xa0 2025-06-23T00:00:00.0000000", "2025-06-23T00:00:00"),
        ("2026-01-20T09:43", "2026-01-20T09:43"),
        ("on 2024-02-13", "2024-02-13"),
        ("none", None),
    ],
)
def test_iso_datetime(text, expected):
    assert iso_datetime(text) == expected


def _lite_without_results(notice):
    body = page("ddg_lite/rafiki__1.html")
    start = body.index("<!-- Web results are present -->")
    end = body.index("</table>", start)
    return body[:start] + notice + body[end:]


def test_lite_page_saying_no_more_results_is_empty():
    result, _ = search(_lite_without_results("<tr><td>No more results.</td></tr>"), backend="ddg_lite")
    assert result["items"] == []


def test_lite_page_without_results_or_notice_is_a_parse_error():
    result, _ = search(_lite_without_results(""), backend="ddg_lite")
    assert isinstance(result, ws.WebParseError)

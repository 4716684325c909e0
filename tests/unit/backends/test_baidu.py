"""baidu_html: the request, the bot wall, charsets, no-result pages, source, resolve_links.

Pages come from fixtures/ (real recordings); variants edit a real page.
"""

import json
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import requests
from backend_kit import replay_search
from responses import matchers

import websearch_sync as ws
from websearch_sync.backends.baidu import _item, _source, is_baidu_link, parse_baidu_page
from websearch_sync.engine.html_parsing import Tag, elements, has_class, parse_fragment
from websearch_sync.net.deadline import Deadline

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
SEARCH_URL = "https://www.baidu.com/s"
UTF8 = "text/html; charset=utf-8"


def page(name):
    return (FIXTURES / "baidu_html" / name).read_text(encoding="utf-8")


def golden_items(name):
    return json.loads((FIXTURES / "baidu_html" / name).read_text(encoding="utf-8"))["items"]


def search(body, *, content_type=UTF8, **kwargs):
    """ws.search against one replayed /s answer (plus ``extra`` registrations)."""
    return replay_search("baidu_html", SEARCH_URL, body, content_type=content_type, **kwargs)


# -- request and bot wall --------------------------------------------------------------------


def test_request_is_a_get_with_wd_rn_ie_and_browser_headers():
    """``rn`` is Baidu's page of ten whatever ``max_results`` is (SearXNG's, and every recorded request's)."""
    _, calls = search(page("sluver__1.html"), query="搜索引擎测试", max_results=7)
    request = calls[0].request
    assert request.method == "GET" and request.url.startswith(SEARCH_URL + "?")
    assert dict(re.findall(r"([^?&=]+)=([^&]*)", request.url.split("?", 1)[1])) == {
        "wd": "%E6%90%9C%E7%B4%A2%E5%BC%95%E6%93%8E%E6%B5%8B%E8%AF%95",
        "rn": "10",
        "ie": "utf-8",
    }
    assert request.headers["Referer"] == "https://www.baidu.com/"
    assert request.headers["Accept-Language"].startswith("zh-CN")
    assert "Mozilla/5.0" in request.headers["User-Agent"]


def test_redirect_to_wappass_is_blocked_and_not_followed():
    location = "https://wappass.baidu.com/static/captcha/tuxing.html?&ak=x&backurl=y&logid=1&signature=s&timestamp=1"

    def followed(mock):
        mock.add("GET", location.split("?")[0], body=page("search-engine-parser__baidu_captcha.html"))

    result, calls = search("", status=302, headers={"Location": location}, extra=[followed])
    assert isinstance(result, ws.WebBlocked)
    assert (result.detail_code, result.status) == ("captcha_required", 302)
    assert len(calls) == 1


def test_other_redirects_are_provider_errors():
    result, calls = search("", status=302, headers={"Location": "https://www.baidu.com/other"})
    assert isinstance(result, ws.WebProviderError) and result.detail_code == "http_302"
    assert len(calls) == 1


@pytest.mark.parametrize("status", [200, 403])
def test_security_check_page_is_blocked(status):
    result, _ = search(page("search-engine-parser__baidu_captcha.html"), status=status)
    assert isinstance(result, ws.WebBlocked) and result.detail_code == "captcha_required"


@pytest.mark.parametrize("query", ["百度安全验证", "mkdjump /static/captcha/"])
def test_a_results_page_for_a_query_naming_the_wall_is_not_a_block(query):
    body = page("BaiduSpider__2.html").replace("trdewersdtrewrsfdxgcrtd、", query)
    assert body.count(query) > 3
    result, _ = search(body)
    assert len(result["items"]) == 2


# -- charsets --------------------------------------------------------------------------------


def _as_gbk(text):
    text = text.replace("charset=utf-8", "charset=gbk")
    return text.encode("gbk", errors="xmlcharrefreplace")  # what a GBK server sends for characters outside GBK


@pytest.mark.parametrize("name", ["GoogleScraper__1", "BaiduSpider__4"])
@pytest.mark.parametrize("content_type", ["text/html; charset=GBK", "text/html"])
def test_gbk_pages_decode_like_the_utf8_original(name, content_type):
    body = _as_gbk(page(name + ".html"))
    with pytest.raises(UnicodeDecodeError):
        body.decode("utf-8")
    result, _ = search(body, content_type=content_type, max_results=10)
    assert result["items"] == golden_items(name + ".expected.json")


def test_utf8_page_without_declared_charset_decodes():
    result, _ = search(page("sluver__1.html").encode("utf-8"), content_type="text/html", max_results=10)
    assert result["items"] == golden_items("sluver__1.expected.json")


# -- empty, unknown, items -------------------------------------------------------------------


def _without_results(text, inner):
    """``text`` with the children of #content_left replaced by ``inner``."""
    start = text.index('<div id="content_left"')
    end = text.index('id="rs"', start)
    return text[:start] + '<div id="content_left">' + inner + "</div><div " + text[end:]


def test_no_results_page_gives_an_empty_list():
    notice = '<div class="nors"><p>抱歉没有找到与<span style="font-family:宋体">“</span><em>q</em><span>”</span>相关的网页。</p></div>'
    result, _ = search(_without_results(page("BaiduSpider__2.html"), notice))
    assert result["items"] == []


def test_content_left_without_results_or_notice_is_a_parse_error():
    result, _ = search(_without_results(page("BaiduSpider__2.html"), ""))
    assert isinstance(result, ws.WebParseError) and result.detail_code == "unexpected_shape"


@pytest.mark.parametrize("body", ["", "<html><body>欢迎</body></html>"])
def test_unrecognised_pages_are_parse_errors(body):
    result, _ = search(body)
    assert isinstance(result, ws.WebParseError)


def test_is_baidu_link():
    assert is_baidu_link("http://www.baidu.com/link?url=abc")
    assert is_baidu_link("https://baidu.com/link?url=abc")
    assert not is_baidu_link("http://www.notbaidu.com/link?url=abc")
    assert not is_baidu_link("http://www.baidu.com/s?wd=abc")


def test_source_is_the_host_of_an_http_target_never_a_baidu_link():
    text = page("GoogleScraper__1.html").replace('mu="http://fanyi.baidu.com/#en/zh/number"', 'mu="javascript:void(0)"')
    items = {item["title"]: item for item in parse_baidu_page(text)}
    # data-tools in JS notation {title:'…',url:'…'} is the fallback when mu is unusable
    assert items["number_百度翻译"]["source"] == "fanyi.baidu.com"
    # organic results name only the /link?url= URL in data-tools: no source
    assert "source" not in items["number的缩写。_百度知道"]


def test_max_results_truncates_with_ranks():
    result, _ = search(page("BaiduSpider__4.html"), max_results=3)
    assert [i["url"] for i in result["items"]] == [i["url"] for i in golden_items("BaiduSpider__4.expected.json")[:3]]
    assert [i["rank"] for i in result["items"]] == [1, 2, 3]


# -- resolve_links ---------------------------------------------------------------------------


def _links_and_targets(name, count):
    """The first items' /link URLs (from the golden) and the targets their blocks name (from the page)."""
    items = golden_items(name)[:count]
    root = parse_fragment(page(name.replace(".expected.json", ".html")))
    content = next(tag for tag in elements(root) if tag.get("id") == "content_left")
    blocks = [b for b in content if isinstance(b, Tag) and has_class(b, "c-container")]
    targets = [_source(b, next((t for t in elements(b) if "data-tools" in t.attrs), None)) for b in blocks if _item(b)][
        :count
    ]
    assert [urlsplit(t).hostname for t in targets] == [item["source"] for item in items]
    return [item["url"] for item in items], targets


def test_resolve_links_reads_location_without_following(fake_clock):
    links, targets = _links_and_targets("sluver__1.expected.json", 3)
    targets[2] = targets[2] + "?x=1&y=2"

    def register(mock):
        for link, target in zip(links, targets):
            mock.add("GET", link, status=302, headers={"Location": target}, body="")
        mock.add("GET", re.compile(r"https://(new\.qq|m\.sohu|www\.163)\.com/.*"), body="followed!")

    result, calls = search(page("sluver__1.html"), extra=[register], max_results=3, resolve_links=True)
    assert [item["url"] for item in result["items"]] == targets
    assert len(calls) == 4  # the search and one request per link; no redirect followed
    assert all(call.request.headers["Referer"] == "https://www.baidu.com/" for call in calls[1:])
    # each link request waits for Baidu's next slot (1 s apart), after the search's own
    assert fake_clock.sleeps == [1.0, 1.0, 1.0]


def test_resolve_links_sends_nothing_to_a_host_that_cools_down(fake_clock):
    """A wall met on www.baidu.com (by one of this search's links) cools the host down: the links stay
    as they are. (A fetch's wall there cools the engine down too, and the search is refused:
    tests/sockets/test_request_pipeline.py.)"""
    links, targets = _links_and_targets("sluver__1.expected.json", 3)

    def register(mock):
        for link, target in zip(links, targets):
            mock.add("GET", link, status=302, headers={"Location": target}, body="")

    with ws.SearchClient("baidu_html", cache_ttl_s=0, settings=ws.Settings()) as client:
        wall = ws.WebBlocked("wall", provider="fetch", detail_code="captcha_required")
        client._transport.gate.blocked("https://www.baidu.com/link?url=x", wall, Deadline(1000), engines=False)
        result, calls = search(
            page("sluver__1.html"), extra=[register], max_results=3, resolve_links=True, client=client
        )
    assert [item["url"] for item in result["items"]] == links
    assert len(calls) == 1  # the search only (its own cool-down is the backend's)


def test_resolve_links_reads_js_and_meta_refresh_and_keeps_failures(fake_clock):
    links, targets = _links_and_targets("yaklang__1.expected.json", 4)
    js = '<script>window.location.replace("%s")</script><noscript>x</noscript>' % targets[0]
    meta = '<html><head><meta http-equiv="refresh" content="0;URL=\'%s\'"></head></html>' % targets[1]

    def register(mock):
        mock.add("GET", links[0], body=js, content_type=UTF8)
        mock.add("GET", links[1], body=meta, content_type=UTF8)
        mock.add("GET", links[2], body=requests.exceptions.ConnectionError("refused"))
        mock.add(
            "GET",
            links[3],
            status=302,
            headers={"Location": "https://wappass.baidu.com/static/captcha/tuxing.html?x=1"},
        )

    result, _ = search(page("yaklang__1.html"), extra=[register], max_results=4, resolve_links=True)
    assert [item["url"] for item in result["items"]] == [targets[0], targets[1], links[2], links[3]]


def test_resolve_links_stops_at_the_deadline_and_keeps_what_is_unresolved(fake_clock):
    links, targets = _links_and_targets("sluver__1.expected.json", 3)
    release = threading.Event()

    def stuck(request):
        release.wait(10)
        return (302, {"Location": "https://late.example/"}, "")

    def register(mock):
        mock.add("GET", links[0], status=302, headers={"Location": targets[0]})
        token = {"url": links[1].split("?url=", 1)[1]}  # add_callback does not match the query by itself
        mock.add_callback("GET", links[1].split("?")[0], callback=stuck, match=[matchers.query_param_matcher(token)])
        mock.add("GET", links[2], status=302, headers={"Location": targets[2]})

    try:
        result, _ = search(page("sluver__1.html"), extra=[register], max_results=3, resolve_links=True, timeout_ms=1500)
    finally:
        release.set()
    # no wall clock: had the call waited for the stuck redirect (10 s), links[1] would read late.example
    assert [item["url"] for item in result["items"]] == [targets[0], links[1], targets[2]]


def test_resolve_links_must_be_a_bool_and_is_checked_before_any_request():
    result, calls = search(page("sluver__1.html"), resolve_links="yes")
    assert isinstance(result, ws.InvalidInput) and result.detail_code == "bad_resolve_links"
    assert calls == []


def test_without_resolve_links_only_the_search_request_is_sent():
    result, calls = search(page("sluver__1.html"), max_results=10)  # its 9: a short page stays short
    assert len(calls) == 1
    assert result["items"] == golden_items("sluver__1.expected.json")


@pytest.mark.parametrize(
    "time_range, span", [("day", 86_400), ("week", 604_800), ("month", 2_592_000), ("year", 31_536_000)]
)
def test_time_range_is_baidus_gpc_span_ending_at_the_searchs_time(time_range, span):
    """Issue 22.3: with the search's time in its parameters the builder sends Baidu's time
    filter (``gpc=stf=<from>,<to>|stftype=1``, as SearXNG's baidu engine does)."""
    import datetime

    from websearch_sync.backends.baidu import BaiduHtml
    from websearch_sync.models import SearchParams

    now = datetime.datetime(2026, 4, 1, 12, 0, tzinfo=datetime.timezone.utc)
    spec = BaiduHtml(ws.Settings()).build_request(
        SearchParams(query="q", max_results=10, time_range=time_range, now=now)
    )
    end = int(now.timestamp())
    assert spec.params == {"wd": "q", "rn": "10", "ie": "utf-8", "gpc": "stf=%d,%d|stftype=1" % (end - span, end)}
    assert spec.allow_redirects is False

"""baidu_html reads more than one page: ``pageno`` as ``pn`` (the results before the page,
0-based), and a call for more than a page gives asks the next where the page's own "下一页"
(Next) link starts it (``HtmlEngine.next_page``), none after a page linking none beyond itself.

Pages and offsets come from the real recordings in fixtures/baidu_html (each test first shows
the page's own links); no page is edited.
"""

import dataclasses
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from clocks import FakeClock
from expected_requests import expected_requests, serve
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.backends.baidu import BaiduHtml
from websearch_sync.engine.base import Page
from websearch_sync.models import ParseResult, SearchParams
from websearch_sync.net.response import HttpResponse

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "baidu_html"
SEARCH_URL = "https://www.baidu.com/s"
BAIDU = BaiduHtml(ws.Settings())


def _text(name):
    return (FIXTURES / name).read_text(encoding="utf-8")


def _next_link_pn(name):
    """The ``pn`` of the page's own "下一页" link (the ``<a>`` holding that word)."""
    text = _text(name)
    link = text[: text.index("下一页")].rsplit("<a ", 1)[1]
    return re.search(r"[?&;]pn=(\d+)", link).group(1)


def _next_pn(name, query, sent_pn=None, before=0):
    """The ``pn`` Baidu is asked next after the recorded page ``name`` answered its request for
    ``query`` (at ``sent_pn``, after ``before`` results the pages before gave), and the results read."""
    params = SearchParams(query=query, max_results=30)
    sent = BAIDU.build_request(params)
    if sent_pn is not None:
        sent = dataclasses.replace(sent, params=dict(sent.params or {}, pn=sent_pn))
    url = sent.url + "?" + urlencode(sent.params or {})
    answer = HttpResponse(200, CaseInsensitiveDict({"Content-Type": "text/html"}), (FIXTURES / name).read_bytes(), url)
    items = BAIDU.read_page(answer.text, params)
    number = 2 if sent_pn is None else 3
    spec = BAIDU.next_page(params, Page(number, before + len(items), answer, ParseResult(items=items), sent))
    return (None if spec is None else dict(spec.params or {})["pn"]), len(items)


@pytest.mark.parametrize(
    "name, query, read",
    [
        ("BaiduSpider__1.html", "Python", 10),  # 2020: 10 blocks (9 results: a card's link is relative), pn=10 .. 90
        ("BaiduSpider__4.html", "ASTM A106", 10),  # the query written back as wd=ASTM%20A106
        ("GoogleScraper__1.html", "number", 10),  # 2015-era layout
        ("sluver__1.html", "搜索引擎测试", 9),  # 2022: the query percent-encoded, &amp; in the links
        ("yaklang__1.html", "荷兰阿根廷场上爆发冲突", 9),
    ],
)
def test_page_two_is_where_the_pages_next_link_starts_it(name, query, read):
    """Every recorded page with pages beyond links its "Next" at ``pn=10``: page 2 is asked there
    (0-based: not 11, where the shared count of ranks would start it; not after a page of 9 results, 9)."""
    assert _next_link_pn(name) == "10"
    assert _next_pn(name, query) == ("10", read)


def test_a_later_page_starts_from_the_offset_its_own_request_sent():
    """The 2020 page of "Python" links ``pn=10`` to ``90``: as the answer to ``pn=10`` the next is
    ``pn=20`` (the nearest beyond), as the answer to ``pn=90`` it is the last: nothing more is asked."""
    text = _text("BaiduSpider__1.html")
    linked = {int(pn) for pn in re.findall(r'href="/s\?wd=Python&pn=(\d+)&', text)}
    assert linked == {10, 20, 30, 40, 50, 60, 70, 80, 90}
    assert _next_pn("BaiduSpider__1.html", "Python", "10", before=10) == ("20", 10)
    assert _next_pn("BaiduSpider__1.html", "Python", "90", before=90) == (None, 10)


def test_a_page_linking_its_search_no_further_is_the_last():
    """The page of "20^5+107*13" links its search only at ``pn=10`` (its page 2): as the answer to ``pn=10`` it is
    the last (before: one more page would have been asked)."""
    text = _text("BaiduSpider__6.html")
    assert set(re.findall(r'href="/s\?[^"]*&pn=(\d+)&', text)) == {"10"}  # its only links to the search
    assert _next_pn("BaiduSpider__6.html", "20^5+107*13") == ("10", 9)
    assert _next_pn("BaiduSpider__6.html", "20^5+107*13", "10", before=9) == (None, 9)


def test_a_page_linking_none_of_its_search_is_followed_ten_on_from_zero():
    """Links to another query's pages are not this search's: the next page starts ten on from the
    first page's ``pn=0`` (``first_result_base``), not from the shared count of ranks (``11``)."""
    assert BAIDU.first_result_base == 0 and BAIDU.first_result_step == 10
    assert _next_pn("BaiduSpider__1.html", "other") == ("10", 10)
    assert _next_pn("BaiduSpider__1.html", "other", "10", before=10) == ("20", 10)


@pytest.mark.parametrize("pageno, pn", [(1, None), (2, "10"), (3, "20")])
def test_pageno_is_sent_as_the_results_before_the_page(pageno, pn):
    """SearXNG's ``pn = (pageno - 1) * 10``, as the recorded pages link page 2 at ``pn=10``; page 1 sends none."""
    fields = BAIDU.build_request(SearchParams(query="Python", max_results=10, options={"pageno": pageno})).params
    assert fields == dict({"wd": "Python", "rn": "10", "ie": "utf-8"}, **({"pn": pn} if pn else {}))


def _client():
    return ws.SearchClient("baidu_html", settings=ws.Settings(), clock=FakeClock(), cache_ttl_s=0)


def test_a_call_for_more_than_a_page_reads_the_pages_its_links_start():
    """A call for 20 answered by the page of "Python" (9 results) asks page 2 at its "Next" link's
    ``pn=10``; that answer (another recorded page: no recording of Python's page 2 exists) links
    another search's pages only, so page 3 is ten on, ``pn=20``; 29 results read, 20 given."""
    pages = ((None, "BaiduSpider__1.html"), ("10", "BaiduSpider__4.html"), ("20", "GoogleScraper__1.html"))
    with expected_requests() as mock, _client() as client:
        for pn, name in pages:
            query = {"wd": "Python", "rn": "10", "ie": "utf-8"}
            serve(mock, SEARCH_URL, dict(query, pn=pn) if pn else query, _text(name))
        response = client.search("Python", max_results=20)
    assert response["provider_meta"]["pages"] == 3 and len(response["items"]) == 20
    assert not response.get("errors")


def test_a_call_with_pageno_starts_there():
    """``pageno=2``: the first request asks ``pn=10``; a page of 9 for a call of 9 asks no more."""
    with expected_requests() as mock, _client() as client:
        serve(mock, SEARCH_URL, {"wd": "Python", "rn": "10", "pn": "10", "ie": "utf-8"}, _text("BaiduSpider__1.html"))
        response = client.search("Python", max_results=9, pageno=2)
    assert len(response["items"]) == 9


def test_a_call_for_a_page_or_less_does_not_fill_up_a_short_page():
    """The page of "Python" gives 9 distinct results (a card's link is relative): a call for 10 is
    one request, as when Baidu was asked ``rn=10`` once. Filling it up doubled the requests of the
    most common call, and a captcha met on the second cooled Baidu down for 10 minutes."""
    with expected_requests() as mock, _client() as client:
        serve(mock, SEARCH_URL, {"wd": "Python", "rn": "10", "ie": "utf-8"}, _text("BaiduSpider__1.html"))
        response = client.search("Python", max_results=10)
    assert len(response["items"]) == 9 and not response.get("errors")
    assert "page_not_read" not in response["provider_meta"]


@pytest.mark.parametrize("value", [1, "yes", None])
def test_fills_short_page_of_the_wrong_kind_is_refused(value):
    from websearch_sync.engine.registry import declaration_problem

    declared = type("Declared", (BaiduHtml,), {"name": "declared_demo", "fills_short_page": value})
    assert declaration_problem(declared) == "its fills_short_page is %r, not a bool" % (value,)


@pytest.mark.parametrize("value", [-1, "0", True, None])
def test_a_first_result_base_of_the_wrong_kind_is_refused(value):
    """Where offsets start is a whole number >= 0 (Baidu's 0, the ranks' 1)."""
    from websearch_sync.engine.registry import declaration_problem

    declared = type("Declared", (BaiduHtml,), {"name": "declared_demo", "first_result_base": value})
    assert declaration_problem(declared) == "its first_result_base is %r, not an int >= 0" % (value,)
    assert declaration_problem(BaiduHtml) is None

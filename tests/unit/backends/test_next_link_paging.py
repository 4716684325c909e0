"""An engine counting results (Bing's ``first``, Yahoo's ``b``) asks its next page where the page's
own "Next" link starts it (``engine/page_links.py``), not after the results read: on three real Bing
pages the two differ, and a page two started after the results read would repeat or skip one.

Pages and offsets come from the real recordings in fixtures/ (each test first shows the page's own
"Next" link); no page is edited.
"""

import dataclasses
from pathlib import Path
from urllib.parse import urlencode

import pytest
from clocks import FakeClock
from expected_requests import expected_requests, serve
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.backends.bing import BingHtml
from websearch_sync.backends.mojeek import MojeekHtml
from websearch_sync.backends.yahoo import YahooHtml
from websearch_sync.backends.yahoo_news import YahooNews
from websearch_sync.engine.base import Page
from websearch_sync.engine.page_links import linked_offsets, next_offset
from websearch_sync.models import ParseResult, SearchParams
from websearch_sync.net.response import HttpResponse

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
BING = BingHtml(ws.Settings())
YAHOO = YahooHtml(ws.Settings())
NEWS = YahooNews(ws.Settings())
MOJEEK = MojeekHtml(ws.Settings())


def _answer(engine, folder, name, params, sent):
    """The recorded page ``name`` as the answer to ``sent``, and the items ``engine`` reads from it."""
    body = (FIXTURES / folder / name).read_bytes()
    url = sent.url + "?" + urlencode(sent.params or {})
    answer = HttpResponse(200, CaseInsensitiveDict({"Content-Type": "text/html; charset=utf-8"}), body, url)
    return answer, engine.read_page(answer.text, params)


def _next_first(engine, folder, name, query, sent_start=None, before=0):
    """The offset ``engine`` asks next after the recorded page ``name`` answered its request for
    ``query`` (starting at ``sent_start``, after ``before`` results the pages before gave), and the
    results it read from that page."""
    params = SearchParams(query=query, max_results=30)
    sent = engine.build_request(params)
    if sent_start is not None:
        sent = dataclasses.replace(sent, params=dict(sent.params or {}, **{engine.first_result_field: sent_start}))
    answer, items = _answer(engine, folder, name, params, sent)
    number = 2 if sent_start is None else 3
    spec = engine.next_page(params, Page(number, before + len(items), answer, ParseResult(items=items), sent))
    return (None if spec is None else dict(spec.params or {})[engine.first_result_field]), len(items)


@pytest.mark.parametrize(
    "name, query, link, read, first",
    [
        # 2015 (de): 9 results read, Bing counts 10 ("Next" asks first=11): after the 9 would repeat the 10th
        ("GoogleScraper__hello_de_ip.html", "hello", "&amp;first=11&amp;FORM=PORE", 9, "11"),
        # 2020: 9 results read, "Next" asks first=11
        ("search-engine-parser__30464b2.html", "Preaching the choir", "&amp;first=11&amp;FORM=PORE", 9, "11"),
        # 2020 (no-JS): 10 results read, "Next" asks first=10: after the 10 would skip Bing's 10th
        ("serp-parser__bing-nojs.html", "bing", "&amp;first=10&amp;FORM=PORE", 10, "10"),
    ],
)
def test_bings_next_page_starts_where_the_pages_next_link_does(name, query, link, read, first):
    text = (FIXTURES / "bing_html" / name).read_text(encoding="utf-8")
    assert 'class="sb_pagN' in text[text.index(link) - 400 : text.index(link) + 400]  # the page's own "Next" link
    assert _next_first(BING, "bing_html", name, query) == (first, read)


def test_a_later_page_starts_from_the_offset_its_own_request_sent():
    """se-scraper's page 2 of "test keyword" answered ``first=7``: its "Next" link asks ``first=17``
    (page 1's links ask 1 and 7 back, pages 3 to 6 at 17 to 47 on)."""
    text = (FIXTURES / "bing_html" / "se-scraper__page2.html").read_text(encoding="utf-8")
    assert 'title="Next page" href="/search?q=test+keyword&amp;' in text and "first=17&amp;FORM=PORE" in text
    assert _next_first(BING, "bing_html", "se-scraper__page2.html", "test keyword", "7", before=6) == ("17", 10)


def test_a_page_linking_its_search_no_further_is_the_last():
    """The same page as the answer to ``first=47``: of its links to the search none goes beyond
    47 (its furthest, page 6, asks 47): no next page is asked (before: ``first=57``)."""
    text = (FIXTURES / "bing_html" / "se-scraper__page2.html").read_text(encoding="utf-8")
    offsets = linked_offsets(text, "https://www.bing.com/search", {"/search"}, "first", ("q", "test keyword"))
    assert max(offsets) == 47 and next_offset(offsets, 47) is None
    assert _next_first(BING, "bing_html", "se-scraper__page2.html", "test keyword", "47", before=6) == (None, 10)


def test_a_page_of_another_search_or_without_page_links_is_followed_after_its_results():
    """Links to another query's pages are not this search's (the 2015 page of "hello" answering
    "other"), nor is the page's link to itself; a fragment links none (Yahoo's tpi fragment): the
    next page starts after the results read, as before."""
    assert _next_first(BING, "bing_html", "GoogleScraper__hello_de_ip.html", "other") == ("10", 9)
    assert _next_first(YAHOO, "yahoo_html", "tpi__fragment.html", "rust") == ("4", 3)


#: GoogleScraper's quoted German sentence (a phrase search), recorded on Bing and Yahoo in 2015.
PHRASE = (
    '"Find ich besser als einfach nur den Propheten zu zeichnen, denn das ist nur reine Provokation.'
    ' Was Titanic macht ist Satire."'
)


@pytest.mark.parametrize(
    "engine, folder, written",
    [
        (BING, "bing_html", "/search?q=find+ich+besser+als+einfach+nur+den+propheten+zu+zeichnen%2c+"),
        (YAHOO, "yahoo_html", "&p=find+ich+besser+als+einfach+nur+den+propheten+zu+zeichnen%2C+"),
    ],
)
def test_a_phrase_querys_pages_are_its_own_though_written_back_without_quotes(engine, folder, written):
    """Both pages write the quoted query back in ``q`` / ``p`` lower-case and without its quotes
    (Bing keeps them only in ``pq``) and link ``11`` to ``41``: page 2 is their "Next" link's, and as
    the answer to ``41`` the page is the last (before: its links were another search's, ``51`` was
    asked; on a page reading fewer results than it counts, page 2 would have repeated one)."""
    name = "GoogleScraper__no_results_literal.html"
    text = (FIXTURES / folder / name).read_text(encoding="utf-8")
    assert text.count(written) >= 4 and written.replace("=", "=%22") not in text  # no quote in the query field
    field = engine.first_result_field
    assert "%s=41" % field in text and "%s=51" % field not in text
    assert _next_first(engine, folder, name, PHRASE) == ("11", 10)
    assert _next_first(engine, folder, name, PHRASE, "41", before=40) == (None, 10)


class _TypingBing(BingHtml):
    """Bing sent the query twice, in ``q`` and in ``pq`` (the typed query, which the foood page's own
    links carry beside ``q``): no such engine is registered, a request whose other field holds the
    query's text (the query ``10`` beside ``count=10``)."""

    def query(self, params):
        return dict(super().query(params), pq=params.full_query)


def test_a_link_to_the_search_is_told_by_the_engines_query_field_alone():
    """The 2015 page of "hello" links its pages with ``q=hello`` and no ``pq``: the engine's declared
    query field (``q``) tells them, not every request field holding the query's text (before: the
    links lacked ``pq=hello``, so none was the search's and page 2 started after the 9 results, 10)."""
    foood = (FIXTURES / "bing_html" / "GoogleScraper__foood.html").read_text(encoding="utf-8")
    assert "q=foood&amp;qs=n&amp;pq=foood" in foood  # where a browser's Bing sends pq
    engine = _TypingBing(ws.Settings())
    assert engine.build_request(SearchParams(query="hello", max_results=30)).params["pq"] == "hello"
    assert _next_first(engine, "bing_html", "GoogleScraper__hello_de_ip.html", "hello") == ("11", 9)


def test_an_engine_counting_results_declares_its_query_field():
    """A plugin declaring ``first_result_field`` without ``query_field`` is refused at registration:
    its pages' links to its search could not be told."""
    from websearch_sync.engine.registry import declaration_problem

    class Counting(BingHtml):
        name = "counting_demo"
        query_field = None

    assert declaration_problem(Counting) == (
        "it declares first_result_field 'first' without query_field (the field holding its query)"
    )
    assert declaration_problem(BingHtml) is None and declaration_problem(YahooHtml) is None


@pytest.mark.parametrize(
    "declaration, value, expected",
    [
        ("first_result_field", 5, "a non-empty string or None"),
        ("first_result_field", "", "a non-empty string or None"),
        ("query_field", "", "a non-empty string or None"),
        ("query_field", b"q", "a non-empty string or None"),
        ("first_result_step", 0, "an int >= 1 or None"),
        ("first_result_step", "10", "an int >= 1 or None"),
    ],
)
def test_paging_declarations_of_the_wrong_kind_are_refused(declaration, value, expected):
    """A field that is no name, or a step that moves nowhere, is refused at registration, saying
    what it is and what was wanted (before: a field of ``5`` or ``""`` was taken)."""
    from websearch_sync.engine.registry import declaration_problem

    declared = type("Declared", (MojeekHtml,), {"name": "declared_demo", declaration: value})
    assert declaration_problem(declared) == "its %s is %r, not %s" % (declaration, value, expected)
    assert declaration_problem(MojeekHtml) is None


class _PrefixedBing(BingHtml):
    """Bing asked for the call's query without a prefix of its own (``bing:hello`` sends ``q=hello``):
    no such engine is registered, an engine whose request rewrites the call's query."""

    def query(self, params):
        return dict(super().query(params), q=params.full_query.removeprefix("bing:"))


def test_a_link_to_the_search_carries_the_query_the_request_sent():
    """The 2015 page of "hello" links ``q=hello``, the query the request sent, not the call's
    ``bing:hello``: page 2 is its "Next" link's (before: none was the search's, page 2 started after
    the 9 results, 10)."""
    engine = _PrefixedBing(ws.Settings())
    assert engine.build_request(SearchParams(query="bing:hello", max_results=30)).params["q"] == "hello"
    assert _next_first(engine, "bing_html", "GoogleScraper__hello_de_ip.html", "bing:hello") == ("11", 9)


def test_yahoos_2026_page_is_followed_by_its_next_link():
    """7 results read, "Next" asks ``b=8&pz=7`` (the link's path carries ``;_ylt=…`` parameters)."""
    text = (FIXTURES / "yahoo_html" / "web-search-mcp__yahoo.html").read_text(encoding="utf-8")
    assert "/search;_ylt=" in text and "b=8&amp;pz=7" in text
    assert _next_first(YAHOO, "yahoo_html", "web-search-mcp__yahoo.html", "javascript tutorial") == ("8", 7)


def test_a_call_reads_bings_page_two_at_the_next_links_offset():
    """Through the client: a call for 15 answered by the 2015 page of "hello" (9 results) asks
    page 2 at ``first=11`` (before: 10). Page 2's answer is another recorded page (no recording of
    that page 2 exists)."""
    with (
        expected_requests() as mock,
        ws.SearchClient("bing_html", settings=ws.Settings(), clock=FakeClock(), cache_ttl_s=0) as client,
    ):
        for first, name in ((None, "GoogleScraper__hello_de_ip.html"), ("11", "GoogleScraper__foood.html")):
            query = {"q": "hello", "count": "15"} if first is None else {"q": "hello", "count": "15", "first": first}
            serve(mock, "https://www.bing.com/search", query, (FIXTURES / "bing_html" / name).read_text("utf-8"))
        response = client.search("hello", max_results=15)
    assert response["provider_meta"]["pages"] == 2 and len(response["items"]) == 15


def test_yahoo_news_pages_are_read_by_its_links_at_their_own_path():
    """The 2026 Yahoo News page, asked at ``/search``, links its pages at ``/news/search``
    (``b=11`` to ``41``): its next page is its link's; as the answer to ``b=41`` it is the last
    (before: ``b=51`` was asked)."""
    text = (FIXTURES / "yahoo_html" / "phrona__news.html").read_text(encoding="utf-8")
    assert "news.search.yahoo.com/news/search;_ylt=" in text and "b=41&pz=10" in text
    assert _next_first(NEWS, "yahoo_html", "phrona__news.html", "rust programming") == ("11", 10)
    assert _next_first(NEWS, "yahoo_html", "phrona__news.html", "rust programming", "41", before=30) == (None, 10)


def test_mojeeks_pages_are_read_by_their_pagination_and_its_last_asks_no_more():
    """Mojeek counts results too (``s``): the 2026 page of "javascript tutorial" links ``s=11`` to
    ``41``, the abbreviated page of "host:microsoft.com" (6 of its 10 results kept) ``s=11``: page 2
    starts there, not after the results read (7). As the answer to ``s=41`` the 2026 page links
    nothing beyond: the last page, no request more (before: the next pageno, ``s=51``, was asked)."""
    text = (FIXTURES / "mojeek_html" / "web-search-mcp__mojeek.html").read_text(encoding="utf-8")
    assert 'class="pagination"' in text and "q=javascript+tutorial&amp;s=41" in text
    assert _next_first(MOJEEK, "mojeek_html", "web-search-mcp__mojeek.html", "javascript tutorial") == ("11", 10)
    assert _next_first(MOJEEK, "mojeek_html", "webindex__abbreviated.html", "host:microsoft.com") == ("11", 6)
    last = _next_first(MOJEEK, "mojeek_html", "web-search-mcp__mojeek.html", "javascript tutorial", "41", before=40)
    assert last == (None, 10)


def test_a_mojeek_page_linking_none_of_its_search_is_followed_ten_results_on():
    """Mojeek's pages count ten (their links step ``s=11``, ``21``, … whether a page shows 10 or 6):
    the abbreviated page (6 results) answering another search links none of it, and its next page
    starts ten on (``first_result_step``), as before page links were read (the next pageno), not
    after the 6 read (7)."""
    text = (FIXTURES / "mojeek_html" / "webindex__abbreviated.html").read_text(encoding="utf-8")
    assert 's=11"' in text and 's=21"' in text
    assert MOJEEK.first_result_step == 10
    assert _next_first(MOJEEK, "mojeek_html", "webindex__abbreviated.html", "other") == ("11", 6)
    assert _next_first(MOJEEK, "mojeek_html", "webindex__abbreviated.html", "other", "11", before=10) == ("21", 6)

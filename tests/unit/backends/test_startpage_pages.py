"""startpage_html's later pages: the page's own form for page *n* posted as a browser posts it
(with the ``sc`` code the page carries; SearXNG's notes: "without this argument Startpage
considers the request is from a bot"), never a made-up request without it.

Page 1 is a recorded page; no recording of its own page 2 exists, so page 2 is answered with the
other recorded Startpage page: what is checked is the request page 2 is asked with."""

import json
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import responses
from clocks import FakeClock

import websearch_sync as ws

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "startpage_html"
PAGE_1 = (FIXTURES / "web-search-mcp__http-startpage.html").read_text(encoding="utf-8")
OTHER_PAGE = (FIXTURES / "web-search-mcp__startpage.html").read_text(encoding="utf-8")
URL = "https://www.startpage.com/sp/search"
HTML = "text/html; charset=utf-8"

#: The fields of page 1's "go to page 2" form (and its "Next" form), in the page's order.
PAGE_2_FORM = [
    ("lui", "english"),
    ("language", "english"),
    ("query", "javascript tutorial"),
    ("cat", "web"),
    ("sc", "wnEHetqY4mdm00"),
    ("pl", ""),
    ("t", "device"),
    ("segment", "startpage.udog"),
    ("page", "2"),
    ("abd", "0"),
    ("abe", "0"),
    ("qsr", "all"),
    ("qadf", "moderate"),
    ("with_date", ""),
]


def _search(*pages, first_page=PAGE_1, **kwargs):
    with (
        responses.RequestsMock() as mock,
        ws.SearchClient("startpage_html", settings=ws.Settings(), clock=FakeClock(), cache_ttl_s=0) as client,
    ):
        mock.get(URL, body=first_page, content_type=HTML)
        for body in pages:
            mock.post(URL, body=body, content_type=HTML)
        response = client.search("javascript tutorial", **kwargs)
        return response, [call.request for call in mock.calls]


def test_page_two_is_the_pages_own_form_for_page_two_with_its_sc_code():
    response, (first, second, third) = _search(OTHER_PAGE, max_results=20)
    assert first.method == "GET" and second.method == "POST" and second.url == URL
    assert parse_qsl(second.body, keep_blank_values=True) == PAGE_2_FORM
    assert second.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert second.headers["Origin"] == "https://www.startpage.com"
    # page 3 is the form of the page before it (the other recorded page's own code), which
    # brings nothing new: the paging ends there
    fields = dict(parse_qsl(third.body))
    assert (fields["page"], fields["sc"]) == ("3", "UPRAX3NlozEf00")
    assert response["provider_meta"]["pages"] == 3
    assert [item["rank"] for item in response["items"]] == list(range(1, len(response["items"]) + 1))


def test_a_page_without_a_form_for_the_next_page_is_the_last():
    page = PAGE_1.replace('name="page" value="2"', 'name="page" value="7"')  # a variant: no form for page 2
    with (
        responses.RequestsMock() as mock,
        ws.SearchClient("startpage_html", settings=ws.Settings(), clock=FakeClock(), cache_ttl_s=0) as client,
    ):
        mock.get(URL, body=page, content_type=HTML)
        response = client.search("javascript tutorial", max_results=20)
        calls = len(mock.calls)
    assert calls == 1 and len(response["items"]) == 10 and not response.get("errors")


def test_page_two_keeps_the_calls_safe_search_and_time_range_whatever_the_form_says():
    """The recorded page's forms carry ``qadf=moderate`` and an empty ``with_date`` (its call
    asked neither): a call asking strict safe search and the past week sends them on page 2 as
    on page 1 (``qadf=heavy``, ``with_date=w``), never the page's other values."""
    _, (first, second, *_) = _search(OTHER_PAGE, max_results=20, safe_search="strict", time_range="week")
    assert "qadf=heavy" in first.url and "with_date=w" in first.url
    fields = dict(parse_qsl(second.body, keep_blank_values=True))
    assert (fields["qadf"], fields["with_date"], fields["page"], fields["sc"]) == ("heavy", "w", "2", "wnEHetqY4mdm00")


def test_a_call_starting_at_page_two_reads_page_three_from_its_form():
    """``pageno=2``: page 1 of the call is Startpage's page 2 (GET ``page=2``), its next the form
    for page 3 (the recorded page's own "go to page 3" form)."""
    _, (first, second, *_) = _search(OTHER_PAGE, max_results=20, pageno=2)
    assert "page=2" in first.url
    fields = dict(parse_qsl(second.body, keep_blank_values=True))
    assert (fields["page"], fields["sc"]) == ("3", "wnEHetqY4mdm00")


def test_a_captcha_on_page_two_keeps_page_one_and_cools_startpage_down():
    """Page 2 answered with the captcha redirect of fixtures/startpage_html/searxng__captcha_302
    (a synthetic case: no recording of Startpage's captcha is on file; its ``Location`` is the one
    SearXNG's engine and logs name): not followed, page 1's 10 results stand with the block in ``errors``."""
    captcha = json.loads((FIXTURES / "searxng__captcha_302.meta.json").read_text(encoding="utf-8"))["response"]
    with (
        responses.RequestsMock() as mock,
        ws.SearchClient("startpage_html", settings=ws.Settings(), clock=FakeClock(), cache_ttl_s=0) as client,
    ):
        mock.get(URL, body=PAGE_1, content_type=HTML)
        mock.post(URL, status=captcha["status"], headers={"Location": captcha["headers"]["Location"]}, body="")
        response = client.search("javascript tutorial", max_results=20)
        assert len(mock.calls) == 2
        with pytest.raises(ws.WebBlocked):
            client.search("javascript tutorial", max_results=20)
    assert len(response["items"]) == 10 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["detail_code"], e["page"]) for e in response["errors"]] == [
        ("WebBlocked", "captcha_required", 2)
    ]


def test_page_two_sends_the_calls_fields_its_form_lacks():
    """Page 1's forms without ``qadf``, ``with_date`` and ``cat`` (a variant of the recorded page,
    their inputs unnamed): page 2 still sends the call's safe search, time range and category,
    after the form's own fields (before: sent without them, safe search left to Startpage)."""
    page = PAGE_1
    for name in ("qadf", "with_date", "cat"):
        page = page.replace('name="%s"' % name, 'data-name="%s"' % name)
    _, (_, second, *_) = _search(OTHER_PAGE, first_page=page, max_results=20, safe_search="strict", time_range="week")
    left = [(name, value) for name, value in PAGE_2_FORM if name not in ("qadf", "with_date", "cat")]
    own = [("cat", "web"), ("qadf", "heavy"), ("with_date", "w")]
    assert parse_qsl(second.body, keep_blank_values=True) == left + own


def test_an_unchecked_checkbox_of_the_form_is_not_sent():
    """Page 1's forms with an unchecked ``qadf=none`` checkbox after their ``qadf=moderate``
    (a variant of the recorded page): a browser leaves it out, so page 2 keeps the page's safe
    search (before: it was sent, last, and turned safe search off)."""
    hidden = '<input type="hidden" name="qadf" value="moderate" />'
    page = PAGE_1.replace(hidden, hidden + '<input type="checkbox" name="qadf" value="none" />')
    assert page != PAGE_1
    _, (_, second, *_) = _search(OTHER_PAGE, first_page=page, max_results=20)
    assert parse_qsl(second.body, keep_blank_values=True) == PAGE_2_FORM


def test_a_form_posting_to_another_origin_is_not_followed():
    """Page 1's page forms posting to another host (a variant of the recorded page): page 2 is
    not asked (its ``sc`` code and the query would go there), page 1's results stand and the
    unfollowed page is a ``WebParseError`` in ``errors``."""
    page = PAGE_1.replace('action="/sp/search"', 'action="https://elsewhere.example/sp/search"')
    response, requests_sent = _search(first_page=page, max_results=20)
    assert len(requests_sent) == 1 and len(response["items"]) == 10
    assert [(e["type"], e["detail_code"], e["page"]) for e in response["errors"]] == [
        ("WebParseError", "unexpected_shape", 2)
    ]
    assert "elsewhere.example" in response["errors"][0]["message"]

"""Issue 31.4: DuckDuckGo HTML/Lite page 2+ is the "Next" form of the page before, posted as a
browser pressing "Next" does: every named field as the page carries it, never a made-up token.

Page 1 is a recorded page; no recording of its own page 2 exists, so page 2 is answered with
another recorded DuckDuckGo page (or the recorded anomaly page): what is checked is the request
page 2 is asked with, and how its answer joins page 1's."""

import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import responses
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.backends.ddg import next_form
from websearch_sync.engine.page_forms import PageForm

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
PAGE_1 = (FIXTURES / "ddg_html" / "agent-webtool__1.html").read_text(encoding="utf-8")
OTHER_PAGE = (FIXTURES / "ddg_html" / "eino-ext__1.html").read_text(encoding="utf-8")
ANOMALY = (FIXTURES / "ddg_html" / "meka__ddg_anomaly.html").read_text(encoding="utf-8")
ENDPOINT = "https://html.duckduckgo.com/html/"

#: The hidden fields of page 1's "Next" form, in the page's order (fixtures/ddg_html/agent-webtool__1.html).
NEXT_FORM = [
    ("q", "bun javascript runtime"),
    ("s", "10"),
    ("nextParams", ""),
    ("v", "l"),
    ("o", "json"),
    ("dc", "11"),
    ("api", "d.js"),
    ("vqd", "4-286313710471813745916649067655066947147"),
    ("kl", "wt-wt"),
]


def _client(clock=None):
    return ws.SearchClient(
        "ddg_html", settings=ws.Settings(impersonate="off"), clock=clock or FakeClock(), cache_ttl_s=0, retries=0
    )


def test_the_next_form_is_found_by_its_fields_on_both_templates():
    assert next_form(PAGE_1) == PageForm("/html/", tuple(NEXT_FORM))
    lite = next_form((FIXTURES / "ddg_lite" / "nlos__1.html").read_text(encoding="utf-8"))
    assert lite is not None and lite.action == "/lite/"
    assert lite.first("s") == "10" and (lite.first("vqd") or "").startswith("4-")
    assert next_form(ANOMALY) is None


def test_page_two_is_asked_with_page_ones_next_form():
    clock = FakeClock()
    with responses.RequestsMock() as mock, _client(clock) as client:
        mock.post(ENDPOINT, body=PAGE_1, content_type="text/html; charset=UTF-8")
        mock.post(ENDPOINT, body=OTHER_PAGE, content_type="text/html; charset=UTF-8")
        response = client.search("bun javascript runtime", max_results=15)
        first, second = (call.request for call in mock.calls)
    assert parse_qsl(first.body, keep_blank_values=True) == [
        ("q", "bun javascript runtime"),
        ("b", ""),
        ("kl", ""),
        ("df", ""),
    ]
    assert parse_qsl(second.body, keep_blank_values=True) == NEXT_FORM
    assert second.headers["Referer"] == "https://html.duckduckgo.com/"
    assert second.headers["Content-Type"] == "application/x-www-form-urlencoded"
    items = response["items"]
    assert len(items) == 15 and [item["rank"] for item in items] == list(range(1, 16))
    assert len({item["url"] for item in items}) == 15
    assert items[0]["url"] == "https://bun.sh/"  # page 1 first, in its order
    assert response["provider_meta"]["pages"] == 2 and response["provider_meta"]["attempts"] == 2
    assert clock.sleeps == pytest.approx([1.0])  # page 2 waited for ddg_html's next slot


def test_a_blocked_page_two_returns_page_one_with_the_block_in_errors():
    with responses.RequestsMock() as mock, _client() as client:
        mock.post(ENDPOINT, body=PAGE_1, content_type="text/html; charset=UTF-8")
        mock.post(ENDPOINT, body=ANOMALY, status=202, content_type="text/html; charset=UTF-8")
        response = client.search("bun javascript runtime", max_results=20)
    assert len(response["items"]) == 10
    assert response["errors"][0]["type"] == "WebBlocked" and response["errors"][0]["detail_code"] == "captcha_required"
    assert response["provider_meta"]["pages"] == 1


def test_ten_results_or_fewer_send_one_request_as_before():
    with responses.RequestsMock() as mock, _client() as client:
        mock.post(ENDPOINT, body=PAGE_1, content_type="text/html; charset=UTF-8")
        response = client.search("bun javascript runtime", max_results=10)
    assert len(response["items"]) == 10 and "pages" not in response["provider_meta"]


@pytest.mark.parametrize(
    "action", ["https://elsewhere.example/html/", "//elsewhere.example/html/", "javascript:next()"]
)
def test_a_next_form_posting_elsewhere_keeps_page_one_and_says_so(action):
    """Page 1's recorded "Next" form with its action moved to another host (or to no http(s)
    URL): not followed (the token and the pace are DuckDuckGo's), and not taken for the last
    page either: the 10 results read stand and the unfollowed page is a ``WebParseError`` in
    ``errors``, as for the ``next`` of the JSON answers (before: 10 of the 20 asked for and no
    word of the pages missing)."""
    page = PAGE_1.replace('<form action="/html/" method="post">', '<form action="%s" method="post">' % action)
    assert next_form(page) == PageForm(action, tuple(NEXT_FORM))
    with responses.RequestsMock() as mock, _client() as client:
        mock.post(ENDPOINT, body=page, content_type="text/html; charset=UTF-8")
        response = client.search("bun javascript runtime", max_results=20)
    assert len(response["items"]) == 10 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["detail_code"], e["page"]) for e in response["errors"]] == [
        ("WebParseError", "unexpected_shape", 2)
    ]
    assert "not followed" in response["errors"][0]["message"]


def test_a_next_form_posting_in_plain_http_is_not_followed():
    """Page 1's recorded "Next" form with its action the same host in plain ``http://``: the
    query and the token would go in clear; not followed, page 1's results kept."""
    page = PAGE_1.replace(
        '<form action="/html/" method="post">', '<form action="http://html.duckduckgo.com/html/" method="post">'
    )
    with responses.RequestsMock() as mock, _client() as client:
        mock.post(ENDPOINT, body=page, content_type="text/html; charset=UTF-8")
        response = client.search("bun javascript runtime", max_results=20)
    assert len(response["items"]) == 10 and response["provider_meta"]["pages"] == 1
    assert [(e["type"], e["page"]) for e in response["errors"]] == [("WebParseError", 2)]


def test_page_two_asks_for_the_calls_own_query_whatever_the_form_carries():
    """Page 1's recorded "Next" form carrying another query (a variant of the recorded page):
    page 2 asks for the call's query with the form's token and offset (before: the other query's
    results came back as page 2, with no word of it), as Startpage's page 2 does."""
    start = PAGE_1.rindex("<form", 0, PAGE_1.index('name="vqd"'))
    end = PAGE_1.index("</form>", start)
    form = PAGE_1[start:end].replace('value="bun javascript runtime"', 'value="another query"')
    page = PAGE_1[:start] + form + PAGE_1[end:]
    assert page != PAGE_1
    with responses.RequestsMock() as mock, _client() as client:
        mock.post(ENDPOINT, body=page, content_type="text/html; charset=UTF-8")
        mock.post(ENDPOINT, body=OTHER_PAGE, content_type="text/html; charset=UTF-8")
        client.search("bun javascript runtime", max_results=20)
        second = mock.calls[1].request
    assert parse_qsl(second.body, keep_blank_values=True) == NEXT_FORM


def test_a_next_form_repeating_the_request_just_made_is_not_sent_again():
    """Page 2 (a recorded DuckDuckGo page) whose "Next" form carries the values page 2 was asked
    with (page 1's form: same offset, token, query): pressing it would ask page 2 again, whose
    results are repeats. Paging stops there, after two requests (before: a third, identical one)."""
    start = OTHER_PAGE.rindex("<form", 0, OTHER_PAGE.index('name="vqd"'))
    end = OTHER_PAGE.index("</form>", start)
    form = OTHER_PAGE[start:end]
    for name, value in NEXT_FORM:
        form = re.sub(r'(name="%s" value=")[^"]*"' % name, lambda m, v=value: m.group(1) + v + '"', form)
    page_2 = OTHER_PAGE[:start] + form + OTHER_PAGE[end:]
    assert next_form(page_2) == PageForm("/html/", tuple(NEXT_FORM))  # only the form's values changed
    with responses.RequestsMock() as mock, _client() as client:
        mock.post(ENDPOINT, body=PAGE_1, content_type="text/html; charset=UTF-8")
        mock.post(ENDPOINT, body=page_2, content_type="text/html; charset=UTF-8")  # served again if asked again
        response = client.search("bun javascript runtime", max_results=30)
        sent = [parse_qsl(call.request.body, keep_blank_values=True) for call in mock.calls]
    assert len(sent) == 2 and sent[1] == NEXT_FORM
    assert len(response["items"]) == 20 and response["provider_meta"]["pages"] == 2
    # the call asked for 30: it is told why paging stopped at 20 (before: nothing said so)
    assert [(e["detail_code"], e["message"]) for e in response["errors"]] == [
        (
            "next_page_repeated",
            "page 3 was not read (the results are those of pages 1-2): the next page of page 2 asks for page 2 "
            "again (the request that brought it), so paging stopped",
        )
    ]
    assert "partial" not in response["provider_meta"]  # the pages read stand whole

"""mojeek_html: the request, the results list, the ALTCHA wall. Pages come from fixtures/."""

import html
import json
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import responses

import websearch_sync as ws
from websearch_sync.engine.registry import bot_walls
from websearch_sync.net.botwall import bot_wall

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
URL = "https://www.mojeek.com/search"
HTML = "text/html; charset=utf-8"


def page(name):
    return (FIXTURES / "mojeek_html" / name).read_text(encoding="utf-8")


def search(body, *, status=200, query="q", **kwargs):
    """ws.search against one replayed Mojeek answer; (result or error, the request sent)."""
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add("GET", URL, body=body, status=status, content_type=HTML)
        try:
            result = ws.search(query, backend="mojeek_html", settings=ws.Settings(), **kwargs)
        except ws.WebSearchError as error:
            result = error
        return result, (mock.calls[0].request if mock.calls else None)


def sent(request):
    return dict(parse_qsl(urlsplit(request.url).query))


def test_request_is_a_get_with_q_only_on_the_first_page():
    _, request = search(page("web-search-mcp__mojeek.html"), query="javascript tutorial")
    assert sent(request) == {"q": "javascript tutorial"}  # no s= on page 1 (it trips the rate limit)
    assert request.headers["Referer"] == "https://www.mojeek.com/"


@pytest.mark.parametrize(
    "options, extra",
    [
        ({"pageno": 3}, {"s": "21"}),
        ({"safe_search": "moderate"}, {"safe": "1"}),
        ({"safe_search": "off"}, {"safe": "0"}),
        ({"locale": "de-DE"}, {"lb": "de"}),
    ],
)
def test_request_options(options, extra):
    _, request = search(page("web-search-mcp__mojeek.html"), **options)
    assert sent(request) == dict({"q": "q"}, **extra)


def test_items_are_the_results_list_with_title_links_and_snippets():
    result, _ = search(page("web-search-mcp__mojeek.html"), max_results=10)
    golden = json.loads(
        (FIXTURES / "mojeek_html" / "web-search-mcp__mojeek.expected.json").read_text(encoding="utf-8")
    )["items"]
    assert result["items"] == golden
    assert not any("See more results" in item["snippet"] for item in result["items"])
    assert result["items"][1]["snippet"] == ""  # r2 has no p.s


def test_a_results_list_without_results_is_a_parse_error_not_zero_results():
    # no zero-result page of Mojeek is on record: an empty list is not taken for one
    text = page("webindex__abbreviated.html")
    text = text[: text.index("<!--ls-->")] + text[text.index("<!--le-->") :]
    result, _ = search(text)
    assert isinstance(result, ws.WebParseError) and result.detail_code == "unexpected_shape"


@pytest.mark.parametrize("status", [200, 403])
def test_altcha_captcha_is_a_block_whatever_the_status(status):
    result, _ = search(page("argos-engine__altcha.html"), status=status)
    assert isinstance(result, ws.WebBlocked)
    assert (result.detail_code, result.status) == ("captcha_required", status)


def test_a_results_page_for_a_query_naming_the_wall_is_not_a_block():
    query = '<div class="captcha-wrap"></div><script src="/js/page_specific/altcha.js"></script>'
    text = page("web-search-mcp__mojeek.html").replace("javascript tutorial", html.escape(query))
    assert "captcha-wrap" in text and "altcha.js" in text
    assert bot_wall(URL, text, bot_walls()) is None
    result, _ = search(text, max_results=10)
    assert len(result["items"]) == 10


def test_structure_report():
    from requests.structures import CaseInsensitiveDict

    from websearch_sync.engine.registry import backend_class
    from websearch_sync.net.transport import HttpResponse

    def report(text):
        response = HttpResponse(
            status=200, headers=CaseInsensitiveDict({"Content-Type": HTML}), content=text.encode("utf-8"), url=URL
        )
        return backend_class("mojeek_html")(ws.Settings()).structure_report(response)

    assert all(report(page("web-search-mcp__mojeek.html")).values())
    assert all(report(page("webindex__abbreviated.html")).values())
    assert report(page("argos-engine__altcha.html")) == {
        "not_blocked": False,
        "results_region": False,
        "result_blocks": False,
        "snippets": True,
    }
    renamed = report(page("web-search-mcp__mojeek.html").replace('class="s"', 'class="summary"'))
    assert renamed["result_blocks"] is True and renamed["snippets"] is False


@pytest.mark.parametrize(
    "now, time_range, expected",
    [
        ("2026-03-31T23:30:00+00:00", "day", "20260330"),
        ("2026-03-31T23:30:00+00:00", "week", "20260324"),
        ("2026-03-31T23:30:00+00:00", "month", "20260228"),  # no 31 February: the month's last day
        ("2024-02-29T08:00:00+00:00", "year", "20230228"),
        ("2026-01-15T01:00:00+09:00", "month", "20251214"),  # the UTC date of "now"
    ],
)
def test_time_range_is_mojeeks_since_date_from_the_searchs_time(now, time_range, expected):
    """Issue 22.3: the request builder gets the search's time, so Mojeek's date filter is sent
    (as SearXNG's mojeek engine does: since = now - 1 day/week/month/year, YYYYMMDD)."""
    import datetime

    from websearch_sync.backends.mojeek import MojeekHtml
    from websearch_sync.models import SearchParams

    params = SearchParams(query="q", max_results=10, time_range=time_range, now=datetime.datetime.fromisoformat(now))
    spec = MojeekHtml(ws.Settings()).build_request(params)
    assert spec.params == {"q": "q", "since": expected}

"""The HTML backends' structure reports (what check-live shows) on recorded pages."""

from pathlib import Path

import pytest
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.engine.registry import backend_class
from websearch_sync.net.transport import HttpResponse

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def response(path, text=None, status=200):
    body = text.encode("utf-8") if text is not None else path.read_bytes()
    return HttpResponse(
        status=status,
        headers=CaseInsensitiveDict({"Content-Type": "text/html; charset=utf-8"}),
        content=body,
        url="https://example.invalid/",
    )


def report(backend, page, text=None):
    return backend_class(backend)(ws.Settings()).structure_report(response(FIXTURES / page, text))


@pytest.mark.parametrize(
    "backend, page",
    [
        ("ddg_html", "ddg_html/meka__1.html"),
        ("ddg_html", "ddg_html/search-engine-parser__1.html"),
        ("ddg_lite", "ddg_lite/rafiki__1.html"),
        ("baidu_html", "baidu_html/sluver__1.html"),
        ("baidu_html", "baidu_html/GoogleScraper__1.html"),
    ],
)
def test_recorded_result_pages_match_every_landmark(backend, page):
    assert all(report(backend, page).values()), report(backend, page)


def test_challenge_pages_are_reported_as_blocked():
    assert report("ddg_html", "ddg_html/meka__ddg_anomaly.html")["not_blocked"] is False
    assert report("baidu_html", "baidu_html/search-engine-parser__baidu_captcha.html")["not_blocked"] is False


def test_renamed_snippet_classes_are_noticed():
    page = (
        (FIXTURES / "ddg_html/meka__1.html").read_text(encoding="utf-8").replace("result__snippet", "result__summary")
    )
    found = report("ddg_html", "ddg_html/meka__1.html", page)
    assert found["result_blocks"] is True and found["snippets"] is False
    page = (
        (FIXTURES / "baidu_html/sluver__1.html").read_text(encoding="utf-8").replace("summary-text_", "abstract-text_")
    )
    found = report("baidu_html", "baidu_html/sluver__1.html", page)
    assert found["result_blocks"] is True and found["snippets"] is False


def test_a_page_without_the_results_region_is_noticed():
    found = report("ddg_html", "ddg_html/meka__1.html", "<html><body><p>new design</p></body></html>")
    assert found["results_region"] is False and found["result_blocks"] is False

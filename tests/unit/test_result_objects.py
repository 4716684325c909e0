"""Results as a batch job keeps them (docs/scaling.md, process pools): plain data that ``json.dumps``
takes as it is and reads back equal, as a pickle and a deep copy do, for every vertical's search
response and for a fetched page, PDF and image (its bytes as base64 text), warnings included. The
stub and a mocked wire: no network."""

import base64
import copy
import json
import pickle

import pytest
from images import png
from pdfs import text_pdf

import websearch_sync as ws
from websearch_sync.testing import MockResponse, MockWire

PAGES = {
    "https://example.com/a.html": (
        "text/html; charset=utf-8",
        b"<html><head><title>T</title></head><body><article><p>"
        + b"Plain words here. " * 20
        + b"</p></article></body></html>",
    ),
    "https://example.com/a.pdf": ("application/pdf", text_pdf([["Page one"], ["Page two"]])),
    "https://example.com/a.png": ("image/png", png(4, 3)),
}


def _kept(result: object) -> None:
    """``result`` read back from JSON, a pickle and a deep copy is ``result``, of JSON's types only."""
    assert json.loads(json.dumps(result, ensure_ascii=False)) == result
    assert pickle.loads(pickle.dumps(result, pickle.HIGHEST_PROTOCOL)) == result == copy.deepcopy(result)


@pytest.mark.parametrize("vertical", ["web", "news", "images", "videos"])
def test_a_search_response_is_plain_data(vertical):
    with ws.SearchClient("stub") as client:
        response = client.search("python", vertical=vertical, max_results=3)
    assert len(response["items"]) == 3
    _kept(response)


def test_a_fetched_page_pdf_and_image_are_plain_data():
    wire = MockWire(lambda request: MockResponse(200, {"Content-Type": PAGES[request.url][0]}, PAGES[request.url][1]))
    with ws.SearchClient("stub", wire=wire) as client:
        pages = [client.fetch(url, images=True) for url in PAGES]
    assert [page["extractor"] for page in pages] == ["readability", "pdf", "image"]
    for page in pages:
        _kept(page)
    assert base64.b64decode(pages[2]["data"]) == PAGES["https://example.com/a.png"][1]


def test_a_chains_warnings_are_plain_data():
    """A fallback chain's answer with the failed backend's error in ``errors`` (an ``ErrorInfo``)."""
    wire = MockWire(lambda request: MockResponse(503, {"Content-Type": "text/html", "Retry-After": "7"}, b"down"))
    with ws.SearchClient(["ddg_html", "stub"], wire=wire, retries=0) as client:
        response = client.search("python", max_results=2)
    assert [entry["detail_code"] for entry in response["errors"]] == ["http_503"]
    _kept(response)

"""Interim answers (1xx) before the final one: ``103 Early Hints`` and ``102 Processing`` are read
past, as RFC 9110 (15.2) has a client do and libcurl does. The requests wire (every API backend;
fetch and keyless engines with ``impersonate="off"``) took them for the answer: ``WebProviderError
(http_103)``. Endless interim answers are a header block too large, never a hang."""

import json

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH

import websearch_sync as ws

PAGE = (
    b"<html><head><title>Harbour works</title></head><body><p>"
    + b"The harbour board met. " * 20
    + b"</p></body></html>"
)
RESULTS = json.dumps({"results": [{"title": "t", "url": "https://a.example/", "content": "c"}]}).encode()


def answer(interim: bytes, body: bytes, content_type: str) -> bytes:
    final = b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
    return interim + final % (content_type.encode(), len(body)) + body


EARLY_HINTS = b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
PROCESSING = b"HTTP/1.1 102 Processing\r\n\r\n"


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("interim", [EARLY_HINTS, PROCESSING, EARLY_HINTS + PROCESSING], ids=["103", "102", "103-102"])
def test_fetch_reads_the_final_answer_past_interim_ones(impersonate, interim):
    with FaultServer({"/page": raw(answer(interim, PAGE, "text/html"))}) as server:
        page = ws.fetch(server.url("/page"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (page["status"], page["title"]) == (200, "Harbour works")


def test_an_api_backend_reads_its_results_past_early_hints():
    with FaultServer({"/search": raw(answer(EARLY_HINTS, RESULTS, "application/json"))}) as server:
        result = ws.search(
            "q", backend="searxng", settings=ws.Settings(providers={"searxng": {"base_url": server.url("")}})
        )
    assert [item["url"] for item in result["items"]] == ["https://a.example/"]


def test_endless_early_hints_are_a_header_block_too_large(fake_clock):
    flood = raw(EARLY_HINTS * 200 + answer(b"", PAGE, "text/html"))
    with FaultServer({"/page": flood}) as server:
        with pytest.raises(ws.NetworkError) as caught:
            ws.fetch(server.url("/page"), allow_private=True, settings=ws.Settings(impersonate="off"))
    assert caught.value.detail_code == "malformed_response"


@pytest.mark.parametrize("impersonate", BOTH)
def test_interim_answers_over_300_kb_are_a_header_block_too_large_on_both_wires(impersonate, fake_clock):
    # Each block within http.client's 100 lines of 64 KB; together past libcurl's 300 KB of header lines.
    padded = b"HTTP/1.1 103 Early Hints\r\n" + b"X-Pad: %s\r\n" % (b"a" * 1000) * 99 + b"\r\n"
    flood = raw(padded * 4 + answer(b"", PAGE, "text/html"))
    with FaultServer({"/page": flood}) as server:
        with pytest.raises(ws.NetworkError) as caught:
            ws.fetch(server.url("/page"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (caught.value.detail_code, "header block too large" in caught.value.message) == ("malformed_response", True)

"""A redirect with two different ``Location`` headers is a malformed answer on both wires, as a
browser refuses it (Chromium: ``ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION``; libcurl too). The requests
wire joined them into one URL (``/ok, /other``) and fetched that (an ``http_404`` here); both wires
joined one target sent twice (``/ok, /ok``) instead of following it."""

import pytest
from faults import raw, respond
from servers import FaultServer
from transports import BOTH

import websearch_sync as ws

PAGE = b"<html><body><p>" + b"The page the redirect leads to, with enough text to be read. " * 5 + b"</p></body></html>"
TWO = raw(b"HTTP/1.1 302 Found\r\nLocation: /ok\r\nLocation: /other\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
SAME_TWICE = raw(
    b"HTTP/1.1 302 Found\r\nLocation: /ok\r\nLocation: /ok\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
)


def fetch(url: str, impersonate) -> dict:
    """``ws.fetch`` with a deadline that is not these tests' subject: 30 s. A process's first fetch
    builds its wire and extractor (2-7 s at a load of 6-15), over the 3 s these tests had."""
    return ws.fetch(url, allow_private=True, settings=ws.Settings(impersonate=impersonate), timeout_ms=30_000)


@pytest.mark.parametrize("impersonate", BOTH)
def test_two_different_locations_are_a_malformed_answer(impersonate, fake_clock):
    routes = {"/moved": TWO, "/ok": respond(200, PAGE), "/other": respond(200, PAGE)}
    with FaultServer(routes) as server:
        with pytest.raises(ws.NetworkError) as caught:
            fetch(server.url("/moved"), impersonate)
        assert "/ok" not in [request.route for request in server.requests]
    assert caught.value.detail_code == "malformed_response"


def test_the_requests_wire_says_why(fake_clock):
    with FaultServer({"/moved": TWO, "/ok": respond(200, PAGE)}) as server:
        with pytest.raises(ws.NetworkError) as caught:
            fetch(server.url("/moved"), "off")
    assert caught.value.message == (
        "127.0.0.1 answered with several different Location headers (a browser refuses such an answer)"
    )


@pytest.mark.parametrize("impersonate", BOTH)
def test_one_location_sent_twice_is_followed(impersonate):
    with FaultServer({"/moved": SAME_TWICE, "/ok": respond(200, PAGE)}) as server:
        page = fetch(server.url("/moved"), impersonate)
    assert page["final_url"] == server.url("/ok")

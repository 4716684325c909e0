"""A redirect with one real ``Location`` and an empty one: the empty one is skipped, as libcurl
skips it, and the real target followed on both wires. The browser wire joined them into ``/ok, ``
(an HTTP 404 from the server); the requests wire called them several different targets
(``malformed_response``)."""

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
OK = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(PAGE) + PAGE


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "locations", [b"Location: /ok\r\nLocation:\r\n", b"Location: \r\nLocation: /ok\r\n"], ids=["after", "before"]
)
def test_an_empty_location_beside_a_real_one_is_skipped(impersonate, locations):
    redirect = b"HTTP/1.1 302 Found\r\n" + locations + b"Content-Length: 0\r\n\r\n"
    with FaultServer({"/from": raw(redirect), "/ok": raw(OK)}) as server:
        page = ws.fetch(server.url("/from"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (page["final_url"], page["title"]) == (server.url("/ok"), "Harbour works")

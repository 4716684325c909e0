"""A status past 599 (``999``, which some sites answer scrapers with) is no server error: fetch and a
search say it is unexpected (``WebProviderError(http_999)``, not retryable) after one request, on both
wires, instead of ``BadGateway`` retried as a 5xx would be."""

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH

import websearch_sync as ws

STATUS_999 = raw(b"HTTP/1.1 999 Request denied\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


@pytest.mark.parametrize("impersonate", BOTH)
def test_fetch_of_a_999_answer_is_unexpected_and_asked_once(impersonate):
    with FaultServer({"/page": STATUS_999}) as server:
        with pytest.raises(ws.WebProviderError) as caught:
            ws.fetch(server.url("/page"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
        assert len(server.requests) == 1
    assert type(caught.value) is ws.WebProviderError
    assert (caught.value.detail_code, caught.value.status, caught.value.retryable) == ("http_999", 999, False)


def test_search_of_a_999_answer_is_unexpected_and_asked_once():
    with FaultServer({"/search": STATUS_999}) as server:
        settings = ws.Settings(providers={"searxng": {"base_url": server.url("")}})
        with ws.SearchClient("searxng", settings=settings, retries=2) as client:
            with pytest.raises(ws.WebProviderError) as caught:
                client.search("q")
        assert len(server.requests) == 1
    assert type(caught.value) is ws.WebProviderError
    assert (caught.value.detail_code, caught.value.retryable) == ("http_999", False)

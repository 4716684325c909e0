"""Closing a client another thread is using (a service shutting down while its workers fetch):
nothing is sent after ``close()``, and the call under way ends with ``InvalidInput(client_closed)``
or its own answer, on both transports."""

import threading

import pytest
from faults import respond
from servers import FaultServer
from transports import BOTH

import websearch_sync as ws


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_retry_whose_wait_spans_close_is_not_sent(impersonate):
    """A 429 asking for a second's wait, and the client closed meanwhile: the retry was sent over
    the closed requests wire, on a connection pool opened afresh that no one would close."""
    with FaultServer({"/x": respond(429, b"slow down", {"Retry-After": "1"})}) as server:
        client = ws.SearchClient(settings=ws.Settings(allow_private=True, impersonate=impersonate))
        failures = []

        def fetch():
            try:
                client.fetch(server.url("/x"), timeout_ms=30000)
            except ws.WebSearchError as error:
                failures.append(error)

        call = threading.Thread(target=fetch)
        call.start()
        server.received(1)  # the first request arrived: its answer asks for a wait before the retry
        client.close()
        call.join(30)
        assert not call.is_alive()
        assert [(type(error).__name__, error.detail_code) for error in failures] == [("InvalidInput", "client_closed")]
        assert len(server.requests) == 1

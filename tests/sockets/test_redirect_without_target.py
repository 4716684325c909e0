"""A redirect status without a target (no ``Location`` header, or an empty one) says so: it read as
"answered with unexpected HTTP 302", which does not tell a user why a redirect was not followed."""

import pytest
from faults import raw
from servers import FaultServer
from transports import BOTH

import websearch_sync as ws

NO_LOCATION = raw(b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
EMPTY_LOCATION = raw(b"HTTP/1.1 301 Moved Permanently\r\nLocation: \r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "answer, status", [(NO_LOCATION, 302), (EMPTY_LOCATION, 301)], ids=["no-location", "empty-location"]
)
def test_a_redirect_without_a_target_says_so(impersonate, answer, status):
    with FaultServer({"/page": answer}) as server:
        with pytest.raises(ws.WebProviderError) as caught:
            ws.fetch(server.url("/page"), allow_private=True, settings=ws.Settings(impersonate=impersonate))
    assert (caught.value.detail_code, caught.value.message) == (
        "http_%d" % status,
        "127.0.0.1 answered with a redirect (HTTP %d) that names no target (its Location header is missing or empty)"
        % status,
    )

"""An unusable endpoint is InvalidInput(bad_endpoint) before any request, for every backend.

Regression test: an endpoint such as ``http://[::1`` (a broken IPv6 literal) made
``urlsplit`` raise ``ValueError`` inside the backend, reported as ``internal_error``;
``socks5://host`` as an endpoint was reported as a missing SOCKS extra for the proxy.
"""

import faultlab
import pytest
from backend_kit import required

import websearch_sync as ws
from websearch_sync.engine import registry
from websearch_sync.secrets import is_secret_name

BAD = [
    "not a url",
    "ftp://files.example/",
    "http://[::1",
    "http://",
    "//127.0.0.1/x",
    "http://127.0.0.1:99999/",
    "http://127.0.0.1:0/",
    "http://\ud800/",
    "socks5://127.0.0.1:1080",
    "file:///etc/passwd",
]


def settings_with(name, endpoint):
    cls = registry.backend_class(name)
    config = {key: ("bad-endpoint-key" if is_secret_name(key) else endpoint) for key in required(cls)}
    return ws.Settings(endpoints={name: endpoint}, providers={name: config})


@pytest.mark.parametrize("endpoint", BAD, ids=[ascii(e) for e in BAD])
@pytest.mark.parametrize("name", faultlab.network_backends())
def test_an_unusable_endpoint_is_refused_before_any_request(name, endpoint):
    with pytest.raises(ws.InvalidInput) as info:
        # No request is made, so no deadline is the subject: a long one, which a machine that
        # stalls this process for seconds cannot use up before the endpoint is checked.
        ws.search("q", backend=name, settings=settings_with(name, endpoint), timeout_ms=60_000)
    assert info.value.detail_code == "bad_endpoint"
    assert info.value.provider == name


def test_the_message_never_shows_the_endpoint_which_may_hold_credentials():
    with pytest.raises(ws.InvalidInput) as info:
        ws.search("q", backend="searxng", settings=settings_with("searxng", "ftp://user:pw-SECRET@searx.example/"))
    assert "pw-SECRET" not in info.value.message

"""A client's browser wire is built at its first browser request, not with the client: most
clients ask APIs only, and curl_cffi with a curl session cost ~0.1 s of a process's start (every
CLI run, worker and plugin host of the test suite paid it). A bad ``impersonate`` is still
refused when the client is made."""

import pytest
from transports import needs_browser

from websearch_sync import InvalidInput
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.net.wire_requests import RequestsWire

API = RequestSpec("GET", "https://api.example/s", params={"q": "x"})
PAGE = RequestSpec("GET", "https://site.example/", browser=True)


@needs_browser
def test_the_browser_wire_is_built_at_the_first_browser_request_and_closed_with_the_transport(monkeypatch):
    from websearch_sync.net import browser
    from websearch_sync.net.wire_curl import CurlWire  # the browser extra's

    monkeypatch.setattr(browser, "browser_available", lambda: True)  # the unit tests' conftest says no
    built, closed = [], []
    monkeypatch.setattr(CurlWire, "__init__", lambda self, *a, **k: built.append(self) or None)
    monkeypatch.setattr(CurlWire, "close", lambda self: closed.append(self))
    transport = HttpTransport(impersonate="chrome")
    assert isinstance(transport.wire_for(API), RequestsWire) and built == []
    wire = transport.wire_for(PAGE)
    assert built == [wire] and transport.wire_for(PAGE) is wire  # once, then kept
    transport.close()
    assert closed == [wire]


def test_off_means_the_api_wire_for_browser_requests_too():
    transport = HttpTransport(impersonate="off")
    assert transport.wire_for(PAGE) is transport.wire_for(API) is transport.api


@pytest.mark.parametrize("value, detail", [("firefox", "bad_impersonate"), ("netscape", "bad_impersonate")])
def test_a_bad_impersonate_is_still_refused_when_the_transport_is_made(value, detail):
    with pytest.raises(InvalidInput) as info:
        HttpTransport(impersonate=value)
    assert info.value.detail_code == detail

"""The conformance kit replays HTTP with ``responses`` (inside ``requests``).

Tests that send requests run on both wire kinds (the ``wire_kind`` fixture): the ``requests``
wire, and the browser wire's request building and header merge in front of ``requests``
(:class:`~websearch_sync.net.wire.BrowserRequests`), so the mock sees exactly what the browser
wire hands libcurl. libcurl itself is tested against real loopback servers in tests/sockets/
and tests/reliability/.
"""

import pytest

from websearch_sync.net import browser, transport
from websearch_sync.net.wire import BrowserRequests
from websearch_sync.net.wire_requests import RequestsWire


@pytest.fixture(autouse=True)
def _requests_transport(monkeypatch):
    monkeypatch.setattr(browser, "browser_available", lambda: False)


def _browser_request_building(impersonate, *, proxy, ca_bundle):
    """The browser wire of ``impersonate``, its libcurl replaced by ``requests`` (which the mock patches)."""
    profile = browser.resolve_impersonate(impersonate)
    inner = RequestsWire(proxy=proxy, ca_bundle=ca_bundle)
    return None if profile == "off" else BrowserRequests(inner, profile)


@pytest.fixture(params=["requests-wire", "browser-wire"])
def wire_kind(request, monkeypatch):
    """Runs the test once on each wire kind keyless engines and fetch can be sent over."""
    if request.param == "browser-wire":
        monkeypatch.setattr(browser, "browser_available", lambda: True)
        monkeypatch.setattr(transport, "browser_wire", _browser_request_building)
    return request.param

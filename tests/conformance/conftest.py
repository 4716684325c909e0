"""The conformance kit replays HTTP with ``responses`` (inside ``requests``).

Tests that send requests run on both wire kinds (the ``wire_kind`` fixture): the ``requests``
wire, and the browser wire's request building and header merge in front of ``requests``
(:class:`~websearch_sync.net.wire.BrowserRequests`), so the mock sees exactly what the browser
wire hands libcurl. libcurl itself is tested against real loopback servers in tests/sockets/
and tests/reliability/.

A backend that sends no browser request (a JSON API: ``Backend._send`` makes only an HTML
engine's requests a browser's) goes over the ``requests`` wire on both kinds, so a test of such a
backend (its ``name`` parameter) runs once, on the ``requests`` wire: the browser-wire run did the
very same exchanges again (380 tests). ``test_wire_requests.py`` still sends every API's request
with a browser profile on, and fails if one reaches the browser wire.
"""

from pathlib import Path

import pytest
from unit_world import REQUESTS_TRANSPORT, attributes_set

from websearch_sync.engine import registry
from websearch_sync.net import browser, transport
from websearch_sync.net.wire import BrowserRequests
from websearch_sync.net.wire_requests import RequestsWire


@pytest.fixture(autouse=True)
def _requests_transport():
    """Keyless engines and fetch on the requests transport, which ``responses`` patches."""
    with attributes_set(REQUESTS_TRANSPORT):
        yield


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


def _sends_no_browser_request(name: object) -> bool:
    """Whether ``name`` is a registered backend whose requests never go over the browser wire."""
    return isinstance(name, str) and name in registry.backend_names() and registry.backend_class(name).kind == "json"


def pytest_collection_modifyitems(config, items):
    """The browser-wire run of a test of a backend that sends no browser request left out (deselected)."""
    here, kept, dropped = Path(__file__).parent, [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        same = (
            params.get("wire_kind") == "browser-wire"
            and _sends_no_browser_request(params.get("name"))
            and here in item.path.parents
        )
        (dropped if same else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept

"""Conformance, the wire: what every network backend's request looks like when it reaches the
wire, on both wire kinds (the ``wire_kind`` fixture of conftest.py).

The backend's request builder decides its headers (``Referer``, ``Origin`` and ``Content-Type``
of a form post, ``Sec-Fetch-Site``, ``Accept-Language``, an API's key header). On the
``requests`` wire they go out as built, with the library's User-Agent; on a browser wire every
one of them goes out with the builder's value except the headers that are the browser's
identity (``User-Agent``, ``Accept-Encoding``, ``sec-ch-ua*``), which the profile sends. A
change that loses a header on the way (an ``Origin`` dropped from a browser's form post) fails
here for every engine that sends it.
"""

import pytest
from backend_kit import recorded_success
from test_conformance import NETWORK, cls_of, endpoint_of, settings_of

import websearch_sync as ws
from websearch_sync.engine import registry
from websearch_sync.models import SearchParams
from websearch_sync.net.transport import DEFAULT_USER_AGENT
from websearch_sync.net.wire import WireRequest, browser_owned
from websearch_sync.net.wire_mock import MockResponse, MockWire

QUERY = "wire conformance"


def _browser(name: str) -> bool:
    """Whether the backend's search request is a browser's (a keyless HTML engine's)."""
    return cls_of(name).kind == "html"


def _expected_headers(name: str, impersonate: str) -> dict[str, str]:
    """The headers the builder chose, as the wire kind must carry them (lower-case names)."""
    spec = cls_of(name)(settings_of(name)).build_request(SearchParams(QUERY, 5))
    built = {key.lower(): value for key, value in spec.headers.items()}
    if impersonate != "off" and _browser(name):
        return {key: value for key, value in built.items() if not browser_owned(key)}
    return dict(built, **{"user-agent": built.get("user-agent", DEFAULT_USER_AGENT)})


def _answer(name: str) -> MockResponse:
    try:
        recorded = recorded_success(name)
    except LookupError:
        return MockResponse(200, {"Content-Type": "text/plain"}, b"no recording")
    return MockResponse(200, {"Content-Type": recorded.content_type}, recorded.body)


def _sent(name: str, impersonate: str) -> WireRequest:
    """The first request a search of ``name`` hands the wire, with ``impersonate``."""
    wire = MockWire(lambda request: _answer(name))
    settings = settings_of(name).replace(impersonate=impersonate)
    with ws.SearchClient(name, settings=settings, wire=wire, cache_ttl_s=0, retries=0) as client:
        try:
            client.search(QUERY, max_results=5)
        except ws.WebSearchError:
            pass  # a backend with no recorded success answers with an error: its request is what counts here
    assert wire.requests, "%s sent no request" % name
    return wire.requests[0]


@pytest.mark.parametrize("impersonate", ["off", "chrome"], ids=["requests-wire", "browser-wire"])
@pytest.mark.parametrize("name", NETWORK)
def test_the_wire_gets_every_header_the_builder_chose(name, impersonate):
    request = _sent(name, impersonate)
    assert request.url.split("?")[0].rstrip("/") == endpoint_of(name).split("?")[0].rstrip("/")
    sent = {key.lower(): value for key, value in request.headers}
    expected = _expected_headers(name, impersonate)
    assert {key: sent.get(key) for key in expected} == expected
    if impersonate != "off" and _browser(name):
        assert not [key for key in sent if browser_owned(key)], "the profile, not the engine, sends these"


def test_a_form_post_of_a_keyless_engine_reaches_the_browser_wire_with_its_origin():
    """The header a mutation once dropped unnoticed: a browser's same-origin form post carries ``Origin``."""
    posting = [n for n in NETWORK if _browser(n) and registry.backend_class(n)(settings_of(n)).method == "POST"]
    assert posting, "no keyless engine posts a form: pick another header for this check"
    for name in posting:
        origin = {key.lower(): value for key, value in _sent(name, "chrome").headers}.get("origin")
        assert origin == "https://" + endpoint_of(name).split("/")[2], name

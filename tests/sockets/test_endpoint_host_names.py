"""A search endpoint whose host IDNA cannot encode (an empty label, one over 63 characters) is the
configuration's fault, ``InvalidInput(bad_endpoint)`` before any lookup, on both wires: it was
looked up (by the requests wire's resolver, or libcurl's) and read as ``dns_error``, where fetch
already refused such a host as ``bad_url`` (docs/errors.md)."""

import socket

import pytest
from clocks import FakeClock
from transports import BOTH

import websearch_sync as ws

#: Hosts IDNA cannot encode, and why, in the library's words (the codec's differ between Pythons).
HOSTS = [("a..b.com", "label 2 is empty"), ("%s.com" % ("a" * 64), "label 1 is 64 characters long, over 63")]


@pytest.fixture
def lookups(monkeypatch):
    """The names ``getaddrinfo`` and libcurl were asked to connect to (neither may be)."""
    asked = []

    def recorded(host, *args, **kwargs):
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", recorded)
    try:
        from curl_cffi import Curl
    except ImportError:
        return asked
    monkeypatch.setattr(Curl, "perform", lambda handle, **clears: asked.append("a transfer"))
    return asked


def refusal(backend, settings):
    with ws.SearchClient(backend, settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
        with pytest.raises(ws.InvalidInput) as raised:
            client.search("red panda")
    return str(raised.value), raised.value.detail_code, raised.value.provider


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(("host", "reason"), HOSTS, ids=["empty-label", "label-of-64"])
def test_a_searxng_base_url_whose_host_idna_cannot_encode_is_a_bad_endpoint(impersonate, host, reason, lookups):
    settings = ws.Settings.from_env({"SEARXNG_BASE_URL": "http://%s:8888/" % host}, impersonate=impersonate)
    assert refusal("searxng", settings) == (
        "searxng: the endpoint's host is not a valid host name (%s; "
        "check Settings.providers['searxng']['base_url'] or SEARXNG_BASE_URL)" % reason,
        "bad_endpoint",
        "searxng",
    )
    assert lookups == []


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(("host", "reason"), HOSTS, ids=["empty-label", "label-of-64"])
def test_an_endpoint_override_whose_host_idna_cannot_encode_is_a_bad_endpoint(impersonate, host, reason, lookups):
    settings = ws.Settings.from_env(
        {"WEB_SEARCH_ENDPOINT_DDG_HTML": "https://%s/html/" % host}, impersonate=impersonate
    )
    assert refusal("ddg_html", settings) == (
        "ddg_html: the endpoint's host is not a valid host name (%s; "
        "check Settings.endpoints['ddg_html'] or WEB_SEARCH_ENDPOINT_DDG_HTML)" % reason,
        "bad_endpoint",
        "ddg_html",
    )
    assert lookups == []


@pytest.mark.parametrize("endpoint", ["http://bücher.example:8888/", "http://[::1]:8888/", "http://searx_1:8888/"])
def test_a_host_idna_encodes_is_no_bad_endpoint(endpoint, lookups):
    """An international name, an IPv6 literal, a container's name with an underscore: looked up
    (here: a name that does not exist), not refused as configuration."""
    settings = ws.Settings(impersonate="off", providers={"searxng": {"base_url": endpoint}})
    with ws.SearchClient("searxng", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
        with pytest.raises(ws.WebSearchError) as raised:
            client.search("red panda")
    assert raised.value.detail_code != "bad_endpoint", repr(raised.value)

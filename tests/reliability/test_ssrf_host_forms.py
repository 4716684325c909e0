"""SSRF: host forms one reader could take for another name than the one checked.

The guard resolves the host it reads and each wire connects to that address; these are the
hosts where the browser wire (libcurl) read another: a percent-encoded host, which libcurl
decodes (and maps by UTS #46) while the guard checked the escaped text, and a host starting
with ``-``, whose pin entry libcurl read as "remove this entry" and so resolved the name itself.

Every name is answered by an injected resolver with 127.0.0.2, where the page's server
listens and which the test trusts; 127.0.0.1 stays forbidden, and nothing listens on the
server's port there: a request that went around the pin to libcurl's own lookup of a
``.localhost`` name (127.0.0.1) fails, one decoded to 127.0.0.1 is refused.
"""

import faultlab
import pytest
from faults import respond
from transports import BOTH

import websearch_sync as ws
from websearch_sync.net.transport import HttpTransport
from websearch_sync.reader.page import fetch_page

PAGE = b"<html><head><title>Checked</title></head><body><p>" + b"Readable text. " * 20 + b"</p></body></html>"
CHECKED = "127.0.0.2"


def fetch(url, impersonate, asked):
    def resolver(host, port, timeout_s):
        asked.append(host)
        return [CHECKED]

    transport = HttpTransport(impersonate=impersonate)
    try:
        return fetch_page(
            url,
            transport=transport,
            settings=ws.Settings(),
            timeout_ms=30_000,  # not the subject: a process's first fetch builds its wire and extractor (2-7 s under load)
            resolver=resolver,
            trusted_networks=[CHECKED + "/32"],
        )
    finally:
        transport.close()


def host_header(request):
    return next(value for name, value in request.headers.items() if name.lower() == "host")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_percent_encoded_host_is_checked_and_sent_decoded(impersonate):
    """``%e2%91%a0.localhost`` is ``①.localhost``, ``1.localhost`` (WHATWG decodes a host, then maps
    it): the guard asked for the escaped name while libcurl fetched ``1.localhost`` from its own lookup."""
    asked = []
    with faultlab.AliasServer({"/p": respond(200, PAGE)}, host=CHECKED) as server:
        result = fetch("http://%%e2%%91%%a0.localhost:%d/p" % server.port, impersonate, asked)
    assert result["title"] == "Checked"
    assert asked == ["1.localhost"]
    assert [host_header(request) for request in server.requests] == ["1.localhost:%d" % server.port]


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "host",
    [
        "%e2%91%a0%e2%91%a1%e2%91%a6.%e2%93%aa.%e2%93%aa.%e2%91%a0",  # ①②⑦.⓪.⓪.①: 127.0.0.1
        "%31%32%37.0.0.1",
        "127.0.0.%31",
    ],
)
def test_a_percent_encoded_loopback_address_is_refused(host, impersonate):
    """The escaped text resolved to the trusted address; libcurl decoded it to 127.0.0.1 and read the page."""
    asked = []
    with faultlab.AliasServer({"/p": respond(200, PAGE)}, host=CHECKED) as server:
        with pytest.raises(ws.InvalidInput) as info:
            fetch("http://%s:%d/p" % (host, server.port), impersonate, asked)
    assert info.value.detail_code == "private_address", info.value.message
    assert info.value.message == "refusing to fetch from 127.0.0.1, a loopback address"
    assert asked == [] and server.requests == []


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("host", ["%2f.example", "a%40b.example", "a%25.example", "%ff.example", "a%3a1.example"])
def test_a_percent_escape_decoding_to_no_host_character_is_refused(host, impersonate):
    """A browser refuses a host that decodes to a delimiter (``/``, ``@``, ``:``), ``%`` or bytes that are no UTF-8."""
    asked = []
    with pytest.raises(ws.InvalidInput) as info:
        fetch("http://%s/p" % host, impersonate, asked)
    assert info.value.detail_code == "bad_url", info.value.message
    assert "%s is not a valid host name" % host in info.value.message
    assert asked == []


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "host", ["a%22b.localhost", "a{b.localhost", "+a.localhost", "a%2Ab.localhost", "a!b.localhost"]
)
def test_punctuation_no_dns_name_holds_is_refused_before_any_look_up(host, impersonate):
    """``a"b`` (sent escaped again by requests, so the guard looked up ``a%22b``), ``+a`` and ``a*b``
    (refused by libcurl as a malformed endpoint after the guard had looked them up): ``bad_url``,
    nothing looked up, on both wires."""
    asked = []
    with pytest.raises(ws.InvalidInput) as info:
        fetch("http://%s/p" % host, impersonate, asked)
    assert info.value.detail_code == "bad_url", info.value.message
    assert "is not a valid host name" in info.value.message
    assert asked == []


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("host", ["-a.localhost", "-.localhost", "-a.localhost.", "a.localhost.", "A.LOCALHOST"])
def test_a_host_starting_with_a_hyphen_is_connected_to_its_checked_address(host, impersonate):
    """The pin ``-a.localhost:PORT:ADDR`` read as "remove the entry": libcurl looked the name up
    itself (DNS rebinding), and went to 127.0.0.1. (A trailing dot and capitals, which libcurl
    reads past in a pin, are pinned as well.)"""
    asked = []
    with faultlab.AliasServer({"/p": respond(200, PAGE)}, host=CHECKED) as server:
        result = fetch("http://%s:%d/p" % (host, server.port), impersonate, asked)
        again = fetch("http://%s:%d/p" % (host, server.port), impersonate, asked)
    assert result["title"] == again["title"] == "Checked"
    assert asked == [host.lower()] * 2
    assert [host_header(request) for request in server.requests] == ["%s:%d" % (host.lower(), server.port)] * 2

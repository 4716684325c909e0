"""A proxy from the environment is the same proxy on both wires, and its failures are said in the
same words (docs/errors.md, ``proxy_error``).

libcurl read the environment itself: a proxy from ``HTTPS_PROXY`` or ``ALL_PROXY`` that refused the
connection was "connection refused: <upstream>" on the browser wire (the requests wire named the
proxy), ``HTTP_PROXY`` was not read at all (libcurl skips the upper-case form), and a proxy given
without a scheme was named "?:default port" on both wires. The browser wire now takes the
environment's proxy as the requests wire reads it and hands it to libcurl.
"""

import socket

import pytest
from clocks import FakeClock
from faults import respond
from servers import FaultServer
from transports import BOTH

import websearch_sync as ws

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
PAGE = b'{"results": []}'


@pytest.fixture
def environment(monkeypatch):
    """No proxy variable set; the monkeypatch to set some."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    return monkeypatch


@pytest.fixture
def refusing_port():
    """A port on 127.0.0.1 that refuses connections (bound, never listening)."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        yield closed.getsockname()[1]


def search_error(impersonate, endpoint):
    settings = ws.Settings(impersonate=impersonate, endpoints={"ddg_html": endpoint})
    with ws.SearchClient("ddg_html", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
        with pytest.raises(ws.WebSearchError) as raised:
            client.search("red panda")
    return str(raised.value), raised.value.detail_code


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(
    "variable, scheme",
    [
        ("HTTPS_PROXY", "https"),
        ("https_proxy", "https"),
        ("HTTP_PROXY", "http"),
        ("http_proxy", "http"),
        ("ALL_PROXY", "https"),
        ("all_proxy", "http"),
    ],
)
@pytest.mark.parametrize("written", ["http://127.0.0.1:%d", "127.0.0.1:%d"], ids=["with-scheme", "without-scheme"])
def test_an_environment_proxy_refusing_the_connection_is_named_on_both_wires(
    impersonate, variable, scheme, written, environment, refusing_port
):
    environment.setenv(variable, written % refusing_port)
    said = search_error(impersonate, "%s://127.0.0.1:9/html/" % scheme)  # never reached: the proxy comes first
    assert said == (
        "the proxy 127.0.0.1:%d could not be reached (while reaching 127.0.0.1)" % refusing_port,
        "proxy_error",
    )


@pytest.mark.parametrize("impersonate", BOTH)
def test_an_environment_proxy_refusing_the_tunnel_is_named_on_both_wires(impersonate, environment):
    with FaultServer({"*": respond(403, b"no")}) as proxy:
        environment.setenv("HTTPS_PROXY", "http://127.0.0.1:%d" % proxy.port)
        said = search_error(impersonate, "https://127.0.0.1:9/html/")
    assert said == (
        "the proxy 127.0.0.1:%d refused to reach it (HTTP 403) (while reaching 127.0.0.1)" % proxy.port,
        "proxy_error",
    )


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("variable", ["NO_PROXY", "no_proxy"])
def test_no_proxy_sends_the_request_past_the_environment_proxy_on_both_wires(
    impersonate, variable, environment, refusing_port
):
    environment.setenv("ALL_PROXY", "http://127.0.0.1:%d" % refusing_port)
    environment.setenv(variable, "127.0.0.1")
    with FaultServer({"*": respond(200, PAGE, content_type="application/json")}) as server:
        settings = ws.Settings(impersonate=impersonate, endpoints={"searxng": server.url("/")})
        with ws.SearchClient("searxng", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
            response = client.search("red panda")
    assert (response["items"], [r.route for r in server.requests]) == ([], ["/"])  # the server, not the proxy

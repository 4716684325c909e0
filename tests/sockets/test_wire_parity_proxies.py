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
from transports import BOTH, send_once

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.testing import no_network

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


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_configured_proxy_is_used_whatever_no_proxy_says_on_both_wires(impersonate, environment):
    """requests keeps an explicit proxy whatever ``NO_PROXY`` names; libcurl, left to read
    ``NO_PROXY`` itself, went direct on the browser wire."""
    environment.setenv("NO_PROXY", "localhost")
    with (
        FaultServer({"*": respond(200, b"<html></html>")}) as server,
        FaultServer({"*": respond(200, b"<html>via proxy</html>")}) as proxy,
    ):
        answer = send_once(
            "http://localhost:%d/page" % server.port, impersonate, proxy="http://127.0.0.1:%d" % proxy.port
        )
    assert (answer.content, [r.path for r in proxy.requests], server.requests) == (
        b"<html>via proxy</html>",
        ["http://localhost:%d/page" % server.port],
        [],
    )


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("host, no_proxy", [("localhost.", "localhost"), ("localhost", "localhost.")])
def test_a_trailing_dot_host_goes_through_the_environment_proxy_on_both_wires(impersonate, host, no_proxy, environment):
    """requests matches ``NO_PROXY`` without dropping a trailing dot; libcurl drops it (and so
    went direct on the browser wire)."""
    environment.setenv("NO_PROXY", no_proxy)
    with (
        FaultServer({"*": respond(200, b"<html></html>")}) as server,
        FaultServer({"*": respond(200, b"<html>via proxy</html>")}) as proxy,
    ):
        environment.setenv("HTTP_PROXY", "http://127.0.0.1:%d" % proxy.port)
        url = "http://%s:%d/page" % (host, server.port)
        answer = send_once(url, impersonate)
    assert (answer.content, [r.path for r in proxy.requests], server.requests) == (
        b"<html>via proxy</html>",
        [url],
        [],
    )


@pytest.mark.parametrize("impersonate", BOTH)
def test_no_network_sees_the_connection_the_wire_makes_on_both_wires(impersonate, environment):
    """The connection check is given the proxy's host when a proxy is used: libcurl must then
    use it. A host ``NO_PROXY`` names (by requests' rules) is checked itself, and blocked;
    ``example.com.`` is not named by ``NO_PROXY=example.com`` and goes through the loopback proxy
    (libcurl, reading ``NO_PROXY`` itself, went direct past the check)."""
    environment.setenv("NO_PROXY", "example.com")
    with FaultServer({"*": respond(200, b"<html>via proxy</html>")}) as proxy:
        environment.setenv("HTTP_PROXY", "http://127.0.0.1:%d" % proxy.port)
        with no_network():
            answer = send_once("http://example.com./page", impersonate)
            with pytest.raises(ws.NetworkError) as blocked:
                send_once("http://example.com/page", impersonate)
    assert (answer.content, [r.path for r in proxy.requests], blocked.value.detail_code) == (
        b"<html>via proxy</html>",
        ["http://example.com./page"],
        "network_blocked",
    )


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("configured", [True, False], ids=["configured", "environment"])
def test_an_http_url_goes_to_an_http_proxy_as_an_absolute_get_on_both_wires(impersonate, configured, environment):
    """No CONNECT tunnel for plain http (many proxies refuse CONNECT to port 80): requests and
    Chrome send ``GET http://...``; the browser wire sent ``CONNECT example.test:80``."""
    with FaultServer({"*": respond(200, b"<html>via proxy</html>")}) as proxy:
        address = "http://127.0.0.1:%d" % proxy.port
        if not configured:
            environment.setenv("HTTP_PROXY", address)
        answer = send_once("http://example.test/page", impersonate, proxy=address if configured else None)
    assert (answer.content, [(r.method, r.path) for r in proxy.requests]) == (
        b"<html>via proxy</html>",
        [("GET", "http://example.test/page")],
    )


def _chain(error):
    """``error`` and every exception it was raised from or during."""
    seen = []
    while error is not None and error not in seen:
        seen.append(error)
        error = error.__cause__ or error.__context__
    return seen


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("call", ["search", "fetch"])
@pytest.mark.parametrize(
    "value, problem",
    [
        ("http://user:s3cret@proxy.corp:99999", "its port is not a number in 0..65535"),
        ("http://user:s3cret@[::1", "it cannot be read as a URL"),
        ("http://user:s3cret@exa mple:1", "it contains whitespace or control characters"),
        ("user:s3cret@127.0.0.1:1", "its scheme must be one of http, https, socks4, socks4a, socks5, socks5h"),
        (
            "http://us\u20acr:s3cret@127.0.0.1:1",
            "user name or password cannot be sent: HTTP proxy credentials carry Latin-1 only "
            "(percent-encoding does not help: they are decoded before sending)",
        ),
    ],
)
def test_a_malformed_environment_proxy_is_bad_proxy_naming_the_variable_never_the_password(
    impersonate, call, value, problem, environment, caplog
):
    """urllib3's parse error quoted the whole URL: the browser wire let it out (and the search path
    logged it with its traceback, as internal_error), the requests wire blamed the endpoint."""
    environment.setenv("HTTPS_PROXY", value)
    settings = ws.Settings(impersonate=impersonate, endpoints={"ddg_html": "https://127.0.0.1:9/html/"})
    caplog.set_level("DEBUG")
    with pytest.raises(ws.WebSearchError) as raised:
        if call == "search":
            with ws.SearchClient("ddg_html", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
                client.search("red panda")
        else:
            ws.fetch("https://127.0.0.1:9/page", allow_private=True, settings=settings)
    error = raised.value
    shown = [str(e) for e in _chain(error)] + [repr(e) for e in _chain(error)] + [caplog.text]
    assert (type(error).__name__, error.detail_code, str(error), [t for t in shown if "s3cret" in t]) == (
        "InvalidInput",
        "bad_proxy",
        "the proxy in HTTPS_PROXY is not a usable proxy URL such as http://proxy.example:3128: " + problem,
        [],
    )


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_pooled_connection_keeps_no_stale_proxy_on_both_wires(impersonate, environment):
    """One transport, the proxy variable set, unset, set again: each request goes where the
    environment says at its time (a pooled browser handle keeps its options between requests)."""
    with FaultServer({"*": respond(200, b"direct")}) as server, FaultServer({"*": respond(200, b"proxy")}) as proxy:
        transport = HttpTransport(impersonate=impersonate)
        answers = []
        try:
            for proxied in (True, False, True):
                if proxied:
                    environment.setenv("HTTP_PROXY", "http://127.0.0.1:%d" % proxy.port)
                else:
                    environment.delenv("HTTP_PROXY")
                spec = RequestSpec("GET", server.url("/page"), browser=True)
                answers.append(transport.send(spec, deadline=Deadline(3000), provider="t", max_bytes=1 << 20).content)
        finally:
            transport.close()
    assert (answers, len(proxy.requests), len(server.requests)) == ([b"proxy", b"direct", b"proxy"], 2, 1)

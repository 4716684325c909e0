"""The whole-call deadline bounds every phase on both transports (issue 21 point 2, issue 23 point 3):
DNS of the search endpoint, the TLS handshake, the status line and header lines, the body.

Each fault keeps the server busy far longer than the 600 ms deadline (header lines trickle in
one per 0.1 s, each in time for any per-read timeout; the old code took 20 s for this),
and the call must end with ``Timeout`` within the deadline plus the margin the machine's
measured pace gives (``clocks.deadline_margin_s``: 0.3 s on an idle machine).
"""

import socket
import threading
import time

import pytest
from clocks import deadline_margin_s, machine_pace
from faults import SilentDns, SilentTcp, endless, slow_header_lines, trickle
from servers import FaultServer, Socks5Proxy
from transports import BOTH

import websearch_sync as ws
from websearch_sync.net.transport import HttpTransport
from websearch_sync.reader.page import fetch_page

DEADLINE_MS = 600


def timed(call):
    """The ``Timeout`` the call raised, after checking that it came within the deadline and its margin."""
    with machine_pace() as pace:
        started = time.monotonic()
        with pytest.raises(ws.Timeout) as info:
            call()
        took = time.monotonic() - started
    limit_s = DEADLINE_MS / 1000 + deadline_margin_s(pace.slowdown)
    assert took <= limit_s, "took %.2f s, limit %.2f s" % (took, limit_s)
    return info.value


def fetch(url, impersonate, **kwargs):
    transport = HttpTransport(impersonate=impersonate)
    try:
        return fetch_page(
            url, transport=transport, settings=ws.Settings(), timeout_ms=DEADLINE_MS, allow_private=True, **kwargs
        )
    finally:
        transport.close()


def search(endpoint, impersonate, backend="ddg_html", proxy=None):
    settings = ws.Settings(endpoints={backend: endpoint}, impersonate=impersonate, timeout_ms=DEADLINE_MS, proxy=proxy)
    with ws.SearchClient(backend, settings=settings, retries=0, cache_ttl_s=0) as client:
        return client.search("deadline")


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("fault", ["slow_header_lines", "trickled_body", "endless_body"])
def test_fetch_ends_at_the_deadline(fault, impersonate):
    handler = {
        "slow_header_lines": slow_header_lines(0.1),
        "trickled_body": trickle(b"<p>" + b"a" * 5000 + b"</p>", 0.05),
        "endless_body": endless(every_s=0.01),  # 8 KB every 10 ms: under the byte cap long after the deadline
    }[fault]
    with FaultServer({"/": handler}) as server:
        error = timed(lambda: fetch(server.url("/"), impersonate))
    assert error.detail_code in ("deadline_exceeded", "read_timeout")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_search_endpoint_trickling_header_lines_ends_at_the_deadline(impersonate):
    with FaultServer({"/html/": slow_header_lines(0.1)}) as server:
        error = timed(lambda: search(server.url("/html/"), impersonate))
    assert error.detail_code in ("deadline_exceeded", "read_timeout")  # the read timeout is the time left: either fires


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_proxy_trickling_header_lines_ends_at_the_deadline(impersonate, scheme):
    """The proxy's answer (to a proxied request, or to ``CONNECT`` for an https endpoint): on
    requests its connections were not watched, and one header line every 0.1 s held a 600 ms
    search for the proxy's whole 20 s."""
    with FaultServer({"*": slow_header_lines(0.1)}) as proxy:
        error = timed(lambda: search("%s://search.example/html/" % scheme, impersonate, proxy=proxy.url("")))
    assert error.detail_code in ("deadline_exceeded", "read_timeout")


def _trickling_header_lines(conn, stopping):
    conn.sendall(b"HTTP/1.1 200 OK\r\n")
    while not stopping.wait(0.1):
        conn.sendall(b"X-Slow: 1\r\n")


def test_an_upstream_trickling_header_lines_through_a_socks_proxy_ends_at_the_deadline():
    """requests only (the browser wire's libcurl holds every phase to its own total timeout)."""
    pytest.importorskip("socks")
    with Socks5Proxy(upstream=_trickling_header_lines) as proxy:
        error = timed(lambda: search("http://search.example/html/", "off", proxy=proxy.url()))
    assert error.detail_code in ("deadline_exceeded", "read_timeout")


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_tls_handshake_that_never_finishes_ends_at_the_deadline(impersonate):
    with SilentTcp() as server:
        error = timed(lambda: fetch("https://localhost:%d/" % server.port, impersonate))
    assert error.detail_code in ("deadline_exceeded", "connect_timeout", "read_timeout")


def test_a_search_endpoint_whose_dns_never_answers_ends_at_the_deadline_on_requests(monkeypatch):
    """requests: the endpoint's name is resolved in a thread abandoned at the deadline."""
    real = socket.getaddrinfo
    stuck = threading.Event()

    def never(host, *args, **kwargs):
        if host == "search.dns.test":
            stuck.wait(30)
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", never)
    try:
        error = timed(lambda: search("http://search.dns.test/html/", "off"))
    finally:
        stuck.set()
    assert error.detail_code in ("deadline_exceeded", "connect_timeout")


@pytest.mark.parametrize("impersonate", [p for p in BOTH if p.values[0] is None])
def test_a_search_endpoint_whose_dns_never_answers_ends_at_the_deadline_on_the_browser(impersonate, monkeypatch):
    """libcurl resolves inside its total timeout (here with c-ares asking a server that never answers)."""
    from curl_cffi import CurlOpt

    from websearch_sync.net import wire_curl

    with SilentDns() as dns:
        configure = wire_curl.CurlWire._configure

        def silent_dns(self, handle, *args):
            configure(self, handle, *args)
            handle.setopt(CurlOpt.DNS_SERVERS, ("127.0.0.1:%d" % dns.port).encode())

        monkeypatch.setattr(wire_curl.CurlWire, "_configure", silent_dns)
        monkeypatch.setattr(wire_curl, "CONNECTION_CHECKS", [])  # the only DNS server asked is on loopback
        error = timed(lambda: search("https://search.dns.test/html/", impersonate))
    assert error.detail_code == "deadline_exceeded"


def _stall_in_a_body_without_length(conn, request, server):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<p>the first half")
    server.wait(10)


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_body_without_length_stalling_at_the_deadline_is_a_timeout_not_a_page(impersonate):
    """The deadline cuts a body that ends at the connection's close: what was read is no complete answer."""
    from websearch_sync.net.deadline import Deadline
    from websearch_sync.net.transport import RequestSpec

    transport = HttpTransport(impersonate=impersonate)
    try:
        with FaultServer({"/": _stall_in_a_body_without_length}) as server:
            error = timed(
                lambda: transport.send(
                    RequestSpec("GET", server.url("/"), browser=True),
                    deadline=Deadline(DEADLINE_MS),
                    provider="t",
                    max_bytes=1 << 20,
                )
            )
    finally:
        transport.close()
    assert error.detail_code in ("deadline_exceeded", "read_timeout")

"""The SSRF guard where connections happen (a real local server): redirects from an allowed
host to a private one are refused before connecting; allowed private targets, numeric
hosts and IPv6 pinning connect to the checked address with the URL's Host header.
The guard's tables on their own are in tests/unit/test_ssrf.py."""

import ipaddress
import socket

import pytest
from faults import redirect, respond
from servers import FaultServer
from servers import fetch_once as fetch

import websearch_sync as ws
from websearch_sync.net.browser import resolve_impersonate
from websearch_sync.net.ssrf import static_resolver

PAGE = b"<html><head><title>Local</title></head><body><p>" + b"Readable local text. " * 20 + b"</p></body></html>"
METADATA = {"metadata.test": "169.254.169.254"}


def test_redirect_from_an_allowed_host_to_a_private_one_is_refused():
    """site.test (the local server, trusted for this test) redirects to the metadata
    address by name, by numeric IP and by an IPv4-mapped literal: each refused before
    any connection."""
    targets = {
        "/to-name": "http://metadata.test/latest/meta-data/",
        "/to-numeric": "http://0xa9fea9fe/latest/meta-data/",
        "/to-mapped": "http://[::ffff:a9fe:a9fe]/",
        "/to-loopback-other-port": "http://127.0.0.2:9/",
    }
    routes = {path: redirect(target) for path, target in targets.items()}
    with FaultServer(routes) as server:
        resolver = static_resolver(dict({"site.test": "127.0.0.1"}, **METADATA))
        for path in targets:
            with pytest.raises(ws.InvalidInput) as info:
                fetch(
                    "http://site.test:%d%s" % (server.port, path), resolver=resolver, trusted_networks=["127.0.0.1/32"]
                )
            assert info.value.detail_code == "private_address", path
        assert sorted(r.path for r in server.requests) == sorted(targets)  # only the first hops arrived


def test_redirect_to_private_is_followed_when_allowed():
    with FaultServer({"/start": redirect("/end"), "/end": respond(200, PAGE)}) as server:
        result = fetch(server.url("/start"), allow_private=True)
    assert result["final_url"] == server.url("/end")
    assert "Readable local text." in result["text"]


def test_settings_allow_private_lifts_the_guard():
    with FaultServer({"/": respond(200, PAGE)}) as server:
        result = ws.fetch(server.url("/"), settings=ws.Settings(allow_private=True))
    assert result["status"] == 200


def test_the_checked_address_is_the_one_connected_to(monkeypatch):
    """The name is resolved once, by the guard; the connection goes to that address
    (a second lookup through the system resolver would fail here) with the name
    in the Host header."""
    lookups = []

    def resolver(host, port, timeout_s):
        lookups.append(host)
        return ["127.0.0.1"]

    real_getaddrinfo = socket.getaddrinfo

    def no_second_lookup(host, *args, **kwargs):
        ipaddress.ip_address(host)  # ValueError for a name: only numeric addresses may be looked up
        return real_getaddrinfo(host, *args, **kwargs)

    with FaultServer({"/a": redirect("/b"), "/b": respond(200, PAGE)}) as server:
        monkeypatch.setattr(socket, "getaddrinfo", no_second_lookup)
        result = fetch("http://rebind.test:%d/a" % server.port, resolver=resolver, trusted_networks=["127.0.0.0/8"])
        monkeypatch.undo()
        hosts = [r.headers["host"] for r in server.requests]
    assert lookups == ["rebind.test", "rebind.test"]  # once per hop
    assert hosts == ["rebind.test:%d" % server.port] * 2
    assert result["final_url"] == "http://rebind.test:%d/b" % server.port


def test_numeric_host_allowed_connects_to_its_address():
    with FaultServer({"/": respond(200, PAGE)}) as server:
        result = fetch("http://0x7f.1:%d/" % server.port, allow_private=True)
        # a browser (and so the browser transport) names the host in its canonical form
        shown = "127.0.0.1" if resolve_impersonate(None) != "off" else "0x7f.1"
        assert server.requests[0].headers["host"] == "%s:%d" % (shown, server.port)
    assert "Readable local text." in result["text"]


def test_pinning_to_an_ipv6_address():
    """A name resolving to ::1 is connected to over IPv6, Host header kept."""
    import threading

    try:
        listener = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        listener.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    listener.listen(1)
    listener.settimeout(5)
    port = listener.getsockname()[1]
    seen = []

    def serve():
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            seen.append(data.decode("latin-1"))
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                % len(PAGE)
                + PAGE
            )

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        result = fetch(
            "http://v6only.test:%d/" % port, resolver=static_resolver({"v6only.test": "::1"}), allow_private=True
        )
    finally:
        thread.join(5)
        listener.close()
    assert "\r\nHost: v6only.test:%d\r\n" % port in seen[0]
    assert "Readable local text." in result["text"]
    with pytest.raises(ws.InvalidInput):
        fetch("http://v6only.test:%d/" % port, resolver=static_resolver({"v6only.test": "::1"}))

"""HTTPS over a pinned connection: the socket goes to the checked address while TLS
SNI and certificate verification use the URL's host name."""

import os
import socket
import ssl
import threading

import pytest
import requests
from transports import BOTH

import websearch_sync as ws
from websearch_sync.net.ssrf import static_resolver
from websearch_sync.net.transport import HttpTransport
from websearch_sync.reader.page import fetch_page

TLS_DIR = os.path.join(os.path.dirname(__file__), "..", "data", "tls")
CERT = os.path.join(TLS_DIR, "pinned.test.crt")
KEY = os.path.join(TLS_DIR, "pinned.test.key")
BODY = (
    b"<html><head><title>TLS page</title></head><body><p>"
    + b"Served over TLS to the pinned address. " * 10
    + b"</p></body></html>"
)


@pytest.fixture(autouse=True)
def _no_ca_bundle_override(monkeypatch):
    """requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE beat ``session.verify``."""
    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)


class TlsServer:
    """One-request-per-connection HTTPS server on 127.0.0.1 recording SNI and Host."""

    def __init__(self):
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(CERT, KEY)
        self.server_names = []
        self.hosts = []
        self.context.sni_callback = lambda sock, name, ctx: self.server_names.append(name)
        self.stop = threading.Event()

    def __enter__(self):
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)
        self.listener.close()

    def _loop(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except socket.timeout:
                continue
            conn.settimeout(5)
            try:
                tls = self.context.wrap_socket(conn, server_side=True)
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = tls.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                for line in data.decode("latin-1").split("\r\n")[1:]:
                    if line.lower().startswith("host:"):
                        self.hosts.append(line.split(":", 1)[1].strip())
                head = (
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                    % len(BODY)
                )
                tls.sendall(head.encode() + BODY)
                tls.close()
            except (ssl.SSLError, OSError):
                conn.close()


def fetch_tls(url, resolver, impersonate="off"):
    """Over a caller's session trusting the test certificate (requests), or with it as the CA
    bundle on the browser transport (curl's RESOLVE pins the address)."""
    session = requests.Session()
    session.verify = CERT  # trust the test certificate (its own CA)
    transport = (
        HttpTransport(session=session)
        if impersonate == "off"
        else HttpTransport(impersonate=impersonate, ca_bundle=CERT)
    )
    try:
        return fetch_page(
            url, transport=transport, settings=ws.Settings(), timeout_ms=5000, resolver=resolver, allow_private=True
        )
    finally:
        transport.close()
        session.close()


@pytest.mark.parametrize("impersonate", BOTH)
def test_https_pinned_connection_keeps_sni_host_and_certificate_name(impersonate):
    with TlsServer() as server:
        result = fetch_tls(
            "https://pinned.test:%d/page" % server.port,
            static_resolver({"pinned.test": "127.0.0.1"}),
            impersonate or "chrome",
        )
    assert server.server_names == ["pinned.test"]
    assert server.hosts == ["pinned.test:%d" % server.port]
    assert result["title"] == "TLS page"
    assert "Served over TLS to the pinned address." in result["text"]


@pytest.mark.parametrize("impersonate", BOTH)
def test_certificate_is_checked_against_the_url_host_not_the_address(impersonate):
    with TlsServer() as server:
        with pytest.raises(ws.NetworkError) as info:
            fetch_tls(
                "https://other.test:%d/page" % server.port,
                static_resolver({"other.test": "127.0.0.1"}),
                impersonate or "chrome",
            )
    assert info.value.detail_code == "tls_error"
    assert server.server_names == ["other.test"]

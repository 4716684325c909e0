"""Search redirects follow the one redirect policy of fetch: a hop to another host is
checked by the address guard and connects to the very address that was checked, so a
name that resolves differently the second time (DNS rebinding) cannot steer it."""

import socket

from faults import redirect, respond
from servers import FaultServer

from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec

REBIND_HOST = "rebind.test"


def _rebinding_dns(monkeypatch, first: str, later: str):
    """``rebind.test`` resolves to ``first`` once, to ``later`` afterwards; lookups are counted."""
    real = socket.getaddrinfo
    lookups = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host == REBIND_HOST:
            lookups.append(host)
            address = first if len(lookups) == 1 else later
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return lookups


def test_a_cross_host_search_redirect_connects_to_the_checked_address(monkeypatch):
    with FaultServer({"/answer": respond(200, b'{"ok": true}', content_type="application/json")}) as target:
        with FaultServer({"/search": redirect("http://%s:%d/answer" % (REBIND_HOST, target.port))}) as endpoint:
            # checked: loopback (allowed here); a second lookup would give an address nothing listens on
            lookups = _rebinding_dns(monkeypatch, "127.0.0.1", "127.0.0.2")
            transport = HttpTransport(allow_private=True)
            try:
                response = transport.send(
                    RequestSpec("GET", endpoint.url("/search")), deadline=Deadline(5000), provider="x", max_bytes=10_000
                )
            finally:
                transport.close()
    assert response.status == 200 and response.json() == {"ok": True}
    assert lookups == [REBIND_HOST]  # resolved once, by the guard
    assert [r.route for r in target.requests] == ["/answer"]
    assert target.requests[0].headers["host"] == "%s:%d" % (REBIND_HOST, target.port)  # Host kept

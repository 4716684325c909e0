"""A session's own credentials stay on the origin, as docs/reliability.md's "Credentials on a
redirect" says of a request's: a caller's ``requests.Session`` (``SearchClient(session=...)``) with
an ``Authorization`` and an ``X-API-Key`` header and a cookie set without a domain sent all three
to another origin a 302 pointed at (the wire took only the session's ``auth`` off). The wire's own
session, whose settings the wire merges itself, leaves them behind too; a same-origin hop keeps them,
and a cookie scoped to a domain goes where its domain sends it (as a browser's does)."""

import pytest
import requests
from faults import respond
from servers import FaultServer

from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec

CREDENTIALS = {"authorization": "Bearer session-key-123", "x-api-key": "session-api-key"}
UNSCOPED_COOKIE = ("sid", "session-cookie")
SCOPED_COOKIE = ("pref", "dark")  # set for the domain 127.0.0.1: goes to any port of it, as in a browser


def _received(transport, start, server):
    """The headers of the last request ``server`` received after ``transport`` asked for ``start``."""
    transport.send(RequestSpec("GET", start), deadline=Deadline(5000), provider="t", max_bytes=1 << 16)
    return server.requests[-1].headers


@pytest.mark.parametrize("given", [True, False], ids=["callers-session", "wires-own-session"])
def test_a_sessions_credentials_are_left_behind_by_a_cross_origin_hop_only(given):
    transport = (
        HttpTransport(session=requests.Session(), allow_private=True)
        if given
        else HttpTransport(impersonate="off", allow_private=True)
    )
    session = transport.api.session
    session.headers.update({"Authorization": CREDENTIALS["authorization"], "X-API-Key": CREDENTIALS["x-api-key"]})
    session.headers["X-Plain"] = "1"
    session.cookies.set(*UNSCOPED_COOKIE)
    session.cookies.set(*SCOPED_COOKIE, domain="127.0.0.1")
    with FaultServer({"/end": respond(200, b"b")}) as other:
        routes = {
            "/away": respond(302, headers={"Location": other.url("/end")}),
            "/here": respond(302, headers={"Location": "/end"}),
            "/end": respond(200, b"a"),
        }
        with FaultServer(routes) as first:
            try:
                away = _received(transport, first.url("/away"), other)
                here = _received(transport, first.url("/here"), first)
            finally:
                transport.close()
    assert [r.route for r in first.requests] == ["/away", "/here", "/end"]
    kept = {name: here.get(name) for name in (*CREDENTIALS, "x-plain")}
    assert kept == {**CREDENTIALS, "x-plain": "1"}
    assert sorted(here["cookie"].split("; ")) == ["pref=dark", "sid=session-cookie"]
    assert {name: away.get(name) for name in (*CREDENTIALS, "x-plain", "cookie")} == {
        "authorization": None,
        "x-api-key": None,
        "x-plain": "1",
        "cookie": "pref=dark",
    }


@pytest.mark.parametrize("browser", [False, True], ids=["requests-wire", "browser-wire"])
def test_a_cookie_a_server_set_follows_a_hop_to_its_host_on_another_port(browser):
    """RFC 6265 §8.5: cookies are not isolated by port; a browser and libcurl send a cookie of
    127.0.0.1:A to 127.0.0.1:B, host-only or with a Domain. docs/reliability.md says so (the table's
    port rows are about a request's own ``Cookie`` header, which is left behind)."""
    transport = HttpTransport(impersonate="off" if not browser else None, allow_private=True)
    set_cookies = ("host-only=1", "scoped=2; Domain=127.0.0.1")
    with FaultServer({"/end": respond(200, b"b")}) as other:
        routes = {
            "/set%d" % n: respond(302, headers={"Location": other.url("/end"), "Set-Cookie": value})
            for n, value in enumerate(set_cookies)
        }
        with FaultServer(routes) as first:
            received = []
            try:
                for path in routes:
                    transport.send(
                        RequestSpec("GET", first.url(path), browser=browser),
                        deadline=Deadline(5000),
                        provider="t",
                        max_bytes=1 << 16,
                    )
                    received.append(other.requests[-1].headers.get("cookie"))
            finally:
                transport.close()
    assert other.port != first.port
    assert received == ["host-only=1", "host-only=1; scoped=2"]

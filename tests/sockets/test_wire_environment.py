"""The requests wire reads the proxy variables once per origin and their values, not the whole
environment on every request (a tenth of a warm search's CPU), and still honours a variable
changed between two requests of one client."""

import os

import pytest
import requests
from faults import refused_port, respond
from servers import FaultServer

import websearch_sync as ws
import websearch_sync.testing
from websearch_sync.net import wire_requests
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.net.wire import WireRequest
from websearch_sync.net.wire_requests import RequestsWire


def _get(transport, url):
    return transport.send(RequestSpec("GET", url), deadline=Deadline(3000), provider="t", max_bytes=1 << 20)


@pytest.fixture
def no_proxy_variables(monkeypatch):
    """No variable urllib's proxy reading takes: any spelling of ``*_proxy``, ``REQUEST_METHOD``."""
    for name in list(os.environ):
        if name.lower().endswith("_proxy") or name == "REQUEST_METHOD":
            monkeypatch.delenv(name)
    return monkeypatch


def _through_new_client(url):
    """A new client's answer for ``url``: its body, or the ``detail_code`` of its network error."""
    transport = HttpTransport(impersonate="off")
    try:
        return _get(transport, url).content
    except ws.NetworkError as error:
        return error.detail_code
    finally:
        transport.close()


@pytest.fixture
def merged(no_proxy_variables):
    """The URLs requests merged the environment for (``Session.merge_environment_settings``)."""
    urls = []
    original = requests.Session.merge_environment_settings

    def counting(self, url, *args):
        urls.append(url)
        return original(self, url, *args)

    no_proxy_variables.setattr(requests.Session, "merge_environment_settings", counting)
    return urls


def test_the_environment_is_merged_once_per_origin(merged):
    with FaultServer({"/a": respond(200, b"a"), "/b": respond(200, b"b")}) as server:
        transport = HttpTransport(impersonate="off")
        try:
            answers = [_get(transport, server.url(path)).content for path in ("/a", "/b", "/a")]
        finally:
            transport.close()
    assert answers == [b"a", b"b", b"a"] and len(merged) == 1


def test_new_clients_share_an_origins_merged_environment_and_a_wires_own_proxy_keeps_its_own(merged):
    """Every client's transport has a wire of its own: a new client's first request read the whole
    environment again. Wires without a proxy of their own share what they merged; one with a proxy
    does not take it (nor give its own away)."""
    dead = "http://127.0.0.1:%d" % refused_port()
    with FaultServer({"/a": respond(200, b"a")}) as server:
        for proxy in (None, None, dead, None):
            transport = HttpTransport(impersonate="off", proxy=proxy)
            try:
                if proxy is None:
                    assert _get(transport, server.url("/a")).content == b"a"
                else:
                    with pytest.raises(ws.NetworkError) as info:
                        _get(transport, server.url("/a"))
                    assert info.value.detail_code == "proxy_error", repr(info.value)
            finally:
                transport.close()
    assert len(merged) == 2  # once for the three wires without a proxy, once for the proxied one


def test_a_new_client_reads_a_proxy_variable_of_any_spelling_and_the_httpoxy_guard(no_proxy_variables):
    """urllib reads ``*_proxy`` in any case (``Http_Proxy``) and ignores ``HTTP_PROXY`` when
    ``REQUEST_METHOD`` is set (a CGI script: httpoxy); a new client sees either change at once,
    though an earlier client merged the same origin."""
    dead = "http://127.0.0.1:%d" % refused_port()
    with FaultServer({"/a": respond(200, b"a")}) as server:
        url = server.url("/a")
        assert _through_new_client(url) == b"a"
        no_proxy_variables.setenv("Http_Proxy", dead)
        assert _through_new_client(url) == "proxy_error"
        no_proxy_variables.delenv("Http_Proxy")
        no_proxy_variables.setenv("HTTP_PROXY", dead)
        assert _through_new_client(url) == "proxy_error"
        no_proxy_variables.setenv("REQUEST_METHOD", "GET")
        assert _through_new_client(url) == b"a"


def test_no_table_keeps_a_urls_credentials_after_its_client_closed(merged):
    """The merged options depend on the host and port only: a password in a URL's userinfo is
    not kept in the table the wires share, which outlives them."""
    with FaultServer({"/a": respond(200, b"a")}) as server:
        url = server.url("/a").replace("http://", "http://reader:s3cret-pass@")
        assert _through_new_client(url) == b"a"
        assert _through_new_client(server.url("/a")) == b"a"
    assert len(merged) == 1  # the same origin, with or without userinfo
    assert "s3cret-pass" not in repr(wire_requests._SHARED_OPTIONS._kept)


def test_where_the_system_proxy_settings_count_each_client_merges_afresh(merged):
    """On macOS and Windows urllib also reads the system's proxy settings, which no key sees: a new
    client must not take an answer merged under settings since changed."""
    with FaultServer({"/a": respond(200, b"a")}) as server, pytest.MonkeyPatch.context() as patch:
        patch.setattr(wire_requests, "SYSTEM_PROXIES", True)
        assert [_through_new_client(server.url("/a")) for _ in range(3)] == [b"a"] * 3
    assert len(merged) == 3


def test_reset_forgets_the_options_the_clients_share(merged):
    """``websearch_sync.testing.reset`` starts a test afresh: a loopback port an earlier test used
    does not find the options that test merged for it."""
    with FaultServer({"/a": respond(200, b"a")}) as server:
        assert _through_new_client(server.url("/a")) == b"a"
        websearch_sync.testing.reset()
        assert _through_new_client(server.url("/a")) == b"a"
    assert len(merged) == 2


def test_a_proxy_variable_set_between_two_requests_counts_at_once(no_proxy_variables):
    with FaultServer({"/a": respond(200, b"a")}) as server:
        transport = HttpTransport(impersonate="off")
        try:
            assert _get(transport, server.url("/a")).content == b"a"
            dead = "http://127.0.0.1:%d" % refused_port()
            no_proxy_variables.setenv("HTTP_PROXY", dead)
            no_proxy_variables.setenv("http_proxy", dead)
            with pytest.raises(ws.NetworkError) as info:
                _get(transport, server.url("/a"))
            assert info.value.detail_code == "proxy_error", repr(info.value)
            no_proxy_variables.delenv("HTTP_PROXY")
            no_proxy_variables.delenv("http_proxy")
            assert _get(transport, server.url("/a")).content == b"a"
        finally:
            transport.close()


def test_the_wire_prepares_its_requests_as_its_session_would(no_proxy_variables, tmp_path):
    """The wire's own session is merged without ``Session.prepare_request`` (its cookie-jar copies
    cost a third of a request's preparation): the same request goes out as through a caller's
    session, a ``~/.netrc`` entry for the host included (requests reads it when the session trusts
    the environment), and a cookie the upstream set goes back; a request that must not carry
    credentials (``keep_auth=False``: a redirect that left the origin) carries none."""
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login reader password s3cret\n")
    no_proxy_variables.setenv("NETRC", str(netrc))
    routes = {"/set": respond(200, b"set", headers={"Set-Cookie": "sid=abc; Path=/"}), "/a": respond(200, b"a")}
    with FaultServer(routes) as server:
        for session in (None, requests.Session()):
            wire = RequestsWire(session=session)
            try:
                for path, keep_auth in (("/set", True), ("/a", True), ("/a", False)):
                    request = WireRequest("GET", server.url(path), [("X-Wanted", "1")], keep_auth=keep_auth)
                    wire.exchange(request, _Sink(), deadline=Deadline(3000), provider="t")
            finally:
                wire.close()
    mine, theirs = server.requests[:3], server.requests[3:]
    assert [(r.path, list(r.headers.items())) for r in mine] == [(r.path, list(r.headers.items())) for r in theirs]
    assert [r.headers.get("authorization") for r in mine] == ["Basic cmVhZGVyOnMzY3JldA=="] * 2 + [None]
    assert [r.headers.get("cookie") for r in mine] == [None, "sid=abc", "sid=abc"]
    assert list(mine[0].headers)[:6] == ["host", "user-agent", "accept-encoding", "accept", "connection", "x-wanted"]


def test_the_sessions_own_auth_is_sent_as_its_session_would_send_it(no_proxy_variables):
    """``session.auth`` on the wire's own session reaches the request as through a caller's session
    (the wire merges the session's settings itself: dropping its auth would go unseen elsewhere)."""
    with FaultServer({"/a": respond(200, b"a")}) as server:
        for session in (None, requests.Session()):
            wire = RequestsWire(session=session)
            wire.session.auth = ("user", "pass")
            try:
                wire.exchange(WireRequest("GET", server.url("/a"), []), _Sink(), deadline=Deadline(3000), provider="t")
            finally:
                wire.close()
    assert [r.headers.get("authorization") for r in server.requests] == ["Basic dXNlcjpwYXNz"] * 2


def _signed(request):
    """A session's own auth that signs with a header no name marks as a secret."""
    request.headers["X-Signed"] = "yes"
    return request


def test_the_sessions_auth_and_netrc_go_where_its_session_would_send_them(no_proxy_variables, tmp_path):
    """As ``Session.prepare_request`` decides, on the wire's own session and a caller's: the session's
    ``auth`` wins over a ``~/.netrc`` entry, which a session that does not trust the environment never
    reads; and a request that must not carry credentials (``keep_auth=False``) runs none of the
    session's auth, whatever header it would set."""
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1 login reader password s3cret\n")
    no_proxy_variables.setenv("NETRC", str(netrc))
    sent = []
    with FaultServer({"/a": respond(200, b"a")}) as server:
        for own_session in (True, False):
            for auth, trust_env, keep_auth in (
                (("user", "pass"), True, True),
                (None, False, True),
                (_signed, True, True),
                (_signed, True, False),
            ):
                wire = RequestsWire(session=None if own_session else requests.Session())
                wire.session.auth, wire.session.trust_env = auth, trust_env
                request = WireRequest("GET", server.url("/a"), [], keep_auth=keep_auth)
                try:
                    wire.exchange(request, _Sink(), deadline=Deadline(3000), provider="t")
                finally:
                    wire.close()
                headers = server.requests[-1].headers
                sent.append((headers.get("authorization"), headers.get("x-signed")))
    assert sent == [("Basic dXNlcjpwYXNz", None), (None, None), (None, "yes"), (None, None)] * 2


def test_the_wire_prepares_a_url_as_its_session_would_with_params_or_without(no_proxy_variables):
    """The wire's own session takes a URL's prepared form from a memo when it has no params to add:
    the same request line goes out as through a caller's session, a URL requests re-encodes (a
    space, a non-ASCII path) and the session's params included, asked twice (the memo's answer)."""
    routes = {"/%C3%A4%20b": respond(200, b"a")}
    with FaultServer(routes) as server:
        for session in (None, requests.Session()):
            for params in (None, {"k": "v w"}):
                wire = RequestsWire(session=session)
                wire.session.params = params or {}
                try:
                    for _ in range(2):
                        request = WireRequest("GET", server.url("/ä b"), [])
                        wire.exchange(request, _Sink(), deadline=Deadline(3000), provider="t")
                finally:
                    wire.close()
    sent = [r.path for r in server.requests]
    assert sent[:4] == ["/%C3%A4%20b"] * 2 + ["/%C3%A4%20b?k=v+w"] * 2
    assert sent[4:] == sent[:4]


class _Sink:
    def head(self, status, headers, url, framed=False):
        return True

    def data(self, chunk):
        return True

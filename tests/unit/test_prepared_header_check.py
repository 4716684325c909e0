"""The requests wire checks the headers its preparation adds, once each (``RequestsWire._prepare``).

The headers a request arrives with (and the session's) are checked before requests prepares it;
what the preparation adds with a value from outside the request is checked after it: the jar's
``Cookie`` and a netrc ``Authorization`` on the wire's own session, every header where the session
has an auth of its own (it may set any) or is a caller's. A header no HTTP/1.1 request can carry
is ``InvalidInput(bad_header)`` naming it, before anything is sent.
"""

import pytest
import requests

from websearch_sync.errors import InvalidInput
from websearch_sync.net.wire import WireRequest
from websearch_sync.net.wire_requests import RequestsWire

URL = "http://127.0.0.1:9/s"


def _prepared_headers(wire, headers=()):
    prepared, _options = wire._prepare(WireRequest("POST", URL, list(headers), b"q=a"), "ddg_html")
    return prepared.headers


def _refused(wire):
    with pytest.raises(InvalidInput) as caught:
        _prepared_headers(wire, [("Accept", "text/html")])
    assert caught.value.detail_code == "bad_header"
    return caught.value.message


def test_a_cookie_of_the_wires_own_jar_that_cannot_be_sent_is_refused_by_name():
    wire = RequestsWire()
    wire.session.cookies.set("region", "\u20ac-zone")  # outside Latin-1
    assert "Cookie" in _refused(wire)


def test_a_session_auth_may_set_any_header_and_every_one_is_checked():
    def auth(prepared: requests.PreparedRequest) -> requests.PreparedRequest:
        prepared.headers["X-Signed"] = "line\nbreak"
        return prepared

    wire = RequestsWire()
    wire.session.auth = auth
    assert "X-Signed" in _refused(wire)


def test_a_callers_session_has_every_prepared_header_checked():
    class Signing(requests.Session):
        def prepare_request(self, request):
            prepared = super().prepare_request(request)
            prepared.headers["X-Added"] = "\u20ac"
            return prepared

    assert "X-Added" in _refused(RequestsWire(session=Signing()))


def test_sendable_headers_pass_with_the_ones_requests_adds():
    wire = RequestsWire()
    wire.session.cookies.set("region", "wt-wt")
    headers = _prepared_headers(wire, [("Accept", "text/html")])
    assert headers["Cookie"] == "region=wt-wt" and headers["Content-Length"] == "3"

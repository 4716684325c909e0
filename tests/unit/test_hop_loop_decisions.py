"""The hop loop's own decisions (``HttpTransport.send`` and :mod:`~websearch_sync.net.hops`), each
on a wire answering from a function (no socket): which method a 303 keeps, what a followed
request keeps of the first, which redirect wins when an answer holds two, when the next checked
address is tried, and how a hop that cannot be followed is named."""

import pytest
from clocks import FakeClock, deadlines_on

from websearch_sync.errors import BAD_REDIRECT, CONNECTION_ERROR, NetworkError, WebProviderError
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.hops import HopRules, RedirectPolicy
from websearch_sync.net.ssrf import AddressGuard, ResolvedHost
from websearch_sync.net.transport import HttpTransport, RequestSpec
from websearch_sync.net.wire_mock import MockResponse, MockWire

START = "http://a.example/a"


def redirecting(request):
    """``/a`` redirects (303) to ``/b``; every other page answers 200."""
    if request.url.endswith("/a"):
        return MockResponse(303, {"Location": "/b"})
    return MockResponse(200, {"Content-Type": "text/plain"}, "end")


def sent(handler, spec, hops=None, deadline=None):
    """The requests ``handler``'s wire was given for ``spec``, and the final answer."""
    wire = MockWire(handler)
    transport = HttpTransport(wire=wire, impersonate="off")
    try:
        response = transport.send(spec, deadline=deadline or Deadline(5000), provider="t", max_bytes=1 << 16, hops=hops)
    finally:
        transport.close()
    return wire.requests, response


def rules(**options):
    return HopRules(
        RedirectPolicy(START, AddressGuard(allow_private=True), provider="t", trust_start_host=True), **options
    )


def test_a_303_after_a_head_request_stays_a_head_request():
    """RFC 9110 15.4.4: a 303 turns any method but HEAD into GET."""
    requests, response = sent(redirecting, RequestSpec("HEAD", START))
    assert [(request.method, request.url) for request in requests] == [("HEAD", START), ("HEAD", "http://a.example/b")]
    assert response.status == 200


def test_a_followed_request_stays_best_effort():
    """The replay engine reads ``best_effort`` on every hop (a SearXNG ``/config`` that redirects)."""
    spec = RequestSpec("GET", START)
    spec.best_effort = True
    requests, _ = sent(redirecting, spec)
    assert [request.best_effort for request in requests] == [True, True]


def test_an_http_redirect_wins_over_the_client_side_one_the_caller_reads():
    requests, _ = sent(
        redirecting,
        RequestSpec("GET", START),
        hops=rules(answer=lambda response: "/refresh" if response.url == START else None),
    )
    assert [request.url for request in requests] == [START, "http://a.example/b"]


def failing_at(address):
    """A wire that cannot connect to ``address`` and answers 200 from any other."""

    def handler(request):
        if request.connect_to == address:
            raise NetworkError("cannot connect to a.example", provider="t", detail_code=CONNECTION_ERROR)
        return MockResponse(200, {"Content-Type": "text/plain"}, "end")

    return handler


def test_a_connection_error_tries_the_next_checked_address():
    start = ResolvedHost("a.example", ["192.0.2.1", "192.0.2.2"])
    requests, response = sent(failing_at("192.0.2.1"), RequestSpec("GET", START), hops=rules(start=start))
    assert [request.connect_to for request in requests] == ["192.0.2.1", "192.0.2.2"]
    assert response.status == 200


def test_no_next_address_is_tried_once_the_deadline_passed(monkeypatch):
    """The failure is the answer, not a timeout of a connection that would start too late."""
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    handler = failing_at("192.0.2.1")

    def slow_failure(request):
        clock.advance(6.0)  # past the 5 s deadline
        return handler(request)

    start = ResolvedHost("a.example", ["192.0.2.1", "192.0.2.2"])
    with pytest.raises(NetworkError) as failed:
        sent(slow_failure, RequestSpec("GET", START), hops=rules(start=start), deadline=Deadline(5000))
    assert failed.value.detail_code == CONNECTION_ERROR


@pytest.mark.parametrize(
    ("location", "named"),
    [
        ("http://a..b.example/x", "an address"),  # the host-name rule refuses it: not named, not looked up
        ("s" * 32 + ":x", "a %s: address" % ("s" * 32)),
        ("s" * 33 + ":x", "an address"),  # a scheme that long is no scheme to name
    ],
)
def test_a_search_redirect_that_cannot_be_followed_is_bad_redirect(location, named):
    """Search's redirect policy (its endpoint's host trusted, others checked): a host the
    host-name rule refuses was ``InvalidInput(bad_url)`` from the address guard, as if the
    caller had given it, where docs/errors.md says ``bad_redirect``."""

    def handler(request):
        return MockResponse(302, {"Location": location})

    with pytest.raises(WebProviderError) as refused:
        sent(handler, RequestSpec("GET", START))
    assert refused.value.detail_code == BAD_REDIRECT
    assert str(refused.value) == (
        "a.example redirected to %s that cannot be followed (not an http(s) URL with a valid host)" % named
    )

"""A meta refresh to a target fetch does not go to (a ``file:``, ``mailto:`` or ``data:`` URL, a
host name that is none, a private address) leaves fetch on the page that carried it, as a
browser stays there, and as a target that fails already did: such a page with an article was
``bad_redirect``, ``bad_url`` or ``private_address``, its text unread. A page with nothing to
read still gets the target's error."""

import pytest
from faults import respond
from servers import FaultServer
from test_fetch_refresh import article, fetch

import websearch_sync as ws
from websearch_sync.net.transport import HttpTransport
from websearch_sync.reader.page import fetch_page

REFUSED = {
    "file": ("file:///etc/passwd", "bad_redirect"),
    "mailto": ("mailto:desk@harbour.example", "bad_redirect"),
    "data": ("data:text/html,hello", "bad_redirect"),
    # a target the page chose whose host the host-name rule refuses, as one requests could not encode
    "no host name": ("http://a..b.example/", "bad_redirect"),
    "no punycode": ("http://xn--zz.example/", "bad_redirect"),
}


def refreshing_to(target: str) -> bytes:
    return b'<meta http-equiv="refresh" content="0; url=%s">' % target.encode()


@pytest.mark.parametrize("target, code", REFUSED.values(), ids=REFUSED.keys())
def test_a_page_with_text_whose_refresh_is_refused_is_read(target, code):
    with FaultServer({"/p": respond(200, article(refreshing_to(target)))}) as server:
        result = fetch(server.url("/p"))
    assert result["final_url"] == server.url("/p") and "dredging plan" in result["text"]


@pytest.mark.parametrize("target, code", REFUSED.values(), ids=REFUSED.keys())
def test_an_empty_page_whose_refresh_is_refused_gets_the_targets_error(target, code):
    empty = b"<html><head>%s</head><body></body></html>" % refreshing_to(target)
    with FaultServer({"/p": respond(200, empty)}) as server:
        with pytest.raises(ws.WebSearchError) as info:
            fetch(server.url("/p"))
    assert info.value.detail_code == code


@pytest.mark.parametrize(
    "target, named",
    [("file:///etc/passwd", "a file: address"), ("mailto:desk@harbour.example", "a mailto: address")],
)
def test_a_refused_target_of_another_scheme_is_named_by_its_scheme(target, named):
    """``file:///etc/passwd`` was "an address on etc": its path read as a host."""
    empty = b"<html><head>%s</head><body></body></html>" % refreshing_to(target)
    with FaultServer({"/p": respond(200, empty)}) as server:
        with pytest.raises(ws.WebSearchError) as info:
            fetch(server.url("/p"))
    assert info.value.detail_code == "bad_redirect"
    assert info.value.message == (
        "127.0.0.1 redirected to %s that cannot be followed (not an http(s) URL with a valid host)" % named
    )


def test_a_refresh_to_a_private_address_is_not_followed_and_the_page_is_read():
    """The page's own loopback address is trusted here; the refresh's 10.0.0.1 is not."""
    page = article(refreshing_to("http://10.0.0.1/admin"))
    transport = HttpTransport()
    try:
        with FaultServer({"/p": respond(200, page)}) as server:
            result = fetch_page(
                server.url("/p"), transport=transport, settings=ws.Settings(), trusted_networks=["127.0.0.0/8"]
            )
            assert [request.route for request in server.requests] == ["/p"]
    finally:
        transport.close()
    assert "dredging plan" in result["text"]

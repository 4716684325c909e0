"""One rule for host names on both wires, for fetch and search endpoints alike (websearch_sync/hostnames.py,
docs/errors.md): a browser's (UTS #46 without transitional mapping, IDNA 2008 labels), refused in the
library's words before any lookup, and encoded by that rule, not by ``requests``' own IDNA.

Before: fetch's refusals of a non-ASCII host came from ``requests`` ("Failed to parse: Name 'a。。b'
is not a valid IDNA label"); ``א1.com`` was refused as an endpoint (the standard library's IDNA
2003) but fetched as ``xn--1-zhc.com``; ``xn--zz.com``, no punycode, was looked up and read as
``dns_error``. No name is resolved for real: ``getaddrinfo`` answers every name as one that does
not exist, and libcurl's transfers are recorded, not performed."""

import pytest
from clocks import FakeClock
from test_endpoint_host_names import lookups  # noqa: F401 - the fixture: getaddrinfo and libcurl recorded
from transports import BOTH

import websearch_sync as ws

#: Hosts the rule refuses, and why: empty labels behind ideographic full stops, a character IDNA
#: refuses, and ``xn--`` labels that are no punycode or the punycode of a label IDNA refuses.
REFUSED = [
    ("a\u3002\u3002b", "label 2 is empty"),
    ("\u2603.net", "label 1 holds U+2603, a character IDNA refuses"),
    ("xn--.com", "label 1 starts with xn-- but is no punycode"),
    ("www.xn--zz.com", "label 2 starts with xn-- but is no punycode"),
    ("xn--n3h.net", "label 1 starts with xn-- but decodes to a label that holds U+2603, a character IDNA refuses"),
]
IDS = ["ideographic-dots", "snowman", "empty-punycode", "no-punycode", "punycode-of-a-refused-label"]


def fetch_error(impersonate, url):
    with ws.SearchClient(settings=ws.Settings(impersonate=impersonate), clock=FakeClock()) as client:
        with pytest.raises(ws.WebSearchError) as raised:
            client.fetch(url)
    return raised.value


def search_error(impersonate, base_url):
    # from the environment: refused at its use, as here (set in code, when the Settings are built)
    settings = ws.Settings.from_env({"SEARXNG_BASE_URL": base_url}, impersonate=impersonate)
    with ws.SearchClient("searxng", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
        with pytest.raises(ws.WebSearchError) as raised:
            client.search("red panda")
    return raised.value


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(("host", "reason"), REFUSED, ids=IDS)
def test_fetch_refuses_a_host_the_rule_refuses_in_its_own_words_before_any_lookup(impersonate, host, reason, lookups):
    error = fetch_error(impersonate, "http://%s/page" % host)
    assert (type(error), str(error), error.detail_code) == (
        ws.InvalidInput,
        "%s is not a valid host name (%s)" % (host, reason),
        "bad_url",
    )
    assert lookups == []


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize(("host", "reason"), REFUSED, ids=IDS)
def test_an_endpoint_whose_host_the_rule_refuses_is_a_bad_endpoint_before_any_lookup(
    impersonate, host, reason, lookups
):
    error = search_error(impersonate, "http://%s:8888/" % host)
    assert (type(error), str(error), error.detail_code) == (
        ws.InvalidInput,
        "searxng: the endpoint's host is not a valid host name (%s; "
        "check Settings.providers['searxng']['base_url'] or SEARXNG_BASE_URL)" % reason,
        "bad_endpoint",
    )
    assert lookups == []


#: Hosts the rule takes, and the name looked up: right-to-left text ending with a digit (RFC 5893;
#: IDNA 2003 refused it), ``ß`` kept (no transitional mapping to ``ss``), an ASCII label with an
#: underscore beside an international one, and what UTS #46 maps as a browser does: an ideographic
#: full stop, fullwidth letters (urllib3's IDNA, under ``requests``, refused both).
TAKEN = [
    ("\u05d01.com", "xn--1-zhc.com"),
    ("stra\u00dfe.example", "xn--strae-oqa.example"),
    ("searx_1.b\u00fccher.example", "searx_1.xn--bcher-kva.example"),
    ("b\u00fccher\u3002example", "xn--bcher-kva.example"),
    ("\uff21\uff22\uff23.example", "abc.example"),
]
TAKEN_IDS = ["rtl-digit", "sharp-s", "underscore", "ideographic-dot", "fullwidth"]


@pytest.mark.parametrize(("host", "looked_up"), TAKEN, ids=TAKEN_IDS)
@pytest.mark.parametrize("impersonate", BOTH)
def test_fetch_looks_up_a_host_the_rule_takes_as_the_rule_encodes_it(impersonate, host, looked_up, lookups):
    error = fetch_error(impersonate, "http://%s/page" % host)
    assert (str(error), error.detail_code) == ("could not resolve the host name %s" % looked_up, "dns_error")
    assert lookups == [looked_up]  # the address check's lookup: no transfer


@pytest.mark.parametrize(("host", "looked_up"), TAKEN, ids=TAKEN_IDS)
def test_an_endpoint_the_rule_takes_is_looked_up_as_the_rule_encodes_it(host, looked_up, lookups):
    """On the requests wire, whose resolver is ``getaddrinfo``; both wires are handed the one
    URL :func:`~websearch_sync.net.encode.endpoint` makes (tests/unit/test_hostnames.py)."""
    error = search_error("off", "http://%s:8888/" % host)
    assert error.detail_code == "dns_error", repr(error)
    assert looked_up in lookups


@pytest.mark.parametrize("impersonate", BOTH)
def test_an_https_host_written_with_its_trailing_dot_is_checked_against_its_certificate(impersonate, monkeypatch):
    """``https://localhost.:PORT/``: the certificate names ``localhost``, as SNI does; the requests
    wire checked the certificate against ``localhost.`` and failed (a TLS failure) where the
    browser wire read the page."""
    from servers import LOCALHOST_CERT, KeepAliveServer

    PAGE = b"<html><head><title>Dotted</title></head><body><p>" + b"Readable text. " * 20 + b"</p></body></html>"

    def answer(handler):
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(len(PAGE)))
        handler.end_headers()
        handler.wfile.write(PAGE)

    from websearch_sync.net.transport import HttpTransport
    from websearch_sync.reader.page import fetch_page

    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)  # they would beat the client's CA bundle
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)
    asked = []

    def resolver(host, port, timeout_s):
        asked.append(host)
        return ["127.0.0.1"]

    transport = HttpTransport(impersonate=impersonate, ca_bundle=LOCALHOST_CERT)
    with KeepAliveServer(answer, tls=True) as server:
        try:
            url = server.url("/").replace("localhost:", "localhost.:")
            page = fetch_page(
                url,
                transport=transport,
                settings=ws.Settings(),
                timeout_ms=5000,
                resolver=resolver,
                trusted_networks=["127.0.0.1/32"],
            )
        finally:
            transport.close()
    assert page["title"] == "Dotted" and asked == ["localhost."]

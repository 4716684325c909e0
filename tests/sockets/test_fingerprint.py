"""What a bot detector sees of search and fetch (issue 21), measured on a loopback TLS server.

With the ``browser`` extra, keyless search and fetch send Chrome's TLS ClientHello (JA4),
HTTP/2 preface and header order: the same as curl_cffi's own Chrome (measured here, as the
reference) and as the real Chromium 156 the fingerprint lab measured (its JA4 and HTTP/2
string are quoted below from ../shared/fingerprint/README.md). With ``impersonate="off"``
they send the plain ``requests`` handshake over HTTP/1.1.
"""

import pytest
import requests
from fingerprint_lab import CERT, FingerprintServer

import websearch_sync as ws
from websearch_sync.net.browser import browser_available

#: Real Chromium 156 (headless) in the fingerprint lab, 2026-11-26.
CHROMIUM_JA4 = "t13d1517h2_8daaf6152771_cb7bf5808d99"
CHROMIUM_H2 = "1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p"
#: Headers a form post adds to a navigation, placed by the browser's own rule.
FORM_HEADERS = ("origin", "content-type", "content-length", "cookie", "referer", "cache-control")
#: Real Chromium 156's form POST, in its order (the lab's README, measured 2026-11-28; no cookie here).
CHROMIUM_FORM_POST = (
    "content-length,cache-control,sec-ch-ua,sec-ch-ua-mobile,sec-ch-ua-platform,upgrade-insecure-requests,"
    "content-type,user-agent,origin,accept,sec-fetch-site,sec-fetch-mode,sec-fetch-user,sec-fetch-dest,referer,"
    "accept-encoding,accept-language,priority"
).split(",")

#: Real Chromium 156's request after a redirect (a typed navigation's 302 with Set-Cookie):
#: the client hints after the fetch metadata. Measured with Debian's chromium 156.0.8078.108 in
#: ../shared/fingerprint/fplab (``probe4.py --clients chromium``), 2026-11-29.
CHROMIUM_REDIRECTED = (
    "upgrade-insecure-requests,user-agent,accept,sec-fetch-site,sec-fetch-mode,sec-fetch-user,sec-fetch-dest,"
    "sec-ch-ua,sec-ch-ua-mobile,sec-ch-ua-platform,accept-encoding,accept-language,priority"
).split(",")

browser = pytest.mark.skipif(not browser_available(), reason="needs the browser extra (curl_cffi)")


def _settings(server, impersonate):
    return ws.Settings(
        endpoints={"ddg_html": server.url("/html/")}, ca_bundle=CERT, impersonate=impersonate, allow_private=True
    )


def _search_and_fetch(impersonate):
    with FingerprintServer() as server:
        # one client each: a client resumes its TLS sessions (as Chrome does), which adds the
        # pre_shared_key extension to the next ClientHello; the references are first connections
        with ws.SearchClient("ddg_html", settings=_settings(server, impersonate), cache_ttl_s=0, retries=0) as client:
            found = client.search("fingerprint lab", max_results=3)
        with ws.SearchClient("ddg_html", settings=_settings(server, impersonate), cache_ttl_s=0, retries=0) as client:
            page = client.fetch(server.url("/page"), allow_private=True, extract_mode="text")
    assert found["items"] and found["items"][0]["url"] == "https://example.com/fingerprint-lab"
    assert "loopback fingerprint lab" in page["text"]
    by_method = {r["method"]: r for r in server.records if "method" in r}  # recorded as connections close
    assert sorted(by_method) == ["GET", "POST"]
    return by_method["POST"], by_method["GET"]


def _reference_chrome():
    from curl_cffi import requests as curl_requests

    with FingerprintServer() as server:
        curl_requests.get(server.url("/page"), impersonate="chrome", verify=CERT, timeout=10)
    return server.records[0]


@browser
def test_search_and_fetch_send_chromes_tls_http2_and_header_order():
    reference = _reference_chrome()
    search, fetch = _search_and_fetch(None)  # the default with the extra: chrome
    for record in (search, fetch):
        assert record["ja4"] == reference["ja4"] == CHROMIUM_JA4
        assert record["http"] == "h2"
        assert record["h2"]["akamai"] == reference["h2"]["akamai"] == CHROMIUM_H2
        assert "Chrome/" in record["user_agent"] and record["user_agent"] == reference["user_agent"]
    # a navigation: exactly the browser's (curl_cffi's own adds cache-control, which Chrome sends on a form post only)
    assert fetch["header_order"] == [name for name in reference["header_order"] if name != "cache-control"]
    navigation = [name for name in search["header_order"] if name not in FORM_HEADERS]
    assert navigation == [name for name in reference["header_order"] if name in navigation]


def test_impersonate_off_sends_the_plain_requests_handshake():
    with FingerprintServer() as server:
        requests.get(server.url("/page"), verify=CERT, timeout=10)
    plain = server.records[0]
    search, fetch = _search_and_fetch("off")
    for record in (search, fetch):
        assert record["ja4"] == plain["ja4"] != CHROMIUM_JA4
        assert record["http"] == "http/1.1"
        assert record["user_agent"] == ws.Settings().user_agent or record["user_agent"].startswith("Mozilla/5.0")


def _every_request(records):
    return [request for record in records for request in record.get("requests", [])]


@browser
def test_browser_requests_carry_chromes_own_headers_in_chromes_order(fake_clock):
    """Issue 32 point 6 (and 33 point 22: a form post without Origin fails here): the form post
    is Chromium's, header for header; a navigation is the profile's without the
    ``cache-control`` Chrome sends only on a form post; ``Accept`` is always the profile's
    (an engine's or fetch's own value never replaces it)."""
    reference = _reference_chrome()["requests"][0]
    navigation_order = [name for name in reference["header_order"] if name != "cache-control"]
    with FingerprintServer() as server:
        with ws.SearchClient("ddg_html", settings=_settings(server, None), cache_ttl_s=0, retries=0) as client:
            client.search("fingerprint lab", max_results=3)
            client.fetch(server.url("/page"), allow_private=True, extract_mode="text")
    post, get = sorted(_every_request(server.records), key=lambda r: r["method"], reverse=True)
    assert (post["method"], get["method"]) == ("POST", "GET")
    assert post["header_order"] == CHROMIUM_FORM_POST
    assert post["headers"]["cache-control"] == "max-age=0" and post["headers"]["origin"].startswith("https://")
    assert get["header_order"] == navigation_order
    for request in (post, get):
        assert request["headers"]["accept"] == reference["headers"]["accept"]


@browser
def test_fetch_follows_a_redirect_over_the_same_connection(fake_clock):
    """Chromium sends a redirect's next request on the connection it already has (one TLS
    handshake); fetch pins each hop to its checked address and still reuses it."""
    with FingerprintServer() as server:
        with ws.SearchClient("ddg_html", settings=_settings(server, None), cache_ttl_s=0, retries=0) as client:
            page = client.fetch(server.url("/hop"), allow_private=True, extract_mode="text")
    assert "loopback fingerprint lab" in page["text"]
    connections = [record for record in server.records if record.get("requests")]
    assert [[request["path"] for request in record["requests"]] for record in connections] == [["/hop", "/page"]]
    first, redirected = connections[0]["requests"]
    assert redirected["header_order"] == CHROMIUM_REDIRECTED  # the client hints move after sec-fetch-dest
    assert first["header_order"] == [name for name in CHROMIUM_FORM_POST if name in first["header_order"]]

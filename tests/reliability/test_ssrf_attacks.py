"""SSRF: a table of attack URLs, every one refused by fetch unless ``allow_private``.

Each row names where the URL really leads and the refusal it must get:
``private_address`` (``InvalidInput``) for a target that is loopback, private,
link-local (cloud metadata), unspecified or otherwise non-public in any notation, or
``bad_url`` (``InvalidInput``) where the URL is malformed (an out-of-range number, a
broken IPv6 literal, no host). Refusals happen before any connection: the suite runs
under ``no_network``, so a connection attempt to anything but loopback would fail
differently. The same URLs are then served as redirect targets (HTTP 302, meta
refresh, ``location.replace``) by a trusted local page: fetch must refuse the hop.

DNS names are answered by an injected resolver (as the operating system would answer
them), including a name with one public and one private address, and a numeric name in
fullwidth/circled digits, which UTS #46 maps to ``127.0.0.1`` (websearch_sync/hostnames.py).
"""

import ipaddress
import re
import socket

import faultlab
import pytest
from faults import respond
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples
from servers import FaultServer
from transports import BOTH, needs_browser
from unicode_text import UTF8_CHARS

import websearch_sync as ws
from websearch_sync.net.ssrf import forbidden_reason
from websearch_sync.net.transport import HttpTransport
from websearch_sync.reader.page import fetch_page
from websearch_sync.testing import NetworkAccessBlocked

#: The resolver's view of the world (names -> addresses).
DNS = {
    "localhost": "127.0.0.1",
    "localtest.me": "127.0.0.1",
    "127.0.0.1.nip.io": "127.0.0.1",
    "spoofed.example": "127.0.0.1",
    "metadata.google.internal": "169.254.169.254",
    "metadata.azure.internal": "169.254.169.254",
    "internal.corp.example": "10.1.2.3",
    "router.example": "192.168.0.1",
    "cgnat.example": "100.64.0.7",
    "dual.example": ["93.184.216.34", "10.0.0.1"],
    "v6only.example": "::1",
    "mapped.example": "::ffff:10.0.0.1",
    "ula.example": "fd12:3456::1",
    "zero.example": "0.0.0.0",
    faultlab.FETCH_HOST: "127.0.0.2",  # the trusted redirector (see the redirector fixture)
}


def resolver(host, port, timeout_s):
    """Names from :data:`DNS`; otherwise what ``getaddrinfo`` would do with a numeric name
    (it IDNA-encodes first: circled or fullwidth digits become ASCII)."""
    name = host.lower().rstrip(".")
    if name in DNS:
        value = DNS[name]
        return [value] if isinstance(value, str) else list(value)
    try:
        ascii_name = host.encode("idna").decode("ascii")
        return [str(ipaddress.IPv4Address(socket.inet_aton(ascii_name)))]
    except (UnicodeError, OSError, ValueError):
        raise socket.gaierror(socket.EAI_NONAME, "unknown name %s" % host) from None


P, B = "private_address", "bad_url"
ATTACKS = [
    # loopback, IPv4 notations
    ("http://127.0.0.1/", P),
    ("http://127.1/", P),
    ("http://127.0.1/", P),
    ("http://2130706433/", P),
    ("http://0x7f000001/", P),
    ("http://0x7f.0x0.0x0.0x1/", P),
    ("http://0177.0.0.1/", P),
    ("http://017700000001/", P),
    ("http://0x7F.1/", P),
    ("http://127.000.000.001/", P),
    ("http://127.0.0.1./", P),
    ("http://127.255.255.254:8080/", P),
    ("HTTP://127.0.0.1:80/admin", P),
    ("  http://127.0.0.1/  ", P),
    # circled and fullwidth digits: UTS #46 maps them to 127.0.0.1, as a browser does (the host-name rule)
    ("http://\u2460\u2461\u2466.\u24ea.\u24ea.\u2460/", P),
    ("http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", P),
    # unspecified
    ("http://0/", P),
    ("http://0.0.0.0/", P),
    ("http://0x0/", P),
    # private and shared ranges
    ("http://10.0.0.1/", P),
    ("http://012.1/", P),
    ("http://172.16.0.1/", P),
    ("http://172.31.255.1/", P),
    ("http://192.168.1.1/", P),
    ("http://0xc0a80101/", P),
    ("http://3232235777/", P),
    ("http://100.64.0.1/", P),
    # link-local: the cloud metadata service in every notation
    ("http://169.254.169.254/latest/meta-data/", P),
    ("http://169.254.43518/", P),
    ("http://0xa9fea9fe/", P),
    ("http://2852039166/", P),
    ("http://0251.0376.0251.0376/", P),
    ("http://0xa9.0xfe.0xa9.0xfe/", P),
    ("http://[fd00:ec2::254]/latest/meta-data/", P),
    # IPv6
    ("http://[::1]/", P),
    ("http://[0:0:0:0:0:0:0:1]/", P),
    ("http://[::]/", P),
    ("http://[::ffff:127.0.0.1]/", P),
    ("http://[::ffff:7f00:1]/", P),
    ("http://[::ffff:169.254.169.254]/", P),
    ("http://[::ffff:a9fe:a9fe]/", P),
    ("http://[fe80::1]/", P),
    ("http://[fe80::1%25eth0]/", P),
    ("http://[fc00::1]/", P),
    ("http://[64:ff9b::7f00:1]/", P),
    ("http://[2002:7f00:1::]/", P),
    ("http://[::127.0.0.1]/", P),
    ("http://[fec0::1]/", P),
    ("http://[ff02::1]/", P),
    # names that resolve to non-public addresses
    ("http://localhost/", P),
    ("http://localhost./", P),
    ("http://LOCALHOST:8000/", P),
    ("http://localtest.me/", P),
    ("http://127.0.0.1.nip.io/", P),
    ("http://metadata.google.internal/computeMetadata/v1/", P),
    ("http://metadata.azure.internal/", P),
    ("http://internal.corp.example/", P),
    ("http://router.example/", P),
    ("http://cgnat.example/", P),
    ("http://dual.example/", P),
    ("http://v6only.example/", P),
    ("http://mapped.example/", P),
    ("http://ula.example/", P),
    ("http://zero.example/", P),
    # userinfo and delimiter tricks: the host is what follows the last '@' before the path
    ("http://evil.example@127.0.0.1/", P),
    ("http://user:pass@169.254.169.254/", P),
    ("http://a@b@localhost/", P),
    ("http://127.0.0.1#@evil.example/", P),
    ("http://127.0.0.1?@evil.example/", P),
    ("http://evil.example:80@10.0.0.1/", P),
    ("https://spoofed.example@localhost:443/", P),
    # malformed: refused as bad URLs
    ("http://1.2.3.256/", B),
    ("http://0x100000000/", B),
    ("http://127.0.0.1:99999/", B),
    ("http://[::1/", B),
    ("http://[127.0.0.1]/", B),
    ("http:///127.0.0.1/", B),
    ("http:\\\\127.0.0.1\\", B),
    ("http://127.0.0.1\t/", B),
    ("file:///etc/passwd", B),
    ("gopher://127.0.0.1:6379/_INFO", B),
    ("dict://127.0.0.1:11211/", B),
    ("ftp://10.0.0.1/", B),
]
REDIRECTABLE = [(url, detail) for url, detail in ATTACKS if detail == P]


def fetch(url, impersonate=None, **kwargs):
    transport = HttpTransport(impersonate=impersonate)
    try:
        return fetch_page(
            url, transport=transport, settings=ws.Settings(), timeout_ms=2000, resolver=resolver, **kwargs
        )
    finally:
        transport.close()


def test_the_table_is_large_and_covers_every_notation():
    assert len(ATTACKS) >= 40
    assert len(REDIRECTABLE) >= 40


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("url, detail", ATTACKS, ids=[repr(u)[1:-1][:60] for u, _ in ATTACKS])
def test_fetch_refuses_the_attack(url, detail, impersonate):
    with pytest.raises(ws.InvalidInput) as info:
        fetch(url, impersonate)
    assert info.value.detail_code == detail, info.value.message
    assert info.value.provider in ("fetch", None)


@pytest.mark.parametrize("url, detail", ATTACKS[:20], ids=[repr(u)[1:-1][:60] for u, _ in ATTACKS[:20]])
def test_the_public_fetch_refuses_it_too(url, detail):
    """``ws.fetch`` (system resolver; only literal and numeric hosts here)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(url, timeout_ms=2000)
    assert info.value.detail_code == detail


def _redirect_page(kind, target):
    if kind == "302":  # a URL's UTF-8 bytes, as servers send one (a header is written as Latin-1)
        return respond(302, b"", {"Location": target.encode("utf-8").decode("latin-1")})
    if kind == "meta_refresh":
        return respond(
            200,
            (
                '<html><head><meta http-equiv="refresh" content="0; url=%s"></head><body></body></html>' % target
            ).encode(),
        )
    return respond(200, ('<html><body><script>window.location.replace("%s")</script></body></html>' % target).encode())


@pytest.fixture(scope="module")
def redirector():
    """A trusted page host (``pages.faultlab.test`` -> 127.0.0.2, the only trusted address)
    whose pages redirect to ``?to=``."""
    from urllib.parse import parse_qs, urlsplit

    def handler(conn, request, server):
        query = parse_qs(urlsplit(request.path).query)
        _redirect_page(query["kind"][0], query["to"][0])(conn, request, server)

    with faultlab.AliasServer({"/go": handler}) as server:
        yield server


#: ``(kind, impersonate)`` of the redirects: a 302 on both transports (a wire that followed it
#: itself would go around the guard); a page's own redirect (meta refresh, ``location.replace``)
#: on the requests transport for every target: the reader reads it from the page the wire
#: returned, whichever wire (the browser wire's page redirects are checked on a few targets by
#: test_a_page_redirect_read_through_the_browser_wire_is_refused_too).
PAGE_REDIRECTS = ("meta_refresh", "location_replace")
REDIRECTS = [pytest.param("302", *run.values, id="302-" + run.id, marks=run.marks) for run in BOTH] + [
    pytest.param(kind, "off", id=kind + "-requests") for kind in PAGE_REDIRECTS
]
#: The targets a page redirect read through the browser wire is tried with: loopback, the cloud
#: metadata address, IPv6 loopback.
BROWSER_PAGE_TARGETS = ("http://127.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/")


@pytest.mark.parametrize("kind, impersonate", REDIRECTS)
@pytest.mark.parametrize("url, detail", REDIRECTABLE, ids=[u[:60] for u, _ in REDIRECTABLE])
def test_fetch_refuses_to_be_redirected_there(redirector, kind, url, detail, impersonate):
    _refused_after_one_trusted_page(redirector, kind, url, detail, impersonate)


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("url", ["https:/\t/10.0.0.1/", "https://10.0.0.1\t/x", "ht\ttps://10.0.0.1/"])
def test_a_location_with_tabs_is_refused_as_the_private_host_it_names(redirector, url, impersonate):
    """Tabs dropped first (WHATWG), as the hop is sent: the guard refuses the host it would go to,
    in another scheme's URL too (``urljoin`` keeps those as written)."""
    _refused_after_one_trusted_page(redirector, "302", url, P, impersonate)


@needs_browser
@pytest.mark.parametrize("kind", PAGE_REDIRECTS)
@pytest.mark.parametrize("url", BROWSER_PAGE_TARGETS)
def test_a_page_redirect_read_through_the_browser_wire_is_refused_too(redirector, kind, url):
    assert (url, P) in ATTACKS
    _refused_after_one_trusted_page(redirector, kind, url, P, None)


def _refused_after_one_trusted_page(redirector, kind, url, detail, impersonate):
    from urllib.parse import urlencode

    start = "http://%s:%d/go?%s" % (faultlab.FETCH_HOST, redirector.port, urlencode({"kind": kind, "to": url.strip()}))
    before = len(redirector.requests)
    with pytest.raises(ws.InvalidInput) as info:
        fetch(start, impersonate, trusted_networks=["127.0.0.2/32"])
    assert info.value.detail_code == detail, info.value.message
    assert len(redirector.requests) == before + 1  # the trusted page was read, the target never


@pytest.mark.parametrize(
    "template",
    [
        "http://127.0.0.1:{port}/p",
        "http://2130706433:{port}/p",
        "http://0x7f.1:{port}/p",
        "http://0177.0.0.1:{port}/p",
        "http://localhost:{port}/p",
        "http://evil.example@127.0.0.1:{port}/p",
    ],
)
@pytest.mark.parametrize("impersonate", BOTH)
def test_allow_private_lets_local_targets_through(template, impersonate):
    page = b"<html><head><title>Local</title></head><body><p>" + b"Readable local text. " * 20 + b"</p></body></html>"
    with FaultServer({"/p": respond(200, page)}) as server:
        url = template.format(port=server.port)
        assert fetch(url, impersonate, allow_private=True)["title"] == "Local"
        with pytest.raises(ws.InvalidInput):
            fetch(url, impersonate)
        transport = HttpTransport(impersonate=impersonate)
        try:  # the setting (WEB_FETCH_ALLOW_PRIVATE) lifts the refusal too
            result = fetch_page(
                url, transport=transport, settings=ws.Settings(allow_private=True), timeout_ms=2000, resolver=resolver
            )
        finally:
            transport.close()
        assert result["title"] == "Local"


# -- any string at all -----------------------------------------------------------------------------


HOST_PARTS = st.lists(
    st.sampled_from(
        [
            "127",
            "0",
            "1",
            "0x7f",
            "0177",
            "255",
            "256",
            "4294967295",
            "4294967296",
            ".",
            ":",
            "[",
            "]",
            "::",
            "ffff",
            "%25",
            "@",
            "a",
            "example",
            "localhost",
            "\u2460",
            "\uff11",
            "\u3002",
            "xn--",
            "-",
            "_",
            " ",
            "\t",
            "#",
            "?",
            "/",
            "\\",
            "\x00",
            "\ud800",
        ]
    ),
    min_size=1,
    max_size=10,
).map("".join)
URLS = st.one_of(
    st.text(st.characters(exclude_categories=()), max_size=40),
    st.builds(
        lambda scheme, host, port, path: "%s://%s%s/%s" % (scheme, host, port, path),
        st.sampled_from(["http", "https", "HTTP", "ftp", "file", "javascript", "", "http:/"]),
        HOST_PARTS,
        st.sampled_from(["", ":80", ":0", ":65535", ":65536", ":-1", ":x", ":"]),
        st.text(UTF8_CHARS, max_size=10),
    ),
)


def everything_is_local(host, port, timeout_s):
    return ["127.0.0.1"]


@settings(
    deadline=None, max_examples=examples(100, deep=300), suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(url=URLS)
def test_any_string_as_a_fetch_url_is_refused_cleanly(url):
    """Every name resolves to 127.0.0.1 here, so a URL fetch accepts must be refused as
    private, unless its host is a public address literal (``http://17000000`` is
    1.3.102.64): then the only thing allowed is a connection attempt to that public
    address (which ``no_network`` stops)."""
    transport = HttpTransport()
    try:
        fetch_page(url, transport=transport, settings=ws.Settings(), timeout_ms=1000, resolver=everything_is_local)
    except ws.InvalidInput as error:
        assert error.detail_code in ("bad_url", "private_address"), error
    except NetworkAccessBlocked as blocked:
        target = re.search(r"'([^']+)'", str(blocked)).group(1)
        assert forbidden_reason(ipaddress.ip_address(target)) is None, "fetch tried to reach %s for %r" % (target, url)
    else:
        raise AssertionError("fetched %r" % url)
    finally:
        transport.close()

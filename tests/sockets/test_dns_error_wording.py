"""``NetworkError(dns_error)`` says the same thing whoever resolved the name: a search's requests
wire, libcurl's own resolver on the browser wire, and fetch's address check (docs/errors.md).

The name is a reserved ``.invalid`` one. No test resolves it for real: the suite's ``no_network``
guard refuses every lookup but loopback (``NetworkAccessBlocked``), so the lookup is answered as
the operating system answers a name that does not exist (``socket.getaddrinfo`` raising
``EAI_NONAME``), and libcurl, which resolves by itself, fails its transfer with its own
``COULDNT_RESOLVE_HOST`` without opening a connection."""

import socket

import pytest
from clocks import FakeClock
from servers import Socks5Proxy

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.ssrf import AddressGuard

HOST = "search.invalid"
SAID = "could not resolve the host name %s" % HOST


@pytest.fixture
def unknown_names(monkeypatch):
    """``getaddrinfo`` answering every name but ``127.0.0.1`` (a loopback server's) as one that
    does not exist; the names asked."""
    asked, looked_up = [], socket.getaddrinfo

    def no_such_name(host, *args, **kwargs):
        if host == "127.0.0.1":
            return looked_up(host, *args, **kwargs)
        asked.append(host)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_name)
    return asked


def fail_transfers(monkeypatch, code, said):
    """libcurl failing each transfer with ``code`` (its message ``said``) without opening a
    connection; the hosts the wire would have connected to (the guard's check of the wire's
    connections is lifted: no transfer reaches the network)."""
    pytest.importorskip("curl_cffi")
    from curl_cffi import Curl, CurlError

    from websearch_sync.net import wire_curl  # imported when a test runs: collecting imports no curl_cffi

    asked = []

    def failing(handle, clear_headers=True, clear_resolve=True):  # Curl.perform's signature
        raise CurlError("Failed to perform, curl: (%d) %s" % (code, said), code)

    monkeypatch.setattr(wire_curl, "CONNECTION_CHECKS", [asked.append])
    monkeypatch.setattr(Curl, "perform", failing)
    return asked


@pytest.fixture
def curl_unresolved(monkeypatch):
    """libcurl failing each transfer as it does for a name its resolver does not find; the hosts asked."""
    return fail_transfers(monkeypatch, 6, "Could not resolve host: %s" % HOST)  # CURLE_COULDNT_RESOLVE_HOST


def failure(call):
    with pytest.raises(ws.NetworkError) as raised:
        call()
    return raised.value


def search_error(impersonate):
    settings = ws.Settings(impersonate=impersonate, endpoints={"ddg_html": "https://%s/html/" % HOST})
    with ws.SearchClient("ddg_html", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
        return failure(lambda: client.search("red panda"))


def fetch_error(impersonate):
    with ws.SearchClient(settings=ws.Settings(impersonate=impersonate), clock=FakeClock()) as client:
        return failure(lambda: client.fetch("https://%s/page" % HOST))


def test_search_and_fetch_say_the_same_on_the_requests_wire(unknown_names):
    searched, fetched = search_error("off"), fetch_error("off")
    assert (str(searched), searched.provider, searched.detail_code) == (SAID, "ddg_html", "dns_error")
    assert (str(fetched), fetched.provider, fetched.detail_code) == (SAID, "fetch", "dns_error")
    assert searched.retryable is fetched.retryable is False
    assert unknown_names == [HOST, HOST]  # once each: a name that does not resolve is not asked again


def test_libcurls_resolver_says_it_in_the_same_words(curl_unresolved, unknown_names):
    """The browser wire: a search's name is libcurl's to resolve; a fetch's is checked first (then pinned)."""
    searched, fetched = search_error("chrome"), fetch_error("chrome")
    assert (str(searched), searched.provider, searched.detail_code) == (SAID, "ddg_html", "dns_error")
    assert (str(fetched), fetched.provider, fetched.detail_code) == (SAID, "fetch", "dns_error")
    assert curl_unresolved == [HOST] and unknown_names == [HOST]


def test_a_resolver_that_gives_no_address_says_it_too():
    """fetch's address check with a resolver answering no address (a stand-in's; ``getaddrinfo``
    raises instead): the same words, not a second wording of one failure."""
    guard = AddressGuard(resolver=lambda host, port, timeout_s: [])
    error = failure(lambda: guard.check(HOST, 443, Deadline(1000), provider="fetch"))
    assert (str(error), error.detail_code) == (SAID, "dns_error")


def test_through_a_socks_proxy_resolving_names_here_it_is_the_name_not_the_proxy(unknown_names):
    """``socks5://`` (not ``socks5h://``): the requests wire (PySocks) resolves the upstream's name
    itself once the proxy is reached, and said "the proxy ... failed or refused the connection"."""
    pytest.importorskip("socks")
    with Socks5Proxy(reply=0) as proxy:
        settings = ws.Settings(
            impersonate="off", proxy=proxy.url("socks5"), endpoints={"ddg_html": "http://%s/html/" % HOST}
        )
        with ws.SearchClient("ddg_html", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
            error = failure(lambda: client.search("red panda"))
    assert (str(error), error.provider, error.detail_code) == (SAID, "ddg_html", "dns_error")
    assert unknown_names == [HOST]


PROXY = "proxy.invalid"


def unresolved_proxy_errors(monkeypatch, proxy, endpoint="http://127.0.0.1:9/html/"):
    """A search's error on the requests wire, then on the browser wire (libcurl failing with
    COULDNT_RESOLVE_PROXY), through ``proxy`` (``None``: the environment's), for ``endpoint``
    (never reached: the proxy comes first)."""
    errors = []
    for impersonate in ("off", "chrome"):
        if impersonate == "chrome":
            fail_transfers(monkeypatch, 5, "Could not resolve proxy: %s" % PROXY)  # CURLE_COULDNT_RESOLVE_PROXY
        settings = ws.Settings(
            impersonate=impersonate,
            proxy=proxy,
            endpoints={"ddg_html": endpoint},
        )
        with ws.SearchClient("ddg_html", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
            errors.append(failure(lambda: client.search("red panda")))
    return errors


@pytest.mark.parametrize("scheme", ["http", "socks5", "socks5h"])
def test_a_proxy_whose_own_name_does_not_resolve_is_the_proxy_unreached_on_both_wires(
    scheme, unknown_names, monkeypatch
):
    """requests said "could not resolve the host name 127.0.0.1" (the upstream, an address) for a
    ``socks5://`` proxy's name, "the proxy ... failed or refused the connection" for an HTTP one's;
    libcurl says it could not be reached (COULDNT_RESOLVE_PROXY)."""
    if scheme != "http":
        pytest.importorskip("socks")
    errors = unresolved_proxy_errors(monkeypatch, "%s://%s:1080" % (scheme, PROXY))
    said = "the proxy %s:1080 could not be reached (while reaching 127.0.0.1)" % PROXY
    assert [(str(error), error.detail_code) for error in errors] == [(said, "proxy_error")] * 2
    assert set(unknown_names) == {PROXY}  # the requests wire looked the proxy up; libcurl is faked


def test_a_proxy_from_the_environment_whose_name_does_not_resolve_is_named_on_both_wires(unknown_names, monkeypatch):
    """libcurl takes ``ALL_PROXY`` itself: its COULDNT_RESOLVE_PROXY read "connection failed:
    127.0.0.1" (``connection_error``, the upstream), where the requests wire named the proxy."""
    pytest.importorskip("socks")
    for name in ("NO_PROXY", "no_proxy", "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ALL_PROXY", "socks5://%s:1080" % PROXY)
    errors = unresolved_proxy_errors(monkeypatch, None)
    said = "the proxy %s:1080 could not be reached (while reaching 127.0.0.1)" % PROXY
    assert [(str(error), error.detail_code) for error in errors] == [(said, "proxy_error")] * 2


def test_an_environment_proxy_written_without_scheme_or_port_is_named_with_the_port_used(unknown_names, monkeypatch):
    """``HTTPS_PROXY=proxy.invalid`` was "the proxy proxy.invalid:default port could not be reached";
    both wires read it as ``http://proxy.invalid`` and reach it on port 80 (measured: urllib3 and
    libcurl both connect to 80 for a proxy so written, 443 for ``https://``, 1080 for ``socks5://``)."""
    for name in ("NO_PROXY", "no_proxy", "http_proxy", "HTTP_PROXY", "https_proxy", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTPS_PROXY", PROXY)
    errors = unresolved_proxy_errors(monkeypatch, None, endpoint="https://127.0.0.1:9/html/")
    said = "the proxy %s:80 (no port written: http's default) could not be reached (while reaching 127.0.0.1)" % PROXY
    assert [(str(error), error.detail_code) for error in errors] == [(said, "proxy_error")] * 2
    assert set(unknown_names) == {PROXY}  # the requests wire looked the proxy up; libcurl is faked


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("https://%s" % PROXY, "%s:443 (no port written: https's default)" % PROXY),
        ("socks5h://%s" % PROXY, "%s:1080 (no port written: socks5h's default)" % PROXY),
        ("http://%s:3128" % PROXY, "%s:3128" % PROXY),
    ],
)
def test_a_proxy_error_names_the_port_its_scheme_reaches_it_on(written, shown):
    from websearch_sync.net.wire_requests import proxy_unreached

    error = proxy_unreached(written, "example.com", "ddg_html")
    assert str(error) == "the proxy %s could not be reached (while reaching example.com)" % shown


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://a..b.com/", "label 2 is empty"),
        ("https://%s.com/" % ("a" * 64), "label 1 is 64 characters long, over 63"),
    ],
)
@pytest.mark.parametrize("impersonate", ["off", "chrome"])
def test_a_host_name_idna_cannot_encode_is_the_urls_fault_never_looked_up(url, reason, impersonate, unknown_names):
    """An empty label or one over 63 characters was looked up and read as ``dns_error``; then its
    message carried the codec's words, which Python 3.13 changed ("'idna' codec can't encode ...")."""
    if impersonate == "chrome":
        pytest.importorskip("curl_cffi")
    with ws.SearchClient(settings=ws.Settings(impersonate=impersonate), clock=FakeClock()) as client:
        with pytest.raises(ws.InvalidInput) as raised:
            client.fetch(url)
    host = url.split("/")[2]
    assert (str(raised.value), raised.value.detail_code) == (
        "%s is not a valid host name (%s)" % (host, reason),
        "bad_url",
    )
    assert unknown_names == []


@pytest.mark.parametrize("scheme", ["http", "socks5", "socks5h"])
def test_a_proxy_that_refuses_the_connection_is_unreached_in_the_same_words_on_both_wires(scheme):
    """The requests wire said "failed or refused the connection", libcurl (COULDNT_CONNECT) "could not be reached"."""
    if scheme != "http":
        pytest.importorskip("socks")
    pytest.importorskip("curl_cffi")
    with socket.socket() as closed:  # a port nothing listens on: bound, never listening, refuses
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
        errors = []
        for impersonate in ("off", "chrome"):
            settings = ws.Settings(
                impersonate=impersonate,
                proxy="%s://127.0.0.1:%d" % (scheme, port),
                endpoints={"ddg_html": "http://127.0.0.1:9/html/"},  # never reached: the proxy comes first
            )
            with ws.SearchClient("ddg_html", settings=settings, clock=FakeClock(), cache_ttl_s=0) as client:
                errors.append(failure(lambda: client.search("red panda")))
    said = "the proxy 127.0.0.1:%d could not be reached (while reaching 127.0.0.1)" % port
    assert [(str(error), error.detail_code) for error in errors] == [(said, "proxy_error")] * 2

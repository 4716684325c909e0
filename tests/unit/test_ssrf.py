"""The address guard: numeric host forms, every refused address class, resolution
bounded by the deadline (the system resolver's real wait: tests/reliability/test_resolver_deadline.py),
and refusals through fetch before any connection. Redirects and
connections to the checked address: tests/sockets/test_ssrf_connections.py."""

import http.client
import ipaddress
import socket
from urllib.parse import urlsplit

import pytest
from servers import fetch_once as fetch

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.ssrf import (
    AddressGuard,
    forbidden_reason,
    host_header,
    literal_address,
    numeric_ipv4,
    static_resolver,
)

PAGE = b"<html><head><title>Local</title></head><body><p>" + b"Readable local text. " * 20 + b"</p></body></html>"

# One address of every class the guard refuses (IPv4 and IPv6), with the reason it gives.
REFUSED = {
    "loopback4.test": ("127.0.0.1", "loopback"),
    "loopback4b.test": ("127.254.0.9", "loopback"),
    "private10.test": ("10.1.2.3", "private"),
    "private172.test": ("172.16.5.4", "private"),
    "private192.test": ("192.168.0.10", "private"),
    "metadata.test": ("169.254.169.254", "link-local"),
    "unspecified4.test": ("0.0.0.0", "unspecified"),
    "multicast4.test": ("224.0.0.251", "multicast"),
    "reserved4.test": ("240.0.0.1", "reserved"),
    "broadcast.test": ("255.255.255.255", "reserved"),
    "cgnat.test": ("100.100.100.200", "not publicly routable"),
    # not global whatever the Python: 3.11 before 3.11.10 took most of 192.0.0.0/24 for global (gh-113171)
    "ietf4.test": ("192.0.0.8", "not publicly routable"),
    "ietf4b.test": ("192.0.0.200", "not publicly routable"),
    "documentation6.test": ("3fff::1", "not publicly routable"),  # RFC 9637: no Python before 3.14 knows it
    "loopback6.test": ("::1", "loopback"),
    "unspecified6.test": ("::", "unspecified"),
    "linklocal6.test": ("fe80::1", "link-local"),
    "ula6.test": ("fd00::1", "private"),
    "multicast6.test": ("ff02::1", "multicast"),
    "sitelocal6.test": ("fec0::1", "site-local"),
    "mapped6.test": ("::ffff:127.0.0.1", "loopback (embedded IPv4 127.0.0.1)"),
    "mapped6meta.test": ("::ffff:169.254.169.254", "link-local (embedded IPv4 169.254.169.254)"),
    "sixtofour.test": ("2002:c0a8:1::1", "private (embedded IPv4 192.168.0.1)"),
    "nat64.test": ("64:ff9b::a00:1", "private (embedded IPv4 10.0.0.1)"),
}
#: The deadline of checks whose subject is not time: a loaded machine stalled a test past 1 s
#: ("no time left to resolve nat64.test").
AMPLE_MS = 60_000
PUBLIC = {
    "public4.test": "93.184.216.34",
    "public6.test": "2606:2800:220:1:248:1893:25c8:1946",
    "anycast4.test": "192.0.0.9",  # globally reachable in 192.0.0.0/24 (PCP anycast; .10 TURN)
    "anycast4b.test": "192.0.0.10",
}
RESOLVER = static_resolver(dict({name: addr for name, (addr, _) in REFUSED.items()}, **PUBLIC))


# -- numeric host forms --------------------------------------------------------------------


@pytest.mark.parametrize(
    "host, expected",
    [
        ("2130706433", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("127.0.1", "127.0.0.1"),
        ("0x7F.0X0.0.01", "127.0.0.1"),
        ("169.254.43518", "169.254.169.254"),
        ("0xa9fea9fe", "169.254.169.254"),
        ("10.0.0.1.", "10.0.0.1"),
        ("0", "0.0.0.0"),
        ("8.8.8.8", "8.8.8.8"),
    ],
)
def test_numeric_ipv4_forms(host, expected):
    assert numeric_ipv4(host) == ipaddress.IPv4Address(expected)
    # the C library reads these the same way (inet_aton), which is what a connection would use
    assert socket.inet_ntoa(socket.inet_aton(host.rstrip("."))) == expected


@pytest.mark.parametrize(
    "host, expected", [("0x", "0.0.0.0"), ("0X", "0.0.0.0"), ("0x.1", "0.0.0.1"), ("0x7f.0x.0x.1", "127.0.0.1")]
)
def test_a_hex_part_without_digits_is_zero_as_a_browser_reads_it(host, expected):
    """``0x`` with no digits is 0 in the WHATWG URL standard, which ``inet_aton`` refuses: the
    values are Node's ``new URL("http://<host>/").hostname`` (``0x7f.0x.0x.1`` is ``127.0.0.1``)."""
    assert numeric_ipv4(host) == ipaddress.IPv4Address(expected)


@pytest.mark.parametrize("host", ["example.com", "1.2.3.4.5", "0x7g.1", "08.1", "a.1", "1..2", ""])
def test_names_that_are_not_numeric(host):
    assert numeric_ipv4(host) is None


@pytest.mark.parametrize("host", ["1.2.3.256", "4294967296", "256.1", "1.65536.1"])
def test_out_of_range_numeric_hosts_are_bad_urls(host):
    with pytest.raises(ws.InvalidInput) as info:
        numeric_ipv4(host)
    assert info.value.detail_code == "bad_url"


def test_ipv6_literals():
    assert literal_address("[::ffff:127.0.0.1]") == ipaddress.IPv6Address("::ffff:127.0.0.1")
    assert literal_address("fe80::1%eth0") == ipaddress.IPv6Address("fe80::1")
    with pytest.raises(ws.InvalidInput):
        literal_address("[::zz]")


@pytest.mark.parametrize("host", ["1.2.3.256", "[::zz]"])
def test_a_refused_literal_is_refused_each_time_with_its_own_error(host):
    # literal_address remembers its answers, not its refusals
    errors = []
    for _ in range(2):
        with pytest.raises(ws.InvalidInput) as info:
            literal_address(host)
        errors.append(info.value)
    assert errors[0] is not errors[1] and [e.detail_code for e in errors] == ["bad_url", "bad_url"]


@pytest.mark.parametrize(
    "host, address, private",
    [
        ("127.0.0.1", "127.0.0.1", True),
        ("0x7f.1", "127.0.0.1", True),
        ("[::1]", "::1", True),
        ("8.8.8.8", "8.8.8.8", False),
    ],
)
def test_the_guard_judges_a_literal_host_by_the_address_it_names(host, address, private):
    for _ in range(2):  # the second time from literal_address's memo
        checked = AddressGuard(allow_private=True).check(host, 80, Deadline(AMPLE_MS))
        assert (checked.addresses, checked.private) == ([address], private)
    if private:
        with pytest.raises(ws.InvalidInput) as info:
            AddressGuard().check(host, 80, Deadline(AMPLE_MS))
        assert info.value.detail_code == "private_address"


# -- classes of addresses ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_every_refused_class_has_its_reason(name):
    address, reason = REFUSED[name]
    assert forbidden_reason(ipaddress.ip_address(address)) == reason


@pytest.mark.parametrize("address", sorted(PUBLIC.values()) + ["1.1.1.1", "2001:4860:4860::8888", "::ffff:8.8.8.8"])
def test_public_addresses_pass(address):
    assert forbidden_reason(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_guard_refuses_names_resolving_to_each_class(name):
    guard = AddressGuard(resolver=RESOLVER)
    with pytest.raises(ws.InvalidInput) as info:
        guard.check(name, 80, Deadline(AMPLE_MS))
    assert info.value.detail_code == "private_address"
    assert str(ipaddress.ip_address(REFUSED[name][0])) in info.value.message and name in info.value.message


def test_guard_refuses_when_any_answer_is_private():
    guard = AddressGuard(resolver=static_resolver({"mixed.test": ["93.184.216.34", "10.0.0.7"]}))
    with pytest.raises(ws.InvalidInput) as info:
        guard.check("mixed.test", 443, Deadline(AMPLE_MS))
    assert "10.0.0.7" in info.value.message


def test_guard_allow_private_and_trusted_networks():
    resolved = AddressGuard(resolver=RESOLVER, allow_private=True).check("metadata.test", 80, Deadline(AMPLE_MS))
    assert resolved.addresses == ["169.254.169.254"] and resolved.private is True
    trusted = AddressGuard(resolver=RESOLVER, trusted_networks=["10.0.0.0/8"]).check(
        "private10.test", 80, Deadline(AMPLE_MS)
    )
    assert trusted.addresses == ["10.1.2.3"] and trusted.private is False
    public = AddressGuard(resolver=RESOLVER).check("public6.test", 443, Deadline(AMPLE_MS))
    assert public.addresses == [PUBLIC["public6.test"]] and public.private is False


@pytest.mark.parametrize("host", ["public4.test.", "PUBLIC4.test."])
def test_the_static_resolver_reads_a_name_as_dns_does(host):
    """A fully qualified name (its trailing dot) and a name in capitals are the name in the table:
    DNS names are case-insensitive and ``name.`` is ``name``."""
    assert AddressGuard(resolver=RESOLVER).check(host, 80, Deadline(AMPLE_MS)).addresses == [PUBLIC["public4.test"]]


def test_unknown_name_is_dns_error():
    with pytest.raises(ws.NetworkError) as info:
        AddressGuard(resolver=RESOLVER).check("nowhere.test", 80, Deadline(AMPLE_MS))
    assert info.value.detail_code == "dns_error"


def test_resolution_cannot_outlast_the_deadline():
    calls = []

    def stuck_resolver(host, port, timeout_s):
        calls.append(timeout_s)
        raise TimeoutError("stuck")  # what a bounded wait on a hanging lookup ends with, timeout_s later

    with pytest.raises(ws.Timeout) as info:
        AddressGuard(resolver=stuck_resolver).check(
            "slow.test", 80, Deadline(3000)
        )  # under the resolver cap, so the deadline is what bounds it
    assert info.value.detail_code == "deadline_exceeded"
    assert calls and 0 < calls[0] <= 3.0  # the lookup was given what is left of the deadline, no more


def test_a_lookup_that_outlasts_the_resolver_cap_is_a_dns_timeout():
    """With more of the deadline left than the 10 s cap on one lookup, a lookup that hangs ends at
    the cap: ``Timeout(dns_timeout)`` (docs/errors.md), the DNS's fault, not the call's deadline."""
    calls = []

    def stuck_resolver(host, port, timeout_s):
        calls.append(timeout_s)
        raise TimeoutError("stuck")  # what a bounded wait on a hanging lookup ends with, timeout_s later

    with pytest.raises(ws.Timeout) as info:
        AddressGuard(resolver=stuck_resolver).check("slow.test", 80, Deadline(60_000))
    assert info.value.detail_code == "dns_timeout"
    assert calls == [10.0]  # the cap, not what is left of the deadline


def test_an_expired_deadline_looks_nothing_up():
    calls = []

    def resolver(host, port, timeout_s):
        calls.append(timeout_s)
        return [PUBLIC["public4.test"]]

    with pytest.raises(ws.Timeout) as info:
        AddressGuard(resolver=resolver).check("public4.test", 80, Deadline(0))
    assert info.value.detail_code == "deadline_exceeded" and calls == []


def test_a_resolved_link_local_address_with_its_zone_is_judged_as_the_address():
    """``getaddrinfo`` names a link-local IPv6 answer with its zone (``fe80::1%eth0``): the address
    is judged (refused as link-local), not taken for an answer that is no IP address."""
    guard = AddressGuard(resolver=static_resolver({"router.test": "fe80::1%eth0"}))
    with pytest.raises(ws.InvalidInput) as info:
        guard.check("router.test", 80, Deadline(AMPLE_MS))
    assert info.value.detail_code == "private_address" and "link-local" in info.value.message


def _host_http_client_writes(url: str) -> str:
    """The ``Host`` header ``http.client`` writes itself for a connection to ``url``'s host and port."""
    parts = urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    written = []

    class Recording(connection_class):  # type: ignore[misc, valid-type]
        def putheader(self, header, *values):
            written.append((header, values))

    Recording(parts.hostname, parts.port or connection_class.default_port).putrequest("GET", "/")
    [value] = [values[0] for header, values in written if header == "Host"]
    return value.decode("ascii") if isinstance(value, bytes) else value


@pytest.mark.parametrize(
    "url",
    [
        "http://docs.example/a",
        "http://docs.example:80/a",
        "http://docs.example:8080/a",
        "https://docs.example/a",
        "https://docs.example:443/a",
        "https://docs.example:8443/a",
        "https://docs.example:80/a",
        "http://[2001:db8::1]/a",
        "https://[2001:db8::1]:8443/a",
    ],
)
def test_the_host_header_of_a_pinned_connection_is_the_one_http_client_writes(url):
    """A connection pinned to the checked address names the URL's host itself: the same ``Host``
    ``http.client`` writes for a connection to the host (IPv6 in brackets, a default port left out)."""
    assert host_header(url) == _host_http_client_writes(url)


# -- through fetch -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://localhost/",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://0177.0.0.1/",
        "http://127.1:8080/x",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0xa9fea9fe/latest/meta-data/",
        "http://10.0.0.1/",
        "http://192.168.1.1/",
        "http://[fd12::1]/",
        "http://0.0.0.0:8000/",
        "https://[fe80::1]/",
    ],
)
def test_fetch_refuses_private_targets(url):
    with pytest.raises(ws.InvalidInput) as info:
        ws.fetch(url, settings=ws.Settings())
    assert info.value.detail_code == "private_address"
    assert info.value.provider == "fetch"


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_fetch_refuses_names_resolving_to_private_addresses(name):
    with pytest.raises(ws.InvalidInput) as info:
        fetch("http://%s/page" % name, resolver=RESOLVER)
    assert info.value.detail_code == "private_address"

"""The address guard of fetch: which hosts a page may be read from, and connections
pinned to the address that was checked.

Before every hop fetch resolves the host once (:class:`AddressGuard`), refuses
loopback, private, link-local, unspecified, multicast, reserved and otherwise
non-public addresses (IPv4 and IPv6, IPv4-mapped/6to4/NAT64 forms included), and
then connects to exactly that address (each wire pins the connection: see
:mod:`.requests_adapter` and :mod:`.wire_curl`), so a second DNS answer cannot differ
from the one that was checked (DNS rebinding).

Host names made only of numbers are read the way ``inet_aton`` and browsers read
them (``2130706433``, ``0x7f.1``, ``0177.0.0.1`` are all 127.0.0.1).
"""

import functools
import ipaddress
import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Callable, Optional, Union
from urllib.parse import urlsplit

from ..errors import (
    BAD_URL,
    DEADLINE_EXCEEDED,
    DNS_ERROR,
    DNS_TIMEOUT,
    PRIVATE_ADDRESS,
    InvalidInput,
    NetworkError,
    Timeout,
    unresolved_host,
)
from ..hostnames import idna_refusal
from .deadline import Deadline, DeadlinePassed, run_within

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

Address = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]

#: ``resolver(host, port, timeout_s) -> [ip, ...]``; raises ``OSError`` (e.g.
#: ``socket.gaierror``) when the name does not resolve, ``TimeoutError`` when it took too long.
Resolver = Callable[[str, int, float], Sequence[str]]

_MAX_DNS_S = 10.0
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
#: The IANA special-purpose blocks that are not globally reachable (the IPv4 and IPv6
#: Special-Purpose Address Registries), beyond what every supported Python's ``ipaddress`` names:
#: Python 3.11 before 3.11.10 and 3.12 before 3.12.4 took ``192.0.0.8`` (most of ``192.0.0.0/24``)
#: for a global address (gh-113171), and none before 3.14 knows ``3fff::/20`` (RFC 9637,
#: documentation), so the guard let a fetch reach them, depending on the Python's patch version.
#: ``192.0.0.9`` and ``192.0.0.10`` are globally reachable (PCP and TURN anycast) and stay allowed.
_NOT_GLOBAL = (ipaddress.ip_network("192.0.0.0/24"), ipaddress.ip_network("3fff::/20"))
_GLOBAL_IN_NOT_GLOBAL = (ipaddress.ip_address("192.0.0.9"), ipaddress.ip_address("192.0.0.10"))


# -- reading host names ---------------------------------------------------------------------


def _ipv4_part(part: str) -> Optional[int]:
    """One dot-separated part as inet_aton reads it (hex ``0x..``, octal ``0..``, decimal)."""
    if part[:2] in ("0x", "0X"):
        digits = part[2:]
        if digits == "":
            return 0
        return int(digits, 16) if all(c in "0123456789abcdefABCDEF" for c in digits) else None
    if not part.isascii() or not part.isdigit():
        return None
    if len(part) > 1 and part.startswith("0"):
        return int(part, 8) if all(c in "01234567" for c in part) else None
    return int(part)


def _ipv4_parts(host: str) -> Optional[list[int]]:
    """The numbers of a host made of one to four numeric parts (a trailing dot ignored), else ``None``."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()
    if not parts or len(parts) > 4 or any(p == "" for p in parts):
        return None
    numbers = [_ipv4_part(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    return [n for n in numbers if n is not None]


def numeric_ipv4(host: str) -> Optional[ipaddress.IPv4Address]:
    """The IPv4 address a host name made only of numbers stands for, else ``None``.

    Follows ``inet_aton`` / the WHATWG URL standard: one to four parts, each
    decimal, octal (leading ``0``) or hex (``0x``); the last part fills the
    remaining bytes (``127.1`` = 127.0.0.1, ``2130706433`` = 127.0.0.1). A
    trailing dot is ignored. Raises ``InvalidInput(bad_url)`` for a numeric host
    that is out of range (``1.2.3.256``), which browsers reject too.
    """
    values = _ipv4_parts(host)
    if values is None:
        return None
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise InvalidInput("%r is not a valid IPv4 address" % host, detail_code=BAD_URL)
    total = values[-1]
    for index, number in enumerate(values[:-1]):
        total += number << (8 * (3 - index))
    return ipaddress.IPv4Address(total)


@functools.lru_cache(maxsize=256)
def literal_address(host: str) -> Optional[Address]:
    """The address a URL host names literally (IPv6, dotted or numeric IPv4), else ``None``.
    Remembered for the last hosts asked (a pure function of the text, asked two or three times
    per fetch: 3.5 us each for a dotted IPv4 address); a refused one is not, its error raised anew."""
    host = host.strip("[]")
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            raise InvalidInput("%r is not a valid IPv6 address" % host, detail_code=BAD_URL) from None
    return numeric_ipv4(host)


# -- judging addresses ----------------------------------------------------------------------

#: How many addresses' judgements :func:`forbidden_reason` keeps.
_JUDGED_KEPT = 1024


@functools.lru_cache(maxsize=_JUDGED_KEPT)
def forbidden_reason(address: Address) -> Optional[str]:
    """Why ``address`` must not be fetched from (``"loopback"``, ``"private"`` ...), or ``None``.

    IPv6 forms that embed an IPv4 address (IPv4-mapped ``::ffff:a.b.c.d``, 6to4
    ``2002::/16``, NAT64 ``64:ff9b::/96``) are judged by the embedded address.
    Remembered for the last addresses judged (a pure function of the address, asked for each
    address of each hop: ``ipaddress``'s tests of a public address walk every special block, 20 us
    for an IPv4 one and 70 us for an IPv6 one, where a loopback one stops at the first).
    """
    if isinstance(address, ipaddress.IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is None and address in _NAT64:
            embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if embedded is not None:
            inner = forbidden_reason(embedded)
            return "%s (embedded IPv4 %s)" % (inner, embedded) if inner else None
        if address.is_site_local:
            return "site-local"
    for attribute, reason in (
        ("is_loopback", "loopback"),
        ("is_unspecified", "unspecified"),
        ("is_link_local", "link-local"),
        ("is_multicast", "multicast"),
        ("is_reserved", "reserved"),
        ("is_private", "private"),
    ):
        if getattr(address, attribute):
            return reason
    if not address.is_global or _not_global(address):
        return "not publicly routable"
    return None


def _not_global(address: Address) -> bool:
    """Whether ``address`` is in a block of :data:`_NOT_GLOBAL` (and not one of its global exceptions)."""
    return address not in _GLOBAL_IN_NOT_GLOBAL and any(
        address in block for block in _NOT_GLOBAL if block.version == address.version
    )


# -- resolving ------------------------------------------------------------------------------


def system_resolver(host: str, port: int, timeout_s: float) -> list[str]:
    """Resolve with the operating system (``getaddrinfo``), giving up after ``timeout_s``.

    ``getaddrinfo`` cannot be interrupted, so it runs as deadline-bound work
    (:func:`.deadline.run_within`: one of the reused daemon threads, no thread start per
    look-up), abandoned (it finishes on its own) when the time is up; the caller's wait ends
    on Ctrl-C within a quarter second.
    """
    try:
        infos = run_within(
            Deadline(max(0.0, timeout_s) * 1000),
            lambda: socket.getaddrinfo(host, port, type=socket.SOCK_STREAM),
            minimum_s=0.0,
            name="websearch-dns",
        )
    except DeadlinePassed:
        raise TimeoutError("resolving %s took longer than %.1f s" % (host, timeout_s)) from None
    addresses: list[str] = []
    for info in infos:
        address = str(info[4][0])
        if address not in addresses:
            addresses.append(address)
    return addresses


def no_lookup(host: str, port: int, timeout_s: float) -> list[str]:
    """No address for any name: the resolver under a stand-in wire (``MockWire``, ``ReplayWire``),
    which answers every request without a socket, so a name is neither looked up (a test would
    otherwise touch the network, or fail offline with ``dns_error``) nor pinned. An address
    literal is still checked (:meth:`AddressGuard.check` reads it without a resolver)."""
    return []


def lookup_under_mock(host: str, port: int, timeout_s: float) -> list[str]:
    """The system's answer, or none for a name that does not resolve: the resolver while a mock
    of ``requests`` (``responses``...) answers, so a mocked fetch works offline (a CI job) and
    the mock decides about a name the machine cannot resolve; a name that resolves is still
    checked and pinned, and a lookup that hangs is still a ``TimeoutError``."""
    try:
        return system_resolver(host, port, timeout_s)
    except OSError:
        return []


#: Resolvers whose empty answer means "not looked up: nothing to pin", not a DNS miss.
UNPINNED_RESOLVERS = (no_lookup, lookup_under_mock)


def static_resolver(table: dict[str, Union[str, Sequence[str]]]) -> Resolver:
    """A resolver answering from ``table`` (``{"name": "10.0.0.1"}`` or ``{"name": [...]}``).

    Unknown names fail like a DNS miss. Meant for tests and for pinning names
    to known addresses.
    """
    lookup = {name.lower(): ([value] if isinstance(value, str) else list(value)) for name, value in table.items()}

    def resolve(host: str, port: int, timeout_s: float) -> list[str]:
        try:
            return list(lookup[host.lower().rstrip(".")])
        except KeyError:
            raise socket.gaierror(socket.EAI_NONAME, "unknown name %s" % host) from None

    return resolve


@dataclass
class ResolvedHost:
    """A host checked by :class:`AddressGuard`: its addresses, in connection order."""

    host: str
    addresses: list[str]
    private: bool = False


class AddressGuard:
    """Resolves a host once and refuses non-public targets.

    Args:
        allow_private: let private/loopback/link-local targets through (trusted
            local use and tests); they are still resolved once and pinned.
        resolver: ``resolver(host, port, timeout_s) -> [ip, ...]``; default the
            operating system's (bounded by the deadline).
        trusted_networks: networks (``"10.1.2.0/24"``) allowed although not public.
    """

    def __init__(
        self,
        *,
        allow_private: bool = False,
        resolver: Optional[Resolver] = None,
        trusted_networks: Iterable[str] = (),
    ) -> None:
        self.allow_private = allow_private
        self.resolver = resolver or system_resolver
        self.trusted = [ipaddress.ip_network(n, strict=False) for n in trusted_networks]

    def check(self, host: str, port: int, deadline: Deadline, provider: Optional[str] = None) -> ResolvedHost:
        """Resolve ``host`` and return its addresses, or raise.

        Raises ``InvalidInput(private_address)`` when any address is not public
        (unless allowed), ``InvalidInput(bad_url)`` when ``host`` is no host name
        (``a..b.com``, ``xn--zz.com``: :mod:`~..hostnames`), ``NetworkError(dns_error)`` when the name does not
        resolve, ``Timeout(deadline_exceeded)`` when resolving outlasts the deadline.
        """
        literal = literal_address(host)
        addresses = [str(literal)] if literal is not None else self._resolve(host, port, deadline, provider)
        private = False
        for text in addresses:
            try:  # (a literal host's address is the one it names: not read again from its text)
                address = literal if literal is not None else ipaddress.ip_address(text.split("%", 1)[0])
            except ValueError:
                raise NetworkError(
                    "the resolver returned %r for %s, which is not an IP address" % (text, host),
                    provider=provider,
                    detail_code=DNS_ERROR,
                ) from None
            reason = forbidden_reason(address)
            if reason is None or any(address in network for network in self.trusted):
                continue
            if not self.allow_private:
                if literal is None:
                    what = ": it resolves to %s," % address
                else:  # 127.0.0.1 as such, or another spelling of it (0x7f.1): named as read
                    what = "," if str(address) == host.strip("[]") else ": that is %s," % address
                article = "an" if reason[0] in "aeiou" else "a"  # an unspecified address
                raise InvalidInput(
                    "refusing to fetch from %s%s %s %s address" % (host, what, article, reason),
                    provider=provider,
                    detail_code=PRIVATE_ADDRESS,
                    hint="pass allow_private=True (or set WEB_FETCH_ALLOW_PRIVATE=1) only for trusted local use",
                )
            private = True
        return ResolvedHost(host=host, addresses=addresses, private=private)

    def _resolve(self, host: str, port: int, deadline: Deadline, provider: Optional[str]) -> list[str]:
        remaining = deadline.remaining_s()
        if remaining <= 0:
            raise Timeout("no time left to resolve %s" % host, provider=provider, detail_code=DEADLINE_EXCEEDED)
        limit = min(remaining, _MAX_DNS_S)
        reason = idna_refusal(host)
        if reason is not None:
            raise InvalidInput(
                "%s is not a valid host name (%s)" % (host, reason), provider=provider, detail_code=BAD_URL
            )
        try:
            addresses = list(self.resolver(host, port, limit))
        except TimeoutError:
            if limit < _MAX_DNS_S:
                raise Timeout(
                    "resolving %s did not finish within the %.0f ms deadline" % (host, deadline.timeout_ms),
                    provider=provider,
                    detail_code=DEADLINE_EXCEEDED,
                ) from None
            raise Timeout(
                "resolving %s took longer than %.0f s" % (host, _MAX_DNS_S),
                provider=provider,
                detail_code=DNS_TIMEOUT,
            ) from None
        except (OSError, UnicodeError):
            raise unresolved_host(host, provider) from None
        if not addresses and self.resolver not in UNPINNED_RESOLVERS:
            raise unresolved_host(host, provider)
        return addresses


# -- connecting to the checked address ------------------------------------------------------


def host_header(url: str) -> str:
    """The ``Host`` header value for ``url`` (IPv6 in brackets, port only when not the default)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = "[%s]" % host
    default = 443 if parts.scheme == "https" else 80
    return host if parts.port in (None, default) else "%s:%d" % (host, parts.port)

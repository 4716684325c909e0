"""Helpers for test suites (ours and users'): keep tests off the network.

``no_network()`` makes any socket connection to a non-loopback address fail
loudly, so a test that would reach the internet fails instead of passing by luck.
"""

import contextlib
import ipaddress
import socket
from typing import Any, Iterator

__all__ = ["no_network", "NetworkAccessBlocked"]


class NetworkAccessBlocked(RuntimeError):
    """A test tried to open a connection to a non-loopback address."""


def _is_loopback(address: Any) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    if not isinstance(host, str):
        return True  # AF_UNIX paths and the like
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return host in ("localhost",)


@contextlib.contextmanager
def no_network() -> Iterator[None]:
    """Within the block, connecting a socket anywhere but loopback raises
    :class:`NetworkAccessBlocked` (name resolution of other hosts too)."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        if not _is_loopback(address):
            raise NetworkAccessBlocked("test tried to connect to %r" % (address,))
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        if not _is_loopback(address):
            raise NetworkAccessBlocked("test tried to connect to %r" % (address,))
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(host, bytes):
            host = host.decode("ascii", "replace")
        if host is not None and not _is_loopback(host) and host not in ("localhost", "127.0.0.1", "::1"):
            raise NetworkAccessBlocked("test tried to resolve %r" % (host,))
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = real_getaddrinfo

"""What the unit and conformance tests run in (their conftest.py): no connection, the requests
transport; attributes set and put back without ``monkeypatch``, whose fixture each of their
thousands of tests paid for more than most of them take to run."""

import contextlib
import socket
from collections.abc import Iterator
from typing import Any

from websearch_sync.net import browser


def _refuse_connection(sock, address):
    raise AssertionError("a unit test connected to %r: move it to tests/sockets/" % (address,))


def _never_the_browser_wire():
    return False


#: ``responses`` replays HTTP inside ``requests``, so keyless engines and fetch run on the requests
#: transport (as without the browser extra: the browser transport is tested against real loopback
#: servers in tests/sockets/ and tests/reliability/). ``(owner, attribute, value)``.
REQUESTS_TRANSPORT = ((browser, "browser_available", _never_the_browser_wire),)
#: A unit test also opens no connection at all: connecting any socket fails it, naming where it belongs.
UNIT_WORLD = (
    (socket.socket, "connect", _refuse_connection),
    (socket.socket, "connect_ex", _refuse_connection),
) + REQUESTS_TRANSPORT
_ABSENT = object()


@contextlib.contextmanager
def attributes_set(world: tuple[tuple[Any, str, Any], ...]) -> Iterator[None]:
    """Each ``(owner, attribute, value)`` of ``world`` set inside, and what was there before
    afterwards (an attribute a class only inherited is removed again, as ``monkeypatch`` does)."""
    saved = [(owner, name, vars(owner).get(name, _ABSENT)) for owner, name, _ in world]
    for owner, name, value in world:
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner, name, value in reversed(saved):
            if value is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, value)

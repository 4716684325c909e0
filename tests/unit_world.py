"""What every unit test runs in (tests/unit/conftest.py): no connection, the requests transport."""

import contextlib
import socket
from collections.abc import Iterator

from websearch_sync.net import browser


def _refuse_connection(sock, address):
    raise AssertionError("a unit test connected to %r: move it to tests/sockets/" % (address,))


def _never_the_browser_wire():
    return False


#: What every unit test runs with: ``(owner, attribute, value)``. Connecting any socket fails the
#: test, naming where it belongs; and ``responses`` replays HTTP inside ``requests``, so keyless
#: engines and fetch run on the requests transport (as without the browser extra: the browser
#: transport is tested against real loopback servers in tests/sockets/ and tests/reliability/).
_UNIT_WORLD = (
    (socket.socket, "connect", _refuse_connection),
    (socket.socket, "connect_ex", _refuse_connection),
    (browser, "browser_available", _never_the_browser_wire),
)
_ABSENT = object()


@contextlib.contextmanager
def unit_world() -> Iterator[None]:
    """:data:`_UNIT_WORLD` inside, and what was there before afterwards (an attribute a class only
    inherited is removed again, as ``monkeypatch`` does)."""
    saved = [(owner, name, vars(owner).get(name, _ABSENT)) for owner, name, _ in _UNIT_WORLD]
    for owner, name, value in _UNIT_WORLD:
        setattr(owner, name, value)
    try:
        yield
    finally:
        for owner, name, value in reversed(saved):
            if value is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, value)

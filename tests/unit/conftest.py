"""Unit tests open no connection at all, not even to 127.0.0.1: HTTP is replayed with
``responses``. A test that needs a real local server belongs in ``tests/sockets/``."""

import socket
import threading
import warnings

import pytest

from websearch_sync.backends import stub
from websearch_sync.net import browser


@pytest.fixture(autouse=True)
def _no_connections(monkeypatch):
    """Connecting any socket fails the test, naming where it belongs."""

    def refuse(sock, address):
        raise AssertionError("a unit test connected to %r: move it to tests/sockets/" % (address,))

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


@pytest.fixture(autouse=True)
def _requests_transport(monkeypatch):
    """``responses`` replays HTTP inside ``requests``, so unit tests run keyless engines and fetch
    on the requests transport (as without the browser extra). The browser transport is tested
    against real loopback servers in tests/sockets/ and tests/reliability/."""
    monkeypatch.setattr(browser, "browser_available", lambda: False)


@pytest.fixture
def unwarned(monkeypatch):
    """The offline stub's once-per-process warning not given yet in this process (its state reset),
    and every warning recorded: the list the fixture gives."""
    monkeypatch.setattr(stub, "_warned", threading.Event())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        yield seen

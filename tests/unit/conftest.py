"""Unit tests open no connection at all, not even to 127.0.0.1: HTTP is replayed with
``responses``. A test that needs a real local server belongs in ``tests/sockets/``."""

import socket

import pytest


@pytest.fixture(autouse=True)
def _no_connections(monkeypatch):
    """Connecting any socket fails the test, naming where it belongs."""
    def refuse(sock, address):
        raise AssertionError("a unit test connected to %r: move it to tests/sockets/" % (address,))

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)

"""The system resolver cannot outlast the call's deadline: a lookup that hangs is given up at
the deadline (the guard waits for it in a thread of its own). Real time is the subject, so the
margin comes from the machine's pace, measured around the call."""

import socket
import threading
import time

import pytest
from clocks import deadline_margin_s, machine_pace

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.ssrf import AddressGuard

DEADLINE_MS = 300


def test_system_resolver_gives_up_on_a_hanging_lookup(monkeypatch):
    release = threading.Event()

    def hanging_getaddrinfo(*args, **kwargs):
        release.wait(5)  # ends by itself after 5 s at most
        raise socket.gaierror("released")

    monkeypatch.setattr(socket, "getaddrinfo", hanging_getaddrinfo)
    try:
        with machine_pace() as pace:
            started = time.monotonic()
            with pytest.raises(ws.Timeout):
                AddressGuard().check("hangs.test", 80, Deadline(DEADLINE_MS))
            elapsed = time.monotonic() - started
    finally:
        release.set()
    assert elapsed < DEADLINE_MS / 1000 + deadline_margin_s(pace.slowdown), elapsed


def test_look_ups_one_after_another_start_no_thread(monkeypatch):
    """The look-up runs in the reused work threads (``net.workers``): a thread start per fetch of
    a named host cost more CPU than the look-up itself."""
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 0, 0, "", ("192.0.2.7", 80))])
    from websearch_sync.net.ssrf import system_resolver

    assert system_resolver("warm.test", 80, 5) == ["192.0.2.7"]  # a thread may start here
    started = []
    real_start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: (started.append(self.name), real_start(self))[1])
    for _ in range(3):
        assert system_resolver("named.test", 80, 5) == ["192.0.2.7"]
    assert started == []

"""The address guard at its edges (in-process, no network: the resolver and ``getaddrinfo`` stood
in for): a deadline with nothing left resolves nothing, a stand-in wire's resolver pins nothing,
and the system resolver gives each address once (``net/ssrf.py``)."""

import socket

import pytest
from clocks import FakeClock, deadlines_on

import websearch_sync as ws
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.ssrf import AddressGuard, no_lookup, static_resolver, system_resolver


def test_a_deadline_with_nothing_left_resolves_nothing(monkeypatch):
    clock = FakeClock()
    deadlines_on(clock, monkeypatch)
    deadline = Deadline(1_000)
    clock.advance(1.0)  # exactly at its end
    guard = AddressGuard(resolver=static_resolver({"docs.example": "93.184.216.34"}))
    with pytest.raises(ws.Timeout) as info:
        guard.check("docs.example", 443, deadline)
    assert info.value.detail_code == "deadline_exceeded"


def test_a_stand_in_wire_s_resolver_pins_no_address_and_is_no_dns_miss():
    resolved = AddressGuard(resolver=no_lookup).check("docs.example", 443, Deadline(5_000))
    assert resolved.addresses == [] and not resolved.private


def test_the_system_resolver_gives_each_address_once(monkeypatch):
    """``getaddrinfo`` repeats an address (one entry per protocol, or listed twice in a hosts file)."""

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        entry = (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))
        other = (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("2606:2800:220:1::", port, 0, 0))
        return [entry, other, entry]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    assert system_resolver("docs.example", 443, 5.0) == ["93.184.216.34", "2606:2800:220:1::"]

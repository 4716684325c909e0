"""``testing.no_network`` blocks that overlap across threads leave the real socket functions behind."""

import socket
import threading

import pytest

from websearch_sync.testing import NetworkAccessBlocked, no_network


def test_blocks_that_end_out_of_order_restore_the_real_socket_functions():
    real = (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo)
    outer_entered, inner_entered, outer_left = threading.Event(), threading.Event(), threading.Event()

    def outer():
        with no_network():
            outer_entered.set()
            inner_entered.wait(10)
        outer_left.set()

    thread = threading.Thread(target=outer)
    thread.start()
    assert outer_entered.wait(10)
    with no_network():  # enters second, leaves last: the order that used to re-install a wrapper
        inner_entered.set()
        assert outer_left.wait(10)
        with pytest.raises(NetworkAccessBlocked):
            socket.getaddrinfo("example.com", 80)
    thread.join(10)
    assert (socket.socket.connect, socket.socket.connect_ex, socket.getaddrinfo) == real


def test_nested_blocks_still_block_until_the_outer_one_ends():
    with no_network():
        with no_network():
            pass
        with pytest.raises(NetworkAccessBlocked):
            socket.getaddrinfo("example.com", 80)
    socket.getaddrinfo("127.0.0.1", 80)


def test_a_blocking_function_left_in_place_is_not_taken_for_the_real_one(monkeypatch):
    real = socket.getaddrinfo
    with no_network():
        left_behind = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", left_behind)  # as a test's monkeypatch undo leaves it
    for _ in range(3):
        with no_network():
            assert socket.getaddrinfo("127.0.0.1", 80)  # reaches the real resolver, no recursion
    monkeypatch.undo()
    assert socket.getaddrinfo is real

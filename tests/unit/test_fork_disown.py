"""What the browser wire notes of its handles' sockets, for a forked child to let go of them
(the socket tests, tests/sockets/test_forked_children.py, see the child let go of a real
connection on both wires): a number libcurl closed that another socket took since is no
connection of the parent's, and the notes of closed sockets do not pile up."""

import os
import socket
import stat

import pytest
from forked import exit_codes, fork_running
from transports import needs_browser

pytestmark = [needs_browser, pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")]

#: The child does a few system calls; one still running then hung.
CHILD_LIMIT_S = 30


def _is_socket(descriptor):
    return stat.S_ISSOCK(os.fstat(descriptor).st_mode)


def test_a_child_lets_go_of_a_noted_socket_and_leaves_a_number_another_socket_took_since():
    from websearch_sync.net.wire_curl import CurlWire, _Options

    wire = CurlWire("chrome")
    with socket.socket() as kept, socket.socket() as gone, socket.socket() as other:
        options = _Options()
        options.note_socket(kept.fileno())
        options.note_socket(gone.fileno())
        reused = gone.detach()  # libcurl closed it; the number is another socket's by the fork:
        os.dup2(other.fileno(), reused)
        wire._options[object()] = options  # noqa: SLF001 - a handle's notes, as a transfer leaves them

        def child():  # at the fork, before any line of the child
            assert not _is_socket(kept.fileno())  # let go of: /dev/null
            assert _is_socket(reused)  # before the identity check: /dev/null too, a socket the child opened lost

        try:
            code = exit_codes([fork_running(child)], CHILD_LIMIT_S)[0]
            assert _is_socket(kept.fileno()) and _is_socket(reused)  # the parent's own copies are untouched
        finally:
            os.close(reused)
            wire.close()
    assert code == 0


def test_the_notes_of_sockets_closed_since_are_dropped():
    from websearch_sync.net.wire_curl import _Options

    options = _Options()
    opened = [socket.socket() for _ in range(12)]
    for sock in opened:
        options.note_socket(sock.fileno())
    assert len(options.sockets) == 12  # each live one is kept
    for sock in opened:
        sock.close()
    with socket.socket() as last:
        options.note_socket(last.fileno())
        assert options.sockets == {last.fileno(): (os.fstat(last.fileno()).st_dev, os.fstat(last.fileno()).st_ino)}

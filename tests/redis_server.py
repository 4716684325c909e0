"""A real ``redis-server`` on a free loopback port, for the shared-state tests and bench.

``RedisServer`` starts the Debian package's binary with no persistence
(``--save '' --appendonly no``), waits (bounded) until it answers PING, and stops it
on exit. :func:`redis_server_binary` says where the binary is (``None`` when there is
none: the tests are then skipped with that reason).
"""

import os
import shutil
import socket
import subprocess
import time
from typing import Any, Optional

from faults import held_port

__all__ = [
    "RedisServer",
    "redis_server_binary",
    "up",
    "held_keys",
    "NO_REDIS_REASON",
    "REDIS_UP_TIMEOUT_S",
]

START_WAIT_S = 10.0
STOP_WAIT_S = 5.0
#: How long a command to a running Redis may take before a worker counts it down in a test that is
#: not about that bound (the default, 0.25 s, is for production; a loaded machine's TLS handshake or
#: scheduling can outlast it; far less than the calls' 15 s budget, which a command must fit in).
REDIS_UP_TIMEOUT_S = 2.0


def up(url: str) -> str:
    """``url`` with :data:`REDIS_UP_TIMEOUT_S` as its command and connect timeouts (a Redis that
    answers must not count as down on a loaded machine; the production 0.25 s is the subject of
    the tests that keep it)."""
    bound = "socket_timeout=%g&socket_connect_timeout=%g" % (REDIS_UP_TIMEOUT_S, REDIS_UP_TIMEOUT_S)
    return url + ("&" if "?" in url else "?") + bound


NO_REDIS_REASON = "no redis-server binary on PATH (Debian: apt-get install redis-server; .ci/run installs it)"


def held_keys(db: Any, pattern: str = "*") -> list[bytes]:
    """The keys of ``db`` matching ``pattern``, without the questions let go a moment ago (a
    ``…flight:`` key holding ``released`` for 3 s after its asker is done: ``state/flights.py``)."""
    return [key for key in db.keys(pattern) if b":flight:" not in key or db.get(key) != b"released"]


def redis_server_binary() -> Optional[str]:
    """The path of ``redis-server``, or ``None``."""
    return shutil.which("redis-server")


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
            sock.settimeout(0.5)
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """``with RedisServer() as server: server.url`` — a private, throw-away Redis."""

    def __init__(self, port: Optional[int] = None) -> None:
        #: the sockets holding its ports until it listens there (:meth:`hold_port`)
        self._holders: list[socket.socket] = []
        self.port = port or self.hold_port()
        self.process: Optional[subprocess.Popen] = None

    def hold_port(self) -> int:
        """A port for the server to bind, held for it until it answers (``faults.held_port``, with
        ``SO_REUSEADDR``, which redis-server sets too): a port picked, released and given to the
        server later was anyone's in between, and another process that took it first made the
        server exit at start ("Address already in use"), or answered for it."""
        holder = held_port(reuse=True)
        self._holders.append(holder)
        return int(holder.getsockname()[1])

    def _release_ports(self) -> None:
        while self._holders:
            self._holders.pop().close()

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:<port>/0``."""
        return "redis://127.0.0.1:%d/0" % self.port

    def command(self) -> list[str]:
        """The command line that starts the server."""
        binary = redis_server_binary()
        if binary is None:
            raise RuntimeError(NO_REDIS_REASON)
        return [
            binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
        ]

    def start(self) -> "RedisServer":
        """Start the server and wait until it answers (at most ``START_WAIT_S``)."""
        self.process = subprocess.Popen(
            self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=os.path.abspath(os.sep)
        )
        deadline = time.monotonic() + START_WAIT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    "redis-server exited at start: %s" % self.process.stderr.read().decode(errors="replace")
                )
            if _ping(self.port):
                self._release_ports()
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not answer on port %d within %.0f s" % (self.port, START_WAIT_S))

    def stop(self) -> None:
        """Stop the server (terminate, then kill if it lingers); idempotent."""
        self._release_ports()
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_WAIT_S)
        if process.stderr is not None:
            process.stderr.close()

    def __enter__(self) -> "RedisServer":
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


try:  # the fixtures exist where pytest does (the tests); the bench uses RedisServer alone
    import pytest
except ImportError:  # pragma: no cover
    pytest = None

if pytest is not None:

    @pytest.fixture(scope="module")
    def redis_server():
        """A real redis-server for the module's tests (skipped, with the reason, where there is none)."""
        if redis_server_binary() is None:
            pytest.skip(NO_REDIS_REASON)
        pytest.importorskip("redis", reason="redis-py is not installed: pip install -e '.[redis]' from a checkout")
        with RedisServer() as server:
            yield server

    @pytest.fixture
    def redis_db(redis_server):
        """A redis-py client on the module's server, its database emptied first."""
        import redis

        client = redis.Redis.from_url(redis_server.url)
        client.flushdb()
        yield client
        client.close()

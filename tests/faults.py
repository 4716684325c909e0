"""The fault catalogue: every way the test servers misbehave, each named once with its implementation.

An HTTP fault is a handler factory: ``trickle(body, 0.05)`` gives a handler
``(conn, request, server)`` for :class:`servers.FaultServer` (and the fault lab's
``LabServer``, which shapes these same faults per target). A handler writes raw bytes, so
it can do anything a real server can; every wait is bounded and ends when the server
stops (``server.wait``, ``server.stopping``), so no test can hang because of a fault.

Connection faults (nothing listens, a listener that never accepts, a peer that never
speaks, a DNS server that never answers) are context managers or a port.

Used by ``tests/servers.py`` (the server), ``tests/reliability/faultlab.py`` (the fault
matrix) and the socket and reliability tests.
"""

import gzip
import socket
import struct
import threading
import time
import zlib
from typing import Any, Callable, Optional

__all__ = [
    "MAX_WAIT_S",
    "Handler",
    "head",
    "respond",
    "raw",
    "redirect",
    "gzipped",
    "never_answer",
    "stall_after_headers",
    "slow_header_lines",
    "trickle",
    "reset_mid_body",
    "truncated_chunked",
    "wrong_length",
    "endless",
    "gzip_bomb",
    "gzip_bomb_payload",
    "invalid_gzip",
    "delayed",
    "gated",
    "sequence",
    "past_the_deadline",
    "held_port",
    "refused_port",
    "release_ports",
    "listener_that_never_accepts",
    "SilentTcp",
    "SilentDns",
]

#: The longest any fault waits (it ends sooner when the server stops).
MAX_WAIT_S = 30.0

#: ``handler(conn, request, server)``: ``request`` is a ``servers.Request``, ``server`` a ``servers.FaultServer``.
Handler = Callable[[socket.socket, Any, Any], None]

_REASONS = {
    200: "OK",
    202: "Accepted",
    301: "Moved",
    302: "Found",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Unavailable",
}


def head(status: int, headers: dict[str, str]) -> bytes:
    """The status line and ``headers``, up to and including the blank line."""
    lines = ["HTTP/1.1 %d %s" % (status, _REASONS.get(status, "X"))] + ["%s: %s" % kv for kv in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


# -- well-formed answers --------------------------------------------------------------------------


def respond(
    status: int = 200,
    body: bytes = b"",
    headers: Optional[dict[str, Optional[str]]] = None,
    content_type: Optional[str] = "text/html; charset=utf-8",
) -> Handler:
    """One complete answer, then close. A header (``Content-Type`` and ``Content-Length`` too) whose
    value is ``None`` is not sent: a body without a length ends when the connection closes."""
    fields: dict[str, Optional[str]] = {
        "Content-Type": content_type,
        "Content-Length": str(len(body)),
        "Connection": "close",
    }
    fields.update(headers or {})
    data = head(status, {name: value for name, value in fields.items() if value is not None}) + body

    def handler(conn, request, server):
        conn.sendall(data)

    return handler


def raw(data: bytes) -> Handler:
    """Send exactly these bytes, then close."""

    def handler(conn, request, server):
        conn.sendall(data)

    return handler


def redirect(location: str, status: int = 302) -> Handler:
    """A redirect to ``location``."""
    return respond(status, b"", {"Location": location})


def gzipped(body: bytes, content_type: str = "text/html; charset=utf-8") -> Handler:
    """A valid gzip-encoded body."""
    return respond(200, gzip.compress(body), {"Content-Encoding": "gzip"}, content_type=content_type)


# -- time: answers that never come, or come too slowly --------------------------------------------


def never_answer(seconds: float = MAX_WAIT_S) -> Handler:
    """Read the request, answer nothing."""

    def handler(conn, request, server):
        server.wait(seconds)

    return handler


def stall_after_headers(seconds: float = MAX_WAIT_S, *, declared_length: int = 1000, sent: bytes = b"") -> Handler:
    """Send the headers (declaring ``declared_length`` bytes) and ``sent``, then nothing."""

    def handler(conn, request, server):
        fields = {"Content-Type": "text/html", "Content-Length": str(declared_length), "Connection": "close"}
        conn.sendall(head(200, fields) + sent)
        server.wait(seconds)

    return handler


def slow_header_lines(every_s: float, server_side_s: float = 20.0) -> Handler:
    """The status line, then one header line every ``every_s`` (for ``server_side_s``), never the blank line:
    each read gets a byte in time, only a whole-call deadline ends the call."""

    def handler(conn, request, server):
        conn.sendall(b"HTTP/1.1 200 OK\r\n")
        ends = time.monotonic() + server_side_s
        while time.monotonic() < ends and not server.stopping.is_set():
            conn.sendall(b"X-Slow: 1\r\n")
            server.wait(every_s)

    return handler


def trickle(
    body: bytes, delay_s: float, content_type: str = "text/html; charset=utf-8", max_bytes: Optional[int] = None
) -> Handler:
    """Headers at once (declaring the whole body), then the body one byte every ``delay_s`` seconds
    (the first ``max_bytes`` of it, when given)."""

    def handler(conn, request, server):
        conn.sendall(head(200, {"Content-Type": content_type, "Content-Length": str(len(body)), "Connection": "close"}))
        for i in range(len(body) if max_bytes is None else min(len(body), max_bytes)):
            if server.stopping.is_set():
                return
            conn.sendall(body[i : i + 1])
            server.wait(delay_s)

    return handler


def delayed(seconds: float, inner: Handler) -> Handler:
    """Wait ``seconds``, then answer with ``inner``."""

    def handler(conn, request, server):
        server.wait(seconds)
        inner(conn, request, server)

    return handler


def gated(event: threading.Event, inner: Handler) -> Handler:
    """Wait until ``event`` is set (at most :data:`MAX_WAIT_S`, or until the server stops), then answer with ``inner``:
    a test orders what happens on the server against what its threads do."""

    def handler(conn, request, server):
        deadline = time.monotonic() + MAX_WAIT_S
        while not event.wait(0.05) and not server.stopping.is_set() and time.monotonic() < deadline:
            pass
        inner(conn, request, server)

    return handler


def past_the_deadline(clock: Any, deadline_s: float) -> Handler:
    """A request whose deadline passes mid-answer on a fake clock, without a real wait: the answer
    begins, ``clock`` moves on past ``deadline_s`` (twice it), then one byte of the body comes,
    which the wire reads with the request's deadline expired (``Timeout``). The call's deadlines
    must be on ``clock`` (``clocks.deadlines_on``); ``deadline_s``: the request's own timeout (a
    budget longer than twice it is left), or the call's budget (spent).
    Where a test's subject is what the call makes of such a timeout, not real time: a real short
    timeout on a silent route is every other request's timeout too, which a loaded machine's
    answers outlast, and the client may give up before the server's thread has read its request."""

    def handler(conn, request, server):
        conn.sendall(head(200, {"Content-Type": "application/json", "Content-Length": "100", "Connection": "close"}))
        clock.advance(2 * deadline_s)
        conn.sendall(b"{")
        server.wait(MAX_WAIT_S)

    return handler


def sequence(*handlers: Handler) -> Handler:
    """Answer the n-th request with the n-th handler (the last one repeats)."""
    lock = threading.Lock()
    count = [0]

    def handler(conn, request, server):
        with lock:
            index = min(count[0], len(handlers) - 1)
            count[0] += 1
        handlers[index](conn, request, server)

    return handler


# -- broken bodies --------------------------------------------------------------------------------


def reset_mid_body(
    sent: bytes = b"<html><body>" + b"x" * 5000, declared_length: Optional[int] = None, content_type: str = "text/html"
) -> Handler:
    """Declare ``declared_length`` bytes (twice ``sent`` by default), send ``sent``, then reset the connection (RST)."""
    length = 2 * len(sent) if declared_length is None else declared_length

    def handler(conn, request, server):
        conn.sendall(
            head(200, {"Content-Type": content_type, "Content-Length": str(length), "Connection": "close"}) + sent
        )
        time.sleep(0.05)  # the bytes leave before the reset
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    return handler


def truncated_chunked(
    first: bytes = b'{"results": [1, ', cut: bytes = b'{"tit', content_type: str = "application/json"
) -> Handler:
    """A chunked body that ends inside a chunk: the chunk ``first``, then a chunk announced
    longer than ``cut``, then ``cut`` and close."""

    def handler(conn, request, server):
        conn.sendall(
            head(200, {"Content-Type": content_type, "Transfer-Encoding": "chunked", "Connection": "close"})
            + b"%x\r\n%s\r\n" % (len(first), first)
            + b"%x\r\n" % (len(cut) + 1024)
            + cut
        )

    return handler


def wrong_length(declared: int, body: bytes, content_type: str = "application/json") -> Handler:
    """Declare ``declared`` bytes, send ``body``, close."""
    return respond(200, body, {"Content-Length": str(declared)}, content_type=content_type)


#: An endless body stops after this many bytes (or when the server stops), whatever happens.
ENDLESS_CAP_BYTES = 256_000_000


def endless(
    content_type: str = "text/html",
    chunk: bytes = b"<p>" + b"a" * 8189,
    *,
    status: int = 200,
    headers: Optional[dict[str, str]] = None,
    every_s: float = 0.0,
    cap_bytes: int = ENDLESS_CAP_BYTES,
) -> Handler:
    """A chunked body that never ends (until the client hangs up, the server stops or ``cap_bytes``
    were sent): ``chunk`` after ``chunk``, one every ``every_s``. ``status`` and ``headers`` make
    it, for example, a redirect whose body never ends."""
    frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
    fields = {"Content-Type": content_type, "Transfer-Encoding": "chunked", "Connection": "close"}
    fields.update(headers or {})

    def handler(conn, request, server):
        conn.sendall(head(status, fields))
        sent = 0
        while not server.stopping.is_set() and sent < cap_bytes:
            conn.sendall(frame)
            sent += len(frame)
            if every_s:
                server.wait(every_s)

    return handler


_BOMBS: dict[int, bytes] = {}
_BOMBS_LOCK = threading.Lock()


def gzip_bomb_payload(expanded_bytes: int = 200_000_000) -> bytes:
    """A small gzip body that expands to ``expanded_bytes`` (a multiple of 1 MB) of NUL bytes (built once
    per size): one gzip member (libcurl, like browsers, decodes only single-member gzip) made of one fully
    flushed deflate block of 1 MB of NUL bytes, repeated (a full flush resets the compressor, so the block
    is the same every time), then the trailer's CRC and size of the whole."""
    with _BOMBS_LOCK:
        if expanded_bytes not in _BOMBS:
            zeros, count = b"\0" * 1_000_000, expanded_bytes // 1_000_000
            deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
            block = deflate.compress(zeros) + deflate.flush(zlib.Z_FULL_FLUSH)
            crc = 0
            for _ in range(count):
                crc = zlib.crc32(zeros, crc)
            trailer = struct.pack("<II", crc, (count * 1_000_000) & 0xFFFFFFFF)
            _BOMBS[expanded_bytes] = (
                b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + block * count + deflate.flush(zlib.Z_FINISH) + trailer
            )
        return _BOMBS[expanded_bytes]


def gzip_bomb(expanded_bytes: int = 200_000_000, content_type: str = "text/html") -> Handler:
    """A small gzip body that expands to ``expanded_bytes`` of NUL bytes."""
    return respond(200, gzip_bomb_payload(expanded_bytes), {"Content-Encoding": "gzip"}, content_type=content_type)


def invalid_gzip(content_type: str = "text/html") -> Handler:
    """Declares gzip, sends bytes that are not gzip."""
    return respond(200, b"this is not gzip at all" * 20, {"Content-Encoding": "gzip"}, content_type=content_type)


# -- connections ----------------------------------------------------------------------------------


#: The sockets holding the ports :func:`refused_port` gave, closed as each test ends (``tests/conftest.py``).
_HELD_PORTS: list[socket.socket] = []


def held_port(reuse: bool = False) -> socket.socket:
    """A socket bound to a port of 127.0.0.1, never listening: while it is open a connection to the
    port is refused and the kernel gives the port to no other socket (a bind to port 0, a client's
    own port). With ``reuse`` (``SO_REUSEADDR``), a server that sets it too, as redis-server does,
    can bind and listen there meanwhile. A port bound, closed, then used (what ``free_port()`` gave)
    was anyone's in between: another process's server listening on the "dead" port, or a server of
    ours that could not bind it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if reuse:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def refused_port() -> int:
    """A port on 127.0.0.1 where a connection is refused, held (:func:`held_port`) until the test ends."""
    sock = held_port()
    _HELD_PORTS.append(sock)
    return int(sock.getsockname()[1])


def release_ports() -> None:
    """Close the sockets holding the ports :func:`refused_port` gave (as each test ends)."""
    while _HELD_PORTS:
        _HELD_PORTS.pop().close()


class listener_that_never_accepts:
    """A port whose accept queue is full: new connections hang in connect (connect timeout)."""

    def __enter__(self) -> "listener_that_never_accepts":
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(0)
        self.port = self.sock.getsockname()[1]
        self.fillers: list[socket.socket] = []
        for _ in range(8):  # fill the backlog
            filler = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            filler.setblocking(False)
            try:
                filler.connect(("127.0.0.1", self.port))
            except (BlockingIOError, OSError):
                pass
            self.fillers.append(filler)
        time.sleep(0.05)
        return self

    def url(self, path: str = "/") -> str:
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def __exit__(self, *exc: object) -> None:
        for sock in self.fillers + [self.sock]:
            sock.close()


class SilentTcp:
    """Accepts connections and never sends a byte (a TLS handshake that never finishes)."""

    def __enter__(self) -> "SilentTcp":
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()
        return self

    def _accept(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                self.accepted.append(self.sock.accept()[0])
            except socket.timeout:
                continue

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)
        for conn in self.accepted:
            conn.close()
        self.sock.close()


class SilentDns:
    """A UDP port on loopback that takes DNS queries and never answers."""

    def __enter__(self) -> "SilentDns":
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        return self

    def __exit__(self, *exc: object) -> None:
        self.sock.close()

"""A real HTTP server on 127.0.0.1 for tests that need sockets.

Raw sockets, one thread per connection, so a route can misbehave in any way a real
server can: stall, trickle, reset, lie about Content-Length, send a bad chunk.
Every wait is bounded and ends when the server stops, so a test can never hang
because of the server.
"""

import gzip
import socket
import threading
import time
import zlib
from dataclasses import dataclass
from typing import Callable, Optional

__all__ = [
    "Request",
    "FaultServer",
    "respond",
    "raw",
    "trickle",
    "stall_after_headers",
    "never_answer",
    "reset_mid_body",
    "truncated_chunked",
    "wrong_length",
    "redirect",
    "endless",
    "gzip_bomb",
    "invalid_gzip",
    "listener_that_never_accepts",
]

MAX_WAIT_S = 30.0


@dataclass
class Request:
    """A request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def route(self) -> str:
        return self.path.split("?", 1)[0]


def _read_request(conn: socket.socket) -> Optional[Request]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
        if len(data) > 1_000_000:
            return None
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, path, _version = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0") or 0)
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    return Request(method, path, headers, rest[:length])


Handler = Callable[[socket.socket, Request, "FaultServer"], None]


class FaultServer:
    """``with FaultServer({"/path": handler}) as server: server.url("/path")``.

    A handler gets ``(conn, request, server)`` and writes whatever bytes it likes.
    Unknown paths answer 404. ``server.requests`` lists what arrived.
    """

    def __init__(self, routes: dict[str, Handler], *, max_lifetime_s: float = 120.0) -> None:
        self.routes = dict(routes)
        self.requests: list[Request] = []
        self.stopping = threading.Event()
        self.max_lifetime_s = max_lifetime_s
        self._listener: Optional[socket.socket] = None
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self.port = 0

    def url(self, path: str = "/") -> str:
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def wait(self, seconds: float) -> None:
        """Sleep up to ``seconds``, or less when the server stops."""
        self.stopping.wait(min(seconds, MAX_WAIT_S))

    def __enter__(self) -> "FaultServer":
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._started = time.monotonic()
        thread = threading.Thread(target=self._accept_loop, name="fault-server", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        if self._listener is not None:
            try:  # wakes the accept loop now instead of at its next 0.2 s accept timeout
                self._listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._listener.close()
        for thread in list(self._threads):
            thread.join(timeout=5)

    def _accept_loop(self) -> None:
        while not self.stopping.is_set() and time.monotonic() - self._started < self.max_lifetime_s:
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(conn,), daemon=True)
            thread.start()
            with self._lock:
                self._threads.append(thread)
        self.stopping.set()

    def _serve(self, conn: socket.socket) -> None:
        conn.settimeout(MAX_WAIT_S)
        try:
            request = _read_request(conn)
            if request is None:
                return
            with self._lock:
                self.requests.append(request)
            handler = self.routes.get(request.route) or self.routes.get("*") or respond(404, b"not found")
            handler(conn, request, self)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass


# -- behaviours -------------------------------------------------------------------------------


def _head(status: int, headers: dict[str, str]) -> bytes:
    reason = {
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
    }.get(status, "X")
    lines = ["HTTP/1.1 %d %s" % (status, reason)] + ["%s: %s" % kv for kv in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def respond(
    status: int = 200,
    body: bytes = b"",
    headers: Optional[dict[str, str]] = None,
    content_type: str = "text/html; charset=utf-8",
) -> Handler:
    """A well-formed response."""

    def handler(conn, request, server):
        all_headers = {"Content-Type": content_type, "Content-Length": str(len(body)), "Connection": "close"}
        all_headers.update(headers or {})
        conn.sendall(_head(status, all_headers) + body)

    return handler


def raw(data: bytes) -> Handler:
    """Send exactly these bytes, then close."""

    def handler(conn, request, server):
        conn.sendall(data)

    return handler


def trickle(body: bytes, delay_s: float, content_type: str = "text/html; charset=utf-8") -> Handler:
    """Headers at once, then the body one byte every ``delay_s`` seconds."""

    def handler(conn, request, server):
        conn.sendall(
            _head(200, {"Content-Type": content_type, "Content-Length": str(len(body)), "Connection": "close"})
        )
        for i in range(len(body)):
            if server.stopping.is_set():
                return
            conn.sendall(body[i : i + 1])
            server.wait(delay_s)

    return handler


def stall_after_headers(seconds: float = MAX_WAIT_S) -> Handler:
    """Send the headers, then nothing."""

    def handler(conn, request, server):
        conn.sendall(_head(200, {"Content-Type": "text/html", "Content-Length": "1000", "Connection": "close"}))
        server.wait(seconds)

    return handler


def never_answer(seconds: float = MAX_WAIT_S) -> Handler:
    """Read the request, answer nothing."""

    def handler(conn, request, server):
        server.wait(seconds)

    return handler


def reset_mid_body(body: bytes = b"<html><body>" + b"x" * 5000) -> Handler:
    """Send half the body, then reset the connection (RST)."""

    def handler(conn, request, server):
        conn.sendall(
            _head(200, {"Content-Type": "text/html", "Content-Length": str(len(body) * 2), "Connection": "close"})
        )
        conn.sendall(body)
        time.sleep(0.05)
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")

    return handler


def truncated_chunked() -> Handler:
    """A chunked body that ends in the middle of a chunk."""

    def handler(conn, request, server):
        conn.sendall(
            _head(200, {"Content-Type": "application/json", "Transfer-Encoding": "chunked", "Connection": "close"})
        )
        first = b'{"results": [1, '
        conn.sendall(b"%x\r\n%s\r\n" % (len(first), first) + b'40\r\n{"tit')

    return handler


def wrong_length(declared: int, body: bytes, content_type: str = "application/json") -> Handler:
    """Declare ``declared`` bytes, send ``body``, close."""

    def handler(conn, request, server):
        conn.sendall(
            _head(200, {"Content-Type": content_type, "Content-Length": str(declared), "Connection": "close"}) + body
        )

    return handler


def redirect(location: str, status: int = 302) -> Handler:
    """A redirect to ``location``."""
    return respond(status, b"", {"Location": location})


def endless(content_type: str = "text/html", chunk: bytes = b"<p>" + b"a" * 8189) -> Handler:
    """A chunked body that never ends (until the client hangs up or the server stops)."""

    def handler(conn, request, server):
        conn.sendall(_head(200, {"Content-Type": content_type, "Transfer-Encoding": "chunked", "Connection": "close"}))
        frame = b"%x\r\n%s\r\n" % (len(chunk), chunk)
        while not server.stopping.is_set():
            conn.sendall(frame)

    return handler


def gzip_bomb(expanded_bytes: int = 200_000_000, content_type: str = "text/html") -> Handler:
    """A small gzip body that expands to ``expanded_bytes``."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * 1_000_000
    parts = [compressor.compress(block) for _ in range(expanded_bytes // len(block))]
    payload = b"".join(parts) + compressor.flush()
    return respond(200, payload, {"Content-Encoding": "gzip"}, content_type=content_type)


def invalid_gzip(content_type: str = "text/html") -> Handler:
    """Declares gzip, sends garbage."""
    return respond(200, b"this is not gzip at all" * 10, {"Content-Encoding": "gzip"}, content_type=content_type)


def gzipped(body: bytes, content_type: str = "text/html; charset=utf-8") -> Handler:
    """A valid gzip-encoded body."""
    return respond(200, gzip.compress(body), {"Content-Encoding": "gzip"}, content_type=content_type)


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

    def __exit__(self, *exc) -> None:
        for sock in self.fillers + [self.sock]:
            sock.close()


def free_port() -> int:
    """A port on 127.0.0.1 with nothing listening (connection refused)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


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


def json_results(*urls: str, status: int = 200) -> Handler:
    """A JSON body ``{"results": [{title, url, snippet}, ...]}`` as the test backend expects."""
    import json as _json

    body = _json.dumps(
        {"results": [{"title": "title %s" % u, "url": u, "snippet": "about %s" % u} for u in urls]}
    ).encode()
    return respond(status, body, content_type="application/json")


def fetch_once(url: str, timeout_ms: int = 3000, **kwargs):
    """``fetch_page`` with a fresh transport (closed afterwards) and empty settings."""
    import websearch_sync as ws
    from websearch_sync.net.transport import HttpTransport
    from websearch_sync.reader.page import fetch_page

    transport = HttpTransport()
    try:
        return fetch_page(url, transport=transport, settings=ws.Settings(), timeout_ms=timeout_ms, **kwargs)
    finally:
        transport.close()

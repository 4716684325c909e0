"""A real HTTP server on 127.0.0.1 for tests that need sockets.

Raw sockets, one thread per connection, so a route can misbehave in any way a real
server can: the ways it does are the catalogue in ``tests/faults.py`` (stall, trickle,
reset, lie about Content-Length, send a bad chunk, ...). Every wait is bounded and ends
when the server stops, so a test can never hang because of the server.
"""

import http.server
import os
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Callable, Optional

from faults import MAX_WAIT_S, respond

__all__ = ["Request", "FaultServer", "KeepAliveServer", "Socks5Proxy", "json_results", "fetch_once"]


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


class LoopbackListener:
    """A TCP listener on 127.0.0.1 (``port``) handing each connection to :meth:`connected` in a
    thread of its own; a context manager whose exit stops accepting and sets ``stopping``, which
    the connections' threads watch."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]

    def __enter__(self):
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.listener.close()

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:  # the 0.2 s poll, or the listener closed by __exit__
                continue
            threading.Thread(target=self.connected, args=(conn,), daemon=True).start()

    def connected(self, conn: socket.socket) -> None:
        """Serve one connection (in its own thread)."""
        raise NotImplementedError


class Socks5Proxy(LoopbackListener):
    """A SOCKS5 proxy on 127.0.0.1 (no authentication) answering every ``CONNECT`` with ``reply``
    (0 grants it; else a SOCKS5 failure code: 2 not allowed, 4 host unreachable...). Granted, it
    reads the request and plays the upstream itself: ``upstream(conn, stopping)`` (a
    ``threading.Event`` set when the proxy stops)."""

    def __init__(self, reply: int = 0, upstream: Optional[Callable[[socket.socket, threading.Event], None]] = None):
        super().__init__()
        self.reply, self.upstream = reply, upstream

    def url(self, scheme: str = "socks5h") -> str:
        return "%s://127.0.0.1:%d" % (scheme, self.port)

    def connected(self, conn: socket.socket) -> None:
        conn.settimeout(MAX_WAIT_S)
        with conn:
            try:
                conn.recv(conn.recv(2)[1])  # the methods offered
                conn.sendall(b"\x05\x00")  # no authentication
                request = conn.recv(4)
                conn.recv({1: 4, 4: 16}.get(request[3]) or conn.recv(1)[0])  # the address (a name: its length first)
                conn.recv(2)  # the port
                conn.sendall(b"\x05%c\x00\x01\x00\x00\x00\x00\x00\x00" % self.reply)
                if self.reply == 0 and self.upstream is not None:
                    conn.recv(65536)  # the HTTP request
                    self.upstream(conn, self.stopping)
            except (OSError, IndexError):  # the client hung up
                pass


class FaultServer:
    """``with FaultServer({"/path": handler}) as server: server.url("/path")``.

    A handler gets ``(conn, request, server)`` and writes whatever bytes it likes.
    Unknown paths answer 404. ``server.requests`` lists what arrived; :meth:`received` waits for
    requests a client sent to a route that never answers (the client may give up first).
    """

    def __init__(self, routes: dict[str, Handler], *, max_lifetime_s: float = 120.0) -> None:
        self.routes = dict(routes)
        self.requests: list[Request] = []
        self.stopping = threading.Event()
        self.max_lifetime_s = max_lifetime_s
        self._listener: Optional[socket.socket] = None
        self._threads: list[threading.Thread] = []
        self._open: set[socket.socket] = set()  #: connections a handler still holds
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)  #: notified as each request is read
        self.port = 0

    def url(self, path: str = "/") -> str:
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def received(self, count: int) -> list[Request]:
        """The requests read so far, once ``count`` of them have been (or after ``MAX_WAIT_S``).

        A client that gave up on a route that never answers (its timeout, its deadline) returns
        whether or not the server's thread has read its request yet: on a loaded machine that
        thread may not run for longer than the client waited, and ``server.requests`` then lacks
        the last request. Every request the client sent is in the kernel's buffers by then; this
        waits for the threads to read them, not for a time."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.requests) >= count, MAX_WAIT_S)
            return list(self.requests)

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
        with self._lock:
            held = list(self._open)
        for conn in held:  # a handler blocked sending to a client that stopped reading fails now
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
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
        with self._lock:
            self._open.add(conn)
        try:
            request = _read_request(conn)
            if request is None:
                return
            with self._lock:
                self.requests.append(request)
                self._arrived.notify_all()
            handler = self.routes.get(request.route) or self.routes.get("*") or respond(404, b"not found")
            handler(conn, request, self)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(conn)
            try:
                conn.close()
            except OSError:
                pass


#: The certificate of ``localhost`` (its key beside it) a TLS loopback server presents.
LOCALHOST_CERT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "tls", "localhost.crt")


class KeepAliveServer:
    """HTTP/1.1 with keep-alive on 127.0.0.1 (``http.server``, a thread per connection), for tests of
    pooled connections: ``answer(handler)`` answers every request, of any method, and records what
    the test needs (``handler.client_address[1]`` tells the connections apart). ``tls``: HTTPS with
    ``tests/data/tls/localhost.crt`` (:data:`LOCALHOST_CERT`, the CA bundle a client passes)."""

    def __init__(self, answer: Callable[[http.server.BaseHTTPRequestHandler], None], *, tls: bool = False) -> None:
        self.answer = answer
        self.tls = tls

    def __enter__(self) -> "KeepAliveServer":
        answer = self.answer

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _answer(self) -> None:
                answer(self)

            do_GET = do_POST = do_HEAD = do_PUT = do_DELETE = do_OPTIONS = _answer

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if self.tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(LOCALHOST_CERT, LOCALHOST_CERT[: -len(".crt")] + ".key")
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        # its shutdown waits for the loop's next look: 0.5 s by default, on every test that used it
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def url(self, path: str = "/") -> str:
        if self.tls:  # the certificate's name
            return "https://localhost:%d%s" % (self.server.server_address[1], path)
        return "http://127.0.0.1:%d%s" % (self.server.server_address[1], path)

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


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

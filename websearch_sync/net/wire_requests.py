"""The ``requests`` wire: the library's own HTTP/1.1 client (always present).

Owns a ``requests.Session`` unless given one (a caller's, the replay engine's or the
recorder's is used as it is: their adapters replace the socket). On its own
adapters every phase is bounded by the call's deadline: name resolution runs in a
thread abandoned at the deadline, and a watchdog shuts the socket down when the
deadline passes while the status line or header lines are still coming (a read
timeout alone bounds each line, not their sum).
"""

import heapq
import itertools
import socket
import threading
import time
from typing import Any, Optional

import requests
import urllib3.connection
import urllib3.connectionpool
import urllib3.exceptions
import urllib3.response
from requests.adapters import BaseAdapter, HTTPAdapter
from requests.cookies import extract_cookies_to_jar
from requests.hooks import dispatch_hook

from ..errors import (
    BAD_CONTENT_ENCODING,
    BAD_ENDPOINT,
    BAD_HEADER,
    BAD_PROXY,
    CONNECT_TIMEOUT,
    CONNECTION_ERROR,
    CONNECTION_REFUSED,
    CONNECTION_RESET,
    DEADLINE_EXCEEDED,
    DNS_ERROR,
    INCOMPLETE_BODY,
    MALFORMED_RESPONSE,
    PROXY_ERROR,
    READ_TIMEOUT,
    REQUEST_FAILED,
    TLS_ERROR,
    InvalidInput,
    NetworkError,
    Timeout,
    WebSearchError,
)
from .deadline import Deadline
from .headers import check_headers, check_proxy
from .mocks import session_send_patched
from .ssrf import PIN_ATTRIBUTE, PinnedAdapter, literal_address, system_resolver
from .wire import BodySink, WireRequest

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_CHUNK = 65536
_MAX_CONNECT_S = 10.0
_POOL_SIZE = 32
_call = threading.local()  # the deadline and the socket of the exchange this thread is running


def deadline_error(deadline: Deadline, host: str, provider: Optional[str]) -> Timeout:
    """The ``Timeout(deadline_exceeded)`` of a call whose deadline passed while talking to ``host``."""
    return Timeout(
        "no complete answer from %s within the %.0f ms deadline" % (host, deadline.timeout_ms),
        provider=provider,
        detail_code=DEADLINE_EXCEEDED,
    )


class _Watchdog:
    """Shuts the current socket down once the deadline has passed (a stalled read then ends at once).

    It fires a tenth of the time later than the deadline, so that a plain read timeout
    (one silent wait) is still reported as such; it catches what a read timeout cannot,
    a status line and header lines trickling in, each in time.
    """

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.sock: Optional[socket.socket] = None
        self.stopped = False
        _WATCHDOGS.add(time.monotonic() + max(0.0, deadline.remaining_s()) * 1.1 + 0.01, self)

    def fire(self) -> None:
        """Shut the socket down (unless stopped: the answer's head arrived in time)."""
        sock = self.sock
        if sock is not None and not self.stopped:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed

    def stop(self) -> None:
        self.stopped = True


class _Watchdogs:
    """One daemon thread firing every :class:`_Watchdog` at its time (a timer thread per request
    would cost a thread start on every call)."""

    def __init__(self) -> None:
        self._due: list[tuple[float, int, _Watchdog]] = []
        self._wake = threading.Condition()
        self._order = itertools.count()
        self._thread: Optional[threading.Thread] = None

    def add(self, when: float, watch: _Watchdog) -> None:
        with self._wake:
            heapq.heappush(self._due, (when, next(self._order), watch))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="websearch-watchdog", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._wake.wait(self._due[0][0] - time.monotonic() if self._due else None)
                watch = heapq.heappop(self._due)[2]
            watch.fire()


_WATCHDOGS = _Watchdogs()


class _BoundedConnection:
    """Mixin for urllib3 connections: bounded DNS and a socket the watchdog can reach."""

    _dns_host: str
    port: int
    sock: Optional[socket.socket]

    def _new_conn(self) -> socket.socket:
        watch: Optional[_Watchdog] = getattr(_call, "watch", None)
        if watch is not None and literal_address(self._dns_host) is None:
            remaining = watch.deadline.remaining_s()
            try:
                addresses = system_resolver(self._dns_host, self.port, max(0.001, min(remaining, _MAX_CONNECT_S)))
            except TimeoutError as exc:
                raise urllib3.exceptions.ConnectTimeoutError(self, "resolving %s timed out" % self._dns_host) from exc
            except socket.gaierror as exc:
                raise urllib3.exceptions.NameResolutionError(self._dns_host, self, exc) from exc  # type: ignore[arg-type]
            name, self._dns_host = self._dns_host, addresses[0]
            try:
                sock: socket.socket = super()._new_conn()  # type: ignore[misc]
            finally:
                self._dns_host = name
        else:
            sock = super()._new_conn()  # type: ignore[misc]
        if watch is not None:
            watch.sock = sock
        return sock

    def request(self, *args: Any, **kwargs: Any) -> None:
        watch: Optional[_Watchdog] = getattr(_call, "watch", None)
        if watch is not None and self.sock is not None:
            watch.sock = self.sock
        super().request(*args, **kwargs)  # type: ignore[misc]


class _HTTPConnection(_BoundedConnection, urllib3.connection.HTTPConnection):
    pass


class _HTTPSConnection(_BoundedConnection, urllib3.connection.HTTPSConnection):
    pass


class _HTTPPool(urllib3.connectionpool.HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(urllib3.connectionpool.HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


def _bounded(adapter: HTTPAdapter) -> HTTPAdapter:
    """``adapter`` with connections whose DNS and header reading the deadline bounds."""
    pools: dict[str, type[urllib3.connectionpool.HTTPConnectionPool]] = {"http": _HTTPPool, "https": _HTTPSPool}
    adapter.poolmanager.pool_classes_by_scheme = pools
    return adapter


class RequestsWire:
    """The :class:`~.wire.Wire` over ``requests`` (see the module docstring)."""

    name = "requests"
    profile: Optional[str] = None
    bypasses_requests = False
    decoders: tuple[str, ...] = tuple(urllib3.response.HTTPResponse.CONTENT_DECODERS)

    def __init__(
        self,
        *,
        session: Optional[requests.Session] = None,
        proxy: Optional[str] = None,
        ca_bundle: Optional[str] = None,
    ) -> None:
        self._owns_session = session is None
        self.session = session if session is not None else self._new_session()
        self.proxies = {"http": proxy, "https": proxy} if proxy else None
        self.ca_bundle = ca_bundle if session is None else None  # a caller's session keeps its own ``verify``
        self._pinned = _bounded(PinnedAdapter(pool_connections=_POOL_SIZE, pool_maxsize=_POOL_SIZE, max_retries=0))

    @staticmethod
    def _new_session() -> requests.Session:
        session = requests.Session()
        adapter = _bounded(HTTPAdapter(pool_connections=_POOL_SIZE, pool_maxsize=_POOL_SIZE, max_retries=0))
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        return session

    def close(self) -> None:
        """Close the pinned connections, and the session if this wire created it."""
        self._pinned.close()
        if self._owns_session:
            self.session.close()

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Send ``request`` and stream the answer into ``sink`` (see :class:`~.wire.Wire`)."""
        host = urllib3.util.parse_url(request.url).host or request.url
        watch = _call.watch = _Watchdog(deadline)
        try:
            response = self._send(request, deadline, host, provider)
        finally:
            watch.stop()
            _call.watch = None
        try:
            if sink.head(response.status_code, response.headers, response.url or request.url):
                self._read(response, sink, deadline, host, provider)
        finally:
            response.close()

    def _send(self, request: WireRequest, deadline: Deadline, host: str, provider: Optional[str]) -> requests.Response:
        remaining = deadline.remaining_s()
        if remaining <= 0:
            raise deadline_error(deadline, host, provider)
        connect = min(_MAX_CONNECT_S, remaining)
        try:
            return self._send_prepared(request, (connect, remaining), provider)
        except requests.exceptions.RequestException as exc:
            if (
                deadline.expired()
                and isinstance(exc, _CUT_BY_DEADLINE)
                and not isinstance(exc, requests.exceptions.ProxyError)
            ):
                raise deadline_error(deadline, host, provider) from None
            error = _request_error(exc, host, connect, deadline, provider)
            raise error from (
                exc if isinstance(exc, (requests.exceptions.ProxyError, requests.exceptions.SSLError)) else None
            )

    def _send_prepared(
        self, request: WireRequest, timeout: tuple[float, float], provider: Optional[str]
    ) -> requests.Response:
        """Send one request (never following a redirect) with the session's settings
        (cookies, auth, verify, env proxies, hooks), pinned to ``request.connect_to`` when set.

        Goes to the adapter directly: ``Session.send`` reads the whole body of a
        redirect answer, unbounded, even when it does not follow it.
        Headers (ours and the session's) and proxy credentials that cannot be sent are
        ``InvalidInput`` (:mod:`.headers`) before anything is sent.
        """
        headers = dict(request.headers)
        check_headers(dict(self.session.headers, **headers), provider)
        outgoing = requests.Request(
            request.method,
            request.url,
            data=request.body,
            headers=headers,
            auth=None if request.keep_auth else _no_auth,
        )
        try:
            prepared = self.session.prepare_request(outgoing)
        except (
            UnicodeEncodeError,
            requests.exceptions.InvalidHeader,
        ):  # the session's auth; a value with leading space
            raise InvalidInput(
                "a request header cannot be sent (leading whitespace in a value, or credentials outside Latin-1)",
                provider=provider,
                detail_code=BAD_HEADER,
            ) from None
        check_headers(prepared.headers, provider)
        url = prepared.url or request.url
        options = self.session.merge_environment_settings(url, self.proxies or {}, True, self.ca_bundle or None, None)
        check_proxy(url, options.get("proxies") or {}, provider)
        if session_send_patched():  # a mock of Session.send (requests-mock) sees only what goes through it
            settings: dict[str, Any] = dict(options, stream=True)
            sent: requests.Response = self.session.send(prepared, allow_redirects=False, timeout=timeout, **settings)
            return sent
        if request.connect_to is not None:
            setattr(prepared, PIN_ATTRIBUTE, request.connect_to)
            adapter: BaseAdapter = self._pinned
        else:
            adapter = self.session.get_adapter(url)
        response = adapter.send(prepared, timeout=timeout, **options)  # type: ignore[arg-type]  # verify: requests' own value
        extract_cookies_to_jar(self.session.cookies, prepared, response.raw)  # type: ignore[no-untyped-call]
        hooked: requests.Response = dispatch_hook("response", prepared.hooks, response)  # type: ignore[no-untyped-call]
        return hooked

    def _read(
        self, response: requests.Response, sink: BodySink, deadline: Deadline, host: str, provider: Optional[str]
    ) -> None:
        raw = response.raw
        read = getattr(raw, "read1", None) or raw.read
        try:
            while True:
                remaining = deadline.remaining_s()
                if remaining <= 0:
                    raise deadline_error(deadline, host, provider)
                _limit_socket_wait(raw, remaining)
                chunk = read(_CHUNK, decode_content=True)
                if not chunk or not sink.data(chunk):
                    return
        except urllib3.exceptions.ReadTimeoutError:
            raise (
                deadline_error(deadline, host, provider)
                if deadline.expired()
                else Timeout("%s stopped sending the body" % host, provider=provider, detail_code=READ_TIMEOUT)
            ) from None
        except urllib3.exceptions.DecodeError:
            raise NetworkError(
                "%s sent a body that does not decompress" % host, provider=provider, detail_code=BAD_CONTENT_ENCODING
            ) from None
        except (urllib3.exceptions.ProtocolError, urllib3.exceptions.SSLError, OSError) as exc:
            if deadline.expired():
                raise deadline_error(deadline, host, provider) from None
            if isinstance(exc, (socket.timeout, TimeoutError)):
                raise Timeout(
                    "%s stopped sending the body" % host, provider=provider, detail_code=READ_TIMEOUT
                ) from None
            detail = (
                CONNECTION_RESET
                if any(isinstance(e, ConnectionResetError) for e in _cause_chain(exc))
                else INCOMPLETE_BODY
            )
            raise NetworkError(
                "connection to %s broke while reading the body" % host, provider=provider, detail_code=detail
            ) from None


#: Failures that, once the deadline has passed, are the deadline's doing (a watchdog shut the socket).
_CUT_BY_DEADLINE = (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError)


def _request_error(
    exc: requests.exceptions.RequestException, host: str, connect: float, deadline: Deadline, provider: Optional[str]
) -> WebSearchError:
    """The package's error for a failure of ``requests`` before the answer's head was read."""
    errors = requests.exceptions
    if isinstance(exc, errors.ConnectTimeout):
        return Timeout(
            "timed out connecting to %s (limit %.0f ms)" % (host, connect * 1000),
            provider=provider,
            detail_code=CONNECT_TIMEOUT,
        )
    if isinstance(exc, errors.ReadTimeout):
        return Timeout(
            "%s did not answer within %.0f ms" % (host, deadline.timeout_ms),
            provider=provider,
            detail_code=READ_TIMEOUT,
        )
    if isinstance(exc, errors.ProxyError):
        return NetworkError("proxy failure while reaching %s" % host, provider=provider, detail_code=PROXY_ERROR)
    if isinstance(exc, errors.SSLError):
        return NetworkError("TLS failure with %s" % host, provider=provider, detail_code=TLS_ERROR)
    if isinstance(exc, errors.InvalidSchema) and "socks" in str(exc).lower():
        return InvalidInput(
            "a socks5 proxy needs PySocks: pip install 'requests[socks]' (from a checkout: pip install -e '.[socks]')",
            provider=provider,
            detail_code=BAD_PROXY,
        )
    if isinstance(exc, errors.InvalidSchema):
        return InvalidInput("not an http(s) endpoint: %s" % host, provider=provider, detail_code=BAD_ENDPOINT)
    if isinstance(exc, (errors.MissingSchema, errors.InvalidURL)):
        return InvalidInput(
            "invalid request for %s: %s" % (host, type(exc).__name__), provider=provider, detail_code=BAD_ENDPOINT
        )
    if isinstance(exc, errors.InvalidHeader):  # our headers are checked before sending: this one is the answer's
        return NetworkError(
            "%s answered with malformed headers (e.g. conflicting Content-Length)" % host,
            provider=provider,
            detail_code=MALFORMED_RESPONSE,
        )
    if isinstance(exc, _CUT_BY_DEADLINE):
        detail, what = _network_detail(exc)
        return NetworkError("%s: %s" % (what, host), provider=provider, detail_code=detail)
    if isinstance(exc, errors.ContentDecodingError):
        return NetworkError(
            "%s sent a body that does not decompress" % host, provider=provider, detail_code=BAD_CONTENT_ENCODING
        )
    return NetworkError(
        "request to %s failed (%s)" % (host, type(exc).__name__), provider=provider, detail_code=REQUEST_FAILED
    )


def _no_auth(request: requests.PreparedRequest) -> requests.PreparedRequest:
    """An auth that adds nothing (keeps a session's own auth off a cross-origin redirect)."""
    return request


def _limit_socket_wait(raw: Any, seconds: float) -> None:
    """Bound the next socket read by the time left (so a stall cannot outlive the deadline)."""
    sock = getattr(getattr(raw, "_connection", None), "sock", None)
    if sock is not None:
        try:
            sock.settimeout(max(0.001, seconds))
        except OSError:
            pass


def _cause_chain(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    seen = set()
    stack: list[Optional[BaseException]] = [exc]
    while stack:
        item = stack.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        chain.append(item)
        stack.extend([item.__cause__, item.__context__])
        stack.extend(a for a in getattr(item, "args", ()) if isinstance(a, BaseException))
        reason = getattr(item, "reason", None)
        if isinstance(reason, BaseException):
            stack.append(reason)
    return chain


def _network_detail(exc: BaseException) -> tuple[str, str]:
    chain = _cause_chain(exc)
    if any(isinstance(e, (urllib3.exceptions.NameResolutionError, socket.gaierror)) for e in chain):
        return DNS_ERROR, "could not resolve the host name"
    if any(isinstance(e, ConnectionRefusedError) for e in chain):
        return CONNECTION_REFUSED, "connection refused"
    if any(isinstance(e, ConnectionResetError) for e in chain):
        return CONNECTION_RESET, "connection reset by peer"
    return CONNECTION_ERROR, "connection failed"


#: The package's error for a failure of ``requests`` (also a recorded one, replayed by the replay wire).
request_error = _request_error

"""The browser wire: ``curl_cffi`` (libcurl-impersonate) sending a browser's request.

The TLS ClientHello, HTTP/2 settings, header names, values and order, User-Agent,
``sec-ch-ua*`` and Accept-Encoding are the profile's. The engine's headers merge into
them by one rule: a header the profile also sends takes the engine's value in the
profile's position (``Sec-Fetch-Site: same-origin`` on a form post), except the
headers that are the browser's identity (:func:`~.wire.browser_owned`), where the
profile wins; a header the profile lacks (Referer, Origin, Content-Type, Cookie) goes
where that browser puts it (libcurl-impersonate's header order, set to real Chrome's).

The proxy is the configured one, else the environment's as the requests wire reads it
(:mod:`.environment`), always handed to libcurl (an empty one: none) with an empty ``NOPROXY``,
so libcurl's own reading of the environment (``NO_PROXY`` included) never applies and both wires
go through the same proxy. Only an https request goes through a CONNECT tunnel; a plain http one
is sent to an HTTP proxy as ``GET http://...``, as requests and Chrome send it.

libcurl's total timeout (``TIMEOUT_MS``) is the call's remaining time, so DNS, connect,
TLS, the status line, header lines and body are all bounded by the deadline. In the main
thread the transfer runs in a helper thread (:mod:`.interrupt`), so Ctrl-C is not held
up by libcurl. A pinned
request (fetch's checked address) uses curl's ``RESOLVE``, its entry prefixed by its kind
(``+host:port:address``: a name starting with ``-`` or ``+`` is not read as one), so the address
that was checked is the one connected to; it reuses a connection only of a handle that never
resolved that host itself (:meth:`CurlWire._pin`).
"""

import errno
import math
import os
import stat
import threading
from functools import partial
from typing import Any, Callable, Optional, Union
from urllib.parse import urlsplit

from curl_cffi import Curl, CurlError, CurlInfo, CurlOpt, ffi
from curl_cffi.const import CurlECode, CurlHttpVersion, CurlLockData
from curl_cffi.curl import CURL_WRITEFUNC_ERROR, CurlShare
from curl_cffi.requests import Session as CurlSession
from curl_cffi.requests.impersonate import resolve_latest_browser_type

from ..errors import (
    BAD_CONTENT_ENCODING,
    BAD_ENDPOINT,
    CONNECT_TIMEOUT,
    CONNECTION_ERROR,
    CONNECTION_REFUSED,
    CONNECTION_RESET,
    PROXY_ERROR,
    InvalidInput,
    NetworkError,
    Timeout,
    WebSearchError,
    client_closed,
    unresolved_host,
)
from ..forks import disown, renewed_in_children
from .deadline import Deadline
from .decoding import BROWSER_CODINGS, DECODERS, DecodingSink, broken_body, decodes_all, unreadable_transfer
from .environment import environment_proxy, proxy_table
from .interrupt import run_interruptibly
from .memo import remembered
from .mocks import say_once
from .requests_adapter import STATUS_SHAPE, readable_length
from .wire import CONNECTION_CHECKS, BodySink, WireRequest, browser_request, closed_without_answer, deadline_error
from .wire_requests import (
    bad_status_line,
    head_too_large,
    malformed_headers,
    not_http,
    proxy_failed,
    proxy_forwards,
    proxy_refused,
    proxy_unreached,
    tls_failure,
)

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_MAX_CONNECT_S = 10.0
_MAX_CONNECT_MS = int(_MAX_CONNECT_S * 1000)
_CLOCK_SLACK_S = 0.005
#: The status of an answer switching protocols: final on an HTTP/1.1 connection, with no body.
SWITCHING_PROTOCOLS = 101
#: Where each browser puts each header (HTTP/2, lower case), as real Chromium 156 sends them
#: (../shared/fingerprint/README.md): a navigation is the profile's own order; a form post adds
#: content-length and cache-control first, content-type before user-agent, origin before accept,
#: referer after sec-fetch-dest; cookie is last on every request. The request that follows a
#: redirect carries the client hints (``sec-ch-ua*``) after ``sec-fetch-dest`` (measured with
#: Debian's Chromium 156.0.8078.108 in ../shared/fingerprint/fplab, 2026-11-29).
_ORDER = {
    "chrome": "content-length,cache-control,sec-ch-ua,sec-ch-ua-mobile,sec-ch-ua-platform,upgrade-insecure-requests,"
    "content-type,user-agent,origin,accept,sec-fetch-site,sec-fetch-mode,sec-fetch-user,sec-fetch-dest,referer,"
    "accept-encoding,accept-language,priority,cookie",
}
_REDIRECTED_ORDER = {
    "chrome": "content-length,cache-control,upgrade-insecure-requests,content-type,user-agent,origin,accept,"
    "sec-fetch-site,sec-fetch-mode,sec-fetch-user,sec-fetch-dest,sec-ch-ua,sec-ch-ua-mobile,sec-ch-ua-platform,"
    "referer,accept-encoding,accept-language,priority,cookie",
}
_IDLE_HANDLES = 32
_HOSTS_PER_HANDLE = 256
_CHECKED, _UNCHECKED = "checked", "unchecked"
_TLS_CODES = (
    CurlECode.SSL_CONNECT_ERROR,
    CurlECode.PEER_FAILED_VERIFICATION,
    CurlECode.SSL_CERTPROBLEM,
    CurlECode.SSL_CIPHER,
    CurlECode.SSL_CACERT_BADFILE,
    CurlECode.SSL_ISSUER_ERROR,
    CurlECode.SSL_SHUTDOWN_FAILED,
)


#: Failures that, with a proxy configured, are the proxy's (not the upstream's): on the way to it,
#: or its own (a SOCKS proxy's refusal: libcurl's PROXY), by what happened.
_PROXY_FAILURES: dict[int, Callable[[str, str, Optional[str]], NetworkError]] = {
    CurlECode.COULDNT_CONNECT: proxy_unreached,
    CurlECode.COULDNT_RESOLVE_PROXY: proxy_unreached,
    CurlECode.PROXY: proxy_failed,
}
#: The profile's ``Accept-Encoding``: the codings :mod:`.decoding` names as the browser's.
_ACCEPT_ENCODING = ", ".join(BROWSER_CODINGS).encode("ascii")
#: The HTTP versions whose streams mark where a body ends (a body read to its end is whole without a
#: length), as libcurl negotiated them (``CURLINFO_HTTP_VERSION``), with the status line libcurl writes
#: for each (``HTTP/2 200``). The version is the connection's, never the status line's text: an HTTP/1
#: server's ``HTTP/2 200`` is no HTTP (libcurl took it, and its cut body as whole; ``http.client`` and
#: the requests wire call it no HTTP). An HTTP/1 answer's line is held to
#: :data:`~.requests_adapter.STATUS_SHAPE` (libcurl also took ``HTTP/2.0 200`` from an HTTP/1 server).
_FRAMED_VERSIONS = {int(CurlHttpVersion.V2_0): "HTTP/2 ", int(CurlHttpVersion.V3): "HTTP/3 "}
#: How a status line libcurl writes only on an HTTP/1 connection opens: on HTTP/2 and HTTP/3 it writes
#: its own ``HTTP/2 200``, ``HTTP/3 200`` (interim answers too), and a proxy's answer to CONNECT, on
#: HTTP/1, is not handed over (``SUPPRESS_CONNECT_HEADERS``). Such a line needs no look at the version.
_HTTP1_LINE = "HTTP/1."
_BROKEN_BODY = (CurlECode.PARTIAL_FILE, CurlECode.RECV_ERROR, CurlECode.HTTP2, CurlECode.HTTP2_STREAM)


class _Exchange:
    """One transfer's callbacks: header lines into ``sink.head``, body chunks into ``sink.data``.

    libcurl hands over every line of every header block: interim answers (``100 Continue``)
    and, after a chunked body, its trailer lines. A status line is only expected where a
    header block starts; after the final block's blank line nothing (a trailer) changes the
    answer, so a header or trailer that starts with ``HTTP/`` is never taken for a status.
    """

    def __init__(
        self,
        sink: BodySink,
        url: str,
        host: str,
        provider: Optional[str],
        decode: bool,
        proxy: Optional[str],
        version: Callable[[], Any],
    ) -> None:
        #: The HTTP version libcurl negotiated for the transfer (``CURLINFO_HTTP_VERSION``), read in the callback.
        self.version = version
        self.sink: Union[BodySink, DecodingSink] = DecodingSink(sink, host, provider) if decode else sink
        self.url, self.host, self.provider = url, host, provider
        #: The HTTP proxy that answers this request itself (plain http, no tunnel): its 407 is its own.
        self.forwarder = proxy if proxy and proxy_forwards(url, proxy) else None
        self.status = 0
        self.lines: list[tuple[str, str]] = []
        self.expect_status = True  # at the start of a header block
        self.framed = False  # an HTTP/2 or HTTP/3 answer: its stream's end marks the body's
        self.headed = False
        self.stopped = False  # the sink wanted no more: not an error
        self.ended = False  # the answer has no body (a 101): it ended with its head
        self.abandoned = False  # the caller has gone (Ctrl-C)
        self.error: Optional[WebSearchError] = None  # what the sink raised (libcurl only sees "write error")

    def header(self, line: bytes) -> Any:
        text = line.decode("latin-1").rstrip("\r\n")
        if self.abandoned:
            return int(CURL_WRITEFUNC_ERROR)
        if self.headed:
            return len(line)  # a trailer line: the answer's status and headers are settled
        if self.expect_status:
            return self._status_line(text, len(line))
        if not text:
            return self._block_end(len(line))
        if text[0] in " \t" and self.lines:
            name, value = self.lines[-1]
            self.lines[-1] = (name, value + " " + text.strip())
        elif ":" in text:
            name, _, value = text.partition(":")
            self.lines.append((name.strip(), value.strip()))
        return len(line)

    def _status_line(self, text: str, size: int) -> int:
        """A header block's first line: its status, or the error of a line that is no status line
        (libcurl's own ``HTTP/2 200`` on an HTTP/2 or HTTP/3 connection aside, held to the HTTP/1
        shape the requests wire reads; :data:`_FRAMED_VERSIONS`). The connection's version is read
        (``getinfo``, 5 us) only for a line that does not open as libcurl writes one on HTTP/1 alone
        (:data:`_HTTP1_LINE`): nearly every answer's is ``HTTP/1.1 200 OK`` or ``HTTP/2 200``."""
        self.status, self.lines, self.expect_status = _status_code(text), [], False
        framed_line = None if text.startswith(_HTTP1_LINE) else _FRAMED_VERSIONS.get(self.version())
        self.framed = framed_line is not None
        if self.status and (text.startswith(framed_line) if framed_line else STATUS_SHAPE.match(text)):
            return size
        self.error = bad_status_line(self.host, self.provider, text)
        return int(CURL_WRITEFUNC_ERROR)

    def _block_end(self, size: int) -> int:
        """The blank line ending a header block: the final answer's head goes to the sink (once its
        ``Content-Length`` is one both wires read); an interim answer's is skipped."""
        if self.status == 407 and self.forwarder:  # the proxy refusing, as its 407 to CONNECT is
            self.error = proxy_refused(self.forwarder, self.host, 407, self.provider)
            return int(CURL_WRITEFUNC_ERROR)
        if self.status >= 200:
            lengths = [value for name, value in self.lines if name.lower() == "content-length"]
            if not readable_length(self.status, lengths):  # (one from 2^63 on: libcurl read to the end)
                self.error = malformed_headers(self.host, self.provider)
                return int(CURL_WRITEFUNC_ERROR)
            self.headed = True
            framed = self.framed
            return self._fed(lambda: self.sink.head(self.status, _joined(self.lines), self.url, framed), size)
        if self.status == SWITCHING_PROTOCOLS:  # final, with no body (nothing here asks to switch)
            self.headed = True
            fed = self._fed(lambda: self.sink.head(self.status, _joined(self.lines), self.url, True), size)
            self.ended = fed == size  # the body it wants is none: ended here, as http.client ends it
            self.stopped = True
            return int(CURL_WRITEFUNC_ERROR)
        self.expect_status = True  # an interim answer (1xx): the real one follows
        return size

    def data(self, chunk: bytes) -> Any:
        return self._fed(lambda: self.sink.data(chunk), len(chunk))

    def finish(self) -> None:
        """The transfer ended without an error: a body that ended by itself (or a head that has
        none) must have ended its compressed stream too (:meth:`DecodingSink.end`)."""
        if self.headed and (self.ended or not self.stopped) and isinstance(self.sink, DecodingSink):
            self.sink.end()

    def abandon(self) -> None:
        """Nobody waits for this transfer any more (Ctrl-C): end it at its next callback."""
        self.abandoned = True

    def _fed(self, feed: Callable[[], bool], size: int) -> int:
        """``size`` when the sink wants more; otherwise libcurl's signal to stop the transfer."""
        if self.abandoned:
            return int(CURL_WRITEFUNC_ERROR)
        try:
            if feed():
                return size
            self.stopped = True
        except WebSearchError as error:
            self.error = error
        return int(CURL_WRITEFUNC_ERROR)


def _status_code(line: str) -> int:
    """The status code of an ``HTTP/x yyy reason`` line (three ASCII digits), else 0."""
    parts = line.split(None, 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        return 0
    code = parts[1]
    return int(code) if len(code) == 3 and code.isascii() and code.isdigit() and code[0] != "0" else 0


def _joined(lines: list[tuple[str, str]]) -> dict[str, str]:
    """Header lines as one mapping (a repeated name's values joined by commas, as ``requests`` does),
    but for a ``Location`` sent twice with one target: that target, as a browser follows it (two
    different ones are libcurl's error, as a browser's); an empty ``Location`` beside another is
    skipped, as libcurl skips it (``/ok`` and an empty one were followed to ``/ok,``)."""
    headers: dict[str, str] = {}
    index: dict[str, str] = {}
    targeted = any(name.lower() == "location" and value.strip() for name, value in lines)
    for name, value in lines:
        if targeted and name.lower() == "location" and not value.strip():
            continue
        key = index.setdefault(name.lower(), name)
        if key in headers and not (key.lower() == "location" and headers[key] == value):
            headers[key] = headers[key] + ", " + value
        else:
            headers[key] = value
    return headers


class CurlWire:
    """The :class:`~.wire.Wire` over ``curl_cffi`` impersonating ``profile`` (see the module docstring).

    Cookies, TLS sessions and DNS answers are kept per client (one curl share);
    connections are kept per idle handle (a small pool, so threads reuse them). Each handle's
    sockets are noted after each transfer (libcurl's ``ACTIVESOCKET``, with the socket's identity),
    so a forked child lets go of them at the fork (:meth:`forked`).
    """

    name = "curl_cffi"
    bypasses_requests = True

    def __init__(self, profile: str, *, proxy: Optional[str] = None, ca_bundle: Optional[str] = None) -> None:
        self.profile: Optional[str] = profile
        #: Bodies are decoded by :mod:`.decoding` (which sees a compressed stream cut before its
        #: end) when it decodes every coding the profile asks for; by libcurl otherwise.
        self.decodes_body = decodes_all(BROWSER_CODINGS)
        self.decoders: tuple[str, ...] = DECODERS if self.decodes_body else BROWSER_CODINGS
        if not self.decodes_body:
            say_once(
                "browser transport: libcurl decodes bodies (install the browser extra's brotli and zstandard "
                "to have a compressed body cut before its end reported as incomplete_body)"
            )
        self.target: str = resolve_latest_browser_type(profile)  # type: ignore[no-untyped-call]
        self.order, self.redirected_order = _ORDER.get(profile), _REDIRECTED_ORDER.get(profile)
        self.proxy = proxy
        self.ca_bundle = ca_bundle
        self._environment_proxies = proxy_table()
        share = CurlShare(connect=False, dns=False, ssl_session=True)
        share.share(CurlLockData.COOKIE)
        # curl_cffi attaches a share to a handle only through its Session (and keeps it attached
        # on ``duphandle``): the pool's handles are copies of this session's one.
        self._template: CurlSession[Any] = CurlSession(curl_share=share, use_thread_local_curl=False)
        self._idle: list[Curl] = []
        #: Set by :meth:`close`: a handle a call had under way then is closed when it comes back.
        self._closed = False
        #: Per handle, the options its last request left set and the hosts it has connected to.
        self._options: dict[Curl, _Options] = {}
        self._lock = threading.Lock()
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: the handles' connections are the parent's (pooled, or in use by a
        parent's thread that is not here). The child's copies of their sockets are let go of
        without a byte on them (:func:`~websearch_sync.forks.disown`): never by libcurl, whose
        cleanup ends a TLS connection with a ``close_notify`` on the socket the parent still uses.
        The handles themselves stay unclosed (:class:`~.transport.HttpTransport` keeps them)."""
        self._lock = threading.Lock()  # a parent's thread may have held it
        noted = [item for options in list(self._options.values()) for item in list(options.sockets.items())]
        disown(descriptor for descriptor, identity in noted if _socket_identity(descriptor) == identity)

    def close(self) -> None:
        """Close the idle handles (their connections) and the share; a handle a call of another thread
        has under way is closed when that call gives it back (:meth:`_release`)."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for handle in idle:
            self._options.pop(handle, None)
            handle.close()
        self._template.close()

    def _acquire(self) -> Curl:
        """An idle handle, else a copy of the template's; ``InvalidInput(client_closed)`` after
        :meth:`close` (a call that passed the client's check as another thread closed it)."""
        with self._lock:  # the copy too: close() must not free the template while it is copied
            if self._closed:
                raise client_closed()
            if self._idle:
                return self._idle.pop()
            handle: Curl = self._template.curl.duphandle()
        return handle

    def _release(self, handle: Curl) -> None:
        """Back to the pool, its options kept (:class:`_Options`); closed when the pool is full or the
        handle has reached many hosts (its connections, pinned names and the memory of them go with it),
        and when the wire was closed while its call ran (kept, its connection would stay open)."""
        with self._lock:
            options = self._options.get(handle)
            roomy = len(self._idle) < _IDLE_HANDLES
            if not self._closed and roomy and (options is None or len(options.connected) <= _HOSTS_PER_HANDLE):
                self._idle.append(handle)
                return
            self._options.pop(handle, None)
        handle.close()

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Send ``request`` as the browser would and stream the answer into ``sink``."""
        request = browser_request(request)  # the one request building, also in front of replays (BrowserRequests)
        host = _host(request.url)
        remaining = deadline.remaining_s()
        if remaining <= 0:
            raise deadline_error(deadline, host, provider)
        proxy = self.proxy or self._environment_proxies.get(request.url, partial(environment_proxy, provider=provider))
        for check in list(CONNECTION_CHECKS):
            check(host_of(proxy) if proxy else request.connect_to or host)  # the one libcurl connects to
        handle = self._acquire()
        version = partial(handle.getinfo, CurlInfo.HTTP_VERSION)
        transfer = _Exchange(sink, request.url, host, provider, self.decodes_body, proxy, version)
        try:
            self._configure(handle, request, transfer, remaining, proxy)
        except BaseException:
            self._forget(handle)  # options half set: the next request starts from a reset handle
            self._release(handle)
            raise
        failure: list[tuple[CurlError, bool, int]] = []
        performed = False

        def perform() -> None:
            nonlocal performed
            performed = True
            try:
                handle.perform(clear_headers=False)  # the header list stays for the next request (_Options)
            except CurlError as exc:
                refused = handle.getinfo(CurlInfo.OS_ERRNO) == errno.ECONNREFUSED
                tunnel = handle.getinfo(CurlInfo.HTTP_CONNECTCODE)  # the proxy's answer to CONNECT, 0 for none
                failure.append((exc, refused, tunnel if isinstance(tunnel, int) else 0))
            finally:
                self._note_socket(handle)

        def release() -> None:
            if not performed:  # Ctrl-C before the transfer began: its lists are not curl_cffi's to free now
                self._clean(handle)
            self._release(handle)

        run_interruptibly(perform, abandon=transfer.abandon, release=release)
        if transfer.error is not None:
            raise transfer.error
        if failure and not transfer.stopped:
            exc, refused, tunnel_status = failure[0]
            if proxy and tunnel_status >= 300:  # the proxy answered CONNECT: it refused, it was reached
                raise proxy_refused(proxy, host, tunnel_status, provider) from None
            raise _error(exc, deadline, host, provider, transfer.headed, refused, proxy) from None
        transfer.finish()

    def _note_socket(self, handle: Curl) -> None:
        """Note the socket ``handle``'s transfer went out on (:meth:`forked` lets go of it in a child)."""
        descriptor = handle.getinfo(CurlInfo.ACTIVESOCKET)
        with self._lock:
            options = self._options.get(handle)
        if options is not None and isinstance(descriptor, int):
            options.note_socket(descriptor)

    def _clean(self, handle: Curl) -> None:
        """curl_cffi's lists and callbacks of ``handle`` freed (a request given up before its transfer):
        the next request sets its header list again (:meth:`_Options.set_headers`)."""
        handle.clean_handles_and_buffers()
        with self._lock:
            options = self._options.get(handle)
        if options is not None:
            options.headers = None

    def _forget(self, handle: Curl) -> None:
        """Reset ``handle`` to libcurl's defaults (its connections, cookies and TLS sessions stay):
        the next request sets every option again."""
        handle.clean_handles_and_buffers()  # the lists set so far (curl_cffi appends to a list it still holds)
        handle.reset()
        with self._lock:
            options = self._options.get(handle)
        if options is not None:
            options.forget()

    def _configure(
        self, handle: Curl, request: WireRequest, transfer: _Exchange, remaining: float, proxy: Optional[str]
    ) -> None:
        with self._lock:
            options = self._options.get(handle)
            if options is None:
                options = self._options[handle] = _Options()
        if not options.profiled:
            self._set_profile(handle)
            options.profiled = True
        options.set_headers(handle, request.headers)  # first: a list set again frees what curl_cffi holds
        options.set(handle, CurlOpt.HTTPHEADER_ORDER, self.redirected_order if request.redirected else self.order)
        options.set(handle, CurlOpt.URL, request.url.encode("utf-8"))  # libcurl keeps a copy: again only when new
        options.set_method(handle, request)
        handle.setopt(CurlOpt.TIMEOUT_MS, math.ceil(remaining * 1000))
        # connecting within 10 s when the deadline is further off; within the deadline (TIMEOUT_MS) anyway,
        # so the option is the same on every request and a pooled handle keeps it (:class:`_Options`)
        options.set(handle, CurlOpt.CONNECTTIMEOUT_MS, _MAX_CONNECT_MS if remaining > _MAX_CONNECT_S else None)
        handle.setopt(CurlOpt.HEADERFUNCTION, transfer.header)
        handle.setopt(CurlOpt.WRITEFUNCTION, transfer.data)
        # always set: libcurl's default (none set) is its own reading of the environment; an empty
        # NOPROXY keeps libcurl from skipping the proxy by its own reading of NO_PROXY (the proxy
        # was chosen as requests chooses it, NO_PROXY included)
        options.set(handle, CurlOpt.PROXY, (proxy or "").encode())
        options.set(handle, CurlOpt.NOPROXY, b"")
        # a tunnel for https only: plain http goes to the proxy as ``GET http://...``, as requests and Chrome send it
        tunnel = proxy and not proxy.lower().startswith("socks") and not proxy_forwards(request.url, proxy)
        options.set(handle, CurlOpt.HTTPPROXYTUNNEL, 1 if tunnel else 0)
        self._pin(handle, request, options, proxy)

    def _set_profile(self, handle: Curl) -> None:
        """The options every request of this wire has: set once per handle (and after a reset)."""
        handle.impersonate(self.target, default_headers=True)
        handle.setopt(CurlOpt.ACCEPT_ENCODING, _ACCEPT_ENCODING)  # what the profile offers,
        if self.decodes_body:
            handle.setopt(
                CurlOpt.HTTP_CONTENT_DECODING, 0
            )  # decoded by the sink (.decoding), which sees a stream's end
        handle.setopt(CurlOpt.NOSIGNAL, 1)
        handle.setopt(CurlOpt.FOLLOWLOCATION, 0)
        handle.setopt(CurlOpt.COOKIEFILE, b"")
        if self.ca_bundle:
            # a folder is OpenSSL's hashed one (``openssl rehash``): curl reads it as CAPATH, not CAINFO
            folder = os.path.isdir(self.ca_bundle)
            handle.setopt(CurlOpt.CAPATH if folder else CurlOpt.CAINFO, self.ca_bundle.encode())
            handle.setopt(CurlOpt.PROXY_CAPATH if folder else CurlOpt.PROXY_CAINFO, self.ca_bundle.encode())
        handle.setopt(CurlOpt.SUPPRESS_CONNECT_HEADERS, 1)  # a proxy tunnel's own answer is not the upstream's

    def _pin(self, handle: Curl, request: WireRequest, options: "_Options", proxy: Optional[str]) -> None:
        """Connect a pinned request to its checked address (curl's ``RESOLVE``), over a connection
        of this handle when every connection it may hold to that host went to a checked address
        (so the hops of one fetch share a connection, as Chrome's do); else over a fresh one, not kept."""
        key = (host_of(request.url), _port(request.url))
        seen = options.connected
        fresh = False
        if request.connect_to is None:
            seen[key] = _UNCHECKED  # libcurl resolved this host itself: its connection is no checked one
            options.set_list(handle, CurlOpt.RESOLVE, None)
        else:
            address = "[%s]" % request.connect_to if ":" in request.connect_to else request.connect_to
            # each entry starts with its kind, so no name is read as one ("-a.example:80:ADDR" would
            # remove a.example, and leave -a.example to libcurl's own lookup): "-" removes the last pin,
            # "+" adds this one (an entry that expires with libcurl's DNS cache; each pinned request sets its own)
            options.set_list(handle, CurlOpt.RESOLVE, ["-%s:%d" % key, "+%s:%d:%s" % (key[0], key[1], address)])
            fresh = bool(proxy) or seen.get(key, _CHECKED) == _UNCHECKED
            if not fresh:
                seen[key] = _CHECKED
        options.set(handle, CurlOpt.FRESH_CONNECT, 1 if fresh else None)
        options.set(handle, CurlOpt.FORBID_REUSE, 1 if fresh else None)


#: libcurl's defaults of the options a request may set and the next may not (``None`` in :class:`_Options`).
_DEFAULTS: dict[int, Any] = {
    CurlOpt.HTTPHEADER_ORDER: ffi.NULL,
    CurlOpt.CONNECTTIMEOUT_MS: 0,
    CurlOpt.FRESH_CONNECT: 0,
    CurlOpt.FORBID_REUSE: 0,
}
_GET = ("GET", False)


class _Options:
    """What a pooled handle's last request left set, so that the next sets only what differs.

    A reset before every request, and the profile's options set again after it, cost about a
    fifth of the wire's CPU (``curl_cffi``'s ``setopt`` costs 3-4 us a call). The options every
    request of a wire has (the profile, cookies, decoding, proxy, CA bundle) are set once per
    handle; the others are set when they differ from the last request's (an option the last
    request set and this one does not is put back to libcurl's default). Three kinds of option
    point at memory that ``curl_cffi`` frees after each transfer while libcurl keeps the
    pointer: the callbacks are set by every request; the form body and the ``RESOLVE`` list are
    set again by each request that has them and cleared (to libcurl's ``NULL``) by the first
    that has not, before libcurl would read them. The header list is not freed after a transfer
    (``perform(clear_headers=False)``): it stays set while the next request's headers are the same
    (:meth:`set_headers`), and is freed when another is set, the handle is reset or closed, or a
    request is given up before its transfer.
    """

    def __init__(self) -> None:
        #: The hosts (and ports) the handle has connected to, and whether only to checked addresses.
        self.connected: dict[tuple[str, int], str] = {}
        #: The sockets the handle's transfers went out on, with each one's identity: a number
        #: libcurl closed may be another socket's by the fork, which the identity tells apart.
        self.sockets: dict[int, tuple[int, int]] = {}
        self.forget()

    def note_socket(self, descriptor: int) -> None:
        """Note the socket a transfer went out on (``-1``: none kept); the notes of sockets gone
        since are dropped once there are more than libcurl keeps connections per handle."""
        identity = _socket_identity(descriptor)
        if identity is None:
            return
        self.sockets[descriptor] = identity
        if len(self.sockets) > _SOCKETS_NOTED:
            self.sockets = {fd: noted for fd, noted in self.sockets.items() if _socket_identity(fd) == noted}

    def forget(self) -> None:
        """The handle was reset: every option is libcurl's default again."""
        self.profiled = False
        #: The request headers the handle's header list was made of (``None``: no list kept).
        self.headers: Optional[list[tuple[str, str]]] = None
        self.values: dict[int, Any] = {}  # option: the value the last request set (absent: the default)
        self.method = _GET
        self.lists: set[int] = set()  # the list options the last request set

    def set(self, handle: Curl, option: int, value: Any) -> None:
        """``option`` to ``value`` (``None``: libcurl's default) unless the handle has it already."""
        if self.values.get(option) != value:
            handle.setopt(option, _DEFAULTS[option] if value is None else value)  # type: ignore[arg-type]
            self.values[option] = value

    def set_headers(self, handle: Curl, headers: list[tuple[str, str]]) -> None:
        """The header list of ``headers`` (the profile's ``Cache-Control`` removed unless they set
        one: Chrome sends it on a form post only; ``Expect`` never), kept between transfers
        (``perform(clear_headers=False)``) and made again only when the headers differ from the last
        request's: an engine sends the same few on every call. curl_cffi appends a list set to the one
        it holds, so that one is freed first (its other lists and callbacks are none between
        transfers: ``perform`` freed them), before anything else of this request is set."""
        if headers == self.headers:
            return
        if self.headers is not None:
            handle.clean_handles_and_buffers()
        lines = [("%s: %s" % (name, value)).encode("latin-1") for name, value in headers]
        if not any(name.lower() == "cache-control" for name, _ in headers):
            lines.append(b"Cache-Control:")
        handle.setopt(CurlOpt.HTTPHEADER, lines + [b"Expect:"])
        self.headers = list(headers)

    def set_list(self, handle: Curl, option: int, items: Optional[list[str]]) -> None:
        """A list option (freed after each transfer): set when there is one, cleared once when not."""
        if items is not None:
            handle.setopt(option, items)  # type: ignore[arg-type]
            self.lists.add(option)
        elif option in self.lists:
            handle.setopt(option, [])  # type: ignore[arg-type]  # an empty list: libcurl's NULL
            self.lists.discard(option)

    def set_method(self, handle: Curl, request: WireRequest) -> None:
        """The method and body: the last request's undone first when it differs (a POST's body
        must not follow a GET), then this one's."""
        body = request.body
        if body is None and request.method.upper() == "POST":
            body = b""  # not none: libcurl would send what its default read function reads, the process's stdin
        method = (request.method.upper(), body is not None)
        if method != self.method:
            if self.method[1]:
                handle.setopt(CurlOpt.POSTFIELDS, ffi.NULL)  # the freed body: none
                handle.setopt(CurlOpt.POSTFIELDSIZE, -1)
            if self.method[0] not in ("GET", "HEAD", "POST"):
                handle.setopt(CurlOpt.CUSTOMREQUEST, ffi.NULL)
            handle.setopt(CurlOpt.HTTPGET, 1)  # also ends a HEAD's NOBODY and a POST's method
            _set_method(handle, method[0], body)
        elif body is not None:
            _set_body(handle, body)
        self.method = method


#: How many sockets a handle's notes hold before those gone are dropped (libcurl keeps 5 connections a handle).
_SOCKETS_NOTED = 8


def _socket_identity(descriptor: int) -> Optional[tuple[int, int]]:
    """The device and inode of the socket ``descriptor`` is (``None``: no open socket)."""
    if descriptor < 0:
        return None
    try:
        status = os.fstat(descriptor)
    except OSError:  # closed since
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISSOCK(status.st_mode) else None


def _set_method(handle: Curl, method: str, body: Union[str, bytes, None]) -> None:
    if method == "GET":
        pass  # what set_method left
    elif method == "HEAD":
        handle.setopt(CurlOpt.NOBODY, 1)
    elif method == "POST":
        handle.setopt(CurlOpt.POST, 1)
    else:
        handle.setopt(CurlOpt.CUSTOMREQUEST, method.encode())
    if body is not None:
        _set_body(handle, body)


def _set_body(handle: Curl, body: Union[str, bytes]) -> None:
    data = body.encode("utf-8") if isinstance(body, str) else body
    handle.setopt(CurlOpt.POSTFIELDS, data)
    handle.setopt(CurlOpt.POSTFIELDSIZE, len(data))


@remembered(maxsize=256)  # a pure function of the URL, asked twice per request
def host_of(url: str) -> str:
    """The URL's host as curl's ``RESOLVE`` names it (IPv6 without brackets)."""
    return urlsplit(url).hostname or ""


def _host(url: str) -> str:
    return host_of(url) or url


@remembered(maxsize=256)  # a pure function of the URL, asked once per request (host_of beside it)
def _port(url: str) -> int:
    parts = urlsplit(url)
    return parts.port or (443 if parts.scheme == "https" else 80)


#: libcurl failures by code: (detail code, what happened). Timeouts, refusals and broken bodies are decided in
#: :func:`_error`, TLS failures (:data:`_TLS_CODES`) in :func:`_network_error`.
_FAILURES: dict[int, tuple[str, str]] = {
    # a proxy's failure after the head (before it, :func:`_error` names the proxy)
    CurlECode.PROXY: (PROXY_ERROR, "proxy failure while reaching"),
    CurlECode.COULDNT_RESOLVE_PROXY: (PROXY_ERROR, "could not reach the proxy while reaching"),
    CurlECode.BAD_CONTENT_ENCODING: (BAD_CONTENT_ENCODING, "a body that does not decompress from"),
}
#: Failures of a server that accepted the connection and closed it without an answer (PARTIAL_FILE
#: before our head: inside its header block).
_CLOSED_WITHOUT_ANSWER = (CurlECode.GOT_NOTHING, CurlECode.PARTIAL_FILE)


def _error(
    exc: CurlError,
    deadline: Deadline,
    host: str,
    provider: Optional[str],
    headed: bool,
    refused: bool,
    proxy: Optional[str] = None,
) -> WebSearchError:
    """The package's error for a libcurl failure."""
    code = getattr(exc, "code", 0)
    expired = deadline.remaining_s() <= _CLOCK_SLACK_S  # libcurl's clock is not ours: it may fire a hair early
    if proxy and code in _PROXY_FAILURES and not (expired or headed):
        return _PROXY_FAILURES[code](proxy, host, provider)
    if code == CurlECode.OPERATION_TIMEDOUT and not (expired or headed):  # only the 10 s connect limit comes first
        return Timeout("timed out connecting to %s" % host, provider=provider, detail_code=CONNECT_TIMEOUT)
    if code == CurlECode.OPERATION_TIMEDOUT or expired:
        return deadline_error(deadline, host, provider)
    if code == CurlECode.URL_MALFORMAT:
        return InvalidInput("not an http(s) endpoint: %s" % host, provider=provider, detail_code=BAD_ENDPOINT)
    if code == CurlECode.UNSUPPORTED_PROTOCOL:  # the URL is http(s) (checked before sending): the answer is not HTTP
        return not_http(host, provider)
    refused_head = _refused_head(code, str(exc), host, provider)
    if refused_head is not None:
        return refused_head
    reset = "reset" in str(exc).lower()
    if headed and code in _BROKEN_BODY:
        return broken_body(host, provider, reset)
    return _network_error(exc, host, provider, reset, headed, refused)


#: What precedes the transfer coding libcurl refuses in its message (``Unsolicited Transfer-Encoding
#: (gzip) found``, ``A Transfer-Encoding (gzip) was listed after chunked``).
_TRANSFER_REFUSED = "Transfer-Encoding ("


def _refused_head(code: int, text: str, host: str, provider: Optional[str]) -> Optional[NetworkError]:
    """The error for a head libcurl refused whatever it had delivered: one too large, or one naming a
    transfer coding it does not read ("Unsolicited Transfer-Encoding (gzip) found"); else ``None``."""
    if _head_too_large(code, text):
        return head_too_large(host, provider)
    before, named, after = text.partition(_TRANSFER_REFUSED)
    if code == CurlECode.BAD_CONTENT_ENCODING and named and ")" in after[:100]:
        return unreadable_transfer(host, provider, after.partition(")")[0].strip().lower())
    return None


def _head_too_large(code: int, text: str) -> bool:
    """libcurl refused a header block for its size: ``TOO_LARGE`` (over 5000 header fields, a line over
    100 KB; after the head: a chunked body's trailer), or a receive error saying so (over 300 KB,
    interim answers counted). libcurl counts a line after handing it over, so the blank line that
    tips a head over 300 KB fails the transfer after the head was delivered: a head, not a body, fault."""
    return code == CurlECode.TOO_LARGE or (
        code == CurlECode.RECV_ERROR and "too large response headers" in text.lower()
    )


#: How libcurl refuses a status line of HTTP/2 or HTTP/3 on an HTTP/1 connection ("Version mismatch
#: (from HTTP/1 to HTTP/2)").
_VERSION_MISMATCH = "Version mismatch"
#: How libcurl refuses a header line it cannot read as one, with ``BAD_FUNCTION_ARGUMENT`` (a folded
#: line in a chunked body's trailer): not a connection that failed.
_INVALID_HEADER = "Invalid response header"


def _network_error(
    exc: CurlError, host: str, provider: Optional[str], reset: bool, headed: bool, refused: bool
) -> NetworkError:
    """The error for a libcurl failure that is neither a timeout nor our mistake; a TLS one says
    why (libcurl's text holds the TLS library's reason)."""
    code = getattr(exc, "code", 0)
    if code in _CLOSED_WITHOUT_ANSWER:
        return closed_without_answer(host, provider)
    if code == CurlECode.WEIRD_SERVER_REPLY and _VERSION_MISMATCH in str(exc):  # ``HTTP/2 200`` from an HTTP/1 server
        return not_http(host, provider)  # (no status line to http.client either)
    if code == CurlECode.WEIRD_SERVER_REPLY:  # a header block breaking HTTP's rules (libcurl refuses it)
        return malformed_headers(host, provider)
    if code == CurlECode.BAD_FUNCTION_ARGUMENT and _INVALID_HEADER in str(exc):  # a folded trailer line
        return malformed_headers(host, provider)
    if code == CurlECode.COULDNT_RESOLVE_HOST:
        return unresolved_host(host, provider)
    if code in _TLS_CODES:
        unverified = str(exc).split("SSL certificate problem: ", 1)[-1].split(".", 1)[0]
        return tls_failure(host, provider, str(exc), unverified if code == CurlECode.PEER_FAILED_VERIFICATION else None)
    detail, what = _network_failure(code, reset, headed, refused)
    return NetworkError("%s %s" % (what, host), provider=provider, detail_code=detail)


def _network_failure(code: int, reset: bool, headed: bool, refused: bool) -> tuple[str, str]:
    """The detail code and the words for a libcurl failure that is neither a timeout nor our mistake."""
    if code in _FAILURES:
        return _FAILURES[code]
    if refused:
        return CONNECTION_REFUSED, "connection refused:"
    return (CONNECTION_RESET, "connection reset by") if reset else (CONNECTION_ERROR, "connection failed:")

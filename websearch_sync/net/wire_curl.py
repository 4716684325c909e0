"""The browser wire: ``curl_cffi`` (libcurl-impersonate) sending a browser's request.

The TLS ClientHello, HTTP/2 settings, header names, values and order, User-Agent,
``sec-ch-ua*`` and Accept-Encoding are the profile's. The engine's headers merge into
them by one rule: a header the profile also sends takes the engine's value in the
profile's position (``Sec-Fetch-Site: same-origin`` on a form post), except the
headers that are the browser's identity (:func:`~.wire.browser_owned`), where the
profile wins; a header the profile lacks (Referer, Origin, Content-Type, Cookie) goes
where that browser puts it (libcurl-impersonate's header order).

libcurl's total timeout (``TIMEOUT_MS``) is the call's remaining time, so DNS, connect,
TLS, the status line, header lines and body are all bounded by the deadline. A pinned
request (fetch's checked address) uses curl's ``RESOLVE`` on a fresh connection that
is not kept, so the address that was checked is the one connected to.
"""

import errno
import math
import threading
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

from curl_cffi import Curl, CurlError, CurlInfo, CurlOpt
from curl_cffi.const import CurlECode, CurlLockData
from curl_cffi.curl import CURL_WRITEFUNC_ERROR, CurlShare
from curl_cffi.requests.impersonate import resolve_latest_browser_type

from ..errors import (
    BAD_CONTENT_ENCODING,
    BAD_ENDPOINT,
    CONNECT_TIMEOUT,
    CONNECTION_ERROR,
    CONNECTION_REFUSED,
    CONNECTION_RESET,
    DNS_ERROR,
    INCOMPLETE_BODY,
    MALFORMED_RESPONSE,
    PROXY_ERROR,
    TLS_ERROR,
    InvalidInput,
    NetworkError,
    Timeout,
    WebSearchError,
)
from .deadline import Deadline
from .wire import CONNECTION_CHECKS, BodySink, WireRequest, browser_request
from .wire_requests import deadline_error

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_MAX_CONNECT_S = 10.0
_CLOCK_SLACK_S = 0.005
#: Where each browser puts each header (HTTP/2, lower case): the profile's own order with the
#: headers a navigation or form post adds in the places the real browser sends them (Chrome's
#: form post: content-length first, origin and content-type after sec-ch-ua-platform, referer
#: after sec-fetch-dest). libcurl always appends cookies last (Chrome sends them before priority).
_ORDER = {
    "chrome": "content-length,sec-ch-ua,sec-ch-ua-mobile,sec-ch-ua-platform,origin,content-type,upgrade-insecure-requests,"
    "user-agent,accept,sec-fetch-site,sec-fetch-mode,sec-fetch-user,sec-fetch-dest,referer,accept-encoding,"
    "accept-language,cookie,priority,cache-control",
}
_IDLE_HANDLES = 32
_TLS_CODES = (
    CurlECode.SSL_CONNECT_ERROR,
    CurlECode.PEER_FAILED_VERIFICATION,
    CurlECode.SSL_CERTPROBLEM,
    CurlECode.SSL_CIPHER,
    CurlECode.SSL_CACERT_BADFILE,
    CurlECode.SSL_ISSUER_ERROR,
    CurlECode.SSL_SHUTDOWN_FAILED,
)
_BROKEN_BODY = (CurlECode.PARTIAL_FILE, CurlECode.RECV_ERROR, CurlECode.HTTP2, CurlECode.HTTP2_STREAM)


class _Exchange:
    """One transfer's callbacks: header lines into ``sink.head``, body chunks into ``sink.data``."""

    def __init__(self, sink: BodySink, url: str) -> None:
        self.sink, self.url = sink, url
        self.status = 0
        self.lines: list[tuple[str, str]] = []
        self.headed = False
        self.stopped = False  # the sink wanted no more: not an error
        self.error: Optional[WebSearchError] = None  # what the sink raised (libcurl only sees "write error")

    def header(self, line: bytes) -> Any:
        text = line.decode("latin-1").rstrip("\r\n")
        if text.startswith("HTTP/"):
            parts = text.split(None, 2)
            self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            self.lines = []
        elif text and self.lines and text[0] in " \t":
            name, value = self.lines[-1]
            self.lines[-1] = (name, value + " " + text.strip())
        elif ":" in text:
            name, _, value = text.partition(":")
            self.lines.append((name.strip(), value.strip()))
        elif not text and self.status >= 200 and not self.headed:
            self.headed = True
            return self._fed(lambda: self.sink.head(self.status, _joined(self.lines), self.url), len(line))
        return len(line)

    def data(self, chunk: bytes) -> Any:
        return self._fed(lambda: self.sink.data(chunk), len(chunk))

    def _fed(self, feed: Callable[[], bool], size: int) -> int:
        """``size`` when the sink wants more; otherwise libcurl's signal to stop the transfer."""
        try:
            if feed():
                return size
            self.stopped = True
        except WebSearchError as error:
            self.error = error
        return int(CURL_WRITEFUNC_ERROR)


def _joined(lines: list[tuple[str, str]]) -> dict[str, str]:
    """Header lines as one mapping (a repeated name's values joined by commas, as ``requests`` does)."""
    headers: dict[str, str] = {}
    index: dict[str, str] = {}
    for name, value in lines:
        key = index.setdefault(name.lower(), name)
        headers[key] = headers[key] + ", " + value if key in headers else value
    return headers


class CurlWire:
    """The :class:`~.wire.Wire` over ``curl_cffi`` impersonating ``profile`` (see the module docstring).

    Cookies, TLS sessions and DNS answers are kept per client (one curl share);
    connections are kept per idle handle (a small pool, so threads reuse them).
    """

    name = "curl_cffi"
    bypasses_requests = True
    decoders: tuple[str, ...] = ("gzip", "deflate", "br", "zstd")

    def __init__(self, profile: str, *, proxy: Optional[str] = None, ca_bundle: Optional[str] = None) -> None:
        self.profile: Optional[str] = profile
        self.target: str = resolve_latest_browser_type(profile)  # type: ignore[no-untyped-call]
        self.order = _ORDER.get(profile)
        self.proxy = proxy
        self.ca_bundle = ca_bundle
        self._share = CurlShare(connect=False, dns=False, ssl_session=True)
        self._share.share(CurlLockData.COOKIE)
        self._idle: list[Curl] = []
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close the idle handles (their connections) and the share."""
        with self._lock:
            idle, self._idle = self._idle, []
        for handle in idle:
            handle.close()

    def _acquire(self) -> Curl:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        handle = Curl()
        handle.setopt(CurlOpt.SHARE, self._share._curl_share)
        handle._share = self._share
        return handle

    def _release(self, handle: Curl) -> None:
        handle.reset()
        with self._lock:
            if len(self._idle) < _IDLE_HANDLES:
                self._idle.append(handle)
                return
        handle.close()

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Send ``request`` as the browser would and stream the answer into ``sink``."""
        request = browser_request(request)  # the one request building, also in front of replays (BrowserRequests)
        host = _host(request.url)
        remaining = deadline.remaining_s()
        if remaining <= 0:
            raise deadline_error(deadline, host, provider)
        for check in list(CONNECTION_CHECKS):
            check(request.connect_to or host)
            if self.proxy:
                check(host_of(self.proxy))
        handle = self._acquire()
        transfer = _Exchange(sink, request.url)
        try:
            self._configure(handle, request, transfer, remaining)
            handle.perform()
        except CurlError as exc:
            if transfer.error is not None:
                raise transfer.error from None
            if not transfer.stopped:
                refused = handle.getinfo(CurlInfo.OS_ERRNO) == errno.ECONNREFUSED
                raise _error(exc, deadline, host, provider, transfer.headed, refused) from None
        finally:
            self._release(handle)

    def _configure(self, handle: Curl, request: WireRequest, transfer: _Exchange, remaining: float) -> None:
        handle.impersonate(self.target, default_headers=True)
        handle.setopt(CurlOpt.ACCEPT_ENCODING, b"gzip, deflate, br, zstd")  # decode what the profile offers
        if self.order:
            handle.setopt(CurlOpt.HTTPHEADER_ORDER, self.order)
        handle.setopt(CurlOpt.URL, request.url.encode("utf-8"))
        _set_method(handle, request)
        headers = [("%s: %s" % (name, value)).encode("latin-1") for name, value in request.headers]
        handle.setopt(CurlOpt.HTTPHEADER, headers + [b"Expect:"])
        handle.setopt(CurlOpt.NOSIGNAL, 1)
        handle.setopt(CurlOpt.FOLLOWLOCATION, 0)
        handle.setopt(CurlOpt.TIMEOUT_MS, math.ceil(remaining * 1000))
        handle.setopt(CurlOpt.CONNECTTIMEOUT_MS, math.ceil(min(remaining, _MAX_CONNECT_S) * 1000))
        handle.setopt(CurlOpt.COOKIEFILE, b"")
        handle.setopt(CurlOpt.HEADERFUNCTION, transfer.header)
        handle.setopt(CurlOpt.WRITEFUNCTION, transfer.data)
        if self.ca_bundle:
            handle.setopt(CurlOpt.CAINFO, self.ca_bundle.encode())
            handle.setopt(CurlOpt.PROXY_CAINFO, self.ca_bundle.encode())
        if self.proxy:
            handle.setopt(CurlOpt.PROXY, self.proxy.encode())
            handle.setopt(CurlOpt.HTTPPROXYTUNNEL, 0 if self.proxy.startswith("socks") else 1)
        if request.connect_to is not None:
            port = _port(request.url)
            address = "[%s]" % request.connect_to if ":" in request.connect_to else request.connect_to
            handle.setopt(
                CurlOpt.RESOLVE,
                ["-%s:%d" % (host_of(request.url), port), "%s:%d:%s" % (host_of(request.url), port, address)],
            )
            handle.setopt(CurlOpt.FRESH_CONNECT, 1)
            handle.setopt(CurlOpt.FORBID_REUSE, 1)


def _set_method(handle: Curl, request: WireRequest) -> None:
    method = request.method.upper()
    if method == "GET":
        handle.setopt(CurlOpt.HTTPGET, 1)
    elif method == "HEAD":
        handle.setopt(CurlOpt.NOBODY, 1)
    elif method == "POST":
        handle.setopt(CurlOpt.POST, 1)
    else:
        handle.setopt(CurlOpt.CUSTOMREQUEST, method.encode())
    if request.body is not None:
        body = request.body.encode("utf-8") if isinstance(request.body, str) else request.body
        handle.setopt(CurlOpt.POSTFIELDS, body)
        handle.setopt(CurlOpt.POSTFIELDSIZE, len(body))


def host_of(url: str) -> str:
    """The URL's host as curl's ``RESOLVE`` names it (IPv6 without brackets)."""
    return urlsplit(url).hostname or ""


def _host(url: str) -> str:
    return host_of(url) or url


def _port(url: str) -> int:
    parts = urlsplit(url)
    return parts.port or (443 if parts.scheme == "https" else 80)


#: libcurl failures by code: (detail code, what happened). Timeouts, refusals and broken bodies are decided in :func:`_error`.
_FAILURES: dict[int, tuple[str, str]] = {
    CurlECode.COULDNT_RESOLVE_HOST: (DNS_ERROR, "could not resolve the host name"),
    CurlECode.COULDNT_RESOLVE_PROXY: (PROXY_ERROR, "proxy failure while reaching"),
    CurlECode.PROXY: (PROXY_ERROR, "proxy failure while reaching"),
    CurlECode.BAD_CONTENT_ENCODING: (BAD_CONTENT_ENCODING, "a body that does not decompress from"),
    CurlECode.WEIRD_SERVER_REPLY: (MALFORMED_RESPONSE, "a malformed response from"),
    **dict.fromkeys(_TLS_CODES, (TLS_ERROR, "TLS failure with")),
}


def _error(
    exc: CurlError, deadline: Deadline, host: str, provider: Optional[str], headed: bool, refused: bool
) -> WebSearchError:
    """The package's error for a libcurl failure."""
    code = getattr(exc, "code", 0)
    expired = deadline.remaining_s() <= _CLOCK_SLACK_S  # libcurl's clock is not ours: it may fire a hair early
    if code == CurlECode.OPERATION_TIMEDOUT and not (expired or headed):  # only the 10 s connect limit comes first
        return Timeout("timed out connecting to %s" % host, provider=provider, detail_code=CONNECT_TIMEOUT)
    if code == CurlECode.OPERATION_TIMEDOUT or expired:
        return deadline_error(deadline, host, provider)
    if code in (CurlECode.UNSUPPORTED_PROTOCOL, CurlECode.URL_MALFORMAT):
        return InvalidInput("not an http(s) endpoint: %s" % host, provider=provider, detail_code=BAD_ENDPOINT)
    reset = "reset" in str(exc).lower()
    if code in _FAILURES:
        detail, what = _FAILURES[code]
    elif refused:
        detail, what = CONNECTION_REFUSED, "connection refused:"
    elif headed and code in _BROKEN_BODY:
        detail, what = (
            (CONNECTION_RESET if reset else INCOMPLETE_BODY),
            "the connection broke while reading the body from",
        )
    else:
        detail, what = (CONNECTION_RESET, "connection reset by") if reset else (CONNECTION_ERROR, "connection failed:")
    return NetworkError("%s %s" % (what, host), provider=provider, detail_code=detail)

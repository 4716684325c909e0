"""The ``requests`` wire: the library's own HTTP/1.1 client (always present).

Owns a ``requests.Session`` unless given one (a caller's, the replay engine's or the
recorder's: their adapters replace the socket, their cookies, headers and auth apply).
Every request is sent by ``Session.send`` of a :class:`_WireSession`, which never
follows a redirect nor reads its body (the transport's one hop policy does, reading at
most 64 KB), and sends a request pinned to a checked address through the wire's own
:class:`~.requests_adapter.DeadlineAdapter` whatever the caller mounted. On that
adapter (this wire's own requests and pinned ones) every phase is bounded by the
call's deadline (:mod:`.requests_adapter`).
"""

import http.client
import os
import re
import socket
import ssl
import sys
import time
import weakref
from collections.abc import Mapping
from functools import partial
from http.cookiejar import CookieJar
from typing import Any, Optional
from urllib.parse import urlsplit

import requests
import urllib3.exceptions
import urllib3.response
import urllib3.util
from requests.adapters import BaseAdapter
from requests.cookies import RequestsCookieJar
from requests.structures import CaseInsensitiveDict
from requests.utils import NETRC_FILES, get_netrc_auth, select_proxy

from ..errors import (
    BAD_CONTENT_ENCODING,
    BAD_ENDPOINT,
    BAD_HEADER,
    BAD_PROXY,
    CONNECT_TIMEOUT,
    CONNECTION_ERROR,
    CONNECTION_REFUSED,
    CONNECTION_RESET,
    MALFORMED_RESPONSE,
    PROXY_ERROR,
    READ_TIMEOUT,
    REQUEST_FAILED,
    SESSION_FROM_PARENT,
    TLS_ERROR,
    InvalidInput,
    NetworkError,
    Timeout,
    WebSearchError,
    client_closed,
    install_hint,
    unresolved_host,
)
from ..forks import module_lock
from ..secrets import is_secret_name
from .deadline import Deadline
from .decoding import DECODERS, TRANSFER_CODINGS, DecodingSink, broken_body, listed_codings, unreadable_transfer
from .environment import SYSTEM_PROXIES, PerOrigin, environment_proxy
from .headers import check_headers, check_proxy
from .memo import remembered
from .mocks import foreign_refusals, refusal, refusing_mock
from .requests_adapter import (
    STATUS_SHAPE,
    DeadlineAdapter,
    Exchange,
    HeadCutShort,
    HeadTooLarge,
    MalformedHead,
    current_exchange,
    name_host,
)
from .wire import BodySink, WireRequest, closed_without_answer, deadline_error

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

_CHUNK = 65536
_MAX_CONNECT_S = 10.0
_POOL_SIZE = 32
#: The environment variables requests reads for a request's ``verify`` (its proxies' are
#: :func:`~.environment.proxy_environment`, which every key holds).
_ENVIRONMENT = ("REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")
#: The options of the wires that own their session and have no proxy of their own, by origin, proxy
#: environment, values of :data:`_ENVIRONMENT` and CA bundle: every such wire merges the same, so a
#: new client's first request to an origin does not read the whole environment again (0.3-0.6 ms a
#: new client). Not where the system's proxy settings count (:data:`~.environment.SYSTEM_PROXIES`).
_SHARED_OPTIONS: PerOrigin[dict[str, Any]] = PerOrigin(_ENVIRONMENT)


@remembered(maxsize=256)  # a longer or non-ASCII URL is prepared each time (:mod:`.memo`)
def _prepared_url(url: str) -> str:
    """``url`` as ``PreparedRequest.prepare_url`` makes it without params: a pure function of the
    text (IDNA, percent-encoding: 8 us a request, the same URL's again on every fetch of a page).
    A URL it refuses is not kept: its error is raised anew each time."""
    prepared = requests.PreparedRequest()
    prepared.prepare_url(url, None)
    return str(prepared.url)


@remembered(maxsize=256)  # a pure function of the URL (urllib3's parser: about 10 us a request)
def _host(url: str) -> str:
    """The host of ``url`` as urllib3 reads it (named in this wire's errors), else the URL itself."""
    return urllib3.util.parse_url(url).host or url


#: The port a proxy URL without one is reached on, by its scheme: measured the same over urllib3
#: (and PySocks) and libcurl (``HTTPS_PROXY=host`` is ``http://host:80`` on both wires).
_PROXY_DEFAULT_PORTS = {"http": 80, "https": 443, "socks4": 1080, "socks4a": 1080, "socks5": 1080, "socks5h": 1080}


def proxy_error(proxy: str, host: str, what: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(proxy_error)`` naming the proxy (its host and port, never its credentials), not
    the upstream: a dead proxy is not the search engine refusing. A proxy without a scheme (as the
    environment may name one: ``HTTPS_PROXY=host:3128``) is an HTTP one, as both wires take it. One
    written without a port is named with the port both wires then use, its scheme's default."""
    try:
        parts = urlsplit(proxy if "://" in proxy else "http://" + proxy)
        port = parts.port
        shown = "%s:%s" % (parts.hostname or "?", port)
        if port is None:
            default = _PROXY_DEFAULT_PORTS.get(parts.scheme.lower())
            shown = "%s:%s (no port written: %s's default)" % (parts.hostname or "?", default, parts.scheme.lower())
    except ValueError:
        shown = "(unreadable proxy URL)"
    return NetworkError(
        "the proxy %s %s (while reaching %s)" % (shown, what, host), provider=provider, detail_code=PROXY_ERROR
    )


def proxy_refused(proxy: str, host: str, status: int, provider: Optional[str]) -> NetworkError:
    """``NetworkError(proxy_error)``: the proxy answered, and refused to reach ``host`` (HTTP
    ``status`` to ``CONNECT``): not a proxy that "could not be reached", nor the upstream's answer."""
    what = "asks for credentials (HTTP 407)" if status == 407 else "refused to reach it (HTTP %d)" % status
    return proxy_error(proxy, host, what, provider)


def proxy_failed(proxy: str, host: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(proxy_error)``: the proxy failed or refused the connection (an HTTP proxy's
    error, a SOCKS proxy's refusal), in the same words on both wires."""
    return proxy_error(proxy, host, "failed or refused the connection", provider)


def proxy_unreached(proxy: str, host: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(proxy_error)``: no connection to the proxy (refused, or its own name did not
    resolve), in the same words on both wires."""
    return proxy_error(proxy, host, "could not be reached", provider)


#: How ``http.client`` says a proxy refused a ``CONNECT`` (``Tunnel connection failed: 407 ...``).
_TUNNEL_REFUSED = re.compile(r"Tunnel connection failed: (\d{3})\b")


def _tunnel_status(exc: BaseException) -> Optional[int]:
    """The status a proxy refused a ``CONNECT`` with, from ``http.client``'s error, else ``None``."""
    for cause in _cause_chain(exc):
        found = _TUNNEL_REFUSED.search(str(cause)) if isinstance(cause, OSError) else None
        if found:
            return int(found.group(1))
    return None


def _proxy_failure(
    exc: requests.exceptions.RequestException,
    proxy: Optional[str],
    deadline: Deadline,
    host: str,
    provider: Optional[str],
) -> Optional[NetworkError]:
    """``proxy_error`` naming the proxy when it failed, refused or could not be reached: an HTTP proxy
    (``requests``' ``ProxyError``), or a SOCKS one (PySocks' errors arrive as a plain connection
    error, which read as ``example.com`` failing); ``None`` when the failure was not the proxy's, or
    when the deadline had passed (its watch or timeout cut the connection or the handshake: a timeout)."""
    blame = None if deadline.expired() else _proxy_blame(exc, proxy)
    if blame is None:
        return None
    shown = proxy or "(unknown proxy)"
    if blame == _UNREACHED:
        return proxy_unreached(shown, host, provider)  # refused, or its name: as libcurl
    status = _tunnel_status(exc)
    if status is not None:
        return proxy_refused(shown, host, status, provider)
    return proxy_failed(shown, host, provider)


#: What :func:`_proxy_blame` finds the proxy did: not reached (it refused the connection, its name
#: did not resolve), or failed.
_UNREACHED, _FAILED = "unreached", "failed"


def _proxy_blame(exc: requests.exceptions.RequestException, proxy: Optional[str]) -> Optional[str]:
    """:data:`_UNREACHED`, :data:`_FAILED`, or ``None`` when the failure is not the proxy's. A proxy
    that refused the connection was not reached. A name
    that does not resolve inside a SOCKS error that is not PySocks' failure to connect to the proxy
    is the upstream's, which PySocks resolves itself once it reached a ``socks5://`` proxy: the
    upstream's ``dns_error`` (:func:`_network_error`), as libcurl says it. Any other is the proxy's
    own name: a SOCKS proxy's (PySocks had not reached it: no SOCKS error yet) or an HTTP one's."""
    chain = _cause_chain(exc)
    socks: Any = sys.modules.get("socks")  # PySocks: imported by urllib3 once a SOCKS proxy was used
    socks_errors = _socks_errors(chain, socks) if proxy else []
    blamed = bool(socks_errors) or isinstance(exc, requests.exceptions.ProxyError)
    if blamed and _refused(chain, socks):
        return _UNREACHED  # no connection to the proxy: as libcurl's COULDNT_CONNECT
    if proxy is None or not any(isinstance(c, socket.gaierror) for c in chain):
        return _FAILED if blamed else None
    if socks_errors and not any(isinstance(c, socks.ProxyConnectionError) for c in socks_errors):
        return None
    return _UNREACHED if blamed or proxy.lower().startswith("socks") else None


def _socks_errors(chain: list[BaseException], socks: Any) -> list[BaseException]:
    """PySocks' errors in ``chain`` (``socks``: PySocks, or ``None`` before it is used: none)."""
    return [c for c in chain if isinstance(c, socks.ProxyError)] if socks else []


def _refused(chain: list[BaseException], socks: Any) -> bool:
    """Whether ``chain`` says the proxy refused the connection to itself: the operating system's
    refusal, or PySocks' failure to connect to the proxy (``socks``: PySocks, or ``None``)."""
    refusals = (ConnectionRefusedError, socks.ProxyConnectionError) if socks else (ConnectionRefusedError,)
    return any(isinstance(c, refusals) for c in chain)


def proxy_forwards(url: str, proxy: str) -> bool:
    """Whether ``proxy`` answers ``url``'s request itself: an HTTP proxy forwarding plain http
    (https goes through a ``CONNECT`` tunnel, a SOCKS proxy relays bytes: the answer is the upstream's)."""
    return url.lower().startswith("http:") and not proxy.lower().startswith("socks")


def not_http(host: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(malformed_response)``: ``host`` answered with something that is not HTTP
    (the upstream's fault: a fallback chain goes on)."""
    return NetworkError(
        "%s answered with something that is not HTTP" % host, provider=provider, detail_code=MALFORMED_RESPONSE
    )


def bad_status_line(host: str, provider: Optional[str], line: str) -> NetworkError:
    """``NetworkError(malformed_response)`` for a first line that is no status line: one of the
    shape libcurl takes for a status line is a malformed one (``HTTP/1.1 099``, ``HTTP/1.1 1000``,
    ``http/1.1 200``), any other is not HTTP at all (:func:`not_http`: ``ICY 200``, ``HTTP/1.1 2x0``),
    in the same words on both wires."""
    if not STATUS_SHAPE.match(line):
        return not_http(host, provider)
    return NetworkError(
        "%s answered with a malformed status line" % host, provider=provider, detail_code=MALFORMED_RESPONSE
    )


def malformed_headers(host: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(malformed_response)``: ``host``'s header block breaks HTTP's rules (conflicting
    or invalid ``Content-Length``, a line that is no header), as libcurl refuses it, in the same words
    on both wires."""
    return NetworkError(
        "%s answered with malformed headers (e.g. a conflicting or invalid Content-Length, a line that is no header)"
        % host,
        provider=provider,
        detail_code=MALFORMED_RESPONSE,
    )


def session_from_parent(parent: int) -> InvalidInput:
    """``InvalidInput(session_from_parent)``: the caller's session was given to the library in the
    process this one was forked from; its connection pool is that process's (see :class:`RequestsWire`)."""
    return InvalidInput(
        "the requests.Session given to this client was given to a client in process %d before the fork: its"
        " pooled connections are that process's, and two processes on one connection read each other's"
        " answers" % parent,
        detail_code=SESSION_FROM_PARENT,
        hint="build the requests.Session (and the client) in this process, after the fork",
    )


def several_locations(host: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(malformed_response)``: ``host`` answered with different ``Location`` headers.
    A browser refuses such an answer (Chromium: ``ERR_RESPONSE_HEADERS_MULTIPLE_LOCATION``), and so
    does libcurl on the browser wire; ``requests`` joins them into one URL (``/a, /b``) to follow."""
    return NetworkError(
        "%s answered with several different Location headers (a browser refuses such an answer)" % host,
        provider=provider,
        detail_code=MALFORMED_RESPONSE,
    )


def _header_values(response: requests.Response, name: str) -> list[str]:
    """Every value of the header ``name`` as received (urllib3's ``HTTPHeaderDict.getlist``;
    ``requests`` joins them with commas); none from a response a mock built without one."""
    getlist = getattr(getattr(response.raw, "headers", None), "getlist", None)
    return [value.strip() for value in getlist(name)] if callable(getlist) else []


def _check_transfer(response: requests.Response, host: str, provider: Optional[str]) -> None:
    """Refuse a body in a ``Transfer-Encoding`` other than chunked (:func:`~.decoding.unreadable_transfer`):
    ``http.client`` reads one it does not know as the raw bytes up to the connection's end."""
    for coding in listed_codings(_header_values(response, "Transfer-Encoding")):
        if coding not in TRANSFER_CODINGS:
            raise unreadable_transfer(host, provider, coding)


def head_too_large(host: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(malformed_response)``: ``host`` sent more header lines, or longer ones, than
    the wire reads (``http.client``: 100 lines of 64 KB a block; libcurl: lines of 100 KB; both: 300 KB
    and 5000 header fields, interim answers' and a chunked body's trailer included, whose lines both
    read up to 4093 bytes). Said as such, not as a connection that failed."""
    return NetworkError(
        "%s answered with a header block too large to read (too many header lines, one too long, or over 300 KB)"
        % host,
        provider=provider,
        detail_code=MALFORMED_RESPONSE,
    )


class _WireSession(requests.Session):
    """The session every request of the wire is sent by (see the module docstring).

    ``mounts``: a caller's session, whose adapters carry the unpinned requests and whose
    cookie jar is the one kept (its headers, auth and hooks apply when it prepares the request).
    """

    def __init__(self, pinned: DeadlineAdapter, mounts: Optional[requests.Session]) -> None:
        super().__init__()
        self.pinned, self.mounts = pinned, mounts
        if mounts is None:
            self.mount("http://", pinned)
            self.mount("https://", pinned)
        else:
            self.cookies = mounts.cookies

    def get_redirect_target(self, resp: requests.Response) -> Optional[str]:
        """None: redirects are the transport's (``Session.send`` would read a redirect's whole body)."""
        return None

    def get_adapter(self, url: str) -> BaseAdapter:
        """The wire's own adapter for a pinned request, else the one mounted for ``url``."""
        exchange = current_exchange()
        if exchange is not None and exchange.pin is not None:
            return self.pinned
        return self.mounts.get_adapter(url) if self.mounts is not None else super().get_adapter(url)


#: The process that first gave the library each caller's session, by the session's ``id`` while it
#: lives (a session class may be unhashable). A forked child inherits it: a session given in the
#: parent is refused there (``session_from_parent``), as its pooled connections are the parent's
#: (nothing the library may close or renew: it is the caller's).
_GIVEN: dict[int, int] = {}
_GIVEN_LOCK = module_lock(__name__, "_GIVEN_LOCK")


def _first_given(session: requests.Session) -> int:
    """The process that first gave the library ``session`` (this one, the first time)."""
    key = id(session)
    with _GIVEN_LOCK:
        if key not in _GIVEN:
            _GIVEN[key] = os.getpid()
            weakref.finalize(session, _GIVEN.pop, key, None)
        return _GIVEN[key]


class RequestsWire:
    """The :class:`~.wire.Wire` over ``requests`` (see the module docstring).

    A caller's ``session`` is refused in a process forked after it was given to the library
    (``InvalidInput(session_from_parent)``, at each request: closing stays possible)."""

    name = "requests"
    profile: Optional[str] = None
    bypasses_requests = False
    decoders: tuple[str, ...] = DECODERS

    def __init__(
        self,
        *,
        session: Optional[requests.Session] = None,
        proxy: Optional[str] = None,
        ca_bundle: Optional[str] = None,
    ) -> None:
        self._owns_session = session is None
        #: The process that first gave the library the caller's session: another one refuses it.
        self._session_from: Optional[int] = None
        if session is not None:
            self._session_from = _first_given(session)
        self._adapter = DeadlineAdapter(pool_connections=_POOL_SIZE, pool_maxsize=_POOL_SIZE, max_retries=0)
        self._sender = _WireSession(self._adapter, session)
        #: The session whose settings (headers, cookies, auth, ``verify``) requests are prepared with.
        self.session: requests.Session = session if session is not None else self._sender
        self.proxies = {"http": proxy, "https": proxy} if proxy else None
        self.ca_bundle = ca_bundle if session is None else None  # a caller's session keeps its own ``verify``
        self._options: PerOrigin[dict[str, Any]] = PerOrigin(_ENVIRONMENT)
        #: The ``(NETRC, HOME)`` values under which no netrc file was found (:meth:`_netrc_auth`).
        self._netrc_absent: Optional[tuple[Optional[str], Optional[str]]] = None
        #: Set by :meth:`close`: a request after it would open a pool no one closes.
        self._closed = False

    def _environment_options(self, url: str, provider: Optional[str]) -> dict[str, Any]:
        """The options ``Session.send`` takes for ``url``: proxies and ``verify`` as requests merges
        them from the session, this wire's settings and the environment (``HTTPS_PROXY``,
        ``NO_PROXY``, ``REQUESTS_CA_BUNDLE``...); the wire's own session keeps the answer per origin
        and values of those variables (:class:`~.environment.PerOrigin`), shared by the wires without
        a proxy of their own (:data:`_SHARED_OPTIONS`)."""
        merged = partial(self._merged_options, provider=provider)
        if not self._owns_session:  # a caller's session may change its own proxies or verify
            return merged(url)
        kept = _SHARED_OPTIONS if self.proxies is None and not SYSTEM_PROXIES else self._options
        options = kept.get(url, merged, self.ca_bundle)
        return dict(options, proxies=dict(options.get("proxies") or {}))

    def _merged_options(self, url: str, provider: Optional[str]) -> dict[str, Any]:
        """requests' merge of the options for ``url``. A proxy the environment names that is no
        usable proxy URL is ``bad_proxy`` here, judged as the browser wire judges it
        (:func:`~.environment.environment_proxy`); a refusal is not kept, so it is met again as long
        as the environment names that proxy, and kept options were merged under a proxy that passed."""
        if self.proxies is None and self.session.trust_env:
            environment_proxy(url, provider)
        settings = self.session.merge_environment_settings(url, self.proxies or {}, True, self.ca_bundle or None, None)
        return {name: value for name, value in settings.items() if name != "stream"}

    def close(self) -> None:
        """Close the wire's connections (a caller's session stays open); a connection a call of
        another thread has under way is closed when that call ends (urllib3 closes what comes back
        to a closed pool), and a request after this is ``InvalidInput(client_closed)``."""
        self._closed = True
        self._adapter.close()
        self._sender.close()

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Send ``request`` and stream the answer into ``sink`` (see :class:`~.wire.Wire`)."""
        if self._closed:  # a call that passed the client's check as another thread closed it (a retry's wait)
            raise client_closed()
        if self._session_from is not None and self._session_from != os.getpid():
            raise session_from_parent(self._session_from)
        host = _host(request.url)
        remaining = deadline.remaining_s()
        if remaining <= 0:
            raise deadline_error(deadline, host, provider)
        with Exchange(deadline, request.connect_to, provider) as exchange:
            # a stall ends with its read timeout; trickled lines, by the watch a little later
            exchange.watch.arm(time.monotonic() + remaining * 1.1 + 0.01)
            response = self._send(request, deadline, (min(_MAX_CONNECT_S, remaining), remaining), host, provider)
            try:
                exchange.watch.arm(time.monotonic() + max(0.0, deadline.remaining_s()) + 0.01)
                sent = _header_values(response, "Location")
                locations = [value for value in sent if value]  # an empty one beside another: skipped, as libcurl does
                if len(set(locations)) > 1:
                    raise several_locations(host, provider)
                if len(sent) > 1 and locations:  # one target: that one, not requests' "/a, /a" or "/a, "
                    response.headers["Location"] = locations[0]
                _check_transfer(response, host, provider)
                decoding = DecodingSink(sink, host, provider)
                if decoding.head(response.status_code, response.headers, response.url or request.url):
                    self._read(response, decoding, deadline, host, provider)
            finally:
                response.close()

    def _send(
        self,
        request: WireRequest,
        deadline: Deadline,
        timeout: tuple[float, float],
        host: str,
        provider: Optional[str],
    ) -> requests.Response:
        """Send one request (never following a redirect) with the session's settings
        (cookies, auth, verify, environment proxies, hooks); the answer's head.

        Headers (ours and the session's) and proxy credentials that cannot be sent are
        ``InvalidInput`` (:mod:`.headers`) before anything is sent. A 407 the proxy answered
        itself (plain http goes through an HTTP proxy without ``CONNECT``) is the proxy refusing,
        as its 407 to ``CONNECT`` is (:func:`proxy_refused`).
        """
        prepared, options = self._prepare(request, provider)
        try:
            response = self._sent(prepared, options, timeout, deadline)
        except requests.exceptions.RequestException as exc:
            if refusing_mock(exc) is not None:
                raise refusal(host, exc, provider) from None
            proxy = select_proxy(prepared.url or request.url, options.get("proxies") or {})
            failure = _proxy_failure(exc, proxy, deadline, host, provider)
            if failure is not None:
                raise failure from None
            if deadline.expired() and isinstance(exc, _CUT_BY_DEADLINE):
                raise deadline_error(deadline, host, provider) from None
            error = _request_error(exc, host, timeout[0], deadline, provider)
            raise error from (exc if isinstance(exc, requests.exceptions.SSLError) else None)
        except foreign_refusals() as exc:  # requests-mock's refusal is no RequestException
            raise refusal(host, exc, provider) from None
        if response.status_code == 407:
            url = prepared.url or request.url
            proxy = select_proxy(url, options.get("proxies") or {})
            if proxy is not None and proxy_forwards(url, proxy):
                response.close()
                raise proxy_refused(proxy, host, 407, provider)
        return response

    def _sent(
        self,
        prepared: requests.PreparedRequest,
        options: dict[str, Any],
        timeout: tuple[float, float],
        deadline: Deadline,
    ) -> requests.Response:
        """``prepared`` sent, its answer's head. Sent once more, on another connection, only when
        all of these hold: it went out on a kept (pooled) connection, that connection failed
        before any byte of an answer came (closed, reset or gone while sending: it died in the
        pool), its method is idempotent (urllib3's ``Retry.DEFAULT_ALLOWED_METHODS``, RFC 9110's
        GET, HEAD, OPTIONS, PUT, DELETE, TRACE), and the deadline has not passed. That is the
        pool's fault, not a retry policy (which is ``client.retry.RetryPolicy``'s alone, and
        ``retries=0`` does not turn this off): a POST, or any request after part of an answer,
        is never sent again here (the server may have acted on it); its error goes to the policy."""
        exchange, tries = current_exchange(), 1
        while True:
            if exchange is not None:
                exchange.connected = exchange.answered = False
            try:
                response: requests.Response = self._sender.send(
                    prepared, allow_redirects=False, stream=True, timeout=timeout, **options
                )
                return response
            except requests.exceptions.ConnectionError as exc:
                died = (
                    exchange is not None
                    and exchange.on_kept_connection()
                    and not exchange.answered
                    and prepared.method in IDEMPOTENT_METHODS
                    and _died_unanswered(exc)
                )
                if not (died and tries < _KEPT_CONNECTION_TRIES and not deadline.expired()):
                    raise
                tries += 1

    def _prepare(
        self, request: WireRequest, provider: Optional[str]
    ) -> tuple[requests.PreparedRequest, dict[str, Any]]:
        """The request prepared with the session's settings, and the options ``Session.send`` takes."""
        headers = dict(request.headers)
        check_headers(dict(self.session.headers, **headers), provider)
        try:
            prepared = self._prepared(request, headers)
            if not request.keep_auth:  # either way the session's settings were merged: its credentials out
                _leave_credentials(prepared, self.session.cookies)
        except (
            UnicodeEncodeError,
            requests.exceptions.InvalidHeader,
        ):  # the session's auth; a value with leading space
            raise InvalidInput(
                "a request header cannot be sent (leading whitespace in a value, or credentials outside Latin-1)",
                provider=provider,
                detail_code=BAD_HEADER,
            ) from None
        check_headers(self._added_headers(prepared), provider)
        url = prepared.url or request.url
        options = self._environment_options(url, provider)
        proxies = options.get("proxies")
        if proxies:
            check_proxy(url, proxies, provider)
        if request.connect_to is not None and not (proxies and select_proxy(url, proxies)):
            name_host(prepared)  # also where a mock replaces the adapter's connection
        return prepared, options

    def _added_headers(self, prepared: requests.PreparedRequest) -> Mapping[str, Any]:
        """The headers of ``prepared`` that its preparation may have added to the ones checked before
        it: all of them where a caller's session prepared it (its class may add any) or the session
        has an auth of its own (which may set any); else the only ones the wire's own preparation
        (:meth:`_prepared`) adds with a value from outside, the jar's ``Cookie`` and the netrc
        entry's ``Authorization`` (``Content-Length`` is digits), without walking requests'
        ``CaseInsensitiveDict`` of them all (about 270 lines of Python a request)."""
        if not self._owns_session or self.session.auth:
            return prepared.headers
        headers = prepared.headers
        return {name: headers[name] for name in _ADDED_HEADERS if name in headers}

    def _prepared(self, request: WireRequest, headers: dict[str, str]) -> requests.PreparedRequest:
        """``request`` prepared as ``Session.prepare_request`` prepares it: the session's headers
        under the request's, its cookies, auth (or the ``~/.netrc`` entry for the host, as
        requests reads it when the session trusts the environment), params and hooks.

        A caller's session prepares it itself (its class may change how). The wire's own is a
        plain ``requests.Session``, and its settings are merged here without what
        ``prepare_request`` does for any session: copying the whole cookie jar twice to merge
        it with a request's cookies (a request here has none of its own), and testing each
        setting against the mapping protocol (a third of the request's preparation, 65 us); an
        empty jar is not walked for the ``Cookie`` header it cannot give."""
        session = self.session
        if not self._owns_session:
            outgoing = requests.Request(
                request.method,
                request.url,
                data=request.body,
                headers=headers,
                auth=None if request.keep_auth else _no_auth,
            )
            return session.prepare_request(outgoing)
        auth: Any = None if request.keep_auth else _no_auth
        if auth is None and session.trust_env and not session.auth:
            auth = self._netrc_auth(request.url)
        merged = CaseInsensitiveDict(session.headers)
        merged.update(headers)
        prepared = requests.PreparedRequest()
        # ``prepare``'s steps in its order, the URL's from a memo when there are no params to add
        prepared.prepare_method(request.method)
        params = session.params or None
        if params is None and type(request.url) is str:
            prepared.url = _prepared_url(request.url)
        else:
            prepared.prepare_url(request.url, params)
        prepared.prepare_headers(merged)
        if len(session.cookies):  # an empty jar adds no header: requests' walk of it (25 calls) not run for nothing
            prepared.prepare_cookies(session.cookies)
        prepared.prepare_body(request.body, None, None)
        prepared.prepare_auth(auth if auth is not None else session.auth, request.url)
        prepared.prepare_hooks(session.hooks)
        return prepared

    def _netrc_auth(self, url: str) -> Any:
        """The netrc entry for ``url``'s host as requests reads it (``get_netrc_auth``), which looks
        for the file on every request: two ``stat`` calls where there is none, 20-60 us on a slow
        disk (more than the rest of the request's preparation). Where none was found, the wire
        does not look again while ``NETRC`` and ``HOME`` keep their values: a netrc file made
        later counts from the next client, or once either variable changes. A file that is there
        is read on every request, as requests reads it."""
        where = (os.environ.get("NETRC"), os.environ.get("HOME"))
        if where == self._netrc_absent:
            return None
        auth = get_netrc_auth(url)
        if auth is None and not any(os.path.exists(os.path.expanduser(path)) for path in _netrc_paths(where[0])):
            self._netrc_absent = where
        return auth

    def _read(
        self, response: requests.Response, sink: DecodingSink, deadline: Deadline, host: str, provider: Optional[str]
    ) -> None:
        """The body as it came (``decode_content=False``: ``sink`` decodes it, :mod:`.decoding`)."""
        raw = response.raw
        read = getattr(raw, "read1", None) or raw.read
        try:
            while True:
                if deadline.expired():
                    raise deadline_error(deadline, host, provider)
                chunk = read(_CHUNK, decode_content=False)
                if not chunk and deadline.expired():  # the watch shut the socket: the body is not complete
                    raise deadline_error(deadline, host, provider)
                if not chunk:
                    sink.end()
                    return
                if not sink.data(chunk):
                    return
        except (
            urllib3.exceptions.ReadTimeoutError,
            urllib3.exceptions.ProtocolError,
            urllib3.exceptions.SSLError,
            OSError,
        ) as exc:
            raise _body_error(exc, deadline, host, provider) from None


def _netrc_paths(netrc: Optional[str]) -> tuple[str, ...]:
    """Where requests looks for a netrc file (``get_netrc_auth``): ``NETRC``, else ``~/.netrc`` and
    ``~/_netrc`` (``requests.utils.NETRC_FILES``)."""
    return (netrc,) if netrc is not None else tuple("~/" + name for name in NETRC_FILES)


#: The headers the wire's own preparation adds with a value from outside the request (requests'
#: ``prepare_cookies`` and ``HTTPBasicAuth`` name them so).
_ADDED_HEADERS = ("Cookie", "Authorization")

#: How many times a request is sent when a kept connection dies under it: once more, no retry
#: policy (:meth:`RequestsWire._sent`; libcurl tries 5 times).
_KEPT_CONNECTION_TRIES = 2

#: The methods the wire may send again when a kept connection died unanswered: the idempotent ones,
#: as urllib3's own retries define them (RFC 9110, 9.2.2).
IDEMPOTENT_METHODS = urllib3.util.Retry.DEFAULT_ALLOWED_METHODS


def _died_unanswered(exc: BaseException) -> bool:
    """Whether ``exc`` says the connection died: closed without an answer (not inside a head:
    :class:`HeadCutShort`, whose bytes came), reset, or gone when sending. (Whether any byte of an
    answer came first is the exchange's :attr:`~.requests_adapter.Exchange.answered`.)"""
    chain = _cause_chain(exc)
    if any(isinstance(e, HeadCutShort) for e in chain):
        return False
    return any(isinstance(e, (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)) for e in chain)


def _body_error(exc: Exception, deadline: Deadline, host: str, provider: Optional[str]) -> WebSearchError:
    """The package's error for a failure while reading the body."""
    if deadline.expired():
        return deadline_error(deadline, host, provider)
    if isinstance(exc, (urllib3.exceptions.ReadTimeoutError, socket.timeout, TimeoutError)):
        return Timeout("%s stopped sending the body" % host, provider=provider, detail_code=READ_TIMEOUT)
    if any(_is_head_too_large(e) for e in _cause_chain(exc)):  # a chunked body's trailer
        return head_too_large(host, provider)
    if any(isinstance(e, MalformedHead) for e in _cause_chain(exc)):  # a trailer line libcurl refuses
        return malformed_headers(host, provider)
    reset = any(isinstance(e, ConnectionResetError) for e in _cause_chain(exc))
    return broken_body(host, provider, reset)


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
    if isinstance(exc, errors.SSLError):
        return _tls_error(exc, host, provider)
    if isinstance(exc, errors.InvalidSchema) and "socks" in str(exc).lower():
        return InvalidInput(
            "a socks5 proxy needs PySocks, " + install_hint("socks"),
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
        return malformed_headers(host, provider)
    if isinstance(exc, _CUT_BY_DEADLINE) and any(_is_head_too_large(e) for e in _cause_chain(exc)):
        return head_too_large(host, provider)
    if isinstance(exc, _CUT_BY_DEADLINE):
        return _network_error(exc, host, provider)
    if isinstance(exc, errors.ContentDecodingError):
        return NetworkError(
            "%s sent a body that does not decompress" % host, provider=provider, detail_code=BAD_CONTENT_ENCODING
        )
    return NetworkError(
        "request to %s failed (%s)" % (host, type(exc).__name__), provider=provider, detail_code=REQUEST_FAILED
    )


def _leave_credentials(prepared: requests.PreparedRequest, jar: CookieJar) -> None:
    """Take the session's credentials off ``prepared``, a request that left the origin: the headers
    whose name says they hold a secret (``Authorization``, ``X-API-Key``: the rule the transport
    leaves a request's own headers behind by, :func:`~websearch_sync.secrets.is_secret_name`) and
    the cookies of ``jar`` set without a domain (``session.cookies.set(name, value)``: the jar sends
    them to every host; a server's cookie always has one). A cookie with a domain goes where its
    domain sends it, as a browser's (and the browser wire's) does. The request's own credential
    headers were left behind by the transport already."""
    for name in [name for name in prepared.headers if is_secret_name(name)]:
        del prepared.headers[name]
    scoped = RequestsCookieJar()
    for cookie in jar:
        if cookie.domain:
            scoped.set_cookie(cookie)
    prepared.prepare_cookies(scoped)


def _no_auth(request: requests.PreparedRequest) -> requests.PreparedRequest:
    """An auth that adds nothing (keeps a session's own auth off a cross-origin redirect)."""
    return request


#: OpenSSL's reasons when the server answered a TLS greeting in plain HTTP (3.0: the first; 3.2+: the others).
_PLAIN_HTTP_REASONS = ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "HTTP_REQUEST")


def tls_failure(host: str, provider: Optional[str], reason: str, unverified: Optional[str] = None) -> NetworkError:
    """``NetworkError(tls_error)`` saying why, for both wires: "TLS failure" alone left a plain-HTTP
    server behind an https:// URL (a local ``http.server``) and an unknown CA alike. ``reason``
    is the TLS library's text; ``unverified`` what the certificate check said, when it failed."""
    if unverified is not None:
        why = ": its certificate did not verify (%s)" % unverified
    elif any(name in reason.upper() for name in _PLAIN_HTTP_REASONS):
        why = ": it answered in plain HTTP, not TLS (is the URL http://?)"
    else:
        why = ""
    return NetworkError("TLS failure with %s%s" % (host, why), provider=provider, detail_code=TLS_ERROR)


def _tls_error(exc: BaseException, host: str, provider: Optional[str]) -> NetworkError:
    """:func:`tls_failure` for an ``ssl`` error under ``requests``' exception."""
    for cause in _cause_chain(exc):
        if isinstance(cause, ssl.SSLCertVerificationError):
            return tls_failure(host, provider, "", str(cause.verify_message))
        if isinstance(cause, ssl.SSLError) and isinstance(cause.reason, str):
            return tls_failure(host, provider, cause.reason)
    return tls_failure(host, provider, "")


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


#: The lines of a header block (or a chunked body's trailer) ``http.client``'s ``LineTooLong`` names;
#: its "chunk size" line is the body's (and never too long: ``requests_adapter._ChunkedBody`` skips an
#: extension of any length, as libcurl does).
_HEAD_LINES = ("status line", "header line", "trailer line")


def _is_head_too_large(exc: BaseException) -> bool:
    """``http.client``'s refusal of a status, header or trailer line over 64 KB, or of over 100 header
    lines; or the wire's own, of over 300 KB of header lines or 100 interim answers (:class:`HeadTooLarge`)."""
    if isinstance(exc, HeadTooLarge):
        return True
    if isinstance(exc, http.client.LineTooLong):
        return str(exc).endswith(_HEAD_LINES)
    return type(exc) is http.client.HTTPException and "more than" in str(exc)


def _network_error(exc: BaseException, host: str, provider: Optional[str]) -> NetworkError:
    """The error for a connection that failed before the answer's head, by what its chain says happened."""
    chain = _cause_chain(exc)

    def found(*kinds: type[BaseException]) -> bool:
        return any(isinstance(e, kinds) for e in chain)

    if found(urllib3.exceptions.NameResolutionError, socket.gaierror):
        return unresolved_host(host, provider)
    if found(MalformedHead):
        return malformed_headers(host, provider)
    if found(ConnectionRefusedError):
        detail, what = CONNECTION_REFUSED, "connection refused"
    elif found(http.client.RemoteDisconnected):
        return closed_without_answer(host, provider)
    elif found(ConnectionResetError):
        detail, what = CONNECTION_RESET, "connection reset by peer"
    elif found(http.client.BadStatusLine, http.client.UnknownProtocol):
        refused = next(e for e in chain if isinstance(e, (http.client.BadStatusLine, http.client.UnknownProtocol)))
        line = refused.args[0] if refused.args and isinstance(refused.args[0], str) else ""
        return bad_status_line(host, provider, line)
    else:
        detail, what = CONNECTION_ERROR, "connection failed"
    return NetworkError("%s: %s" % (what, host), provider=provider, detail_code=detail)


#: The package's error for a failure of ``requests`` (also a recorded one, replayed by the replay wire).
request_error = _request_error

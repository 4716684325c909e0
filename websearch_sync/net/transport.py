"""The one HTTP layer: sessions, timeouts, the whole-call deadline, the byte cap,
and the mapping of transport failures and status codes to errors.

Every backend and fetch send their requests through :class:`HttpTransport`.
"""

import json
import logging
import socket
import time
import email.utils
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union
from urllib.parse import urlsplit

import requests
import urllib3.exceptions
import urllib3.response
from requests.adapters import HTTPAdapter
from requests.cookies import extract_cookies_to_jar
from requests.hooks import dispatch_hook
from requests.structures import CaseInsensitiveDict

from .charset import decode_body
from .headers import check_headers, check_proxy
from .deadline import Deadline
from ..errors import (
    AuthError,
    BadGateway,
    InvalidInput,
    NetworkError,
    Timeout,
    WebBlocked,
    WebProviderError,
    WebSearchError,
)
from ..secrets import is_secret_name, redact, redact_error
from .hops import RedirectPolicy
from .ssrf import PIN_ATTRIBUTE, AddressGuard, PinnedAdapter

__all__ = [
    "DEFAULT_USER_AGENT",
    "RequestSpec",
    "HttpResponse",
    "HttpTransport",
    "status_error",
    "retry_after_seconds",
    "MAX_RETRY_AFTER_S",
]

logger = logging.getLogger("websearch_sync")

DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
)
_CHUNK = 65536
_MAX_CONNECT_S = 10.0
_POOL_SIZE = 32
#: How much of a redirect's body is read (then the connection is dropped): a redirect
#: body carries nothing we use, and it may be endless.
_REDIRECT_BODY_BYTES = 65536

Params = Union[None, Mapping[str, Any], Sequence[Tuple[str, Any]]]
_NOT_PARSED = object()


@dataclass
class RequestSpec:
    """A request a backend wants sent (built by a pure request builder)."""

    method: str
    url: str
    params: Params = None
    data: Optional[Mapping[str, Any]] = None
    json: Any = None
    headers: Dict[str, str] = field(default_factory=dict)
    allow_redirects: bool = True


@dataclass
class HttpResponse:
    """A fully read (or capped) response."""

    status: int
    headers: CaseInsensitiveDict
    content: bytes
    url: str
    truncated: bool = False
    elapsed_ms: float = 0.0
    _text: Optional[str] = field(default=None, repr=False)
    _json: Any = field(default=_NOT_PARSED, repr=False)

    @property
    def content_type(self) -> str:
        """The media type without parameters, lower-case (``""`` when absent)."""
        return (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()

    @property
    def text(self) -> str:
        """The body decoded: header charset, then ``<meta>``, then detection."""
        if self._text is None:
            self._text = decode_body(self.content, self.headers.get("Content-Type"))
        return self._text

    def json(self) -> Any:
        """The body parsed as JSON (raises ``ValueError`` when it is not JSON, or nested
        too deeply for the parser). Parsed once: classifying and parsing an answer both
        read it, so treat the value as read-only."""
        if self._json is _NOT_PARSED:
            try:
                self._json = json.loads(self.text)
            except RecursionError:
                raise ValueError("JSON nested too deeply") from None
        return self._json

    @property
    def location(self) -> Optional[str]:
        """The ``Location`` header of a redirect, if any."""
        return self.headers.get("Location")


#: The longest wait a service may ask for: Retry-After and X-RateLimit-Reset are capped here
#: (a hostile ``inf`` or ``1e18`` would otherwise become a cool-down no clock can add).
MAX_RETRY_AFTER_S = 86400.0


def retry_after_seconds(headers: Mapping[str, str]) -> Optional[float]:
    """Seconds to wait from ``Retry-After`` (seconds or HTTP date) or ``X-RateLimit-Reset``.

    Always ``None`` or a number in ``0..MAX_RETRY_AFTER_S`` (one day): a value that is
    not a duration or a date (``nan``, a malformed date) is ignored, a longer one capped.
    """
    value = (headers.get("Retry-After") or "").strip()
    if value:
        wait = _seconds(value)
        if wait is None and "," in value:
            wait = _until_date(value)
        if wait is not None:
            return wait
    reset = (headers.get("X-RateLimit-Reset") or "").strip()
    if reset:  # Brave: "1, 1419704" = seconds until the per-second and per-month windows reset
        return _seconds(reset.split(",")[0])
    return None


def _seconds(text: str) -> Optional[float]:
    """A number of seconds within ``0..MAX_RETRY_AFTER_S``, or ``None`` (not a number, or NaN)."""
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value:  # NaN
        return None
    return min(MAX_RETRY_AFTER_S, max(0.0, value))


def _until_date(text: str) -> Optional[float]:
    """Seconds until an HTTP date (``Wed, 21 Oct 2015 07:28:00 GMT``), capped; ``None`` when it is no date."""
    try:
        parsed = email.utils.parsedate_to_datetime(text)
        wait = parsed.timestamp() - time.time()
    except (ValueError, TypeError, OverflowError, IndexError):
        return None
    return min(MAX_RETRY_AFTER_S, max(0.0, wait))


def status_error(response: HttpResponse, provider: Optional[str]) -> Optional[WebSearchError]:
    """The generic error for a non-2xx status, or ``None`` for a success.

    401 -> AuthError, 403 -> WebBlocked(http_403), 429 -> WebBlocked(http_429),
    5xx -> BadGateway, any other status outside 2xx -> WebProviderError(http_<status>).
    Backends refine this (body-based bot walls, vendor error envelopes) before it runs.
    """
    status = response.status
    if 200 <= status < 300:
        return None
    host = urlsplit(response.url).hostname or "upstream"
    detail = "http_%d" % status
    if status == 401:
        return AuthError("%s rejected the credentials (HTTP 401)" % host, provider=provider, detail_code=detail, status=status)
    if status == 403:
        return WebBlocked("%s refused the request (HTTP 403)" % host, provider=provider, detail_code=detail, status=status)
    if status == 429:
        wait = retry_after_seconds(response.headers)
        hint = "; retry after %.0f s" % wait if wait is not None else ""
        return WebBlocked(
            "%s is rate-limiting us (HTTP 429)%s" % (host, hint),
            provider=provider,
            detail_code=detail,
            status=status,
            retry_after=wait,
        )
    if status >= 500:
        return BadGateway("%s failed with HTTP %d" % (host, status), provider=provider, detail_code=detail, status=status)
    return WebProviderError("%s answered with unexpected HTTP %d" % (host, status), provider=provider, detail_code=detail, status=status)


def _cause_chain(exc: BaseException) -> List[BaseException]:
    chain, seen = [], set()
    stack: List[Optional[BaseException]] = [exc]
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


def _network_detail(exc: BaseException) -> Tuple[str, str]:
    chain = _cause_chain(exc)
    if any(isinstance(e, urllib3.exceptions.NameResolutionError) or isinstance(e, socket.gaierror) for e in chain):
        return "dns_error", "could not resolve the host name"
    if any(isinstance(e, ConnectionRefusedError) for e in chain):
        return "connection_refused", "connection refused"
    if any(isinstance(e, ConnectionResetError) for e in chain):
        return "connection_reset", "connection reset by peer"
    return "connection_error", "connection failed"


class HttpTransport:
    """Sends :class:`RequestSpec` objects with timeouts, a deadline and a byte cap.

    Owns a ``requests.Session`` (keep-alive, pooled for multi-threaded use) unless
    the caller passes one; a caller's session is used as is and never closed here.

    Redirects (``RequestSpec.allow_redirects``) are followed here, not by ``requests``:
    at most 5, all within the deadline, without reading more than 64 KB of a
    redirect's body; a hop to another origin drops credential headers, and a hop to
    another host is refused (``InvalidInput(private_address)``) when that host is a
    non-public address, unless ``allow_private``.
    """

    def __init__(
        self,
        *,
        session: Optional[requests.Session] = None,
        proxy: Optional[str] = None,
        user_agent: Optional[str] = None,
        allow_private: bool = False,
    ) -> None:
        self._owns_session = session is None
        self.session = session if session is not None else self._new_session()
        self.proxies = {"http": proxy, "https": proxy} if proxy else None
        self.user_agent = user_agent or DEFAULT_USER_AGENT
        self.allow_private = allow_private
        self._pinned = PinnedAdapter(pool_connections=_POOL_SIZE, pool_maxsize=_POOL_SIZE, max_retries=0)

    @staticmethod
    def _new_session() -> requests.Session:
        session = requests.Session()
        adapter = HTTPAdapter(pool_connections=_POOL_SIZE, pool_maxsize=_POOL_SIZE, max_retries=0)
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        return session

    def close(self) -> None:
        """Close the session if this transport created it (and the pinned connections)."""
        self._pinned.close()
        if self._owns_session:
            self.session.close()

    def __repr__(self) -> str:
        return "HttpTransport(proxy=%s, owns_session=%r)" % ("set" if self.proxies else "none", self._owns_session)

    # -- sending --------------------------------------------------------------------------

    def send(
        self,
        spec: RequestSpec,
        *,
        deadline: Deadline,
        provider: Optional[str],
        max_bytes: int,
        truncate: bool = False,
        secrets: Iterable[Optional[str]] = (),
        connect_to: Optional[str] = None,
        read_body: Optional[Callable[[int, Mapping[str, str]], bool]] = None,
    ) -> HttpResponse:
        """Send one request and read its body, within ``deadline``.

        Reads at most ``max_bytes`` of (decompressed) body: beyond it, the body is
        cut and flagged ``truncated`` when ``truncate`` is true, otherwise the call
        fails with ``WebProviderError(response_too_large)``.
        Raises ``Timeout``, ``NetworkError``, ``InvalidInput`` (bad endpoint URL) or
        ``WebProviderError`` (redirect loop); it does not judge the status code
        (see :func:`status_error`).

        ``connect_to`` (an IP address, used by fetch's address guard) connects to
        that address instead of resolving the URL's host again; the Host header,
        TLS SNI and certificate check still use the host name. Such a request is
        never redirected (the caller checks each hop). ``read_body(status, headers)``
        returning false skips reading the body (``content`` is then empty), e.g. for
        a content type the caller will refuse anyway.
        """
        secret_list = [s for s in secrets if s]
        host = urlsplit(spec.url).hostname or spec.url
        started = time.monotonic()
        try:
            response = self._request(spec, deadline, host, provider, connect_to)
            if spec.allow_redirects and connect_to is None:
                response = self._follow_redirects(spec, response, deadline, provider, secret_list)
        except WebSearchError as error:
            raise redact_error(error, secret_list)
        try:
            if read_body is not None and not read_body(response.status_code, response.headers):
                content, truncated = b"", False
            else:
                _refuse_undecodable(response, host, provider)
                content, truncated = self._read_body(response, deadline, max_bytes, truncate, host, provider)
        except WebSearchError as error:
            raise redact_error(error, secret_list)
        finally:
            response.close()
        elapsed = (time.monotonic() - started) * 1000.0
        logger.debug(
            "%s %s -> %d (%d bytes%s, %.0f ms)",
            spec.method,
            redact(host + urlsplit(spec.url).path, secret_list),
            response.status_code,
            len(content),
            ", truncated" if truncated else "",
            elapsed,
        )
        return HttpResponse(
            status=response.status_code,
            headers=CaseInsensitiveDict(response.headers),
            content=content,
            url=response.url or spec.url,
            truncated=truncated,
            elapsed_ms=elapsed,
        )

    def _request(
        self,
        spec: RequestSpec,
        deadline: Deadline,
        host: str,
        provider: Optional[str],
        connect_to: Optional[str] = None,
        keep_auth: bool = True,
    ) -> requests.Response:
        remaining = deadline.remaining_s()
        if remaining <= 0:
            raise _deadline_error(deadline, host, provider)
        headers = {"User-Agent": self.user_agent, "Accept-Encoding": "gzip, deflate"}
        headers.update(spec.headers)
        try:
            return self._send_prepared(spec, headers, (min(_MAX_CONNECT_S, remaining), remaining), connect_to, keep_auth, provider)
        except requests.exceptions.ConnectTimeout:
            raise Timeout(
                "timed out connecting to %s (limit %.0f ms)" % (host, min(_MAX_CONNECT_S, remaining) * 1000),
                provider=provider,
                detail_code="connect_timeout",
            ) from None
        except requests.exceptions.ReadTimeout:
            raise Timeout(
                "%s did not answer within %.0f ms" % (host, deadline.timeout_ms), provider=provider, detail_code="read_timeout"
            ) from None
        except requests.exceptions.ProxyError as exc:
            raise NetworkError("proxy failure while reaching %s" % host, provider=provider, detail_code="proxy_error") from exc
        except requests.exceptions.SSLError as exc:
            raise NetworkError("TLS failure with %s" % host, provider=provider, detail_code="tls_error") from exc
        except requests.exceptions.InvalidSchema as exc:
            if "socks" in str(exc).lower():
                raise InvalidInput(
                    "a socks5 proxy needs PySocks: pip install 'requests[socks]' (from a checkout: pip install -e '.[socks]')",
                    provider=provider,
                    detail_code="bad_proxy",
                ) from None
            raise InvalidInput("not an http(s) endpoint: %s" % host, provider=provider, detail_code="bad_endpoint") from None
        except (requests.exceptions.MissingSchema, requests.exceptions.InvalidURL) as exc:
            raise InvalidInput("invalid request for %s: %s" % (host, type(exc).__name__), provider=provider, detail_code="bad_endpoint") from None
        except requests.exceptions.InvalidHeader:  # our headers are checked before sending: this one is the answer's
            raise NetworkError(
                "%s answered with malformed headers (e.g. conflicting Content-Length)" % host, provider=provider, detail_code="malformed_response"
            ) from None
        except (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
            if deadline.expired():
                raise _deadline_error(deadline, host, provider) from None
            detail, what = _network_detail(exc)
            raise NetworkError("%s: %s" % (what, host), provider=provider, detail_code=detail) from None
        except requests.exceptions.ContentDecodingError:
            raise NetworkError("%s sent a body that does not decompress" % host, provider=provider, detail_code="bad_content_encoding") from None
        except requests.exceptions.RequestException as exc:
            raise NetworkError("request to %s failed (%s)" % (host, type(exc).__name__), provider=provider, detail_code="request_failed") from None

    def _send_prepared(
        self,
        spec: RequestSpec,
        headers: Dict[str, str],
        timeout: Tuple[float, float],
        address: Optional[str] = None,
        keep_auth: bool = True,
        provider: Optional[str] = None,
    ) -> requests.Response:
        """Send one request (never following a redirect) with the session's settings
        (cookies, auth, verify, env proxies, hooks), over a connection pinned to
        ``address`` when given.

        Goes to the adapter directly: ``Session.send`` reads the whole body of a
        redirect answer, unbounded, even when it does not follow it.
        ``keep_auth=False`` keeps the session's own auth (and .netrc) off the request.
        Headers (ours and the session's) and proxy credentials that cannot be sent are
        ``InvalidInput`` (:mod:`.headers`) before anything is sent.
        """
        check_headers(dict(self.session.headers, **headers), provider)
        request = requests.Request(
            spec.method, spec.url, params=spec.params, data=spec.data, json=spec.json, headers=headers,
            auth=None if keep_auth else _no_auth,
        )
        try:
            prepared = self.session.prepare_request(request)
        except (UnicodeEncodeError, requests.exceptions.InvalidHeader):  # the session's auth; a value with leading space
            raise InvalidInput(
                "a request header cannot be sent (leading whitespace in a value, or credentials outside Latin-1)",
                provider=provider,
                detail_code="bad_header",
            ) from None
        check_headers(prepared.headers, provider)
        options = self.session.merge_environment_settings(prepared.url, self.proxies or {}, True, None, None)
        check_proxy(prepared.url or spec.url, options.get("proxies") or {}, provider)
        if address is not None:
            setattr(prepared, PIN_ATTRIBUTE, address)
            adapter: HTTPAdapter = self._pinned
        else:
            adapter = self.session.get_adapter(prepared.url)
        response = adapter.send(prepared, timeout=timeout, **options)
        extract_cookies_to_jar(self.session.cookies, prepared, response.raw)
        return dispatch_hook("response", prepared.hooks, response)

    def _follow_redirects(
        self, spec: RequestSpec, response: requests.Response, deadline: Deadline, provider: Optional[str], secrets: List[str]
    ) -> requests.Response:
        """Follow ``response``'s redirects by the one redirect policy (:mod:`.hops`) within
        ``deadline``; the final response. The endpoint's own host is trusted."""
        policy = RedirectPolicy(spec.url, AddressGuard(allow_private=self.allow_private), provider=provider, trust_start_host=True)
        current = spec
        while True:
            location = self.session.get_redirect_target(response)
            if not location:
                return response
            self._drain(response, deadline, urlsplit(response.url).hostname or "upstream", provider)
            hop = policy.follow(response.url, location, deadline)
            current = _redirected(current, response.status_code, hop.url, secrets, hop.same_origin)
            response = self._request(current, deadline, hop.parts.hostname or hop.url, provider, connect_to=hop.address, keep_auth=hop.same_origin)

    def _drain(self, response: requests.Response, deadline: Deadline, host: str, provider: Optional[str]) -> None:
        """Read a little of a redirect's body (so recorders see it), then drop the connection."""
        try:
            self._read_body(response, deadline, _REDIRECT_BODY_BYTES, True, host, provider)
        except NetworkError:
            pass  # a broken redirect body does not matter: the Location header is what counts
        finally:
            response.close()

    def _read_body(
        self,
        response: requests.Response,
        deadline: Deadline,
        max_bytes: int,
        truncate: bool,
        host: str,
        provider: Optional[str],
    ) -> Tuple[bytes, bool]:
        raw = response.raw
        read = getattr(raw, "read1", None) or raw.read
        chunks: List[bytes] = []
        total = 0
        try:
            while True:
                remaining = deadline.remaining_s()
                if remaining <= 0:
                    raise _deadline_error(deadline, host, provider)
                _limit_socket_wait(raw, remaining)
                chunk = read(min(_CHUNK, max_bytes - total + 1), decode_content=True)
                if not chunk:
                    return b"".join(chunks), False
                chunks.append(chunk)
                total += len(chunk)
                if total > max_bytes:
                    if not truncate:
                        raise WebProviderError(
                            "response from %s is larger than %d bytes" % (host, max_bytes),
                            provider=provider,
                            detail_code="response_too_large",
                        )
                    return b"".join(chunks)[:max_bytes], True
        except urllib3.exceptions.ReadTimeoutError:
            raise _deadline_error(deadline, host, provider) if deadline.expired() else Timeout(
                "%s stopped sending the body" % host, provider=provider, detail_code="read_timeout"
            ) from None
        except urllib3.exceptions.DecodeError:
            raise NetworkError("%s sent a body that does not decompress" % host, provider=provider, detail_code="bad_content_encoding") from None
        except (urllib3.exceptions.ProtocolError, urllib3.exceptions.SSLError, OSError) as exc:
            if deadline.expired():
                raise _deadline_error(deadline, host, provider) from None
            if isinstance(exc, (socket.timeout, TimeoutError)):
                raise Timeout("%s stopped sending the body" % host, provider=provider, detail_code="read_timeout") from None
            detail = "connection_reset" if any(isinstance(e, ConnectionResetError) for e in _cause_chain(exc)) else "incomplete_body"
            raise NetworkError("connection to %s broke while reading the body" % host, provider=provider, detail_code=detail) from None


def _refuse_undecodable(response: requests.Response, host: str, provider: Optional[str]) -> None:
    """``NetworkError(bad_content_encoding)`` when a body is coming in a ``Content-Encoding``
    that cannot be decoded here (``br`` without a brotli decoder, ``compress``, anything
    unknown): urllib3 hands such bytes on undecoded, and they are no page."""
    if response.status_code in (204, 304) or response.request.method == "HEAD":
        return
    decoders = urllib3.response.HTTPResponse.CONTENT_DECODERS
    for token in (response.headers.get("Content-Encoding") or "").split(","):
        name = token.strip().lower()
        if name and name != "identity" and name not in decoders:
            raise NetworkError(
                "%s sent a body in Content-Encoding %r, which cannot be decoded here (decodable: %s)"
                % (host, name[:40], ", ".join(decoders)),
                provider=provider,
                detail_code="bad_content_encoding",
            )


def _no_auth(request: requests.PreparedRequest) -> requests.PreparedRequest:
    """An auth that adds nothing (keeps a session's own auth off a cross-origin redirect)."""
    return request


def _carries_credentials(name: str, value: Any, secrets: List[str]) -> bool:
    text = str(value)
    return is_secret_name(name) or any(secret in text for secret in secrets)


def _redirected(spec: RequestSpec, status: int, url: str, secrets: List[str], same_origin: bool) -> RequestSpec:
    """The request a redirect asks for: 303 (and 301/302 after a POST) become a GET
    without a body, 307/308 repeat the request; credential headers stay behind when
    the redirect leaves the origin."""
    method = spec.method.upper()
    if (status == 303 and method != "HEAD") or (status in (301, 302) and method == "POST"):
        method = "GET"
    keep_body = status in (307, 308)
    headers = dict(spec.headers)
    if not same_origin:
        headers = {name: value for name, value in headers.items() if not _carries_credentials(name, value, secrets)}
    return RequestSpec(
        method,
        url,
        data=spec.data if keep_body else None,
        json=spec.json if keep_body else None,
        headers=headers,
        allow_redirects=True,
    )


def _limit_socket_wait(raw: Any, seconds: float) -> None:
    """Bound the next socket read by the time left (so a stall cannot outlive the deadline)."""
    sock = getattr(getattr(raw, "_connection", None), "sock", None)
    if sock is not None:
        try:
            sock.settimeout(max(0.001, seconds))
        except OSError:
            pass


def _deadline_error(deadline: Deadline, host: str, provider: Optional[str]) -> Timeout:
    return Timeout(
        "no complete answer from %s within the %.0f ms deadline" % (host, deadline.timeout_ms),
        provider=provider,
        detail_code="deadline_exceeded",
    )



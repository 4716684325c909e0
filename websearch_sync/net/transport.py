"""The one HTTP layer's policy: redirects, the whole-call deadline, the byte cap,
charset decoding, and the mapping of status codes to errors.

Every backend and fetch send their requests through :class:`HttpTransport`, which
sends them over a :class:`~.wire.Wire` (``requests``, or ``curl_cffi`` impersonating
a browser for the requests a browser would make).
"""

import logging
import os
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Union
from urllib.parse import urlsplit

import requests
from requests.structures import CaseInsensitiveDict

from ..errors import (
    BAD_CONTENT_ENCODING,
    BAD_ENDPOINT,
    BAD_HEADER,
    CAPTCHA_REQUIRED,
    CONNECTION_ERROR,
    CONNECTION_REFUSED,
    RESPONSE_TOO_LARGE,
    InvalidInput,
    NetworkError,
    WebBlocked,
    WebProviderError,
    WebSearchError,
    client_closed,
    redact_error,
)
from ..forks import module_lock
from ..secrets import is_secret_name, redact
from .browser import browser_wire, ca_bundle_path, resolve_impersonate
from .deadline import Deadline
from .decoding import CODING_TOKEN
from .encode import body_of, encoded, endpoint, url_credentials, with_query
from .headers import check_headers
from .hops import HopRules, RedirectPolicy, RequestGate
from .mocks import requests_patched, say_once
from .response import HttpResponse as HttpResponse
from .ssrf import AddressGuard
from .status import MAX_RETRY_AFTER_S as MAX_RETRY_AFTER_S
from .status import NO_BODY_STATUSES, REDIRECT_STATUSES
from .status import retry_after_seconds as retry_after_seconds
from .status import status_error as status_error
from .urls import URL_HEADERS, header_url
from .wire import BrowserRequests, Wire, WireRequest
from .wire_requests import RequestsWire, closed_without_answer, deadline_error

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
)
#: How much of a redirect's body is read (then the connection is dropped): a redirect
#: body carries nothing we use, and it may be endless.
_REDIRECT_BODY_BYTES = 65536
#: How many of a checked host's addresses a hop tries when connecting fails outright.
MAX_ADDRESSES = 3

Params = Union[None, Mapping[str, Any], Sequence[tuple[str, Any]]]


@dataclass
class RequestSpec:
    """A request a backend wants sent (built by a pure request builder)."""

    method: str
    url: str
    params: Params = None
    #: A form: a mapping, or ``(name, value)`` pairs where a name repeats or the order matters (a page's form).
    data: Union[None, Mapping[str, Any], Sequence[tuple[str, Any]]] = None
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    allow_redirects: bool = True
    #: A browser's navigation or form post (keyless HTML engines, fetch): sent by the browser
    #: wire when impersonation is on; engine headers merge into the profile's (:mod:`.wire_curl`).
    browser: bool = False
    #: The request follows a redirect (set by the hop loop): a browser orders its headers
    #: differently then (Chromium sends its client hints after the fetch metadata).
    redirected: bool = False
    #: The caller goes on without the answer (a SearXNG instance's ``/config``): a replay whose
    #: recording lacks the request refuses it without counting it a mismatch (:mod:`~websearch_sync.contract.replay`).
    #: The library's own mark (not a constructor argument: a plugin's request missing from its
    #: recording is a mismatch); ``dataclasses.replace`` resets it, so a copy sets it again.
    best_effort: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        """A plugin's misbuilt request fails here, in its ``build_request``, naming the field:
        headers given as ``("Authorization", "Bearer ...")`` used to fail deep in the transport
        with "dictionary update sequence element #0 has length 13"."""
        for name in ("method", "url"):
            if not isinstance(getattr(self, name), str):
                raise TypeError("RequestSpec.%s must be a str, got %s" % (name, type(getattr(self, name)).__name__))
        if not isinstance(self.headers, Mapping):  # a value's type is the transport's check (bad_header)
            raise TypeError(
                "RequestSpec.headers must be a dict of header names to values, got a %s"
                " (JsonApiEngine: headers=self.json_headers(self.bearer()))" % type(self.headers).__name__
            )


class _Body:
    """The policy's :class:`~.wire.BodySink`: the byte cap on decoded bytes (so also the
    decompression-bomb guard), the caller's ``read_body`` test, undecodable encodings,
    and the 64 KB look at a redirect's body (which may be endless)."""

    def __init__(
        self,
        *,
        max_bytes: int,
        truncate: bool,
        read_body: Optional[Callable[[int, Mapping[str, str]], bool]],
        follow: bool,
        method: str,
        decoders: Sequence[str],
        host: str,
        provider: Optional[str],
    ) -> None:
        self.max_bytes, self.truncate, self.read_body, self.follow = max_bytes, truncate, read_body, follow
        self.method, self.decoders, self.host, self.provider = method.upper(), decoders, host, provider
        self.status = 0
        self.headers: CaseInsensitiveDict[str] = CaseInsensitiveDict()
        self.url = ""
        self.chunks: list[bytes] = []
        self.total = 0
        self.truncated = False
        self.redirect = False
        self.framed = False

    def head(self, status: int, headers: Mapping[str, str], url: str, framed: bool = False) -> bool:
        """Keep the status line and headers; say whether the body is wanted."""
        self.status, self.headers, self.url, self.framed = status, CaseInsensitiveDict(headers), url, framed
        for name in URL_HEADERS:
            if name in self.headers:
                self.headers[name] = header_url(self.headers[name])
        self.redirect = self.follow and status in REDIRECT_STATUSES and bool(self.headers.get("Location"))
        if self.redirect:
            self.max_bytes, self.truncate = min(self.max_bytes, _REDIRECT_BODY_BYTES), True
        elif self.read_body is not None and not self.read_body(status, headers):
            return False
        if status not in NO_BODY_STATUSES and self.method != "HEAD":
            self._refuse_undecodable()
        return True

    def data(self, chunk: bytes) -> bool:
        """Keep a decoded chunk; false once the cap is reached (or the error when cutting is not allowed)."""
        self.chunks.append(chunk)
        self.total += len(chunk)
        if self.total <= self.max_bytes:
            return True
        if not self.truncate:
            raise WebProviderError(
                "response from %s is larger than %d bytes" % (self.host, self.max_bytes),
                provider=self.provider,
                detail_code=RESPONSE_TOO_LARGE,
            )
        self.truncated = True
        return False

    def content(self) -> bytes:
        """The body read, cut at the cap."""
        data = b"".join(self.chunks)
        return data[: self.max_bytes] if self.truncated else data

    def _refuse_undecodable(self) -> None:
        """``NetworkError(bad_content_encoding)`` for a body in a ``Content-Encoding`` the wire cannot
        decode (``br`` without a decoder, ``compress``, anything unknown): such bytes are no page."""
        for token in (self.headers.get("Content-Encoding") or "").split(","):
            name = token.strip().lower()
            if name and name != "identity" and name not in self.decoders:
                raise NetworkError(
                    "%s sent a body in a Content-Encoding (%s) that cannot be decoded here (decodable: %s)"
                    % (self.host, name if CODING_TOKEN.fullmatch(name) else "unnamed", ", ".join(self.decoders)),
                    provider=self.provider,
                    detail_code=BAD_CONTENT_ENCODING,
                )


#: What :class:`HttpTransport` (and ``SearchClient(wire=...)``) accepts as ``wire``: a wire every
#: request goes through, or a function given each wire the transport builds (the ``requests``
#: wire, the browser wire) returning the wire to use in its place (a wire that wraps it).
WireArg = Union[None, Wire, Callable[[Wire], Wire]]


#: The wires a forked child inherited from its parent (:meth:`HttpTransport._forked`): kept here,
#: never closed nor collected. The child let go of their sockets at the fork (``forks.disown``),
#: but libcurl's cleanup would still end a connection it knows with a close_notify, and the one
#: of a transfer a parent's thread had under way at the fork is noted after it only.
_PARENTS_WIRES: list[tuple["Wire", ...]] = []
_FORK_LOCK = module_lock(__name__, "_FORK_LOCK")


class HttpTransport:
    """Sends :class:`RequestSpec` objects by the library's policy over a :class:`~.wire.Wire`.

    Two wires: ``requests`` for API calls, and for a ``browser`` request (keyless HTML
    engines, fetch) the browser wire of ``impersonate`` (:mod:`.wire_curl`; ``"off"``:
    ``requests`` too). ``wire`` replaces them: a :class:`~.wire.Wire` (a mock, a replay)
    carries every request, browser requests passing through the profile's request building
    first (:class:`~.wire.BrowserRequests`); a function wraps each wire built here (the
    recorder). A caller's ``session`` (and its adapters) carries every request over
    ``requests``. A caller's wire or session is never closed here.

    While ``responses``, requests-mock or another patch of ``requests`` is active
    (:mod:`.mocks`), browser requests go through ``requests`` too, so the mock sees them;
    which wire was used is logged once.

    Redirects (``RequestSpec.allow_redirects``) are followed here, by the one policy
    (:mod:`.hops`): at most 5, all within the deadline, reading at most 64 KB of a
    redirect's body; a hop to another origin drops credential headers, and a hop to
    another host is refused (``InvalidInput(private_address)``) when that host is a
    non-public address, unless ``allow_private``.

    ``gate`` (set by the client that owns the transport) is waited for before every hop
    of every request: the client's spacing per host and its cool-downs after a wall.
    """

    #: What every hop waits for before it leaves (:class:`~.hops.RequestGate`); none by default.
    gate: Optional[RequestGate] = None
    #: The browser profile of browser requests (``None``: impersonation off), known without
    #: building the browser wire (the replay kit reads it on every search).
    profile: Optional[str]
    #: What builds the browser wire at its first use: the wrapper, profile, proxy and CA bundle.
    _browser_of: tuple[Callable[[Wire], Wire], str, Optional[str], Optional[str]]

    def __init__(
        self,
        *,
        wire: WireArg = None,
        session: Optional[requests.Session] = None,
        proxy: Optional[str] = None,
        user_agent: Optional[str] = None,
        allow_private: bool = False,
        impersonate: Optional[str] = None,
        ca_bundle: Optional[str] = None,
    ) -> None:
        self.user_agent = user_agent or DEFAULT_USER_AGENT
        self.allow_private = allow_private
        self._owned: tuple[Wire, ...] = ()
        self._browser: Optional[Wire] = None
        self._building = threading.Lock()
        self._closed = False
        self._pid = os.getpid()
        #: Builds the API wire again in a forked child (``None``: a caller's wire, which is its own business).
        self._make_api: Optional[Callable[[], Wire]] = None
        #: Whether a request's host names are looked up before it is sent: not under a stand-in
        #: wire, which connects nowhere (fetch's address check then reads address literals only).
        self.resolves_names = wire is None or callable(wire)
        if wire is not None and not callable(wire):
            profile = resolve_impersonate(impersonate, need_extra=False)
            self.api: Wire = wire
            self.profile = None if profile == "off" else profile
            self._browser = wire if profile == "off" else BrowserRequests(wire, profile)
            return
        bundle = ca_bundle_path(ca_bundle)
        wrap: Callable[[Wire], Wire] = wire if wire is not None else _as_is
        profile = "off" if session is not None else resolve_impersonate(impersonate)  # a bad value is refused here
        if session is not None:
            say_once("a requests.Session was given: every request goes through requests (its adapters)")
        self._make_api = lambda: wrap(RequestsWire(session=session, proxy=proxy, ca_bundle=bundle))
        self.api = self._make_api()
        self._owned = (self.api,)
        self.profile = None if profile == "off" else profile
        if profile == "off":
            self._browser = self.api
        else:  # built at the first browser request: a client asking APIs only never loads curl_cffi
            self._browser_of = (wrap, profile, proxy, bundle)

    @property
    def browser(self) -> Wire:
        """The wire of browser requests: the API wire when impersonation is off, else the browser
        wire, built at its first use (``curl_cffi`` and a curl session cost ~0.1 s of a process's
        start: most clients ask APIs only); ``InvalidInput(missing_browser_extra)`` when curl_cffi
        fails to import, ``InvalidInput(client_closed)`` after :meth:`close`."""
        browser = self._browser
        if browser is None:
            with self._building:
                if self._browser is None:
                    if self._closed:  # a wire built now would stay open: nothing closes it again
                        raise client_closed()
                    wrap, profile, proxy, bundle = self._browser_of
                    self._browser = wrap(browser_wire(profile, proxy=proxy, ca_bundle=bundle))
                    self._owned += (self._browser,)
                browser = self._browser
        return browser

    @browser.setter
    def browser(self, wire: Wire) -> None:
        self._browser = wire
        self.profile = wire.profile

    def close(self) -> None:
        """Release the connections of the wires built here (a caller's wire or session stays open);
        the browser wire, if not built yet, is not built after (``InvalidInput(client_closed)``). In a
        forked child before its first request, the child's own wires are closed, never the parent's."""
        if self._pid != os.getpid():
            self._forked()
        with self._building:
            self._closed = True
            owned = self._owned
        for wire in owned:
            wire.close()

    def __repr__(self) -> str:
        built = self._browser  # not built here: a repr (a log line, a debugger) opens no curl session
        return "HttpTransport(browser=%s%s)" % (
            built.name if built is not None else "not built yet",
            "/" + self.profile if self.profile else "",
        )

    def _forked(self) -> None:
        """In a forked child (a preforking server's worker, a forking job queue): the wires built
        in the parent hold its pooled connections, and two processes writing on one socket mix
        their requests and read each other's answers. The child builds wires of its own (new
        connections, TLS sessions and cookies); the parent's, whose sockets it let go of at the
        fork, are kept unclosed (``_PARENTS_WIRES``)."""
        with _FORK_LOCK:
            if self._pid == os.getpid():
                return  # another thread of the child renewed them first
            self._building = threading.Lock()  # a parent's thread may have held it at the fork
            if self._make_api is not None and not self._closed:
                inherited = self._owned
                _PARENTS_WIRES.append(inherited)
                self.api = self._make_api()
                self._owned = (self.api,)
                if self._browser is None or self._browser in inherited:  # not one a caller set
                    self._browser = self.api if self.profile is None else None  # else built at its first use
            self._pid = os.getpid()

    def wire_for(self, spec: RequestSpec) -> Wire:
        """The wire that carries ``spec``: the browser wire for a browser request, unless a mock
        of ``requests`` is active and the browser wire would go around it."""
        if self._pid != os.getpid():
            self._forked()
        if not spec.browser:
            return self.api
        if self.browser.bypasses_requests:
            patcher = requests_patched()
            if patcher is not None:
                say_once(
                    "requests is patched by %s: browser requests go through requests, so the mock sees them"
                    " (not %s)" % (patcher, self.browser.name)
                )
                return self.api
        return self.browser

    def send(
        self,
        spec: RequestSpec,
        *,
        deadline: Deadline,
        provider: Optional[str],
        max_bytes: int,
        truncate: bool = False,
        secrets: Iterable[Optional[str]] = (),
        read_body: Optional[Callable[[int, Mapping[str, str]], bool]] = None,
        hops: Optional[HopRules] = None,
    ) -> HttpResponse:
        """Send one request and read its body, within ``deadline``, following its redirects
        (``spec.allow_redirects``) in the one hop loop of the library.

        Reads at most ``max_bytes`` of (decompressed) body: beyond it, the body is
        cut and flagged ``truncated`` when ``truncate`` is true, otherwise the call
        fails with ``WebProviderError(response_too_large)``.
        Raises ``Timeout``, ``NetworkError``, ``InvalidInput`` (bad endpoint URL) or
        ``WebProviderError`` (redirect loop); it does not judge the status code
        (see :func:`status_error`).

        ``hops`` (:class:`~.hops.HopRules`) is the caller's part in the loop: fetch checks
        every hop's host with the address guard and connects to the checked address (the
        next one when connecting fails; Host, TLS SNI and the certificate check still use
        the host name), and looks at each answer (bot walls, client-side redirects). Without
        it the endpoint's own host is trusted and other hosts are checked. Every hop waits
        for the transport's :attr:`gate` first. ``read_body(status, headers)`` returning
        false skips reading the body (``content`` is then empty), e.g. for a content type
        the caller will refuse anyway.
        """
        secret_list = [s for s in secrets if s]
        started = time.monotonic()
        try:
            response = self._hops(spec, deadline, provider, secret_list, (max_bytes, truncate, read_body), hops)
        except WebSearchError as error:
            raise redact_error(error, secret_list)  # noqa: B904 - the same error, redacted in place
        response.elapsed_ms = (time.monotonic() - started) * 1000.0
        if logger.isEnabledFor(logging.DEBUG):
            parts = urlsplit(response.url)
            logger.debug(
                "%s %s -> %d (%d bytes%s, %.0f ms)",
                spec.method,
                redact((parts.hostname or "") + parts.path, secret_list),
                response.status,
                len(response.content),
                ", truncated" if response.truncated else "",
                response.elapsed_ms,
            )
        return response

    def _hops(
        self,
        spec: RequestSpec,
        deadline: Deadline,
        provider: Optional[str],
        secrets: list[str],
        reading: tuple[int, bool, Optional[Callable[[int, Mapping[str, str]], bool]]],
        rules: Optional[HopRules],
    ) -> HttpResponse:
        """The one hop loop: each hop waits for the gate, is sent (to its checked addresses),
        its answer looked at, and its redirect (HTTP ``Location``, or the client-side one the
        caller reads) followed by the one redirect policy (:mod:`.hops`) within ``deadline``."""
        if rules is None:
            guard = AddressGuard(allow_private=self.allow_private)
            rules = HopRules(RedirectPolicy(spec.url, guard, provider=provider, trust_start_host=True))
        current, addresses, same_origin = spec, rules.start.addresses if rules.start else [], True
        while True:
            if self.gate is not None:
                self.gate.before(current.url, deadline, provider)
            body = self._exchange_pinned(current, deadline, provider, reading, addresses, same_origin)
            response = HttpResponse(
                body.status, body.headers, body.content(), body.url or current.url, body.truncated, framed=body.framed
            )
            target = body.headers["Location"] if body.redirect else None
            found = self._answer(rules, response, deadline)
            target = target or found
            if target is None:
                return response
            hop = rules.policy.follow(response.url, target, deadline)
            current = _redirected(current, body.status, hop.url, secrets, hop.same_origin)
            addresses, same_origin = (hop.resolved.addresses if hop.resolved is not None else []), hop.same_origin

    def _answer(self, rules: HopRules, response: HttpResponse, deadline: Deadline) -> Optional[str]:
        """The caller's look at an answer (:attr:`HopRules.answer`); a block it finds cools the host
        down, and a wall (a captcha or bot page: the host's answer to this machine) the search
        engines on that host too. A 429 does not cool them: it may be the page's own rate, and a
        keyed engine's 429 its key's (a search's own 429 leaves the host's other engines alike)."""
        if rules.answer is None:
            return None
        try:
            return rules.answer(response)
        except WebBlocked as error:
            if self.gate is not None:
                self.gate.blocked(response.url, error, deadline, engines=error.detail_code == CAPTCHA_REQUIRED)
            raise

    def _exchange_pinned(
        self,
        spec: RequestSpec,
        deadline: Deadline,
        provider: Optional[str],
        reading: tuple[int, bool, Optional[Callable[[int, Mapping[str, str]], bool]]],
        addresses: Sequence[str],
        keep_auth: bool,
    ) -> _Body:
        """One hop over a connection to a checked address, the next one (of the first
        :data:`MAX_ADDRESSES`) when connecting fails outright; resolved as usual without any. A failure
        that is not retryable (a mock of ``requests`` refusing the request) is the same at every address."""
        if not addresses:
            return self._exchange(spec, deadline, provider, *reading, spec.allow_redirects, None, keep_auth)
        failure: Optional[NetworkError] = None
        for address in addresses[:MAX_ADDRESSES]:
            try:
                return self._exchange(spec, deadline, provider, *reading, spec.allow_redirects, address, keep_auth)
            except NetworkError as error:
                if error.detail_code not in (CONNECTION_REFUSED, CONNECTION_ERROR) or not error.retryable:
                    raise  # not the address's fault (a mock's refusal is the same at every address)
                if deadline.expired():
                    raise
                failure = error
        assert failure is not None
        raise failure

    def _exchange(
        self,
        spec: RequestSpec,
        deadline: Deadline,
        provider: Optional[str],
        max_bytes: int,
        truncate: bool,
        read_body: Optional[Callable[[int, Mapping[str, str]], bool]],
        follow: bool,
        connect_to: Optional[str],
        keep_auth: bool,
    ) -> _Body:
        host = urlsplit(spec.url).hostname or spec.url
        if deadline.remaining_s() <= 0:
            raise deadline_error(deadline, host, provider)
        wire = self.wire_for(spec)
        body = _Body(
            max_bytes=max_bytes,
            truncate=truncate,
            read_body=read_body,
            follow=follow,
            method=spec.method,
            decoders=wire.decoders,
            host=host,
            provider=provider,
        )
        request = wire_request(spec, self.user_agent if wire.profile is None else None, provider)
        request.connect_to, request.keep_auth = connect_to, keep_auth
        try:
            wire.exchange(request, body, deadline=deadline, provider=provider)
        except NetworkError:
            if not (body.redirect and body.status):
                raise  # a broken redirect body does not matter: the Location header is what counts
        if not body.status:  # the connection closed before a final answer's header block ended (libcurl: no error)
            raise closed_without_answer(host, provider)
        return body


def _as_is(wire: Wire) -> Wire:
    return wire


def wire_request(spec: RequestSpec, user_agent: Optional[str], provider: Optional[str]) -> WireRequest:
    """``spec`` encoded for the wire as ``requests`` encodes it (:mod:`.encode`): query in the
    URL, form or JSON body with its ``Content-Type``, Basic auth from the URL's userinfo, its headers.

    ``user_agent`` (the library's own client) goes first with ``Accept-Encoding``;
    a browser wire gets the engine's headers only and merges them with its profile.
    Headers that cannot be sent are ``InvalidInput(bad_header)``; a URL that is no
    http(s) URL is ``InvalidInput(bad_endpoint)``. Headers of plain text that passed both
    checks (:func:`check_headers`, then ``requests``' own) pass them again without being
    checked (:data:`_SENDABLE`: an engine sends the same few headers on every call).
    """
    headers: dict[str, Any] = {"User-Agent": user_agent, "Accept-Encoding": "gzip, deflate"} if user_agent else {}
    headers.update(spec.headers)
    key = _headers_key(headers)
    sendable = _SENDABLE.get(key) if key is not None else None
    if sendable is None:
        check_headers(headers, provider)
    host = urlsplit(spec.url).hostname or spec.url
    try:
        url = with_query(endpoint(spec.url.lstrip()), encoded(spec.params))
        body, content_type = body_of(spec.data, spec.json)
        if sendable is None:
            prepared = requests.PreparedRequest()
            prepared.prepare_headers(headers)  # requests' own checks of every header
            sendable = [(name, str(value)) for name, value in prepared.headers.items()]
            if key is not None:
                _remember_sendable(key, sendable)
        sent = list(sendable)
        if content_type and not any(name.lower() == "content-type" for name, _ in sent):
            sent.append(("Content-Type", content_type))
        credentials = url_credentials(url)
        if credentials is not None:
            sent = _with_basic_auth(sent, credentials)
    except (
        requests.exceptions.MissingSchema,
        requests.exceptions.InvalidURL,
        requests.exceptions.InvalidSchema,
    ) as exc:
        raise InvalidInput(
            "invalid request for %s: %s" % (host, type(exc).__name__), provider=provider, detail_code=BAD_ENDPOINT
        ) from None
    except (UnicodeEncodeError, requests.exceptions.InvalidHeader):
        raise InvalidInput(
            "a request header cannot be sent (leading whitespace in a value, or characters outside Latin-1)",
            provider=provider,
            detail_code=BAD_HEADER,
        ) from None
    request = WireRequest(spec.method.upper(), url, sent, body, browser=spec.browser, redirected=spec.redirected)
    request.best_effort = spec.best_effort
    return request


#: Header lists (names and values, in order) that passed :func:`check_headers` and ``requests``'
#: checks, with what ``requests`` made of them; both checks are pure functions of the text.
_SENDABLE: dict[tuple[str, ...], list[tuple[str, str]]] = {}
#: The most header lists remembered (then the memo starts again: engines send a handful).
MAX_SENDABLE = 256


def _headers_key(headers: Mapping[str, Any]) -> Optional[tuple[str, ...]]:
    """``headers`` as a key of :data:`_SENDABLE`; ``None`` unless every name and value is a ``str``
    itself (bytes, numbers, a subclass of ``str``: checked every time, as before)."""
    key: list[str] = []
    for name, value in headers.items():
        if type(name) is not str or type(value) is not str:
            return None
        key.append(name)
        key.append(value)
    return tuple(key)


def _remember_sendable(key: tuple[str, ...], sendable: list[tuple[str, str]]) -> None:
    if len(_SENDABLE) >= MAX_SENDABLE:
        _SENDABLE.clear()
    _SENDABLE[key] = sendable


def _with_basic_auth(sent: list[tuple[str, str]], credentials: tuple[str, str]) -> list[tuple[str, str]]:
    """``sent`` with the Basic ``Authorization`` ``requests`` makes of the URL's userinfo (replacing one given)."""
    prepared = requests.PreparedRequest()
    prepared.headers = CaseInsensitiveDict(sent)
    requests.auth.HTTPBasicAuth(*credentials)(prepared)
    return [(name, str(value)) for name, value in prepared.headers.items()]


def _carries_credentials(name: str, value: Any, secrets: list[str]) -> bool:
    text = str(value)
    return is_secret_name(name) or any(secret in text for secret in secrets)


def _redirected(spec: RequestSpec, status: int, url: str, secrets: list[str], same_origin: bool) -> RequestSpec:
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
    followed = RequestSpec(
        method,
        url,
        data=spec.data if keep_body else None,
        json=spec.json if keep_body else None,
        headers=headers,
        allow_redirects=True,
        browser=spec.browser,
        redirected=True,
    )
    followed.best_effort = spec.best_effort
    return followed

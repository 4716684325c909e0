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
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Callable, Optional, Union
from urllib.parse import urlsplit

from ..errors import (
    CAPTCHA_REQUIRED,
    CONNECTION_ERROR,
    CONNECTION_REFUSED,
    NetworkError,
    WebBlocked,
    WebSearchError,
    client_closed,
    redact_error,
)
from ..forks import module_lock
from ..secrets import is_secret_name, redact
from .browser import browser_wire, ca_bundle_path, resolve_impersonate
from .deadline import Deadline
from .hops import HopRules, RedirectPolicy, RequestGate
from .mocks import requests_patched, say_once
from .request_spec import RequestSpec as RequestSpec
from .response import HttpResponse as HttpResponse
from .ssrf import AddressGuard
from .status import MAX_RETRY_AFTER_S as MAX_RETRY_AFTER_S
from .status import retry_after_seconds as retry_after_seconds
from .status import status_error as status_error
from .wire import BrowserRequests, ReadBody, Wire, closed_without_answer, deadline_error

if TYPE_CHECKING:
    import requests

    from .exchange import Body

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

DEFAULT_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36"
)
#: How many of a checked host's addresses a hop tries when connecting fails outright.
MAX_ADDRESSES = 3

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
        session: Optional["requests.Session"] = None,
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
            self._api: Optional[Wire] = wire
            self.profile = None if profile == "off" else profile
            self._browser = wire if profile == "off" else BrowserRequests(wire, profile)
            return
        bundle = ca_bundle_path(ca_bundle)
        wrap: Callable[[Wire], Wire] = wire if wire is not None else _as_is
        profile = "off" if session is not None else resolve_impersonate(impersonate)  # a bad value is refused here
        if session is not None:
            say_once("a requests.Session was given: every request goes through requests (its adapters)")
        self._make_api = lambda: wrap(_requests_wire(session=session, proxy=proxy, ca_bundle=bundle))
        # built at the first request (a client whose backends send nothing never loads requests),
        # but at once for a caller's session, which the wire checks (another process's is refused)
        self._api = self._make_api() if session is not None else None
        self._owned = (self._api,) if self._api is not None else ()
        self.profile = None if profile == "off" else profile
        if profile != "off":  # built at the first browser request: a client asking APIs only never loads curl_cffi
            self._browser_of = (wrap, profile, proxy, bundle)

    @property
    def api(self) -> Wire:
        """The wire of API requests (``requests``; a caller's wire), built at its first use:
        a client whose backends send nothing (the offline stub) never loads ``requests``;
        ``InvalidInput(client_closed)`` after :meth:`close`. A forked child renews its wires first
        (:meth:`_forked`): the wire may be read before any request."""
        if self._pid != os.getpid():
            self._forked()
        api = self._api
        if api is None:
            make_api = self._make_api
            assert make_api is not None  # set whenever no caller's wire is
            api = self._built("_api", make_api)
        return api

    @api.setter
    def api(self, wire: Wire) -> None:
        self._api = wire

    @property
    def browser(self) -> Wire:
        """The wire of browser requests: the API wire when impersonation is off, else the browser
        wire, built at its first use (``curl_cffi`` and a curl session cost ~0.1 s of a process's
        start: most clients ask APIs only); ``InvalidInput(missing_browser_extra)`` when curl_cffi
        fails to import, ``InvalidInput(client_closed)`` after :meth:`close`; renewed first in a forked child."""
        if self._pid != os.getpid():
            self._forked()
        browser = self._browser
        if browser is None and self.profile is None:
            return self.api  # impersonation off: the API wire carries the browser's requests too
        if browser is None:
            wrap, profile, proxy, bundle = self._browser_of
            browser = self._built("_browser", lambda: wrap(browser_wire(profile, proxy=proxy, ca_bundle=bundle)))
        return browser

    @browser.setter
    def browser(self, wire: Wire) -> None:
        self._browser = wire
        self.profile = wire.profile

    def _built(self, attribute: str, make: Callable[[], Wire]) -> Wire:
        """The wire kept in ``attribute``, made (once, whichever thread asks first) and owned
        (closed with the transport) if there is none yet; ``InvalidInput(client_closed)`` after :meth:`close`."""
        with self._building:
            wire: Optional[Wire] = getattr(self, attribute)
            if wire is None:
                if self._closed:  # a wire built now would stay open: nothing closes it again
                    raise client_closed()
                wire = make()
                setattr(self, attribute, wire)
                self._owned += (wire,)
        return wire

    def close(self) -> None:
        """Release the connections of the wires built here (a caller's wire or session stays open);
        a wire not built yet (the browser's, the API's) is not built after (``InvalidInput(client_closed)``). In a
        forked child before its first request, the child's own wires are closed, never the parent's."""
        if self._pid != os.getpid():
            self._forked()
        with self._building:
            self._closed = True
            owned = self._owned
        for wire in owned:
            wire.close()

    def __repr__(self) -> str:
        # not built here: a repr (a log line, a debugger) opens no curl session, loads no requests
        built = self._browser if self._browser is not None or self.profile is not None else self._api
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
                # the child's own API wire: now if the parent had built one, else at its first use
                self._api = self._make_api() if self._api is not None else None
                self._owned = (self._api,) if self._api is not None else ()
                if self._browser is None or self._browser in inherited:  # not one a caller set
                    self._browser = None  # the API wire's when impersonation is off, else built at its first use
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
        read_body: Optional[ReadBody] = None,
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
        the caller will refuse anyway; returning a test of the body's first bytes reads on
        only when it holds (:data:`~.wire.BodyWanted`: a body of a refused type that may be a page).
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
        reading: tuple[int, bool, Optional[ReadBody]],
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
        reading: tuple[int, bool, Optional[ReadBody]],
        addresses: Sequence[str],
        keep_auth: bool,
    ) -> "Body":
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
        read_body: Optional[ReadBody],
        follow: bool,
        connect_to: Optional[str],
        keep_auth: bool,
    ) -> "Body":
        from .exchange import Body, wire_request  # requests' encoding: loaded by the first request, not the client

        host = urlsplit(spec.url).hostname or spec.url
        if deadline.remaining_s() <= 0:
            raise deadline_error(deadline, host, provider)
        wire = self.wire_for(spec)
        body = Body(
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


def _requests_wire(*, session: Optional["requests.Session"], proxy: Optional[str], ca_bundle: Optional[str]) -> Wire:
    """The ``requests`` wire (:mod:`.wire_requests`), imported with ``requests`` when first built."""
    from .wire_requests import RequestsWire

    return RequestsWire(session=session, proxy=proxy, ca_bundle=ca_bundle)


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

"""The transport interface: one request out, one streamed response in (the httpx model).

A :class:`Wire` knows sockets, TLS and HTTP framing and nothing else. Everything
that is policy lives once above it, in :class:`~websearch_sync.net.transport.HttpTransport`:
redirects (:mod:`.hops`), address checks, the whole-call deadline, the byte cap
(counted on decoded bytes, so it is also the decompression-bomb guard), charset
decoding, error messages. Implementations: :mod:`.wire_requests` (``requests``,
always present) and :mod:`.wire_curl` (``curl_cffi``, the ``browser`` extra: a browser's
TLS and HTTP/2). Wires wrap wires (httpx's ``MockTransport``, hishel's caching transport):
:class:`BrowserRequests` puts the browser wire's request building in front of any wire,
:class:`~.wire_mock.MockWire` answers from a function, the replay engine's
:class:`~websearch_sync.contract.replay.ReplayWire` from a recording, and
:class:`~websearch_sync.contract.recording.RecordingWire` keeps what another wire sent.

A wire delivers the answer by pushing it into a :class:`BodySink`: ``head`` once
with the status line and headers (returning false skips the body), then ``data``
per decoded chunk (returning false stops reading). Push rather than pull because
libcurl runs the whole exchange inside one call; ``requests`` reads in a loop.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol, Union

from ..errors import CONNECTION_RESET, DEADLINE_EXCEEDED, NetworkError, Timeout
from .deadline import Deadline

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Called with each host (or pinned address) a wire connects to without Python's ``socket``
#: module (libcurl), before connecting; one that raises stops the request.
#: :func:`websearch_sync.testing.no_network` adds one, so it covers both wires.
CONNECTION_CHECKS: list[Callable[[str], None]] = []

#: Headers a browser profile always decides (its identity, and what a navigation accepts): an
#: engine's value never replaces them.
BROWSER_OWNED_HEADERS = ("user-agent", "accept-encoding", "accept")


def browser_owned(name: str) -> bool:
    """True for a header the impersonated browser's profile always sets itself
    (``User-Agent``, ``Accept``, ``Accept-Encoding``, ``sec-ch-ua*``): the profile wins over an engine's value."""
    lower = name.lower()
    return lower in BROWSER_OWNED_HEADERS or lower.startswith("sec-ch-ua")


@dataclass
class WireRequest:
    """One request as it goes on the wire: the query already in ``url``, the body already encoded
    (as ``requests`` encodes it: text for a form, bytes for JSON).

    ``connect_to`` pins the connection to a checked IP address (Host, SNI and the
    certificate still use the URL's host). ``keep_auth`` false keeps a session's
    own credentials off the request (a redirect that left the origin).
    ``browser`` asks for the browser's request (a navigation or form post):
    only a browser wire treats it differently; so does ``redirected`` (the request follows a
    redirect, where Chromium puts its client hints after the fetch metadata). ``best_effort``: the
    caller goes on without the answer (:attr:`~websearch_sync.net.request_spec.RequestSpec.best_effort`).
    """

    method: str
    url: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Union[str, bytes, None] = None
    connect_to: Optional[str] = None
    keep_auth: bool = True
    browser: bool = False
    redirected: bool = False
    best_effort: bool = field(default=False, init=False)  #: set by the transport only

    def with_headers(self, headers: list[tuple[str, str]]) -> "WireRequest":
        """A copy sending ``headers`` instead, ``best_effort`` kept: built field by field, not by
        ``dataclasses.replace`` (which walks the fields in Python: about 55 lines of Python on every
        browser request). ``tests/unit/test_wires.py`` holds it equal to ``replace`` for every field."""
        copy = WireRequest(
            self.method, self.url, headers, self.body, self.connect_to, self.keep_auth, self.browser, self.redirected
        )
        copy.best_effort = self.best_effort
        return copy

    def header(self, name: str) -> Optional[str]:
        """The value of header ``name``, compared without case (the last sent), or ``None``: ``headers``
        is the list of ``(name, value)`` pairs in the order sent, not a mapping (a test's
        ``request.headers["Authorization"]`` was a ``TypeError``)."""
        found = None
        for sent, value in self.headers:
            if sent.lower() == name.lower():
                found = value
        return found


#: How many of a body's first bytes a test that sniffs it is given (``ReadBody``): the first KB, where
#: the package looks for the HTML openings of a page under no type or another's (``net.media``).
SNIFF_BYTES = 1024
#: What a ``read_body(status, headers)`` test answers of an answer's body: ``True``, read it;
#: ``False``, skip it (``content`` is then empty); or a test of its first :data:`SNIFF_BYTES` (all of a
#: shorter body), read on only when the test is true (``content`` is else those bytes, or a few more
#: of the chunk they came in): a body of a type fetch refuses, read only far enough to tell a page
#: sent under that type (an HTML page under ``image/png``).
BodyWanted = Union[bool, Callable[[bytes], bool]]
ReadBody = Callable[[int, Mapping[str, str]], BodyWanted]


class BodySink(Protocol):
    """Where a wire puts the answer (see the module docstring)."""

    def head(self, status: int, headers: Mapping[str, str], url: str, framed: bool = False) -> bool:
        """The status and headers have arrived; false: do not read the body. ``framed``: the
        protocol itself marks where the body ends (an HTTP/2 or HTTP/3 stream's end), so a body
        read to its end is whole whatever its headers say."""

    def data(self, chunk: bytes) -> bool:
        """A decoded chunk of the body; false: stop reading (the rest is not wanted)."""


class Wire(Protocol):
    """Sends one :class:`WireRequest` and streams its answer into a :class:`BodySink`.

    ``exchange`` never follows a redirect, raises only the package's typed errors
    (``Timeout``, ``NetworkError``, ``InvalidInput``) and finishes, body included,
    within ``deadline`` (DNS, connect, TLS, status line, header lines and body).
    ``decoders`` names the ``Content-Encoding`` values it decodes; ``profile`` is the
    impersonated browser (``None``: the library's own client); ``bypasses_requests``
    is true for a wire that opens its own sockets (libcurl), which a ``responses`` or
    requests-mock patch of ``requests`` would not see.
    """

    name: str
    profile: Optional[str]
    decoders: tuple[str, ...]
    bypasses_requests: bool

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Send ``request`` and feed its answer into ``sink``."""

    def close(self) -> None:
        """Release connections."""


#: ``Cache-Control`` as Chrome sends it: on a form post only (the browser wire removes the
#: profile's own from every other request).
FORM_POST_CACHE_CONTROL = ("Cache-Control", "max-age=0")


def browser_request(request: WireRequest) -> WireRequest:
    """``request`` as a browser wire hands it to what sends it (libcurl, or a replay or mock in
    its place): the engine's headers merged into the profile's by the one rule, i.e. without
    the headers the profile always decides (:func:`browser_owned`), which the profile supplies;
    a form post carries Chrome's ``Cache-Control: max-age=0`` unless the engine set its own.

    Idempotent, so a layer that already built the request may sit in front of a browser wire
    (a recording of what the browser wire sent)."""
    headers = [(name, value) for name, value in request.headers if not browser_owned(name)]
    if request.method.upper() == "POST" and not any(name.lower() == "cache-control" for name, _ in headers):
        headers.append(FORM_POST_CACHE_CONTROL)
    if headers == request.headers:
        return request
    return request.with_headers(headers)


class BrowserRequests:
    """The browser wire's request building (:func:`browser_request`) in front of ``inner``:
    what reaches ``inner`` is what libcurl would be given for the profile. The replay engine
    and the conformance suite put it over a replay or mock, so every recorded page is parsed
    after passing through the browser's header merge too (no socket, no ``curl_cffi``)."""

    def __init__(self, inner: Wire, profile: str) -> None:
        self.inner = inner
        self.profile: Optional[str] = profile
        self.name = "%s (%s request building)" % (inner.name, profile)
        self.decoders = inner.decoders
        self.bypasses_requests = inner.bypasses_requests

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Build ``request`` as the browser would and send it over the inner wire."""
        self.inner.exchange(browser_request(request), sink, deadline=deadline, provider=provider)

    def close(self) -> None:
        """Close the inner wire."""
        self.inner.close()


def deadline_error(deadline: Deadline, host: str, provider: Optional[str]) -> Timeout:
    """The ``Timeout(deadline_exceeded)`` of a call whose deadline passed while talking to ``host``."""
    return Timeout(
        "no complete answer from %s within the %.0f ms deadline" % (host, deadline.timeout_ms),
        provider=provider,
        detail_code=DEADLINE_EXCEEDED,
    )


def closed_without_answer(host: str, provider: Optional[str]) -> NetworkError:
    """``NetworkError(connection_reset)``: ``host`` accepted the connection and closed it without a
    final answer (``http.client``'s ``RemoteDisconnected``, libcurl's "empty reply", a header block
    cut short): not a connection that failed, in the same words on both wires."""
    return NetworkError(
        "no answer: the connection was closed by the server %s" % host, provider=provider, detail_code=CONNECTION_RESET
    )

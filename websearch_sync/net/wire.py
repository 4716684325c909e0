"""The transport interface: one request out, one streamed response in (the httpx model).

A :class:`Wire` knows sockets, TLS and HTTP framing and nothing else. Everything
that is policy lives once above it, in :class:`~websearch_sync.net.transport.HttpTransport`:
redirects (:mod:`.hops`), address checks, the whole-call deadline, the byte cap
(counted on decoded bytes, so it is also the decompression-bomb guard), charset
decoding, error messages. Implementations: :mod:`.wire_requests` (``requests``,
always present; also what the replay engine and recorder plug into) and
:mod:`.wire_curl` (``curl_cffi``, the ``browser`` extra: a browser's TLS and HTTP/2).

A wire delivers the answer by pushing it into a :class:`BodySink`: ``head`` once
with the status line and headers (returning false skips the body), then ``data``
per decoded chunk (returning false stops reading). Push rather than pull because
libcurl runs the whole exchange inside one call; ``requests`` reads in a loop.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol, Union

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
    only a browser wire treats it differently.
    """

    method: str
    url: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Union[str, bytes, None] = None
    connect_to: Optional[str] = None
    keep_auth: bool = True
    browser: bool = False


class BodySink(Protocol):
    """Where a wire puts the answer (see the module docstring)."""

    def head(self, status: int, headers: Mapping[str, str], url: str) -> bool:
        """The status and headers have arrived; false: do not read the body."""

    def data(self, chunk: bytes) -> bool:
        """A decoded chunk of the body; false: stop reading (the rest is not wanted)."""


class Wire(Protocol):
    """Sends one :class:`WireRequest` and streams its answer into a :class:`BodySink`.

    ``exchange`` never follows a redirect, raises only the package's typed errors
    (``Timeout``, ``NetworkError``, ``InvalidInput``) and finishes, body included,
    within ``deadline`` (DNS, connect, TLS, status line, header lines and body).
    ``decoders`` names the ``Content-Encoding`` values it decodes; ``profile`` is the
    impersonated browser (``None``: the library's own client).
    """

    name: str
    profile: Optional[str]
    decoders: tuple[str, ...]

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Send ``request`` and feed its answer into ``sink``."""

    def close(self) -> None:
        """Release connections."""

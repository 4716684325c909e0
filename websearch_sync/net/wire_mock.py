"""A wire answering from a function (httpx's ``MockTransport``): no socket, no ``requests``.

``MockWire(handler)`` calls ``handler(request)`` with each :class:`~.wire.WireRequest` and
streams the :class:`MockResponse` it returns into the transport's sink; a handler that raises
one of the package's errors (``Timeout``, ``NetworkError``) stands for a failure on the wire.
Under :class:`~.wire.BrowserRequests` (a client whose impersonation is on) the handler sees
the request as the browser wire would send it. The replay engine delivers recorded answers
the same way (:func:`deliver`).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Callable, Optional, Union
from urllib.parse import urlsplit

from ..forks import instance_lock
from .deadline import Deadline
from .wire import BodySink, WireRequest, deadline_error

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Response headers that describe the bytes on the wire, not the (decoded) body handed over.
WIRE_HEADERS = ("content-encoding", "transfer-encoding", "content-length")
_CHUNK = 65536


@dataclass
class MockResponse:
    """An answer of a :class:`MockWire` handler: the body as the page's bytes (already decoded;
    text is encoded as UTF-8), ``url`` where it came from (default: the request's). A field of
    another type (``status="200"``, ``body=None``) is a ``TypeError`` naming it, when it is made:
    the test's slip, which else surfaced as a backend's "internal error" at the search."""

    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    body: Union[bytes, str] = b""
    url: Optional[str] = None

    def __post_init__(self) -> None:
        for name, value, wanted, kinds in (
            ("status", self.status, "an int (200)", int),
            ("headers", self.headers, "a mapping of header names to values", Mapping),
            ("body", self.body, "bytes or str", (bytes, bytearray, memoryview, str)),
            ("url", self.url, "a URL (str) or None", (str, type(None))),
        ):
            if not isinstance(value, kinds) or isinstance(value, bool):
                raise TypeError("MockResponse.%s must be %s, got %s" % (name, wanted, type(value).__name__))


def deliver(answer: MockResponse, sink: BodySink, request_url: str) -> None:
    """Stream ``answer`` into ``sink`` as a wire would: the head, then the body in chunks for as
    long as the sink wants them. Headers about the transfer are replaced by the body's length."""
    body = answer.body.encode("utf-8") if isinstance(answer.body, str) else bytes(answer.body)
    headers = {name: value for name, value in answer.headers.items() if name.lower() not in WIRE_HEADERS}
    headers["Content-Length"] = str(len(body))
    if not sink.head(answer.status, headers, answer.url or request_url):
        return
    for start in range(0, len(body), _CHUNK):
        if not sink.data(body[start : start + _CHUNK]):
            return


class MockWire:
    """A :class:`~.wire.Wire` whose answers come from ``handler(request) -> MockResponse``.

    :attr:`requests` lists every request it was given, in order (thread-safe).
    """

    name = "mock"
    profile: Optional[str] = None
    decoders: tuple[str, ...] = ()
    bypasses_requests = False

    def __init__(self, handler: Callable[[WireRequest], MockResponse]) -> None:
        if not callable(handler):
            raise TypeError(
                "MockWire takes a handler, a function of the request returning a MockResponse, got %s"
                % type(handler).__name__
            )
        self.handler = handler
        self.requests: list[WireRequest] = []
        self._lock = instance_lock(self)  # a caller's wire: a forked child keeps it

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Answer ``request`` with the handler's response; a handler that answers after the
        deadline (one standing for a slow upstream) is the ``Timeout`` a real wire raises at it,
        not a late success."""
        host = urlsplit(request.url).hostname or request.url
        if deadline.remaining_s() <= 0:
            raise deadline_error(deadline, host, provider)
        with self._lock:
            self.requests.append(request)
        answer = self.handler(request)
        if not isinstance(answer, MockResponse):
            raise TypeError(
                "MockWire's handler returned %s for %s %s: it returns a MockResponse (or raises a WebSearchError)"
                % (type(answer).__name__, request.method, host)
            )
        if deadline.remaining_s() <= 0:
            raise deadline_error(deadline, host, provider)
        deliver(answer, sink, request.url)

    def close(self) -> None:
        """Nothing to release."""

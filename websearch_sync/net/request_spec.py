"""What a backend asks to be sent: :class:`RequestSpec`, built by a pure request builder and
sent by the transport (:mod:`.transport` re-exports it, where the backends import it from)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

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

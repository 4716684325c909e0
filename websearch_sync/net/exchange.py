"""One exchange's ``requests``-side half: a :class:`~.request_spec.RequestSpec` encoded for the wire
as ``requests`` encodes it (:func:`wire_request`), and the sink its answer is read into
(:class:`Body`, the policy's :class:`~.wire.BodySink`).

The transport imports this module at its first request, not with itself: a client is made,
and an offline backend (the stub) answers, without loading ``requests``.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

import requests
from requests.structures import CaseInsensitiveDict

from ..errors import (
    BAD_CONTENT_ENCODING,
    BAD_ENDPOINT,
    BAD_HEADER,
    RESPONSE_TOO_LARGE,
    InvalidInput,
    NetworkError,
    WebProviderError,
)
from .decoding import CODING_TOKEN
from .encode import body_of, encoded, endpoint, url_credentials, with_query
from .headers import check_headers
from .request_spec import RequestSpec
from .status import NO_BODY_STATUSES, REDIRECT_STATUSES
from .urls import URL_HEADERS, header_url
from .wire import SNIFF_BYTES, ReadBody, WireRequest

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: How much of a redirect's body is read (then the connection is dropped): a redirect
#: body carries nothing we use, and it may be endless.
_REDIRECT_BODY_BYTES = 65536


class Body:
    """The policy's :class:`~.wire.BodySink`: the byte cap on decoded bytes (so also the
    decompression-bomb guard), the caller's ``read_body`` test, undecodable encodings,
    and the 64 KB look at a redirect's body (which may be endless)."""

    def __init__(
        self,
        *,
        max_bytes: int,
        truncate: bool,
        read_body: Optional[ReadBody],
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
        self.sniff: Optional[Callable[[bytes], bool]] = None  # read on only when its first bytes pass

    def head(self, status: int, headers: Mapping[str, str], url: str, framed: bool = False) -> bool:
        """Keep the status line and headers; say whether the body is wanted."""
        self.status, self.headers, self.url, self.framed = status, CaseInsensitiveDict(headers), url, framed
        for name in URL_HEADERS:
            if name in self.headers:
                self.headers[name] = header_url(self.headers[name])
        self.redirect = self.follow and status in REDIRECT_STATUSES and bool(self.headers.get("Location"))
        if self.redirect:
            self.max_bytes, self.truncate = min(self.max_bytes, _REDIRECT_BODY_BYTES), True
        elif self.read_body is not None:
            wanted = self.read_body(status, headers)
            if wanted is False:
                return False
            self.sniff = wanted if callable(wanted) else None
        if status not in NO_BODY_STATUSES and self.method != "HEAD":
            self._refuse_undecodable()
        return True

    def data(self, chunk: bytes) -> bool:
        """Keep a decoded chunk; false once the cap is reached (or the error when cutting is not allowed),
        or once the first :data:`~.wire.SNIFF_BYTES` failed the ``read_body`` test that asked to see them."""
        self.chunks.append(chunk)
        self.total += len(chunk)
        if self.sniff is not None and self.total >= SNIFF_BYTES:
            sniff, self.sniff = self.sniff, None
            if not sniff(b"".join(self.chunks)[:SNIFF_BYTES]):
                return False  # not worth reading on: what arrived is kept, the rest not read
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

"""The one replay engine: a wire that answers from a recorded case.

Given to the library's own transport as its wire (:class:`ReplayWire`), so a replayed
search runs the real request builder, transport (deadline, byte cap, redirects,
decoding), the browser wire's request building for browser requests, classifier and
parser; only the socket is replaced. Used by the contract suite,
``websearch-sync verify`` / ``record`` and :mod:`websearch_sync.testing`; needs
nothing beyond the runtime dependencies.

Two modes:

- ``check_requests=True`` (contract cases): each request must match one of the
  recorded ones (method, URL, query parameters, form or JSON body, the recorded
  headers); a request that matches none is refused (the transport sees a
  connection error) and remembered in :attr:`ReplayWire.mismatches`.
- ``check_requests=False`` (``replay_fixtures``): requests are answered with the
  recorded responses in order, whatever they ask.

In both, a request marked ``best_effort`` (a SearXNG instance's ``/config``) whose URL the
recording lacks is refused with ``NetworkError(network_blocked)`` without taking an answer or
counting as a mismatch: a case recorded before the backend made it replays as it did.

Recorded secrets: a request value stored as ``<redacted>`` (or containing it, as
in ``Bearer <redacted>``) matches any non-empty value in its place.
"""

import json
from typing import Any, Callable, Optional
from urllib.parse import parse_qsl, unquote, urlsplit

import requests
from requests.structures import CaseInsensitiveDict

from ..errors import CONNECTION_ERROR, NETWORK_BLOCKED, NetworkError
from ..forks import instance_lock
from ..net.deadline import Deadline
from ..net.wire import BodySink, WireRequest
from ..net.wire_mock import MockResponse, deliver
from ..net.wire_requests import request_error
from ..reader.page import PROVIDER as PAGE_READER

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: What a redacted secret is stored as; matches any non-empty value on replay.
PLACEHOLDER = "<redacted>"


class ReplayMismatch(Exception):
    """The backend sent a request the recording does not describe; ``past_end`` when the first
    one came after every recorded request was answered (a later result page the recording lacks)."""

    def __init__(self, message: str, past_end: bool = False) -> None:
        super().__init__(message)
        self.past_end = past_end


def query_params(url: str) -> dict[str, Any]:
    """The query string of ``url``: ``{name: value}``, names in the order they first come; a repeated
    name's values a list, in order, wherever they stand (``?a=1&b=2&a=3``: ``{"a": ["1", "3"], "b": "2"}``)."""
    values: dict[str, list[str]] = {}
    for key, value in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        values.setdefault(key, []).append(value)
    return {key: found[0] if len(found) == 1 else found for key, found in values.items()}


def _matches_placeholders(expected: str, actual: str) -> bool:
    """Whether ``actual`` is ``expected`` with each placeholder replaced by a non-empty value.

    Each literal piece is found left to right at its first possible place (the earliest
    place leaves the most room to the rest), so the time is linear in the number of
    pieces, never the backtracking of one ``.+`` per placeholder.
    """
    first, *middle, last = expected.split(PLACEHOLDER)
    if not actual.startswith(first):
        return False
    position = len(first)
    for piece in middle:
        found = actual.find(piece, position + 1)  # + 1: the placeholder before it is not empty
        if found < 0:
            return False
        position = found + len(piece)
    return len(actual) - len(last) >= position + 1 and actual.endswith(last)


def _same(expected: Any, actual: Any) -> bool:
    """Equality in which strings holding the placeholder match any non-empty value in its place."""
    if isinstance(expected, str) and PLACEHOLDER in expected:
        return isinstance(actual, str) and _matches_placeholders(expected, actual)
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and set(expected) == set(actual)
            and all(_same(v, actual[k]) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(_same(e, a) for e, a in zip(expected, actual))
        )
    return bool(expected == actual)


def _as_strings(value: Any) -> Any:
    """Recorded query values as the URL carries them (numbers become strings)."""
    if isinstance(value, list):
        return [_as_strings(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_strings(v) for k, v in value.items()}
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _body_text(request: WireRequest) -> str:
    body = request.body or ""
    return body.decode("utf-8") if isinstance(body, bytes) else body


def _form(request: WireRequest, keep_blank: bool) -> dict[str, str]:
    return dict(parse_qsl(_body_text(request), keep_blank_values=keep_blank))


def _json(request: WireRequest) -> Any:
    text = _body_text(request)
    return json.loads(text) if text else None


def _without_query(url: str) -> str:
    parts = urlsplit(url)
    return "%s://%s%s" % (parts.scheme.lower(), parts.netloc.lower(), parts.path or "/")


def same_address(recorded_url: str, sent_url: str) -> bool:
    """Whether ``sent_url`` goes where ``recorded_url`` went (scheme, host, path; the query aside).
    A recorded address holding the placeholder (a key sent in the URL's path, redacted at record)
    is matched percent-decoded: the replay's backend puts the placeholder setting in its path as it
    put the key, quoted (``%3Credacted%3E``), and the key itself may have been quoted there."""
    recorded, sent = _without_query(recorded_url), _without_query(sent_url)
    if PLACEHOLDER in recorded:
        return _matches_placeholders(unquote(recorded), unquote(sent))
    return recorded == sent


def _check(what: tuple[str, str], expected: Any, actual_of: Callable[[], Any]) -> Optional[str]:
    """Why the part ``what`` (its name, and the name of one of its fields) of the request does not
    match the recording, or ``None``."""
    try:
        actual = actual_of()
    except ValueError as exc:
        return "%s of the request unreadable: %s" % (what[0], exc)
    if _same(expected, actual):
        return None
    path, detail = _difference(expected, actual)
    return "%s %s: %s" % (what[1], path, detail) if path else "%s do not match: %s" % (what[0], detail)


def _difference(expected: Any, actual: Any, path: str = "") -> tuple[str, str]:
    """The first field where ``actual`` (sent) is not ``expected`` (recorded), as its path (``n``;
    ``a.b``, ``hits[2]`` in a JSON body; ``""`` for the whole) and what differs there, so that a CI
    log names the field of a long request that changed."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [k for k in actual if k not in expected]:
            where = "%s.%s" % (path, key) if path else str(key)
            if key not in actual:
                return where, "recorded %r, not sent" % (expected[key],)
            if key not in expected:
                return where, "sent %r, not recorded" % (actual[key],)
            if not _same(expected[key], actual[key]):
                return _difference(expected[key], actual[key], where)
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for index, (recorded, sent) in enumerate(zip(expected, actual)):
            if not _same(recorded, sent):
                return _difference(recorded, sent, "%s[%d]" % (path, index))
    return path, "sent %r, recorded %r" % (actual, expected)


def request_mismatch(recorded: dict[str, Any], request: WireRequest) -> Optional[str]:
    """Why ``request`` is not the ``recorded`` one, or ``None`` when it is.

    Compared: method, URL without its query, then (where recorded) the query
    parameters, the form fields, the JSON body and each recorded header.
    """
    method = recorded.get("method", "GET").upper()
    if (request.method or "GET").upper() != method or not same_address(recorded["url"], request.url or ""):
        return "sent %s %s, recorded %s %s" % (
            request.method,
            _without_query(request.url or ""),
            method,
            _without_query(recorded["url"]),
        )
    for what, expected, actual_of in _body_checks(recorded, request):
        problem = _check(what, expected, actual_of)
        if problem:
            return problem
    headers = CaseInsensitiveDict(request.headers)
    for name, value in (recorded.get("headers") or {}).items():
        sent = headers.get(name)
        if sent is None or not _same(value, sent):
            return "header %s does not match: sent %r, recorded %r" % (name, sent, value)
    return None


def _body_checks(
    recorded: dict[str, Any], request: WireRequest
) -> list[tuple[tuple[str, str], Any, Callable[[], Any]]]:
    """``(what, recorded value, how to read the request's)`` for the query, form and JSON the recording has."""
    checks: list[tuple[tuple[str, str], Any, Callable[[], Any]]] = []
    if "query_params" in recorded:
        checks.append(
            (
                ("query parameters", "query parameter"),
                _as_strings(recorded["query_params"]),
                lambda: query_params(request.url or ""),
            )
        )
    if "form" in recorded:
        form = recorded["form"]
        keep_blank = any(v == "" for v in form.values())
        checks.append((("form fields", "form field"), form, lambda: _form(request, keep_blank)))
    if "json" in recorded:
        checks.append((("JSON body", "JSON body field"), recorded["json"], lambda: _json(request)))
    return checks


class ReplayWire:
    """A :class:`~websearch_sync.net.wire.Wire` answering requests with the responses of
    ``exchanges`` (see the module docstring): it sits where the socket would be, below the
    transport's policy and, for browser requests, below the browser wire's request building.

    ``body_of(response)`` returns a recorded response's body bytes; ``refuse(why)``
    builds the error raised for a request there is no answer for in the in-order mode
    (default: ``NetworkError(connection_error)``, what a refused connection gives).
    """

    name = "replay"
    profile: Optional[str] = None
    decoders: tuple[str, ...] = ()
    bypasses_requests = False

    def __init__(
        self,
        exchanges: list[dict[str, dict[str, Any]]],
        body_of: Callable[[dict[str, Any]], bytes],
        *,
        check_requests: bool = True,
        refuse: Optional[Callable[[str], Exception]] = None,
    ) -> None:
        self._pending: list[dict[str, dict[str, Any]]] = list(exchanges)
        self._body_of = body_of
        self._check_requests = check_requests
        self._refuse = refuse or _refused
        self._lock = instance_lock(self)  # a caller's wire: a forked child keeps it
        self.recorded_count = len(self._pending)
        self.sent = 0
        self.mismatches: list[str] = []
        self.past_end = False  #: the first mismatch is a request after every recorded one was answered

    def exchange(self, request: WireRequest, sink: BodySink, *, deadline: Deadline, provider: Optional[str]) -> None:
        """Stream the recorded response for ``request`` into ``sink`` (or raise the recorded failure).

        A page read (fetch, ``include_content``) or a best-effort request (``best_effort``: a
        SearXNG instance's ``/config``, which a recording made before it was read lacks) of a URL
        the recording holds no request for is ``NetworkError(network_blocked)``, the same wherever
        the replay runs: it takes no recorded answer, is not counted and is no mismatch of the
        backend's (the caller goes on without it, as it would offline)."""
        with self._lock:
            if (provider == PAGE_READER or request.best_effort) and self._recorded_at(request) is None:
                raise NetworkError(
                    "the recording holds no answer for %s %s: %s"
                    % (
                        request.method,
                        request.url,
                        "a replay reads no page from the network"
                        if provider == PAGE_READER
                        else "a best-effort request, answered by none",
                    ),
                    provider=provider,
                    detail_code=NETWORK_BLOCKED,
                )
            self.sent += 1
            response = self._take(request)
        exception = response.get("exception")
        if exception:
            raise _recorded_failure(str(exception), request, deadline, provider, self._refuse)
        deliver(
            MockResponse(
                recorded_status(response.get("status", 200)) or 200,
                response.get("headers") or {},
                self._body_of(response),
            ),
            sink,
            request.url,
        )

    def close(self) -> None:
        """Nothing to release."""

    def _take(self, request: WireRequest) -> dict[str, Any]:
        """Remove and return the recorded response that answers ``request`` (lock held)."""
        if not self._pending:
            why = "%d request(s) recorded; the backend sent one more: %s %s" % (
                self.recorded_count,
                request.method,
                request.url,
            )
            self.past_end = self.past_end or not self.mismatches
            self.mismatches.append(why)
            raise self._refuse(why)
        if not self._check_requests:  # in order; a best-effort request takes only an answer to its URL
            position = self._recorded_at(request) if request.best_effort else 0
            return self._pending.pop(position or 0)["response"]
        problems = []
        for position, exchange in enumerate(self._pending):
            problem = request_mismatch(exchange.get("request") or {}, request)
            if problem is None:
                return self._pending.pop(position)["response"]
            problems.append(problem)
        why = "%s %s matches no recorded request (%s)" % (request.method, request.url, problems[0])
        self.mismatches.append(why)
        raise _refused("replay refused the request: " + why)

    def _recorded_at(self, request: WireRequest) -> Optional[int]:
        """The position of the first pending exchange recorded for ``request``'s URL (its query
        aside), or ``None`` (lock held)."""
        for position, exchange in enumerate(self._pending):
            if same_address(str((exchange.get("request") or {}).get("url", "")), request.url):
                return position
        return None

    def check_complete(self) -> None:
        """Raise :class:`ReplayMismatch` for a refused request or a count other than the recorded one."""
        if self.mismatches:
            raise ReplayMismatch(self.mismatches[0], self.past_end)
        if self.sent != self.recorded_count:
            raise ReplayMismatch("expected %d request(s), the backend sent %d" % (self.recorded_count, self.sent))


def _refused(why: str) -> NetworkError:
    return NetworkError(why, detail_code=CONNECTION_ERROR)


def recorded_status(value: Any) -> Optional[int]:
    """A recorded response's ``status`` as the integer the replay answers with: an integer, its
    ASCII digits (``"200"``) or an integral number (``200.0``, as some JSON writers spell it); ``None``
    for anything else (``true``, ``200.5``, ``"OK"``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


def known_exception(name: str) -> bool:
    """Whether a recorded ``exception`` names a ``requests.exceptions`` class, which the replay raises."""
    kind = getattr(requests.exceptions, name, None)
    return isinstance(kind, type) and issubclass(kind, requests.exceptions.RequestException)


def _recorded_failure(
    name: str, request: WireRequest, deadline: Deadline, provider: Optional[str], refuse: Callable[[str], Exception]
) -> Exception:
    """The error the ``requests`` wire gives for the recorded ``requests.exceptions`` name."""
    if not known_exception(name):
        return refuse("the recording names an unknown exception %r" % name)
    kind = getattr(requests.exceptions, name)
    host = urlsplit(request.url).hostname or request.url
    return request_error(kind("replayed %s" % name), host, deadline.remaining_s(), deadline, provider)

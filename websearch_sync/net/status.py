"""What an HTTP status means: the generic error of a non-2xx answer, and how long a
service asks us to wait (``Retry-After``, ``X-RateLimit-Reset``)."""

import time
from collections.abc import Mapping
from typing import Optional
from urllib.parse import urlsplit

from ..errors import (
    AuthError,
    BadGateway,
    WebBlocked,
    WebProviderError,
    WebSearchError,
    http_status,
)
from .edge_page import block_page_refusal
from .instants import http_date, unix_seconds
from .response import HttpResponse

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


#: The statuses that redirect (to their ``Location``).
REDIRECT_STATUSES = (301, 302, 303, 307, 308)

#: The final statuses whose answer ends with its head, whatever its headers say (RFC 9112, 6.3):
#: no body, no ``Content-Length`` or chunked framing read.
NO_BODY_STATUSES = (204, 304)

#: The longest wait a service may ask for: Retry-After and X-RateLimit-Reset are capped here
#: (a hostile ``inf`` or ``1e18`` would otherwise become a cool-down no clock can add).
MAX_RETRY_AFTER_S = 86400.0


def retry_after_seconds(headers: Mapping[str, str]) -> Optional[float]:
    """Seconds to wait from ``Retry-After`` (seconds or HTTP date) or ``X-RateLimit-Reset``.

    Always ``None`` or a number in ``0..MAX_RETRY_AFTER_S`` (one day): a value that is
    not a duration or a date (``nan``, a malformed date) is ignored, a longer one capped.
    """
    wait = retry_after_header(headers)
    if wait is not None:
        return wait
    return _window_reset(headers)


#: A ``Date`` (plus ``Age``) further than this from this machine's clock is not trusted as the server's
#: now: a stale or wrong one (``Date: Thu, 01 Jan 1970``) turned "retry in 60 s" into a day's cool-down.
MAX_CLOCK_SKEW_S = 86400.0


def _sent_at(headers: Mapping[str, str]) -> float:
    """Now, by the clock of the server that wrote the response's waits: its ``Date`` plus its ``Age``
    (the seconds a cache has held it, RFC 9111, 5.1), else this machine's clock. A wait given as a time
    (an HTTP date, a reset in Unix seconds) is measured against it: against this machine's, a worker whose
    clock ran an hour behind read "retry 5 s from now" as an hour, and shared that cool-down with every
    process of its fleet. A ``Date`` more than :data:`MAX_CLOCK_SKEW_S` from this machine's clock is
    ignored: no clock is that wrong, a stale header is."""
    now = time.time()
    date = http_date(headers.get("Date") or "")
    if date is None:
        return now
    sent = date.timestamp() + _age(headers.get("Age") or "")
    return sent if abs(sent - now) <= MAX_CLOCK_SKEW_S else now


def _age(text: str) -> int:
    """An ``Age`` header's seconds (RFC 9111, 5.1: digits); 0 when it is none."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else 0


def _window_reset(headers: Mapping[str, str]) -> Optional[float]:
    """Seconds until the rate-limit window that is used up resets, from ``X-RateLimit-Reset``.

    Brave sends one value per window, shortest first: ``X-RateLimit-Reset: 1, 1419704`` (seconds
    until the per-second and the per-month windows reset) beside ``X-RateLimit-Remaining: 0, 1998``.
    The wait is that of the longest window ``X-RateLimit-Remaining`` shows at 0 (a month's quota
    used up is not healed in a second), else of the first window. A value past
    :data:`_RESET_AT_FLOOR` is the time of the reset in Unix seconds (GitHub's and many
    gateways' form) or milliseconds (:func:`~.instants.unix_seconds`), not a wait: read as one, any 429 carrying it cooled the backend for a day.
    """
    resets = [part.strip() for part in (headers.get("X-RateLimit-Reset") or "").split(",")]
    if not resets[0]:
        return None
    left = [part.strip() for part in (headers.get("X-RateLimit-Remaining") or "").split(",")]
    sent = _sent_at(headers)
    spent = [_reset_wait(reset, sent) for reset, remaining in zip(resets, left) if remaining == "0"]
    waits = [wait for wait in spent if wait is not None]
    return max(waits) if waits and len(left) == len(resets) else _reset_wait(resets[0], sent)


#: An ``X-RateLimit-Reset`` from this value on is a time (Unix seconds or milliseconds; 1e9 is 2001-09-09), not a
#: number of seconds to wait (31 years).
_RESET_AT_FLOOR = 1e9


def _reset_wait(text: str, sent: float) -> Optional[float]:
    """Seconds until a window resets, from an ``X-RateLimit-Reset`` value: a wait, or a time (from
    ``sent``, :func:`_sent_at`); ``None`` for a time not in the future (no duration: the block's own
    cool-down applies, not "ask again now")."""
    value = _header_number(text)
    if value is None:
        return None
    if value >= _RESET_AT_FLOOR:
        value = unix_seconds(value) - sent
        if not value > 0:
            return None
    return _clamped(value)


def retry_after_header(headers: Mapping[str, str]) -> Optional[float]:
    """Seconds to wait from ``Retry-After`` alone (seconds or HTTP date), within ``0..MAX_RETRY_AFTER_S``:
    what a 503 says about how long the service will be down (RFC 9110, section 10.2.3)."""
    value = (headers.get("Retry-After") or "").strip()
    if not value:
        return None
    wait = _seconds(value)
    if wait is None:
        wait = _until_date(value, headers)
    return wait


def _seconds(text: str) -> Optional[float]:
    """``Retry-After``'s delay-seconds (RFC 9110, 10.2.3: ``1*DIGIT``, ASCII) within ``0..MAX_RETRY_AFTER_S``,
    or ``None``. A decimal fraction (``2.5``: digits, a dot, digits) says a wait as plainly and is read; a
    sign, an exponent or ``inf`` (all of which ``float`` reads: ``inf`` was a day's wait, ``1e3`` 1000 s) is
    no duration, and the block's own cool-down applies, not a wait the header does not say. Digits past a
    day are capped at a day (``float``, not ``int``: no limit on their count)."""
    whole, dot, fraction = text.partition(".")
    if not (_digits(whole) and (not dot or _digits(fraction))):
        return None
    return _clamped(float(text))


def _digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits (``isdigit`` alone also takes ``"²"`` and ``"٣"``)."""
    return text.isascii() and text.isdigit()


def _header_number(text: str) -> Optional[float]:
    """A header's number as ``float`` reads it, in ASCII and without ``_``: ``float`` also takes
    ``"3_0"`` and ``"٣٠"`` (Arabic-Indic digits) as 30, which no header means (``None``)."""
    if not text.isascii() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _clamped(value: float) -> Optional[float]:
    """``value`` within ``0..MAX_RETRY_AFTER_S``, or ``None`` for NaN and a negative one."""
    if not value >= 0:  # NaN, negative
        return None
    return min(MAX_RETRY_AFTER_S, max(0.0, value))


def _until_date(text: str, headers: Mapping[str, str]) -> Optional[float]:
    """Seconds from when the response was sent (:func:`_sent_at`) until an HTTP date, capped; ``None``
    when it is no date or one not after it (a server's clock behind ours: "ask again now" sent the
    retries at once to a service rate-limiting us; the block's own cool-down applies, as for a past
    ``X-RateLimit-Reset``)."""
    until = http_date(text)
    if until is None:
        return None
    wait = until.timestamp() - _sent_at(headers)
    return min(MAX_RETRY_AFTER_S, wait) if wait > 0 else None


#: The longest body an edge refusal has: ``error code: 1020`` is 16 bytes.
_EDGE_BODY_MAX = 32
_EDGE_PREFIX = b"error code: "


def edge_refusal(response: HttpResponse) -> Optional[str]:
    """What Cloudflare's edge said when it refused ``response``'s request itself (``"Cloudflare error
    1020"``, ``'Cloudflare's block page "Sorry, you have been blocked"'``), else ``None``.

    In front of an API, Cloudflare answers a request one of its site's rules refuses (a firewall
    rule: 1020; a banned browser signature: 1010; a banned address: 1006; its managed WAF rules:
    the block page) with a 4xx carrying its ``cf-ray`` header (``server: cloudflare``), and either a
    short plain-text body, ``error code: 1020``, or its HTML block page
    (:func:`~.edge_page.block_page_refusal`). The service behind it never saw the request: its key
    is not the cause, and a 403 of this kind is a block, not a refused key. Recorded: ``HTTP/2 403``,
    ``content-type: text/plain; charset=UTF-8``, ``content-length: 16``, ``server: cloudflare``,
    ``cf-ray: 74385ccaab1ab3d3-MIA``, body ``error code: 1020`` (hadoanngoc/php-bypass-cloudflare-challenge#2;
    the body alone: curl/curl#5127).
    """
    if not 400 <= response.status < 500:
        return None
    if "cf-ray" not in response.headers and (response.headers.get("Server") or "").strip().lower() != "cloudflare":
        return None
    if len(response.content) > _EDGE_BODY_MAX:
        return block_page_refusal(response)
    body = response.content.strip().lower()
    code = body[len(_EDGE_PREFIX) :]
    is_code = body.startswith(_EDGE_PREFIX) and len(code) == 4 and code.isdigit()
    return "Cloudflare error %s" % code.decode("ascii") if is_code else None


def status_error(response: HttpResponse, provider: Optional[str]) -> Optional[WebSearchError]:
    """The generic error for a non-2xx status, or ``None`` for a success.

    401 -> AuthError, 403 -> WebBlocked(http_403) (saying so when Cloudflare's edge refused it:
    :func:`edge_refusal`), 429 -> WebBlocked(http_429), 5xx -> BadGateway, any other status
    outside 2xx -> WebProviderError(http_<status>) (a configured proxy's own 407 is the wire's
    ``NetworkError(proxy_error)``: this one is the upstream's). A status past 599 (``999``, which
    some sites answer scrapers with) is no server error: unexpected, not retried.
    A 429's wait (``Retry-After`` or ``X-RateLimit-Reset``) and a 5xx's ``Retry-After`` (a 503
    for maintenance) are the error's ``retry_after``: a retry waits for it or, when it does not
    fit in the call's budget, is not sent.
    Backends refine this (body-based bot walls, vendor error envelopes) before it runs.
    """
    status = response.status
    if 200 <= status < 300:
        return None
    host = urlsplit(response.url).hostname or "upstream"
    detail = http_status(status)
    if status == 401:
        return AuthError(
            "%s rejected the credentials (HTTP 401)" % host, provider=provider, detail_code=detail, status=status
        )
    if status == 403:
        return forbidden(response, provider, edge_refusal(response))
    if status == 429:
        wait = retry_after_seconds(response.headers)
        hint = retry_hint(wait)
        block = WebBlocked(
            "%s is rate-limiting us (HTTP 429)%s" % (host, hint),
            provider=provider,
            detail_code=detail,
            status=status,
            retry_after=wait,
        )
        block.stale_words = hint or None  # a cool-down quoting it later: its seconds would be stale
        return block
    if 500 <= status <= 599:
        wait = retry_after_header(response.headers)
        return BadGateway(
            "%s failed with HTTP %d%s" % (host, status, retry_hint(wait)),
            provider=provider,
            detail_code=detail,
            status=status,
            retry_after=wait,
        )
    if status in REDIRECT_STATUSES and not (response.location or "").strip():
        said = (
            "%s answered with a redirect (HTTP %d) that names no target (its Location header is missing or empty)"
            % (host, status)
        )
    else:
        said = "%s answered with unexpected HTTP %d" % (host, status)
    return WebProviderError(said, provider=provider, detail_code=detail, status=status)


def forbidden(response: HttpResponse, provider: Optional[str], edge: Optional[str]) -> WebBlocked:
    """A 403's ``WebBlocked(http_403)``; ``edge``: what Cloudflare's edge said refusing it
    (:func:`edge_refusal`, read once by the caller: a block page is parsed once an answer)."""
    host = urlsplit(response.url).hostname or "upstream"
    said = (
        "%s refused the request at Cloudflare's edge (HTTP 403, %s); the service behind it "
        "never saw it, so no key or account of it is the cause" % (host, edge)
        if edge
        else "%s refused the request (HTTP 403)" % host
    )
    return WebBlocked(said, provider=provider, detail_code=http_status(403), status=403)


#: How a message says a wait, by name: the wait a service asked for (a 429's "; retry after 30 s")
#: and a cool-down's time left ("(25 s left)"). A waiter's copy of a failure says its wait again in
#: the phrasing it was said in, built from the seconds (``client/flight.py``, ``aged``).
WAIT_PHRASINGS = {"retry_after": "; retry after %.0f s", "left": "(%.0f s left)"}


def wait_words(seconds: float, phrasing: Optional[str] = None) -> str:
    """The words saying a wait of ``seconds`` in ``phrasing``, a name of :data:`WAIT_PHRASINGS`
    (``None``: the wait a service asked for)."""
    return WAIT_PHRASINGS[phrasing or "retry_after"] % seconds


def retry_hint(wait: Optional[float]) -> str:
    """``"; retry after 30 s"`` for a wait the service asked for, else nothing (a cool-down quoting
    the block leaves it out: counted when the block was met, it is stale when quoted later)."""
    return wait_words(wait) if wait is not None else ""

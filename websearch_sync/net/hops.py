"""The one redirect policy of search and fetch, and what a caller adds to the one hop loop.

The hop loop itself is :meth:`~.transport.HttpTransport.send`: every request of the
library (search, fetch, ``include_content``, link resolution) is sent there, each hop
through the transport's :class:`RequestGate` (the client's spacing per host and cool-down
after a wall) when it has one. A caller shapes the loop with :class:`HopRules`: the
per-hop host check (its :class:`RedirectPolicy`), the first host already checked, and
a look at each answer (fetch: bot walls, client-side redirects).

Every hop, whether an HTTP ``Location`` (search and fetch) or a client-side
redirect (fetch), goes through :meth:`RedirectPolicy.follow`:

- at most :data:`MAX_REDIRECTS` hops, and no hop back to a URL already visited
  (``WebProviderError(redirect_loop)``);
- the target is read as a browser reads it (:func:`~.urls.browser_target`: a backslash before
  the query is a slash, ``http:/host`` from an https page is ``http://host``) and must be an
  http(s) URL with a host (``WebProviderError(bad_redirect)``);
- the target's host is checked by the :class:`~.ssrf.AddressGuard` (private,
  loopback, link-local and metadata addresses are refused unless allowed) and the
  hop connects to the address that was checked (no second lookup, so no DNS
  rebinding between check and connection). Search trusts the host of its
  configured endpoint (a local SearXNG is a private address on purpose), so hops
  on that host are not re-checked; fetch checks every host.
"""

from dataclasses import dataclass
from typing import Callable, Optional, Protocol
from urllib.parse import SplitResult, urlsplit

from ..errors import BAD_REDIRECT, REDIRECT_LOOP, InvalidInput, UrlTooLong, WebBlocked, WebProviderError
from .deadline import Deadline
from .response import HttpResponse
from .ssrf import AddressGuard, ResolvedHost
from .urls import MAX_URL_CHARS, browser_join, host_token, http_url, page_key, same_origin

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The one redirect limit of search and fetch (HTTP and client-side redirects alike).
MAX_REDIRECTS = 5


@dataclass
class Hop:
    """Where one redirect goes: the absolute URL, its parts, and the checked host to connect to."""

    url: str
    parts: SplitResult
    resolved: Optional[ResolvedHost]  #: ``None`` for a host the policy trusts (search's own endpoint)
    same_origin: bool  #: credentials may go along (see :func:`same_origin`)


class RedirectPolicy:
    """Follows the redirects of one call that started at ``start_url`` (see the module docstring).

    ``canonical(url)`` validates a target and returns it in the form it will be sent
    (fetch's stricter URL check); ``InvalidInput`` or ``ValueError`` from it makes the
    hop ``bad_redirect``. ``trust_start_host`` leaves hops on the starting host
    unchecked (search: the endpoint is configuration, not input).
    """

    def __init__(
        self,
        start_url: str,
        guard: AddressGuard,
        *,
        provider: Optional[str],
        trust_start_host: bool = False,
        canonical: Callable[[str], str] = http_url,
    ) -> None:
        self.origin = urlsplit(start_url)
        self.guard = guard
        self.provider = provider
        self.trust_start_host = trust_start_host
        self.canonical = canonical
        self.visited: list[str] = [page_key(start_url)]

    @property
    def hops(self) -> int:
        """How many redirects were followed so far."""
        return len(self.visited) - 1

    def follow(self, base_url: str, location: str, deadline: Deadline) -> Hop:
        """The next hop from the answer at ``base_url`` to ``location``, or the error it is."""
        shown = urlsplit(base_url).hostname or "upstream"
        if self.hops >= MAX_REDIRECTS:
            raise WebProviderError(
                "%s: more than %d redirects" % (shown, MAX_REDIRECTS),
                provider=self.provider,
                detail_code=REDIRECT_LOOP,
            )
        target = self._target(base_url, location, shown)
        if page_key(target) in self.visited:
            raise WebProviderError(
                "redirect loop: %s leads back to %s" % (shown, host_token(target, "a page it visited")),
                provider=self.provider,
                detail_code=REDIRECT_LOOP,
            )
        self.visited.append(page_key(target))
        parts = urlsplit(target)
        return Hop(target, parts, self._checked(parts, deadline), same_origin(self.origin, parts))

    def _target(self, base_url: str, location: str, shown: str) -> str:
        target = location
        try:
            target = browser_join(base_url, location)
            return self.canonical(target)
        except UrlTooLong:  # a browser follows it: say why we do not
            why = "over %d characters, the longest URL fetch sends" % MAX_URL_CHARS
        except (InvalidInput, ValueError):
            why = "not an http(s) URL with a valid host"
        raise WebProviderError(
            "%s redirected to %s that cannot be followed (%s)" % (shown, _unfollowable(target), why),
            provider=self.provider,
            detail_code=BAD_REDIRECT,
        )

    def _checked(self, parts: SplitResult, deadline: Deadline) -> Optional[ResolvedHost]:
        host = (parts.hostname or "").lower()
        if self.trust_start_host and host == (self.origin.hostname or "").lower():
            return None
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        return self.guard.check(parts.hostname or "", port, deadline, self.provider)


def _unfollowable(target: str) -> str:
    """How an error names a redirect target it cannot follow: by its scheme when that is not
    http(s) (``file:///etc/passwd`` was "an address on etc", its path read as a host), else by
    its host. The page chose the target: a scheme or a host at most, never the text."""
    try:
        scheme = urlsplit(target).scheme.lower()  # urlsplit takes only a scheme's characters
    except ValueError:
        scheme = ""
    if scheme and scheme not in ("http", "https") and len(scheme) <= 32 and scheme.isascii():
        return "a %s: address" % scheme
    host = host_token(target, "")
    return "an address on " + host if host else "an address"


class RequestGate(Protocol):
    """What a request waits for before it leaves (the client's runner: spacing per host,
    cool-downs), called by the hop loop before every hop."""

    def before(self, url: str, deadline: Deadline, provider: Optional[str]) -> None:
        """Wait for ``url``'s host to be free (within ``deadline``), or raise why it is not
        (``WebBlocked`` while it cools down, ``Timeout`` when its slot comes too late)."""

    def blocked(self, url: str, error: WebBlocked, deadline: Deadline, engines: bool = True) -> None:
        """Note that ``url`` answered with ``error`` (a bot wall, HTTP 429): its host cools down, and
        with ``engines`` the search engines on that host."""


@dataclass
class HopRules:
    """A caller's part in the one hop loop (:meth:`~.transport.HttpTransport.send`).

    ``policy`` checks each hop's host (fetch: every host, by the address guard, the hop
    pinned to the checked address; search: its endpoint's host is trusted). ``start`` is the
    first host when the caller checked it already (its addresses are connected to, the next
    when connecting fails). ``answer(response)`` looks at each answer before its ``Location``
    is followed: it may raise (a ``WebBlocked`` it raises is reported to the gate, so the host
    cools down), and it returns where a 2xx page sends the browser (a client-side redirect),
    or ``None``.
    """

    policy: RedirectPolicy
    start: Optional[ResolvedHost] = None
    answer: Optional[Callable[[HttpResponse], Optional[str]]] = None

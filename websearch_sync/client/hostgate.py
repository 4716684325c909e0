"""The client's gate for every request it sends: spacing per host and a cool-down after a wall.

Search, fetch, ``search(include_content=True)`` and link resolution (Baidu's
``resolve_links``) all send through the client's transport, whose one hop loop waits
here before every hop (:class:`~websearch_sync.net.hops.RequestGate`). So a page of a
host that just served a captcha is refused like a search would be, and pages read one
after another from a search engine's host keep that engine's pace.

It is not a second rate limiter: the client's :class:`~.ratelimit.RateLimiter` and
:class:`~.cooldown.Cooldowns` (and so the shared state, when configured) hold the slots
and cool-downs. A request to a backend's endpoint host books that backend's own slot
(its ``min_interval_s``) and obeys its cool-down, so a fetch and a search of one engine
keep one pace; every host also has a cool-down of its own (``host:<host>[:<port>]``),
recorded when a page of it met a wall or HTTP 429, or a backend's call to it ended in a block
of the whole backend; the backends on that host are cooled down with it (:meth:`HostGate.blocked`).
Other hosts are not spaced. A backend's own requests to its endpoint are paced and checked
by the backend runner already, and pass (:func:`backend_call`).
"""

import contextlib
import threading
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Callable, Optional
from urllib.parse import urlsplit

from ..config import Settings
from ..engine import registry
from ..engine.base import Backend
from ..errors import BUDGET_EXHAUSTED, Timeout, WebBlocked, WebSearchError
from ..net.deadline import Deadline
from ..net.memo import remembered
from ..net.spans import span_text
from ..net.urls import DEFAULT_PORTS
from .clock import Clock, raise_if_cancelled
from .cooldown import Cooldowns
from .ratelimit import RateLimiter

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


@remembered(maxsize=256)  # a pure function of the URL, asked twice per request
def host_key(url: str) -> Optional[str]:
    """The pace and cool-down key of ``url``'s host (``host:<host>``, with ``:<port>`` when it
    is not the scheme's default), or ``None`` for a URL without a host. The host is named as DNS
    names it: without its trailing dot (``localhost.`` is ``localhost``: a wall met through one
    spelling cooled only that one), an IPv6 address in brackets (``[::1]:8080`` and ``[::1:8080]``,
    another address, had one key)."""
    try:
        parts = urlsplit(url)
        host, port = (parts.hostname or "").lower().rstrip("."), parts.port
    except ValueError:
        return None
    if not host:
        return None
    if ":" in host:
        host = "[%s]" % host
    if port is not None and port != DEFAULT_PORTS.get(parts.scheme.lower()):
        return "host:%s:%d" % (host, port)
    return "host:" + host


def backend_endpoint(backend: Backend) -> str:
    """The backend's endpoint URL, ``""`` for one that has none (an offline backend)."""
    try:
        return backend.endpoint_url()
    except WebSearchError:
        return ""


def backend_hosts(name: str, settings: Settings) -> list[str]:
    """The host keys of backend ``name``'s endpoints under ``settings`` (each vertical's): the
    hosts a block that ended one of its calls cooled down (``BackendRunner._cool_host``)."""
    keys: list[str] = []
    for vertical in registry.verticals_of(name):
        try:
            key = host_key(backend_endpoint(registry.instance(registry.backend_class(name, vertical), settings)))
        except WebSearchError:  # a backend that cannot be built under these settings sent nothing
            continue
        if key is not None and key not in keys:
            keys.append(key)
    return keys


def engine_hosts(settings: Settings) -> dict[str, tuple[tuple[str, str], ...]]:
    """``{host key: ((backend name, its upstream key), ...)}``: the backends whose web endpoint
    (configured or default) is on each host, with the key of their pace and cool-downs
    (:meth:`~..engine.base.Backend.upstream_key`)."""
    by_host: dict[str, tuple[tuple[str, str], ...]] = {}
    for name in registry.backend_names():
        backend = registry.built_quietly(registry.backend_class(name), settings)
        if backend is None:  # a backend that cannot be built under these settings sends nothing
            continue
        try:
            upstream = registry.reported(backend, backend.upstream_key)
        except WebSearchError:
            continue
        key = host_key(backend_endpoint(backend))
        if key is not None:
            by_host[key] = by_host.get(key, ()) + ((name, upstream),)
    return by_host


#: The host key of the backend whose call this context runs and the thread running it (see
#: :func:`backend_call`): a thread the call hands work to carries a copy of its context
#: (:func:`~websearch_sync.net.workers.run_each`), but is not the call's own thread.
_RUNNING: ContextVar[Optional[tuple[Optional[str], int]]] = ContextVar("websearch_sync_backend_host", default=None)


@contextlib.contextmanager
def backend_call(endpoint: str) -> Iterator[None]:
    """While a backend's call runs, its own requests to its endpoint's host pass the gate: the
    backend runner has checked their cool-downs and booked their slot already. Threads the
    backend starts (Baidu's link resolution) do not inherit this, so their requests wait."""
    token = _RUNNING.set((host_key(endpoint), threading.get_ident()))
    try:
        yield
    finally:
        _RUNNING.reset(token)


class HostGate:
    """Waits for a host's slot and refuses a host that cools down (see the module docstring)."""

    def __init__(
        self,
        limiter: RateLimiter,
        cooldowns: Cooldowns,
        clock: Clock,
        settings: Settings,
        intervals: Callable[[str], float],
    ) -> None:
        self.limiter = limiter
        self.cooldowns = cooldowns
        self.clock = clock
        self.settings = settings
        self.intervals = intervals  #: a backend's spacing (the client's, else its own)
        self._engines: Optional[Mapping[str, tuple[tuple[str, str], ...]]] = None
        #: Per thread, the refusal this gate raised last (:meth:`refused`).
        self._refusals = threading.local()

    @property
    def engines(self) -> Mapping[str, tuple[tuple[str, str], ...]]:
        """By host key: the backends on that host and their upstream keys (read from the registry at the first request
        that is not a backend's own: a search alone never pays for it)."""
        if self._engines is None:
            self._engines = engine_hosts(self.settings)
        return self._engines

    def before(self, url: str, deadline: Deadline, provider: Optional[str]) -> None:
        """Raise the cool-down of ``url``'s host or of a backend on it (``WebBlocked``, naming
        ``provider``), or ``Timeout(budget_exhausted)`` when the host's next slot comes after
        ``deadline``; else wait for the slot. A request of a backend's own call to its own
        host passes (:func:`backend_call`)."""
        raise_if_cancelled(self.clock)  # a cancelled call sends nothing more, whether or not a wait comes
        key = host_key(url)
        if key is None or (key, threading.get_ident()) == _RUNNING.get():
            return
        engines = self.engines.get(key, ())
        try:
            for name in (key, *(upstream for _, upstream in engines)):
                self.cooldowns.check(name, None, deadline.remaining_s())
        except WebBlocked as error:
            error.provider = provider
            self._refusals.last = error
            raise
        for name, upstream in engines:  # the engine's own slot: a page of its host keeps its searches' pace
            self._wait_for_slot(name, upstream, deadline, provider)

    def refused(self, error: WebSearchError) -> bool:
        """Whether ``error`` is the cool-down this gate refused the thread's last request with (no
        answer of the host's): a fetch fails fast on it, as a search does, rather than retry when it
        ends (every fetch of the host waited it out, and went to the host together then)."""
        last = getattr(self._refusals, "last", None)
        self._refusals.last = None
        return last is error

    def _wait_for_slot(self, name: str, upstream: str, deadline: Deadline, provider: Optional[str]) -> None:
        interval = self.intervals(name)
        if interval <= 0:
            return
        wait = self.limiter.reserve(upstream, interval, deadline.remaining_s())
        if wait is None:  # budget first: do not wait for a slot that comes too late
            raise Timeout(
                "%s allows one request every %s; the next slot is %s away but only %.0f ms of the deadline are left"
                % (name, span_text(interval), span_text(self.limiter.next_free_in(upstream)), deadline.remaining_ms()),
                provider=provider,
                detail_code=BUDGET_EXHAUSTED,
            )
        if wait > 0:
            self.clock.sleep(wait)

    def blocked(self, url: str, error: WebBlocked, deadline: Deadline, engines: bool = True) -> None:
        """Cool ``url``'s host down after it answered with ``error`` (a wall, HTTP 429; a search's 403),
        and with ``engines`` (a page's wall, not its 429) every backend whose endpoint is on that host
        (their upstream keys): a page's wall is the host's answer to this machine, so a search of an engine is refused after
        a fetch of its host met one, as a fetch is after a search did (a search checks its upstream
        key only: no other round trip a search). A backend's own block (``engines`` false) is
        recorded under its key by its runner, and may be its own (an API's 403): the host's other
        backends are left to meet their own."""
        key = host_key(url)
        if key is None:
            return
        self.cooldowns.record(error, key, None, deadline.remaining_s())
        for _, upstream in self.engines.get(key, ()) if engines else ():
            self.cooldowns.record(error, upstream, None, deadline.remaining_s())

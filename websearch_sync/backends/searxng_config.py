"""What a SearXNG instance publishes about itself at ``GET {base}/config``, read when it matters.

Why: SearXNG gives every engine ``min(the slowest asked engine's timeout, timeout_limit)`` only while
``outgoing.max_request_timeout`` is unset; an instance that sets it gives every engine
``min(timeout_limit, max_request_timeout)`` instead (``searx/search/__init__.py``), so a
generous ``timeout_limit`` (12.5 s of a 15 s call) makes a slow engine cost that long
instead of its own 2-3 s. The engines' own timeouts are public: ``/config`` lists every
engine with its ``name``, ``categories``, ``enabled`` and ``timeout``
(``searx/webapp.py: config``), and the backend never sends a ``timeout_limit`` above the
slowest engine the call will ask (:meth:`InstanceConfig.engines_timeout_s`).

Until ``/config`` is known, ``timeout_limit`` is at most SearXNG's default engine timeout
(:data:`DEFAULT_ENGINE_TIMEOUT_S`, 3 s), so even the first search of an instance that sets
``max_request_timeout`` waits no longer for a slow engine than a default instance would. It is
read when an answer shows it matters: one that took most of that default timeout
(:data:`SLOW_SHARE`) while ``timeout_limit`` allowed it all (an engine hit the limit: the
instance may give its engines less, or, by its own settings, more). It is read right after that
answer, in the same call, never before a search, and only on a rate-limit slot free at once: it
never waits for one, nor takes the search's (none free when the answer comes, on a paced instance
whose answer came sooner than its interval: after a later answer that leaves one free). It goes
through the client's transport, within the call's deadline (at most :data:`CONFIG_SHARE` of what
is left, :data:`CONFIG_MAX_S` at most), without following redirects; it is kept :data:`KEEP_S`
for every client (SearXNG serves it to anyone); a read that failed is not tried again for
:data:`RETRY_FAILED_S` with the same credentials (a client with other credentials tries it).
Whatever goes wrong with it (a timeout, a 404 from an older instance, a block, an answer of
another shape) leaves the searches as they would be without it. An instance that always answers
fast is never asked for it, unless a search has a time range or asks for categories whose search
only it can judge: then it is read in the call after the answer, on the same terms, to name the
engines the instance did not ask for the time range or a later page (:meth:`.searxng_names.SkipRule.skipped`;
not read: :meth:`.searxng_names.SkipRule.unverified` says so and why, and the answer is cached
as it is, its note recomputed when it is served once ``/config`` is known: ``SearXNG.revise_cached``) or to judge the categories (:mod:`.searxng_names`). Its request is ``best_effort``:
replaying a recording made without it answers as it did (:mod:`~websearch_sync.contract.replay`,
:func:`fresh_configs`).
"""

import dataclasses
import hashlib
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import Any, Optional
from urllib.parse import urlsplit, urlunsplit

from ..engine.json_api import vendor_text
from ..engine.pace import later_request_failed
from ..errors import WebSearchError
from ..forks import in_children, module_lock
from ..net.deadline import Deadline
from ..net.transport import HttpResponse, HttpTransport, RequestSpec
from ..net.waits import wait_for

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The part of the call's remaining time ``/config`` may take, and the most it may take.
CONFIG_SHARE = 0.2
CONFIG_MAX_S = 1.0
#: How long an answer is kept, and how long an instance whose ``/config`` failed is not asked again.
KEEP_S = 3600.0
RETRY_FAILED_S = 600.0
#: The most of a ``/config`` answer read (every engine with its languages and regions); beyond it
#: the answer counts as failed.
MAX_CONFIG_BYTES = 2 * 1024 * 1024
#: SearXNG's default engine timeout (settings.yml ``outgoing.request_timeout``): an answer slower
#: than this is the sign that the instance may give its engines ``timeout_limit`` instead.
DEFAULT_ENGINE_TIMEOUT_S = 3.0
#: An answer that took this share of :data:`DEFAULT_ENGINE_TIMEOUT_S` ran (nearly) into the limit.
SLOW_SHARE = 0.9
#: The categories SearXNG searches when a call names none (its preferences' default).
DEFAULT_CATEGORIES = ("general",)


@dataclasses.dataclass(frozen=True)
class Engine:
    """One engine as ``/config`` lists it."""

    name: str
    categories: tuple[str, ...]
    enabled: bool
    timeout_s: Optional[float]
    #: ``time_range_support`` as published (``None``: not said): SearXNG does not ask an engine
    #: without it when a search has a time range (``searx/search/processors/abstract.py: get_params``).
    time_range_support: Optional[bool] = None
    #: ``paging`` as published (``None``: not said): SearXNG does not ask an engine without it for a
    #: page after the first (``get_params`` too).
    paging: Optional[bool] = None
    #: ``shortcut`` as published (``None``: not said): a ``!shortcut`` in the query stands for the
    #: engine (``searx/query.py: BangParser``).
    shortcut: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class InstanceConfig:
    """The parts of ``/config`` the backend uses: its engines and its categories."""

    engines: tuple[Engine, ...]
    categories: tuple[str, ...]

    def engines_asked(self, engines: Iterable[str], categories: Iterable[str]) -> list[Engine]:
        """The engines a search with these ``engines``/``categories`` names runs
        (``searx/webadapter.py: parse_generic``): the named engines it knows and, beside them, the
        enabled engines of the categories it knows; without a named engine it knows, those of the
        categories (``general`` when none is known), else all enabled engines."""
        known = {engine.name: engine for engine in self.engines}
        named = [known[name] for name in engines if name in known]
        asked = set(categories) & set(self.categories)
        if named:
            return named + [e for e in self._enabled_in(asked) if e not in named]
        return self._enabled_in(asked or set(DEFAULT_CATEGORIES)) or [e for e in self.engines if e.enabled]

    def bang_engines(self, bangs: Iterable[str]) -> tuple[list[Engine], list[Engine]]:
        """``(the engines named, every engine searched)`` for the query's ``!name`` words ``bangs``
        (as :func:`.searxng_query.engine_bangs` reads them), as ``searx/query.py: BangParser._parse``
        resolves them: a shortcut stands for its engine, an engine name is that engine, a category
        its enabled engines. Both empty when it knows none of them: then the options choose."""
        known = {engine.name: engine for engine in self.engines}
        shortcuts = {engine.shortcut: engine.name for engine in self.engines if engine.shortcut}
        named: list[Engine] = []
        searched: list[Engine] = []
        for value in bangs:
            name = shortcuts.get(value, value)
            engines = [known[name]] if name in known else self._enabled_in({name}) if name in self.categories else []
            named.extend(engines if name in known else [])
            searched.extend(engine for engine in engines if engine not in searched)
        return named, searched

    def _enabled_in(self, categories: set[str]) -> list[Engine]:
        """The enabled engines in any of ``categories``, in ``/config``'s order."""
        return [e for e in self.engines if e.enabled and categories & set(e.categories)]

    def engines_timeout_s(self, engines: Iterable[str], categories: Iterable[str]) -> Optional[float]:
        """The slowest own timeout of the engines the search runs (what the instance waits for
        without ``timeout_limit``), or ``None`` when ``/config`` gives none."""
        timeouts = [e.timeout_s for e in self.engines_asked(engines, categories) if e.timeout_s is not None]
        return max(timeouts) if timeouts else None


def read_config(data: Any) -> Optional[InstanceConfig]:
    """The :class:`InstanceConfig` of a ``/config`` answer, or ``None`` when it is not one."""
    if not isinstance(data, Mapping) or not isinstance(data.get("engines"), list):
        return None
    engines = tuple(engine for engine in map(_engine, data["engines"]) if engine is not None)
    categories = (
        tuple(c for c in data.get("categories") or () if isinstance(c, str))
        if isinstance(data.get("categories"), list)
        else ()
    )
    return InstanceConfig(engines, categories) if engines else None


def _engine(value: Any) -> Optional[Engine]:
    """One ``/config`` engine; its name as the instance's words are read (``vendor_text``: warnings
    name it), ``None`` for an entry without one."""
    name = vendor_text(value.get("name")) if isinstance(value, Mapping) and isinstance(value.get("name"), str) else ""
    if not name:
        return None
    raw = value.get("categories")
    categories = tuple(c for c in raw if isinstance(c, str)) if isinstance(raw, list) else ()
    time_range, paging, shortcut = (value.get(field) for field in ("time_range_support", "paging", "shortcut"))
    return Engine(
        name,
        categories,
        value.get("enabled") is not False,
        _timeout_s(value.get("timeout")),
        time_range if isinstance(time_range, bool) else None,
        paging if isinstance(paging, bool) else None,
        shortcut if isinstance(shortcut, str) and shortcut else None,
    )


def _timeout_s(timeout: Any) -> Optional[float]:
    """An engine's ``timeout`` when it is a number of seconds it could mean (over 0, under a day, not NaN)."""
    seconds = float(timeout) if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) else None
    return seconds if seconds is not None and 0 < seconds < 86400 else None


@dataclasses.dataclass(frozen=True)
class Unread:
    """Why ``/config`` is not known after a search that wanted it."""

    why: str
    #: Nothing was sent (no rate-limit slot free at once, too little of the budget, a cool-down):
    #: the reader's pace and moment, not what the instance answered (a search that waited for that
    #: read says so, not that it was read in vain).
    not_sent: bool = False


class _Reading:
    """A read under way: other searches wait for it to end (``done``), then learn why it found
    nothing (``unread``) and whether it was made with their credentials (``failure_key``)."""

    def __init__(self, failure_key: str) -> None:
        self.done = threading.Event()
        self.failure_key = failure_key
        self.unread: Optional[Unread] = None

    def end(self, unread: Optional[Unread]) -> None:
        """The read ended (``unread``: why nothing was learnt, ``None`` when it was): the waiters go on."""
        self.unread = unread
        self.done.set()


@dataclasses.dataclass(frozen=True)
class _Entry:
    config: Optional[InstanceConfig]
    until: float  #: monotonic time the entry is good until (``inf``: a wish to read ``/config``)
    #: The read under way (an entry being read: other searches wait for it).
    reading: Optional[_Reading] = None
    #: Why the read failed (an entry of a failed read, kept per credentials: :func:`_failure_key`).
    why: str = ""


#: The most entries kept (an instance's ``/config`` or wish to read it, a failed read of one
#: client's credentials); the least recently kept goes first (a process asking many instances
#: keeps a few hundred KB, not one answer each).
MAX_INSTANCES = 32
#: Per ``/config`` URL (without credentials): what the instance published, that it is to be read (a slow answer seen, a
#: time range it could not judge) or that it is being read; per URL and credentials: that the read
#: failed (:func:`_failure_key`).
_KNOWN: dict[str, _Entry] = {}
_LOCK = module_lock(__name__, "_LOCK")
#: A wish to read ``/config``: no config yet, good until it is read.
_WANTED = _Entry(None, math.inf)
#: The entries of a replayed search (:func:`fresh_configs`), instead of the process's.
_REPLAYED: ContextVar[Optional[dict[str, _Entry]]] = ContextVar("websearch_sync_searxng_configs", default=None)
#: The key of the digest that tells credentials apart (:func:`_failure_key`): per process, so the
#: digests kept say nothing of the credentials outside it.
_CREDENTIALS_KEY = os.urandom(16)


def _reads_forgotten() -> None:
    """In a forked child: a read under way in a parent's thread at the fork is not there to end, so
    its entry goes (else each of the child's searches waits its slice for it and reads nothing)."""
    for key, entry in list(_KNOWN.items()):
        if entry.reading is not None and not entry.reading.done.is_set():
            del _KNOWN[key]


in_children(_reads_forgotten)


@contextmanager
def fresh_configs() -> Iterator[None]:
    """Within the block, no instance's ``/config`` is known and what is read is kept for the block
    only: a replayed search answers from its own recording, which has ``/config`` or not, whatever
    the process learnt of the same instance (live, or replaying another case)."""
    token = _REPLAYED.set({})
    try:
        yield
    finally:
        _REPLAYED.reset(token)


def _known() -> dict[str, _Entry]:
    """The entries in use (lock held): the replayed search's, else the process's."""
    replayed = _REPLAYED.get()
    return replayed if replayed is not None else _KNOWN


def known_config(url: str) -> Optional[InstanceConfig]:
    """What the instance whose ``/config`` is at ``url`` published (``None``: not read, or unreadable)."""
    entry = _entry(_instance_key(url))
    return entry.config if entry is not None else None


def _entry(key: str) -> Optional[_Entry]:
    with _LOCK:
        known = _known()
        entry = known.get(key)
        if entry is not None and entry.until <= time.monotonic():
            del known[key]
            entry = None
    return entry


def _instance_key(url: str) -> str:
    """Where what is known of ``/config`` at ``url`` is kept: the URL without a user name and
    password (SearXNG serves ``/config`` to anyone, so what one client read holds for all)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _failure_key(url: str, headers: Mapping[str, str]) -> str:
    """Where a failed read of ``url`` with ``headers`` is kept: per instance and credentials (a
    user name and password in the URL, the ``Authorization`` header). A proxy in front of the
    instance may refuse a client without its token; that failure must not keep a client with it
    from reading ``/config``. A keyed digest: the credentials are not kept."""
    authorization = next((value for name, value in headers.items() if name.lower() == "authorization"), "")
    credentials = "%s\n%s" % (urlsplit(url).netloc.rpartition("@")[0], authorization)
    digest = hashlib.blake2b(credentials.encode("utf-8"), key=_CREDENTIALS_KEY, digest_size=12).hexdigest()
    return "%s#%s" % (_instance_key(url), digest)


def failed_read(url: str, headers: Mapping[str, str]) -> Optional[str]:
    """Why ``/config`` at ``url`` could not be read with ``headers`` lately (``None``: it was not
    tried, or not within :data:`RETRY_FAILED_S`)."""
    entry = _entry(_failure_key(url, headers))
    if entry is None:
        return None
    left_s = max(1, math.ceil(entry.until - time.monotonic()))  # what is left of RETRY_FAILED_S
    return (
        "/config could not be read lately and is not asked again for %d s more by a client with the same credentials: %s"
        % (
            left_s,
            entry.why,
        )
    )


def slow_answer(url: str, answer_s: float, limit_s: float) -> None:
    """Note an answer of the instance: one that took most of SearXNG's default engine timeout
    while ``timeout_limit`` allowed it all ran into the limit (its engines may be given
    ``timeout_limit`` instead of their own timeouts, or have longer ones of their own), so
    ``/config`` is read after it (:meth:`.SearXNG.search`), or after a later search."""
    if answer_s >= SLOW_SHARE * DEFAULT_ENGINE_TIMEOUT_S and limit_s >= DEFAULT_ENGINE_TIMEOUT_S:
        want_config(url)


def want_config(url: str) -> None:
    """Have ``/config`` at ``url`` read after the next search whose answer leaves a slot free at
    once (unless it is known or being read: :func:`wanted`)."""
    with _LOCK:
        if _instance_key(url) not in _known():
            _keep(_instance_key(url), _WANTED)


def wanted(url: str) -> bool:
    """True when ``/config`` at ``url`` is to be read (:func:`slow_answer`, :func:`want_config`)."""
    return _entry(_instance_key(url)) is _WANTED


def _keep(key: str, entry: _Entry) -> None:
    """Keep ``entry`` as the newest, dropping the oldest beyond :data:`MAX_INSTANCES` (lock held)."""
    known = _known()
    known.pop(key, None)
    known[key] = entry
    while len(known) > MAX_INSTANCES:
        del known[next(iter(known))]


def read_config_at(
    transport: HttpTransport,
    url: str,
    headers: Mapping[str, str],
    deadline: Deadline,
    provider: str,
    secrets: list[str],
    answer_error: Callable[[HttpResponse], Optional[WebSearchError]],
    before_request: Callable[[], None] = lambda: None,
) -> Optional[Unread]:
    """Read ``GET url`` (the instance's ``/config``) with ``headers`` within a slice of ``deadline``
    and keep what it says (or that it failed); ``None`` when it is known after, else why not. The
    answer is judged as the search's would be (``answer_error``: the backend's): a block (the
    limiter's 429, a challenge in front of the instance) cools the instance down as it would after
    a search (:func:`.later_request_failed`).

    One read per instance at a time: a search that finds another's read under way waits for it
    within its own slice instead of sending a second one, and learns from it why it found nothing.
    ``before_request`` runs right before this search sends it (the call's pace: it takes a slot of
    the read's own only when one is free at once, so the read never takes the search's nor waits
    for one; what it raises leaves the entry as it was, a wish to read or none, says why, and keeps
    no failure: nothing was asked). What is read is kept per URL (SearXNG serves ``/config`` to
    anyone, ``searx/webapp.py: config``, so it holds for every client); a failure per URL and
    credentials (:func:`_failure_key`)."""
    with _LOCK:
        key = _instance_key(url)
        earlier = _known().get(key)
        under_way = earlier.reading if earlier is not None else None
        if under_way is None:
            mine = _Reading(_failure_key(url, headers))
            _keep(key, _Entry(None, math.inf, mine))
    if under_way is not None:  # nothing sent: no slot booked
        return _wait_for_reading(under_way, url, headers, _slice(deadline))
    ended = earlier  # no slot for it (or an interrupt): as it was before (a wish stays one, none stays none)
    failure: Optional[_Entry] = None
    unread = Unread("/config was not read in this call (interrupted)", not_sent=True)
    try:
        before_request()
        budget = _slice(deadline)  # from when it leaves: a wait before it is not the read's time
        send = partial(transport.send, deadline=budget, provider=provider, max_bytes=MAX_CONFIG_BYTES, secrets=secrets)
        spec = RequestSpec("GET", url, headers=dict(headers), allow_redirects=False)
        spec.best_effort = True
        config, why = _read(send, spec, answer_error)
        if config is not None:
            ended = _Entry(config, time.monotonic() + KEEP_S)
        else:
            failure = _Entry(None, time.monotonic() + RETRY_FAILED_S, why=why)
            unread = Unread("/config could not be read: %s" % why)
    except WebSearchError as error:  # before_request's: no slot free at once, a cool-down; nothing sent
        unread = Unread("/config was not read in this call: %s" % error.message, not_sent=True)
    finally:
        with _LOCK:
            if ended is not None:
                _keep(key, ended)
            else:
                _known().pop(key, None)
            if failure is not None:
                _keep(_failure_key(url, headers), failure)
        known = ended is not None and ended.config is not None
        mine.end(None if known else unread)  # the searches waiting for it go on
    return None if known else unread


def _slice(deadline: Deadline) -> Deadline:
    """The part of ``deadline`` a ``/config`` read (or the wait for another's) may take."""
    return deadline.sooner(1000.0 * min(CONFIG_MAX_S, CONFIG_SHARE * max(0.0, deadline.remaining_s())))


def _wait_for_reading(under_way: _Reading, url: str, headers: Mapping[str, str], budget: Deadline) -> Optional[Unread]:
    """Wait within ``budget`` for another search's read of ``/config`` at ``url``; ``None`` when it
    is known after, else why not (what that read met, and whether with these credentials)."""
    wait_for(under_way.done.wait, max(0.0, budget.remaining_s()))
    if known_config(url) is not None:
        return None
    if not under_way.done.is_set():
        return Unread("/config was being read for another search, which had not ended in time")
    other = under_way.unread or Unread("/config was not known after it")
    if other.not_sent:  # its pace or budget: this moment's, as if this search had tried
        return Unread(
            "/config was to be read for another search, which did not send it (%s)" % other.why, not_sent=True
        )
    if under_way.failure_key != _failure_key(url, headers):
        return Unread("/config was read for another search, with other credentials, in vain (%s)" % other.why)
    return Unread(failed_read(url, headers) or "/config was read for another search in vain (%s)" % other.why)


def _read(
    send: Callable[[RequestSpec], HttpResponse],
    spec: RequestSpec,
    answer_error: Callable[[HttpResponse], Optional[WebSearchError]],
) -> tuple[Optional[InstanceConfig], str]:
    """What ``send(spec)`` answers (``None``: nothing usable, and why); a refusal is reported."""
    try:
        response = send(spec)
        refusal = answer_error(response)
        if refusal is not None:
            later_request_failed(refusal)
        if response.status == 404:  # not the search's 404: the instance has no /config (older than it)
            return None, "it answered HTTP 404 Not Found: the instance has none (an older searx)"
        if refusal is not None:  # not the search's advice: the search was answered, with these credentials
            return None, _refused(response.status, refusal)
        if response.status != 200:
            return None, "it answered HTTP %d" % response.status
        config = read_config(response.json())
    except WebSearchError as error:  # no config: the search goes on without it
        return None, error.message
    except ValueError:
        return None, "its answer is not JSON"
    return config, "" if config is not None else "its answer is not a list of engines"


def _refused(status: int, refusal: WebSearchError) -> str:
    """Why a ``/config`` read was refused, in its own words: the search's advice (fix the base URL,
    check the password) does not hold for a read whose search was answered."""
    if status in (401, 403) or 300 <= status < 400:
        return (
            "it answered HTTP %d though the instance answered the search with the same credentials: the instance or"
            " a proxy in front of it does not serve /config to this client" % status
        )
    return "it answered HTTP %d (%s)" % (status, refusal.detail_code or refusal.code)


def forget_configs() -> None:
    """Forget every instance's ``/config`` and every wish to read one (``websearch_sync.testing.reset``)."""
    with _LOCK:
        _KNOWN.clear()

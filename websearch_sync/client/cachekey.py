"""Cache keys: everything that can change an answer, and nothing secret.

A cached answer may be read by another client (a SQLite file shared by several
processes or tenants), so a key holds, besides the call's validated parameters, a
fingerprint of the settings that shape the answer: the endpoints and provider
settings of the backends asked (which keys are set, gateway URLs and headers), and
every shared setting (proxy, user agent, byte cap, ``allow_private``, the fetch
service...). Reading pages (fetch, ``include_content``) may consult any backend's
settings (e.g. a Jina key), so those keys cover all of them. Secret values enter
the fingerprint only as hashes, and the fingerprint itself is a hash.

A search key is made from the validated parameters (a call is validated before the
cache is consulted); fetch arguments are keyed by type and value (``5`` and
``5.0``, ``1`` and ``True`` are different keys), so a call can only hit an entry
that an identical, validated call stored.
"""

import copy
import dataclasses
import hashlib
import json
import threading
import unicodedata
from collections.abc import Hashable, Sequence
from typing import Any, Optional

from ..config import Settings, is_secret_name
from ..forks import renewed_in_children
from ..models import SearchParams, params_with

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Settings fields that never change an answer or are keyed on their own (the resolved backend names,
#: the resolved ``max_results``, the deadline, the pace of the backends asked: :func:`search_key`), or
#: are handled per backend (``endpoints``, ``providers``). Where the state is kept does not change an
#: answer either: one Redis is one cache, however its URL is spelt and whether it is required (``state_*``).
_NOT_SHARED = (
    "backend",
    "timeout_ms",
    "max_results",
    "from_environment",
    "env_urls_at_use",
    "endpoints",
    "providers",
    "state_url",
    "state_prefix",
    "state_required",
    "min_interval_s",
)


def _digest(value: Any) -> str:
    return hashlib.sha256(
        json.dumps(value, sort_keys=True, default=repr, ensure_ascii=False).encode("utf-8", "surrogatepass")
    ).hexdigest()


def _hidden(value: Any, name: str, secrets: Sequence[str]) -> Any:
    """``value`` with every secret in it replaced by its hash (secret-named settings as a whole)."""
    if is_secret_name(name) and value:
        return "sha256:" + _digest(value)
    if isinstance(value, dict):
        return {str(k): _hidden(v, str(k), secrets) for k, v in value.items()}
    if isinstance(value, str):
        for secret in secrets:
            if secret and secret in value:
                value = value.replace(secret, "sha256:" + _digest(secret))
    return value


def settings_fingerprint(settings: Settings, backends: Sequence[str], reads_pages: bool) -> str:
    """A hash of every setting that can change the answer of a call to ``backends``."""
    shared = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings) if f.name not in _NOT_SHARED}
    names = (
        sorted(set(settings.endpoints) | set(settings.providers) | set(backends)) if reads_pages else sorted(backends)
    )
    per_backend = {
        name: {"endpoint": settings.endpoints.get(name), "settings": settings.providers.get(name) or {}}
        for name in names
    }
    secrets = [s for s in settings.secrets() if s]
    document = {"shared": _hidden(shared, "", secrets), "backends": _hidden(per_backend, "", secrets)}
    return _digest(document)[:32]


class SectionsSnapshot:
    """``settings.endpoints`` and ``settings.providers`` as they were when taken.

    The shared fields of an open client's settings refuse edits, but these two are plain dicts
    that a caller may edit in place (``settings.endpoints["searxng"] = url``), and such an edit
    reaches the next request (backends are built per call). Whatever a client remembers from
    them (a validated call, a cache key's fingerprint) holds only while :meth:`holds` is true:
    a comparison of two small dicts, far cheaper than validating or hashing again.
    """

    __slots__ = ("_sections",)

    def __init__(self, settings: Settings) -> None:
        self._sections = copy.deepcopy((settings.endpoints, settings.providers))

    def holds(self, settings: Settings) -> bool:
        """Whether ``settings``' endpoints and provider settings are still those taken."""
        return self._sections == (settings.endpoints, settings.providers)


class Fingerprints:
    """Fingerprints of one client's settings, computed once per set of backends (thread-safe).

    A client whose ``settings`` attribute is replaced by another object, or whose endpoints or
    provider settings were edited in place (:class:`SectionsSnapshot`), starts afresh.
    """

    def __init__(self) -> None:
        self._settings: Any = None
        self._sections: Optional[SectionsSnapshot] = None
        self._known: dict[tuple[tuple[str, ...], bool], str] = {}
        self._lock = threading.Lock()
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: a parent's thread may have held the lock at the fork."""
        self._lock = threading.Lock()

    def get(self, settings: Settings, backends: Sequence[str], reads_pages: bool) -> str:
        """The fingerprint of ``settings`` for a call to ``backends``."""
        key = (tuple(backends), reads_pages)
        sections = self._sections
        fresh = settings is self._settings and sections is not None and sections.holds(settings)
        found = self._known.get(key) if fresh else None
        if found is None:
            taken = None if fresh else SectionsSnapshot(settings)  # before hashing: an edit meanwhile is seen next
            found = settings_fingerprint(settings, backends, reads_pages)
            with self._lock:
                if taken is not None:
                    self._settings, self._sections, self._known = settings, taken, {}
                self._known[key] = found
        return found


def _typed(value: Any) -> Any:
    """A hashable stand-in for ``value`` that tells apart equal values of other types."""
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(k), _typed(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_typed(v) for v in value))
    if value is None or isinstance(value, str):
        return value
    return (type(value).__name__, repr(value))


def query_key(query: str) -> str:
    """A query as every engine reads it: Unicode NFC, any run of whitespace (tab, no-break
    space...) one space. ``"café  au\u00a0lait"`` and ``"cafe\u0301 au lait"`` are one key."""
    return " ".join(unicodedata.normalize("NFC", query).split())


def locale_key(locale: Optional[str]) -> Optional[str]:
    """A locale as its standard spells it (``en-us``, ``EN_US`` -> ``en-US``; ``zh-hant-tw`` ->
    ``zh-Hant-TW``): the case of a locale tag means nothing to an engine."""
    if not locale:
        return locale
    parts = locale.replace("_", "-").split("-")
    return "-".join(
        [parts[0].lower()]
        + [part.title() if len(part) == 4 else part.upper() if len(part) == 2 else part.lower() for part in parts[1:]]
    )


#: The format of a stored search answer, in its key. An answer may hold a stamp (:mod:`.stamps`)
#: that a version before stamps would hand its caller as a field of the answer: a fleet of mixed
#: versions sharing a cache file or Redis (upgraded worker by worker) keeps each version's answers
#: under its own keys, so an older worker misses the newer ones' answers and asks for its own.
SEARCH_FORMAT = "stamped"


def search_key(
    params: SearchParams,
    backends: Sequence[str],
    strategy: str,
    fingerprint: str,
    pace: Sequence[float] = (),
    named: bool = True,
) -> Hashable:
    """The cache key of a validated search (validation made its parameters canonical: typed and
    normalised), with the spellings that are one search to every engine collapsed
    (:func:`query_key`, :func:`locale_key`). ``pace``: the ``min_interval_s`` each of ``backends``
    is asked at (the client's, else the backend's own): an answer may say what its pace kept from it (SearXNG's time range left
    unverified when no slot was free at once for ``/config``), which a client with another pace
    must not read as its own. ``named``: whether the call, its client or its settings named ``backends``
    (the offline stub answering as the default says how to search the web, one named does not: its
    snippets and ``provider_meta.offline_default`` differ). :data:`SEARCH_FORMAT`: the answers' format."""
    canonical = params_with(params, query=query_key(params.query), locale=locale_key(params.locale))
    identity = (canonical.cache_key(), tuple(backends), strategy, fingerprint, tuple(pace), named)
    return ("search", SEARCH_FORMAT) + identity


def fetch_key(url: str, mode: Any, max_chars: Any, max_bytes: Any, allow_private: Any, fingerprint: str) -> Hashable:
    """The cache key of a fetch (``url`` already checked and canonical)."""
    return ("fetch", url, _typed(mode), _typed(max_chars), _typed(max_bytes), _typed(allow_private), fingerprint)

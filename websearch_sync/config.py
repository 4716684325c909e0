"""Configuration: explicit :class:`Settings`, or settings read from the environment.

Precedence: explicit call arguments beat :class:`Settings`; ``Settings`` beat the
environment. ``Settings(...)`` never reads the environment; ``Settings.from_env()``
reads it and lets keyword overrides win over it.
"""

import contextlib
import dataclasses
import difflib
import importlib
import json
import logging
import os
import re
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, Optional, Protocol, TypeVar, Union
from urllib.parse import parse_qsl, urlsplit

from .errors import (
    BAD_ENDPOINT,
    BAD_MIN_INTERVAL_S,
    BAD_PROXY,
    BAD_SETTING,
    BAD_STATE_PREFIX,
    PDF_PAGES_LEFT_OUT,
    UNKNOWN_BACKEND,
    InvalidInput,
    clipped,
)
from .forks import module_global
from .once import Once
from .secrets import is_secret_name as is_secret_name  # is_secret_name: cachekey imports it here
from .secrets import mask as _mask
from .secrets import redact, userinfo_hidden
from .validate import (
    CONTROL_IN_SETTING,
    IMPERSONATE_PLACES,
    MAX_PAGES,
    MAX_RESULTS,
    MAX_TIMEOUT_MS,
    NOT_HTTP,
    STATE_URL_PLACES,
    TOOL_MAX_RESULTS,
    backend_list,
    check_impersonate,
    check_number,
    check_state_url,
    control_in,
    header_value_problem,
    suggesting_keywords,
    unusable_why,
    url_fault,
)

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

#: The package version (``websearch_sync.__version__``; setup.cfg reads it from here).
VERSION = "0.1.0"

DEFAULT_TIMEOUT_MS = 15000
DEFAULT_MAX_RESULTS = 5
#: The one byte cap default: of a search response and of a fetched page.
DEFAULT_MAX_BYTES = 5_000_000
DEFAULT_MAX_RESPONSE_BYTES = DEFAULT_MAX_BYTES
#: The smallest byte cap fetch takes: the HTML standard reads a page's first 1024 bytes to find
#: its charset; under that no page's opening fits (``max_bytes=1`` returned "<" as the page).
MIN_FETCH_BYTES = 1024
#: How many characters of a page fetch returns by default.
DEFAULT_MAX_CHARS = 50_000
#: How many characters of each result's page ``include_content`` keeps by default.
DEFAULT_CONTENT_CHARS = 4_000
#: The detail codes of the warnings a page read carries (its result's ``errors``): its text
#: stands, as a failed page's does not (a search whose pages were all read is cacheable).
READ_WARNINGS = frozenset({PDF_PAGES_LEFT_OUT})
#: Seconds within which the tools a server or an agent framework offers count repeats of one lookup
#: (``ToolSession``'s ``repeat_window_s``): they outlive many conversations, and a later one may ask
#: the same thing again. Here, below both the MCP server and the integrations, which share it.
DEFAULT_REPEAT_WINDOW_S = 600.0
#: How many times those tools look one query or URL up within the window (``ToolSession``'s
#: ``max_repeats``) before a repeat gets the answer already given; shared as the window is.
DEFAULT_MAX_REPEATS = 2

#: Environment variables shared by every backend and by fetch: name -> (Settings field, meaning).
SHARED_ENV_VARS: dict[str, tuple[str, str]] = {
    "WEB_SEARCH_BACKEND": ("backend", "backend name, comma-separated list, or `auto`; unset = `stub`"),
    "WEB_SEARCH_TIMEOUT_MS": ("timeout_ms", "per-call deadline in milliseconds (default 15000)"),
    "WEB_SEARCH_MAX_RESULTS": ("max_results", "default number of results, 1..50 (default 5)"),
    "WEB_SEARCH_TOOL_MAX_RESULTS": (
        "tool_max_results",
        "most results the LLM tool and MCP let a model ask for, 1..50 (default 10)",
    ),
    "WEB_SEARCH_MAX_PAGES": (
        "max_pages",
        "most result pages (requests) a search reads when the call gives no max_pages, 1..8 (default 8)",
    ),
    "WEB_SEARCH_PROXY": ("proxy", "proxy URL for search and fetch (http, https, or socks5 with the `socks` extra)"),
    "WEB_SEARCH_USER_AGENT": (
        "user_agent",
        "User-Agent of the requests transport (API calls; all calls with `WEB_SEARCH_IMPERSONATE=off`)",
    ),
    "WEB_SEARCH_IMPERSONATE": (
        "impersonate",
        "browser sent by keyless engines and fetch: `chrome` (default with the `browser` extra) or `off`",
    ),
    "WEB_SEARCH_CA_BUNDLE": (
        "ca_bundle",
        "CA bundle file, or folder prepared by `openssl rehash`, for both transports (else REQUESTS_CA_BUNDLE, else SSL_CERT_FILE)",
    ),
    "WEB_SEARCH_MAX_BYTES": (
        "max_response_bytes",
        "cap on bytes read from one search response (default 5000000, at least 1024)",
    ),
    "WEB_FETCH_SERVICE_URL": ("fetch_service_url", "optional page-reading service tried before local fetch"),
    "WEB_FETCH_SERVICE_KEY": ("fetch_service_key", "bearer key for WEB_FETCH_SERVICE_URL (secret)"),
    "WEB_SEARCH_STATE_URL": (
        "state_url",
        "Redis URL (`redis://host:port/db`) sharing cache, rate limits and cool-downs between processes",
    ),
    "WEB_SEARCH_STATE_PREFIX": ("state_prefix", "extra namespace of the shared state's keys (after `websearch_sync:`)"),
    "WEB_SEARCH_STATE_REQUIRED": (
        "state_required",
        "`1`: an unreachable shared state fails the call instead of falling back to local state",
    ),
    "WEB_SEARCH_MIN_INTERVAL_S": (
        "min_interval_s",
        "minimum seconds between two requests to one backend, for every backend; per backend: `WEB_SEARCH_MIN_INTERVAL_S_<BACKEND>`",
    ),
    "WEB_FETCH_ALLOW_PRIVATE": ("allow_private", "`1` lets fetch read loopback/private addresses (trusted local use)"),
}


class BackendCatalogue(Protocol):
    """What configuration asks about the registered backends. The registry answers
    (:func:`use_backends`): configuration sits below the backends and never imports them."""

    def names(self) -> list[str]:
        """The registered backends' names, in registration order."""
        ...

    def closest(self, name: str) -> Optional[str]:
        """The registered backend a mistyped or informal ``name`` most likely means, or ``None``."""
        ...

    def skipped(self, name: str) -> Optional[str]:
        """Why the plugin declaring backend ``name`` was skipped, or ``None``."""
        ...

    def misgrouped(self, name: str) -> Optional[str]:
        """Where an entry point ``name`` that is no backend's name is: in a mistyped group (never read), or a
        loaded plugin's registering a backend of another name; or that ``unregister`` removed backend
        ``name`` in this process; or ``None``."""
        ...

    def read_settings(
        self, name: str, given: Mapping[str, Any], environ: Optional[Mapping[str, str]] = None
    ) -> dict[str, Any]:
        """Backend ``name``'s settings from ``environ`` and ``given``, checked against its declaration."""
        ...

    def variables(self) -> set[str]:
        """Every environment variable a registered backend declares for its settings."""
        ...

    def refused_settings(self, name: str, values: Mapping[str, Any]) -> frozenset[str]:
        """The keys of ``values``, backend ``name``'s settings read from the environment, whose
        value the check of its declared kind refuses (a JSON setting's text that is no object)."""
        ...


class _RegistryOnDemand:
    """The catalogue until the registry is imported: the first question imports it (by
    name: configuration stays importable without requests and the engines), and the
    registry puts itself in this one's place."""

    @staticmethod
    def _registry() -> BackendCatalogue:
        importlib.import_module("websearch_sync.engine.registry")  # calls use_backends
        return _backends

    def names(self) -> list[str]:
        return self._registry().names()

    def closest(self, name: str) -> Optional[str]:
        return self._registry().closest(name)

    def skipped(self, name: str) -> Optional[str]:
        return self._registry().skipped(name)

    def misgrouped(self, name: str) -> Optional[str]:
        return self._registry().misgrouped(name)

    def read_settings(
        self, name: str, given: Mapping[str, Any], environ: Optional[Mapping[str, str]] = None
    ) -> dict[str, Any]:
        return self._registry().read_settings(name, given, environ)

    def variables(self) -> set[str]:
        return self._registry().variables()

    def refused_settings(self, name: str, values: Mapping[str, Any]) -> frozenset[str]:
        return self._registry().refused_settings(name, values)


_backends: BackendCatalogue = _RegistryOnDemand()


def use_backends(catalogue: BackendCatalogue) -> None:
    """Let configuration ask ``catalogue`` (the backend registry) about backends and their settings."""
    global _backends
    _backends = catalogue


BackendSpec = Union[None, str, Sequence[str]]


@suggesting_keywords()  # Settings(timeout=...): did you mean 'timeout_ms'? (on the dataclass's __init__)
@dataclasses.dataclass(repr=False)
class Settings:
    """Explicit configuration for searches and fetches.

    Args:
        backend: default backend name, names in order (a list, a tuple; a generator is kept
            as a tuple; a set, which has no order, is ``InvalidInput(unknown_backend)``) for
            a fallback chain, or ``"auto"``.
            ``None`` means ``"stub"``.
        timeout_ms: whole-call deadline for one search or fetch (default 15000).
        max_results: default number of results (1..50, default 5).
        tool_max_results: the most results the LLM tool and the MCP server let a model ask
            for (1..50, default 10: a model reads every result, and each costs context).
        max_pages: the most result pages, so requests, a search reads when the call gives no
            ``max_pages`` option (1..8, default 8): an operator's ``1`` keeps one request per call
            (a short first page is not filled up). Not offered to models (the tool, MCP).
        proxy: proxy URL used for every request (``http://``, ``https://``, ``socks5://``).
        user_agent: User-Agent of the ``requests`` transport (API calls, and every call
            with ``impersonate="off"``); ``None`` uses a current desktop browser string.
            An impersonated browser always sends its own.
        impersonate: the browser whose requests keyless HTML engines and fetch send
            (``"chrome"`` or ``"off"``); ``None``: ``chrome`` when the
            ``browser`` extra is installed, else ``off``. Any other value is
            ``InvalidInput(bad_impersonate)`` when the settings are built (read from
            ``WEB_SEARCH_IMPERSONATE``, when a client is built); whether the extra a
            profile needs is installed, when a client is built.
        ca_bundle: CA bundle file both transports verify against (corporate networks), or a
            folder of certificates prepared by ``openssl rehash``; ``None``: ``REQUESTS_CA_BUNDLE``, else ``SSL_CERT_FILE``, else the default store.
        endpoints: ``{backend_name: url}`` overriding a backend's endpoint URL.
        providers: per-backend settings, e.g. ``{"brave": {"api_key": "..."},
            "searxng": {"base_url": "https://searx.example", "timeout_ms": 8000}}``.
        max_response_bytes: cap on the bytes read from one search response, and from each page
            whose content a search adds; at least ``MIN_FETCH_BYTES`` (1024), fetch's smallest.
        fetch_service_url, fetch_service_key: optional page-reading service for fetch.
        allow_private: let fetch read loopback/private/link-local addresses.
        state_url: a Redis URL (``redis://host:port/db``, ``rediss://``, ``unix://``)
            where clients share their cache, rate-limit slots and cool-downs
            (needs the ``redis`` extra); ``None``: each client keeps its own. One that is
            no usable Redis URL is ``InvalidInput(bad_state_url)`` when the settings are
            built (read from ``WEB_SEARCH_STATE_URL``, when a client is built).
        state_prefix: extra namespace for the shared keys (``websearch_sync:<prefix>:``).
        state_required: fail calls with ``NetworkError(state_unavailable)`` when the
            shared state cannot be reached, instead of using local state for them.
        min_interval_s: the pace: minimum seconds between two requests to one backend,
            for every backend (a number) or per backend (``{"searxng": 0.5}``); ``None``:
            each backend's own. A client's ``min_interval_s`` argument overrides it.
        from_environment: set by :meth:`from_env` (the values came from the environment).
        env_backend_problem: set by :meth:`from_env` when ``WEB_SEARCH_BACKEND`` names a
            backend nobody registered: the message of the ``InvalidInput(unknown_backend)``
            a call gets when it falls back on that variable (:meth:`default_backend`). A call
            naming its backend, and fetch, never read it.
        env_urls_at_use: (read only, no argument) set by :meth:`from_env`: the text values it read
            that hold a control character, the URLs it read that are no http(s) URL with a host, and
            a state URL or ``impersonate`` no client takes, each as ``(place..., value)``; :meth:`replace` carries it
            over. A URL among them is refused where it is used (a search of its backend, a fetch
            through the service), not here: one stray variable of a backend or service a user never
            calls stops no other command. A URL set in code (a field, an override, :meth:`replace`)
            is refused when built: no argument can declare one the environment's.

    Checked at construction (``InvalidInput``): numbers are positive integers, and
    ``max_response_bytes`` at least 1024 (``bad_setting``), ``proxy`` is a proxy URL (``bad_proxy``), ``backend`` names
    registered backends or ``auto`` (``unknown_backend``, with the closest name), so do the keys
    of ``endpoints`` and ``providers`` (register a plugin in code before its settings), and each known
    backend's ``providers`` section holds only the settings that backend declares
    (``Backend.provider_settings``, and ``timeout_ms`` for every backend), each of its declared
    kind and range (``bad_setting``, naming the key and its environment variable). A URL among them
    (``fetch_service_url``, an ``endpoints`` value, a setting of kind ``url``) set in code is an http(s)
    URL with a host that holds no control character (``bad_endpoint``): a programmer's mistake fails early (one read from the
    environment is refused at use: ``env_urls_at_use``). ``user_agent`` is one line of printable
    Latin-1 text (``bad_setting``), ``state_prefix`` can name keys (``bad_state_prefix``), with
    or without a ``state_url``, a ``state_url`` set in code is a usable Redis URL (``bad_state_url``)
    and an ``impersonate`` set in code is one a client takes (``bad_impersonate``).
    """

    backend: BackendSpec = None
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_results: int = DEFAULT_MAX_RESULTS
    tool_max_results: int = TOOL_MAX_RESULTS
    max_pages: int = MAX_PAGES
    proxy: Optional[str] = None
    user_agent: Optional[str] = None
    impersonate: Optional[str] = None
    ca_bundle: Optional[str] = None
    endpoints: dict[str, str] = dataclasses.field(default_factory=dict)
    providers: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    fetch_service_url: Optional[str] = None
    fetch_service_key: Optional[str] = None
    allow_private: bool = False
    state_url: Optional[str] = None
    state_prefix: str = ""
    state_required: bool = False
    min_interval_s: Union[None, float, dict[str, float]] = None
    from_environment: bool = dataclasses.field(default=False, repr=False)
    env_backend_problem: Optional[str] = dataclasses.field(default=None, repr=False, compare=False)
    # No argument of __init__ (a caller passing it would have the check at build skipped): only
    # from_env and replace set it, through _built; __post_init__ gives the others an empty one.
    env_urls_at_use: frozenset[tuple[str, ...]] = dataclasses.field(init=False, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field, unless an open ``SearchClient`` uses these settings (:func:`hold`): it read
        them when it was built, and the edit would reach some of its parts and not others. The
        check and the assignment are one step for :func:`hold` (:data:`_HOLD_LOCK`): a client
        built meanwhile holds the settings before or after it, never between."""
        if name in _FLAGS:
            _check_flag(name, value)
        state = self.__dict__
        if name not in _FIELDS or ("_made" not in state and "_users" not in state):  # being made: no client holds it
            object.__setattr__(self, name, value)
            return
        with _HOLD_LOCK:
            users = self.__dict__.get("_users")
            if users and any(not getattr(user, "_closed", True) for user in list(users)):
                raise dataclasses.FrozenInstanceError(
                    "cannot assign to field %r: an open SearchClient uses these settings, and it read them when "
                    "it was built (transport, shared state, pace, cache key); build a new client with "
                    "settings=settings.replace(%s=...)" % (name, name)
                )
            object.__setattr__(self, name, value)

    def __getstate__(self) -> dict[str, Any]:
        """The fields (a copy or a pickle is used by no client yet)."""
        return {name: value for name, value in self.__dict__.items() if name != "_users"}

    def __post_init__(self) -> None:
        self.__dict__.setdefault("env_urls_at_use", frozenset())  # _built set it before __init__, or none did
        for name, minimum, maximum in (
            ("timeout_ms", 1, MAX_TIMEOUT_MS),
            ("max_results", 1, MAX_RESULTS),
            ("tool_max_results", 1, MAX_RESULTS),
            ("max_pages", 1, MAX_PAGES),
            ("max_response_bytes", MIN_FETCH_BYTES, None),  # it is also fetch's max_bytes for page content
        ):
            check_number("Settings." + name, getattr(self, name), minimum=minimum, maximum=maximum, detail=BAD_SETTING)
        if not isinstance(self.endpoints, Mapping):
            raise InvalidInput("Settings.endpoints must be a mapping {backend: url}", detail_code=BAD_SETTING)
        if not isinstance(self.providers, Mapping):
            raise InvalidInput(
                "Settings.providers must be a mapping {backend: {setting: value}}", detail_code=BAD_SETTING
            )
        for name, section in self.providers.items():
            if not (isinstance(section, Mapping) or section is None):  # its value unsaid: often the key itself
                raise InvalidInput(
                    "Settings.providers[%r] must be a mapping {setting: value}, such as {'api_key': ...}, got a %s"
                    % (name, type(section).__name__),
                    detail_code=BAD_SETTING,
                )
        self.endpoints, self.providers = _normalised(self.endpoints, self.providers)
        _check_providers(self.providers, self.endpoints, self.env_urls_at_use)
        _check_proxy(self.proxy, "Settings.proxy")
        _check_urls(self.fetch_service_url, self.endpoints, self.env_urls_at_use)
        _check_optional_strings(self, ("impersonate", "ca_bundle", "fetch_service_key", "state_url"))
        _check_user_agent(self.user_agent, "Settings.user_agent")
        self.state_prefix = check_state_prefix(self.state_prefix)
        _check_state_url(self.state_url, self.env_urls_at_use)
        if self.impersonate and not _env_url(self.env_urls_at_use, "impersonate", self.impersonate):
            # in a command (mcp --state-url, search --impersonate), the places a command line has
            check_impersonate(
                self.impersonate, settings_place("Settings.impersonate (WEB_SEARCH_IMPERSONATE)", IMPERSONATE_PLACES)
            )
        _check_ca_bundle(self.ca_bundle, "Settings.ca_bundle")
        self.min_interval_s = _check_pace(self.min_interval_s)
        self.backend = _kept_backend(self.backend)
        if self.backend is not None:
            self.env_backend_problem = None  # an explicit backend wins over the environment's
            check_backend_names(self.backend, "Settings.backend")
        self.__dict__["_made"] = True  # from now on another thread may build a client from it (__setattr__)

    # -- reading -------------------------------------------------------------------------

    @classmethod
    def from_env(cls, environ: Optional[Mapping[str, str]] = None, **overrides: Any) -> "Settings":
        """Build settings from environment variables (``os.environ`` by default).

        Keyword ``overrides`` beat the environment. A name in ``WEB_SEARCH_BACKEND``
        that no backend is registered under is kept as ``env_backend_problem``: a
        search that falls back on it fails with ``InvalidInput(unknown_backend)``, a
        search naming its backend and a fetch work; a malformed ``WEB_SEARCH_PROXY`` is
        ``InvalidInput(bad_proxy)``. Malformed numbers are logged and replaced by
        the default.
        """
        env = os.environ if environ is None else environ
        values = _shared_from_env(env, overridden=set(overrides))
        values["endpoints"], values["providers"] = _backends_from_env(env)
        at_use = _urls_at_use(values)
        for key, value in overrides.items():
            if key in ("endpoints", "providers"):
                merged = dict(values[key])
                for name, sub in (value or {}).items():
                    if key == "providers":
                        merged[name] = {**merged.get(name, {}), **dict(sub or {})}
                    else:
                        merged[name] = sub
                values[key] = merged
            else:
                values[key] = value
        return _built(cls, at_use, values)

    def default_backend(self) -> BackendSpec:
        """``backend``, the default of a call that names none; ``InvalidInput(unknown_backend)``
        when it came from a ``WEB_SEARCH_BACKEND`` that names an unknown backend."""
        if self.backend is None and self.env_backend_problem:
            raise InvalidInput(self.env_backend_problem, detail_code=UNKNOWN_BACKEND)
        return self.backend

    def replace(self, **changes: Any) -> "Settings":
        """Return a copy with some fields changed (the URLs :meth:`from_env` left to their use
        stay so while unchanged). Use it rather than ``dataclasses.replace``, which builds through
        the constructor (no argument can say a URL came from the environment) and so raises
        ``InvalidInput(bad_endpoint)`` for such a URL."""
        values = {field.name: getattr(self, field.name) for field in dataclasses.fields(self) if field.init}
        return _built(type(self), self.env_urls_at_use, {**values, **changes})

    def provider(self, name: str) -> dict[str, Any]:
        """Settings of one backend (a copy; empty when none were given)."""
        return dict(self.providers.get(name, {}))

    def secrets(self) -> list[str]:
        """Every secret value these settings hold (for redaction)."""
        found = [self.fetch_service_key] if self.fetch_service_key else []
        for sub in self.providers.values():
            for key, value in sub.items():
                if is_secret_name(key) and value:
                    if isinstance(value, str) and value.lstrip().startswith("{"):
                        value = _json_object(value) or value  # headers given as JSON text (environment)
                    if isinstance(value, Mapping):
                        found.extend(str(v) for v in value.values() if v)
                    else:
                        found.append(str(value))
        for url in (self.proxy, self.state_url):
            found.extend(_userinfo_secret(url))
            found.extend(_query_secrets(url))
        return found

    def __repr__(self) -> str:
        """The fields, keys and passwords masked, each text in them shown in at most
        :data:`_SHOWN_CHARS` characters."""
        shown = []
        secrets = self.secrets()
        for field in dataclasses.fields(self):
            if not field.repr:  # bookkeeping of from_env, not a setting the caller gave
                continue
            value = getattr(self, field.name)
            if field.name == "providers":
                value = {
                    name: {k: (_mask(v) if is_secret_name(k) else _shown_url(v)) for k, v in sub.items()}
                    for name, sub in value.items()
                }
            elif field.name == "endpoints":
                value = {name: _shown_url(url) for name, url in value.items()}
            elif field.name in ("proxy", "state_url", "fetch_service_url"):
                value = _shown_url(value)
            elif is_secret_name(field.name):
                value = _mask(value)
            shown.append("%s=%r" % (field.name, _shown_texts(value, secrets)))
        return redact("Settings(%s)" % ", ".join(shown), secrets)


_S = TypeVar("_S", bound=Settings)


def check_settings(settings: object, where: str = "settings") -> None:
    """``TypeError`` unless ``settings`` is ``None`` or a :class:`Settings`, saying how to make one of what
    was given: a mapping (``settings={"timeout_ms": 5000}``, another library's way) is ``Settings(**it)``."""
    if settings is None or isinstance(settings, Settings):
        return
    hint = ""
    if isinstance(settings, Mapping):
        shown = ", ".join("%s=..." % key for key in list(settings)[:3] if isinstance(key, str))
        hint = (
            " (a mapping: give its keys to Settings, Settings(%s), or Settings.from_env(...) over the environment)"
            % (shown or "timeout_ms=...")
        )
    raise TypeError("%s must be a websearch_sync.Settings, got %s%s" % (where, type(settings).__name__, hint))


def shared_from_env(environ: Optional[Mapping[str, str]] = None) -> "Settings":
    """:meth:`Settings.from_env` without any backend's endpoint or settings: the shared variables
    alone (the shared state's URL and prefix, the proxy, the timeout...), for a command that names
    no backend (``state show``): reading every backend's variables asks the registry, which imports
    every installed plugin (a slow import paid, a broken one's skip warning said, by each run)."""
    env = os.environ if environ is None else environ
    values = _shared_from_env(env, overridden=set())
    values["endpoints"], values["providers"] = {}, {}
    return _built(Settings, _urls_at_use(values), values)


def _built(cls: type[_S], at_use: frozenset[tuple[str, ...]], values: Mapping[str, Any]) -> _S:
    """``cls(**values)`` whose ``env_urls_at_use`` is ``at_use``, set before ``__post_init__`` checks
    the URLs (it is no argument of ``__init__``)."""
    settings = cls.__new__(cls)
    settings.__dict__["env_urls_at_use"] = at_use
    cls.__init__(settings, **values)
    return settings


#: The fields of :class:`Settings` (what an open client's settings refuse to change).
_FIELDS = frozenset(field.name for field in dataclasses.fields(Settings))

#: Where each field of :class:`Settings` a caller sets is given to what takes settings (``SearchClient()``,
#: ``fetch()``): what their refusal of ``proxy=`` or ``timeout=`` names (``from_env``'s bookkeeping is none).
SETTINGS_ARGUMENTS = {
    field.name: "settings=Settings(%s=...)" % field.name
    for field in dataclasses.fields(Settings)
    if field.init and field.repr
}


#: Held while a field of any :class:`Settings` is checked and assigned, and while :func:`hold` marks
#: one used: an assignment's check and its write are one step for a client being built (without it, a
#: client could hold the settings between them, and a set growing while a check read it was ``RuntimeError``).
_HOLD_LOCK = module_global(__name__, "_HOLD_LOCK", threading.RLock)


def hold(settings: Settings, user: object) -> None:
    """Mark ``settings`` as used by ``user`` (a ``SearchClient``, which calls it before it reads
    them) while ``user._closed`` is false: until then, assigning a field of ``settings`` is
    ``dataclasses.FrozenInstanceError``."""
    with _HOLD_LOCK:  # one set per Settings, and none growing while an assignment checks it
        settings.__dict__.setdefault("_users", weakref.WeakSet()).add(user)


def _normalised(
    endpoints: Mapping[Any, Any], providers: Mapping[Any, Optional[Mapping[str, Any]]]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The endpoints and provider sections by lower-case backend name, text stripped as the
    environment's is (a key pasted with its newline, or only spaces, would otherwise go out as
    ``Bearer key\\n``, refused as a header, or ``Bearer   ``, refused as a key); an empty endpoint left out."""
    stripped = {str(k).lower(): _stripped(v) for k, v in endpoints.items()}
    sections = {
        str(k).lower(): {key: _stripped(value) for key, value in (v or {}).items()} for k, v in providers.items()
    }
    return {k: v for k, v in stripped.items() if v}, sections


def _stripped(value: Any) -> Any:
    """A string without its surrounding whitespace (as ``env_text`` reads a variable); anything else as it is."""
    return value.strip() if isinstance(value, str) else value


def _json_object(text: str) -> Optional[dict[str, Any]]:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _check_providers(
    providers: Mapping[str, Mapping[str, Any]],
    endpoints: Mapping[str, Any],
    at_use: frozenset[tuple[str, ...]] = frozenset(),
) -> None:
    """Check each known backend's ``providers`` section against its declared settings
    (``InvalidInput(bad_setting)``; a value in ``at_use``, a URL read from the environment, is
    left to the backend that uses it); an ``endpoints`` or ``providers`` name no backend is
    registered under (yet: register a plugin before building its settings) is
    ``InvalidInput(unknown_backend)`` with the closest name, as ``Settings.backend`` is; the
    name of a plugin that was skipped (it failed to load) is logged instead, so that one broken
    plugin does not stop searches on every other backend."""
    if not providers and not endpoints:
        return  # nothing to check: the registry (and the engines) need not load
    known = _backends.names()
    for what, names in (("endpoints", endpoints), ("providers", providers)):
        unknown = sorted(set(names) - set(known))
        for name in [name for name in unknown if _backends.skipped(name)]:  # a broken plugin breaks no other backend
            logger.warning("Settings.%s names %r, whose plugin was skipped: %s", what, name, _backends.skipped(name))
            unknown.remove(name)
        problem = _unknown_backend_problem("Settings.%s" % what, unknown, auto=False) if unknown else None
        if problem:  # a typo would otherwise send to the default endpoint, or without the key given
            raise InvalidInput(problem + " (a plugin's backend: register it first)", detail_code=UNKNOWN_BACKEND)
    for name, sub in providers.items():
        if name in known:
            _backends.read_settings(
                name, {k: v for k, v in sub.items() if not _env_url(at_use, "providers", name, k, v)}
            )


_PROXY_SCHEMES = ("http", "https", "socks4", "socks4a", "socks5", "socks5h")


def proxy_problem(url: Any) -> Optional[str]:
    """What makes ``url`` unusable as a proxy URL, or ``None`` (never the URL itself, which may hold
    a password): a configured proxy and the environment's are judged alike."""
    if not isinstance(url, str):
        return "not a string"
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url):
        return "it contains whitespace or control characters"
    try:
        parts = urlsplit(url)
    except ValueError:  # an unclosed ``[``
        return "it cannot be read as a URL"
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in 0..65535
    except ValueError:
        return "its port is not a number in 0..65535"
    if parts.scheme not in _PROXY_SCHEMES:
        return "its scheme must be one of %s" % ", ".join(_PROXY_SCHEMES)
    if not parts.hostname:
        return "it has no host"
    return None


#: The kinds of key of the shared state, each the part after its namespace
#: (``websearch_sync:[prefix:]<kind>:<name>``): no part of a ``state_prefix`` may be named like one.
STATE_KEY_KINDS = ("cache", "slot", "sent", "fleet", "cooldown", "flight", "failure")
#: What a ``state_prefix`` may be (whole): the characters of a Redis key part a glob needs no escape for.
_STATE_PREFIX = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def check_state_prefix(prefix: Any) -> str:
    """``prefix`` when it is empty (or ``None``) or 1..64 of ``A-Z a-z 0-9 _ . : -``; else
    ``InvalidInput(bad_state_prefix)``. Checked when :class:`Settings` are built, with or without a
    state URL: a prefix a later ``state_url`` would refuse is a mistake to say at once."""
    if prefix in (None, ""):
        return ""
    if not isinstance(prefix, str) or not _STATE_PREFIX.fullmatch(prefix):
        raise InvalidInput(
            "Settings.state_prefix (WEB_SEARCH_STATE_PREFIX) must be 1..64 characters among A-Z a-z 0-9 _ . : -,"
            " got %r" % (clipped(prefix, 80) if isinstance(prefix, str) else prefix,),
            detail_code=BAD_STATE_PREFIX,
        )
    named = sorted(set(prefix.split(":")) & set(STATE_KEY_KINDS))
    if named:
        # websearch_sync:cooldown:… holds the cool-downs of an application without a prefix: another
        # one's keys there would be read (and cleared by `state clear`) as its cool-downs
        raise InvalidInput(
            "Settings.state_prefix (WEB_SEARCH_STATE_PREFIX) %r has a part named like a kind of key (%s): its keys"
            " would sit among another application's; choose another name" % (prefix, ", ".join(named)),
            detail_code=BAD_STATE_PREFIX,
        )
    return prefix


def _check_optional_strings(settings: "Settings", names: tuple[str, ...]) -> None:
    """``InvalidInput(bad_setting)`` unless each named setting is ``None`` or a string (a number or
    bytes there broke ``repr(settings)`` and every error message, which mask the secrets in them)."""
    for name in names:
        value = getattr(settings, name)
        if value is not None and not isinstance(value, str):
            raise InvalidInput(
                "Settings.%s must be a string, got %s" % (name, type(value).__name__), detail_code=BAD_SETTING
            )


def _check_user_agent(value: Any, where: str) -> None:
    """``InvalidInput(bad_setting)`` unless ``value`` is ``None`` or text a User-Agent header carries:
    one line of printable text (no control character: a line break would split the header) in
    Latin-1 (:func:`~.validate.header_value_problem`). Said when the settings are built, naming
    ``where``: the transport refused it only at the first request (``bad_header``)."""
    if value is None:
        return
    if not isinstance(value, str):
        raise InvalidInput(
            "%s must be a string (a User-Agent header's text), got a %s" % (where, type(value).__name__),
            detail_code=BAD_SETTING,
        )
    control = control_in(value)
    problem = "the control character %r" % control if control else header_value_problem(value)
    if problem:
        raise InvalidInput(
            "%s cannot be sent as a User-Agent header, one line of printable Latin-1 text: it holds %s"
            % (where, problem),
            detail_code=BAD_SETTING,
        )


#: The yes/no settings: checked whenever set, when the settings are built and by a later assignment.
_FLAGS = ("allow_private", "state_required")


def _check_flag(name: str, value: Any) -> None:
    """``InvalidInput(bad_setting)`` unless ``value`` is ``True`` or ``False``: a string is truthy
    whatever it says (``allow_private="false"`` would let fetch read private addresses)."""
    if not isinstance(value, bool):
        raise InvalidInput(
            "Settings.%s must be True or False, got %r" % (name, value if not isinstance(value, str) else value[:40]),
            detail_code=BAD_SETTING,
        )


#: A name OpenSSL looks a CA up by in a certificate folder (``openssl rehash``): the subject's
#: hash and a number (``.rN``: a revocation list).
_HASHED_NAME = re.compile(r"[0-9a-f]{8}\.r?[0-9]{1,3}")


def _check_ca_bundle(path: Optional[str], where: str) -> None:
    """``InvalidInput(bad_setting)`` when ``path`` names no file or folder: every HTTPS request
    would fail on it (over ``requests`` with a bare ``OSError``), so it is refused before any.
    A folder without one hashed name (``openssl rehash`` not run in it) is refused too: both
    wires look certificates up in a folder by those names alone, so none of its would be trusted."""
    if path and not os.path.exists(path):
        raise InvalidInput(
            "%s must be a CA bundle file (PEM) or a folder of certificates prepared with `openssl rehash`: "
            "%r does not exist" % (where, path),
            detail_code=BAD_SETTING,
        )
    if path and os.path.isdir(path) and not any(_HASHED_NAME.fullmatch(name) for name in os.listdir(path)):
        raise InvalidInput(
            "%s is a folder (%r) with no certificate under the hashed names OpenSSL looks them up by: "
            "run `openssl rehash %s` (or `c_rehash`) to add them, or give one PEM bundle file" % (where, path, path),
            detail_code=BAD_SETTING,
        )


#: Where the fetch service's URL is set (what a refusal of it names).
FETCH_SERVICE_URL_SETTING = "Settings.fetch_service_url (WEB_FETCH_SERVICE_URL)"


def endpoint_setting(name: str) -> str:
    """Where backend ``name``'s endpoint override is set (what a refusal of it names)."""
    variable = "WEB_SEARCH_ENDPOINT_" + name.upper()
    return settings_place("Settings.endpoints[%r] or %s" % (name, variable), variable)


#: Whether messages name where a setting is set in the command line's terms (its environment
#: variable alone), not the library's (the variable and the ``Settings`` field): a command's
#: user has no ``Settings`` to give (:func:`command_line_terms`).
_COMMAND_LINE: ContextVar[bool] = ContextVar("websearch_sync_command_line", default=False)


@contextlib.contextmanager
def command_line_terms(on: bool = True) -> Iterator[None]:
    """Within the block (a command of ``websearch-sync``, the threads it starts), a message naming
    where a setting is set names its environment variable alone (:func:`settings_place`); with
    ``on=False``, the library's words again (a fixture's meta file holds the ``Settings`` form)."""
    token = _COMMAND_LINE.set(on)
    try:
        yield
    finally:
        _COMMAND_LINE.reset(token)


def settings_place(library: str, variable: Optional[str]) -> str:
    """Where a user sets a value, the one place that decides how it is said: ``library``, the
    library's words (the variable and the Python form, ``BRAVE_API_KEY (or
    Settings.providers['brave']['api_key'])``), else, in a command (:func:`command_line_terms`),
    the environment ``variable`` alone, the way the command line has (``None``: no variable, the
    library's words)."""
    return variable if variable and _COMMAND_LINE.get() else library


def check_url_setting(url: Any, where: str, provider: Optional[str] = None) -> None:
    """``InvalidInput(bad_endpoint)`` when a configured URL holds a control character (a tab or
    line break: a URL parser drops it without a word, another host, or sends it encoded), or is no
    http(s) URL with a host, or its host no host name (:func:`~.validate.url_fault`, the one check of
    an endpoint): set in code, when the settings are built; read from the environment, where it is
    used. A value that is no string (nor ``None``) is refused too, saying so; ``None`` and ``""`` are unset."""
    if url is not None and not isinstance(url, str):
        raise InvalidInput(
            "%s must be a URL (a string), got %s" % (where, type(url).__name__),
            provider=provider,
            detail_code=BAD_ENDPOINT,
        )
    control = control_in(url)
    if control is not None:
        what = CONTROL_IN_SETTING % (where, control)
        raise InvalidInput(
            "%s: %s" % (provider, what) if provider else what, provider=provider, detail_code=BAD_ENDPOINT
        )
    fault = url_fault(url) if url else None
    if fault is not None:  # the URL itself is not shown: it may carry credentials
        what = (
            "%s is not an http(s) URL with a host%s" % (where, unusable_why(url))
            if fault == NOT_HTTP
            else "%s: the host is not a valid host name (%s)" % (where, fault)
        )
        raise InvalidInput(
            "%s: %s" % (provider, what) if provider else what, provider=provider, detail_code=BAD_ENDPOINT
        )


def _check_proxy(url: Any, where: str) -> None:
    """``InvalidInput(bad_proxy)`` unless ``url`` is empty or a usable proxy URL (before any request)."""
    if url is None or url == "":
        return
    problem = proxy_problem(url)
    if problem is not None:
        shown = _mask_proxy(url) if isinstance(url, str) else type(url).__name__
        if _without_scheme(url):  # 127.0.0.1:8080: "its scheme must be one of ..." left the user to guess
            written = shown.lstrip("/")
            raise InvalidInput(
                "%s must be a proxy URL with its scheme: write http://%s for an HTTP proxy (socks5h://%s for a "
                "SOCKS5 one), got %r" % (where, written, written, shown),
                detail_code=BAD_PROXY,
            )
        raise InvalidInput(
            "%s must be a proxy URL such as http://proxy.example:3128: %s (got %r)" % (where, problem, shown),
            detail_code=BAD_PROXY,
        )


def _without_scheme(url: Any) -> bool:
    """``url`` is a proxy's host and port written without the scheme (``127.0.0.1:8080``,
    ``proxy.example:3128``, ``//proxy.example:3128``): a usable proxy URL once ``http://`` opens it."""
    if not isinstance(url, str) or "://" in url:
        return False
    written = "http://" + url.lstrip("/")
    return proxy_problem(written) is None and urlsplit(written).port is not None


def _kept_backend(backend: BackendSpec) -> BackendSpec:
    """``Settings.backend`` as kept: a name stripped (blank: none), names in order as a tuple (a
    list copied: the caller's list, changed later, was the settings' too; a generator would be read
    by the first search only); a set, which has no order, is refused saying so."""
    if isinstance(backend, str):
        return backend.strip() or None
    if isinstance(backend, list):
        return tuple(backend)
    if backend is not None and not isinstance(backend, tuple):
        return tuple(backend_list(backend) or ())
    return backend


def _urls_at_use(values: Mapping[str, Any]) -> frozenset[tuple[str, ...]]:
    """The text values :meth:`Settings.from_env` read (``values``) that hold a control character, and
    the URLs among them :func:`check_url_setting` (or, the state URL, :func:`~.validate.check_state_url`)
    refuses (``WEB_FETCH_SERVICE_URL=notaurl``), and an ``impersonate`` no client takes, each as
    ``(place..., value)``: ``Settings`` leave them to their use (``Settings.env_urls_at_use``)."""
    urls: list[tuple[str, ...]] = [("fetch_service_url", values.get("fetch_service_url") or "")]
    urls.extend(("endpoints", name, url) for name, url in values["endpoints"].items())
    found = [place for place in urls if isinstance(place[-1], str) and _refused_at_use(place[-1])]
    for name, check in (("state_url", check_state_url), ("impersonate", check_impersonate)):
        value = values.get(name)
        if value and _refused(check, value):
            found.append((name, value))
    found.extend(_provider_values_at_use(values["providers"]))  # a backend's URL settings among them
    return frozenset(found)


def _provider_values_at_use(providers: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, ...]]:
    """The provider values read from the environment that a text of any kind refuses (a control
    character), or the check of their kind (a URL setting's :func:`check_url_setting`, a JSON
    setting's text that is no object): left to their backend. One question a backend, not a reading of its settings a value."""
    found: list[tuple[str, ...]] = []
    for name, sub in providers.items():
        refused = _backends.refused_settings(name, sub) if sub else frozenset()
        found.extend(
            ("providers", name, key, value)
            for key, value in sub.items()
            if key in refused or control_in(value) is not None
        )
    return found


def _refused_at_use(url: str) -> bool:
    """Whether :func:`check_url_setting` refuses ``url``, a URL read from the environment (``""``: unset)."""
    return bool(url) and (control_in(url) is not None or url_fault(url) is not None)


def _refused(check: Callable[[str], str], value: str) -> bool:
    """Whether ``check`` (:func:`~.validate.check_state_url`, :func:`~.validate.check_impersonate`) refuses ``value``."""
    try:
        check(value)
    except InvalidInput:
        return True
    return False


def _check_urls(fetch_service_url: Any, endpoints: Mapping[str, Any], at_use: frozenset[tuple[str, ...]]) -> None:
    """``InvalidInput(bad_endpoint)`` for a control character in the fetch service's URL or an
    endpoint, unless :meth:`Settings.from_env` read it there (``at_use``: refused where it is used)."""
    if not _env_url(at_use, "fetch_service_url", fetch_service_url):
        check_url_setting(fetch_service_url, FETCH_SERVICE_URL_SETTING)
    for name, url in endpoints.items():
        if not _env_url(at_use, "endpoints", name, url):
            check_url_setting(url, endpoint_setting(name), name)


def _check_state_url(url: Optional[str], at_use: frozenset[tuple[str, ...]]) -> None:
    """``InvalidInput(bad_state_url)`` for a ``state_url`` no client could use, when the settings are
    built (as a proxy or an endpoint is), unless :meth:`Settings.from_env` read it (``at_use``: a client
    given its own ``state_url=``, or ``--state-url``, replaces it)."""
    if url and not _env_url(at_use, "state_url", url):
        check_state_url(url, settings_place("Settings.state_url (WEB_SEARCH_STATE_URL)", STATE_URL_PLACES))


def _env_url(at_use: frozenset[tuple[str, ...]], *place: Any) -> bool:
    """Whether ``place`` (its last item the value) is a URL :meth:`Settings.from_env` read and left to its use."""
    return isinstance(place[-1], str) and place in at_use


def _shared_from_env(env: Mapping[str, str], overridden: set[str]) -> dict[str, Any]:
    """The settings every backend shares, read from ``env`` (``WEB_SEARCH_*``, ``WEB_FETCH_*``);
    the backend names and the proxy are checked unless an override replaces them."""
    values: dict[str, Any] = {"from_environment": True}
    backend = env_text(env, "WEB_SEARCH_BACKEND")
    if backend and "backend" not in overridden:
        names = [part.strip().lower() for part in backend.split(",") if part.strip()]
        problem = _unknown_backend_problem("WEB_SEARCH_BACKEND=%r" % backend, names)
        if problem:
            values["env_backend_problem"] = problem
        else:
            values["backend"] = names[0] if len(names) == 1 else names
    for var, field_name, minimum, maximum in (
        ("WEB_SEARCH_TIMEOUT_MS", "timeout_ms", 1, MAX_TIMEOUT_MS),
        ("WEB_SEARCH_MAX_RESULTS", "max_results", 1, MAX_RESULTS),
        ("WEB_SEARCH_TOOL_MAX_RESULTS", "tool_max_results", 1, MAX_RESULTS),
        ("WEB_SEARCH_MAX_PAGES", "max_pages", 1, MAX_PAGES),
        ("WEB_SEARCH_MAX_BYTES", "max_response_bytes", MIN_FETCH_BYTES, None),
    ):
        number = env_int(env, var, maximum, minimum)
        if number is not None:
            values[field_name] = number
    for var, field_name in (
        ("WEB_SEARCH_PROXY", "proxy"),
        ("WEB_SEARCH_USER_AGENT", "user_agent"),
        ("WEB_SEARCH_IMPERSONATE", "impersonate"),
        ("WEB_SEARCH_CA_BUNDLE", "ca_bundle"),
        ("WEB_FETCH_SERVICE_URL", "fetch_service_url"),
        ("WEB_FETCH_SERVICE_KEY", "fetch_service_key"),
        ("WEB_SEARCH_STATE_URL", "state_url"),
        ("WEB_SEARCH_STATE_PREFIX", "state_prefix"),
    ):
        text = env_text(env, var)
        if text:
            values[field_name] = text
    if "proxy" not in overridden:
        _check_proxy(values.get("proxy"), "WEB_SEARCH_PROXY")
    if "ca_bundle" not in overridden:
        _check_ca_bundle(values.get("ca_bundle"), "WEB_SEARCH_CA_BUNDLE")
    if "user_agent" not in overridden:
        _check_user_agent(values.get("user_agent"), "WEB_SEARCH_USER_AGENT")
    values["allow_private"] = _env_flag(env, "WEB_FETCH_ALLOW_PRIVATE")
    values["state_required"] = _env_flag(env, "WEB_SEARCH_STATE_REQUIRED")
    pace = _pace_from_env(env)
    if pace is not None:
        values["min_interval_s"] = pace
    return values


def _env_seconds(env: Mapping[str, str], name: str) -> Optional[float]:
    """A number of seconds >= 0 from ``env``; a malformed one is logged and ignored."""
    text = env_text(env, name)
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not 0 <= number <= MAX_PACE_S:
        _ignored(name, text, "a number of seconds in 0..%g" % MAX_PACE_S)
        return None
    return number


#: The malformed variables already said to be ignored, with their values (once per process each).
_IGNORED_VALUES = Once()


def _ignored(name: str, text: str, wanted: str) -> None:
    """Log that variable ``name`` holding ``text`` is ignored, once per process for that value: the
    environment is read again by every ``search()`` and ``fetch()``, and a loop of calls logged it at each."""
    if not _IGNORED_VALUES.first((name, text)):
        return
    logger.warning("ignoring %s=%r: expected %s; using the default", name, text, wanted)


#: The variables of one backend's pace: ``WEB_SEARCH_MIN_INTERVAL_S_<BACKEND>``.
_PACE_PREFIX = "WEB_SEARCH_MIN_INTERVAL_S_"


def _pace_from_env(env: Mapping[str, str]) -> Union[None, float, dict[str, float]]:
    """``WEB_SEARCH_MIN_INTERVAL_S`` (every backend) and ``WEB_SEARCH_MIN_INTERVAL_S_<BACKEND>``:
    a number, a ``{backend: seconds}`` mapping when some backend has its own, or ``None``."""
    every = _env_seconds(env, "WEB_SEARCH_MIN_INTERVAL_S")
    if not any(var.startswith(_PACE_PREFIX) for var in env):  # the backends are asked only when one may be named:
        return every  # asking them loads the plugins, and reading the environment is every command's first step
    known = _backends.names()
    own = {name: _env_seconds(env, _PACE_PREFIX + name.upper()) for name in known}
    own_set = {name: seconds for name, seconds in own.items() if seconds is not None}
    if not own_set:
        return every
    base = dict.fromkeys(known, every) if every is not None else {}
    base.update(own_set)
    return base


#: The longest pace a setting may ask (one request a day).
MAX_PACE_S = 86400.0


def _check_pace(value: Any) -> Union[None, float, dict[str, float]]:
    """``Settings.min_interval_s`` checked: ``None``, seconds, or ``{backend: seconds}``
    (``InvalidInput(bad_min_interval_s)``; backend names are checked by the client)."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        for name, seconds in value.items():
            if not isinstance(name, str):
                raise InvalidInput(
                    "Settings.min_interval_s keys are backend names, got %r" % (name,), detail_code=BAD_MIN_INTERVAL_S
                )
            _check_seconds("Settings.min_interval_s[%r]" % name, seconds)
        return {name.lower(): float(seconds) for name, seconds in value.items()}
    return _check_seconds("Settings.min_interval_s (seconds, or {backend: seconds})", value)


def _check_seconds(name: str, value: Any) -> float:
    return float(check_number(name, value, minimum=0, maximum=MAX_PACE_S, integer=False, detail=BAD_MIN_INTERVAL_S))


#: Variables named ``<prefix><BACKEND>``: one whose suffix names no backend is a typo.
_PER_BACKEND_VARS = ("WEB_SEARCH_ENDPOINT_", "WEB_SEARCH_MIN_INTERVAL_S_")
#: The typo'd variables already warned about (once per process each).
_WARNED_VARS = Once()


def _warn_unknown_backend_vars(env: Mapping[str, str], known: list[str]) -> None:
    """Log once each ``WEB_SEARCH_ENDPOINT_<X>`` / ``WEB_SEARCH_MIN_INTERVAL_S_<X>`` whose ``X``
    names no backend: ignored without a word, a mistyped endpoint sends to the real upstream."""
    names = {name.upper() for name in known}
    for var in env:
        prefix = next((p for p in _PER_BACKEND_VARS if var.startswith(p)), None)
        if prefix is None or var[len(prefix) :] in names or not _WARNED_VARS.first(var):
            continue
        close = _backends.closest(var[len(prefix) :].lower())
        logger.warning(
            "ignoring %s: no backend is named %r%s",
            var,
            var[len(prefix) :].lower(),
            "; did you mean %s%s?" % (prefix, close.upper()) if close else " (websearch-sync backends lists them)",
        )


#: The prefixes of the library's own variables: one of them that it does not read is a typo.
_OWN_PREFIXES = ("WEB_SEARCH_", "WEB_FETCH_")


def _warn_unknown_own_vars(env: Mapping[str, str]) -> None:
    """Log once each variable named with the library's prefix (:data:`_OWN_PREFIXES`) that neither it
    nor a registered backend reads, with the closest one it reads: ``WEB_SEARCH_BACKENDS=ddg_html`` was
    ignored without a word, and every search went on to the offline stub. The per-backend variables
    (:data:`_PER_BACKEND_VARS`) are :func:`_warn_unknown_backend_vars`' to judge."""
    typed = [
        var
        for var in env
        if var.startswith(_OWN_PREFIXES) and var not in SHARED_ENV_VARS and not var.startswith(_PER_BACKEND_VARS)
    ]
    if not typed:
        return
    read = set(SHARED_ENV_VARS) | _backends.variables()
    for var in typed:
        if var in read or not _WARNED_VARS.first(var):
            continue
        close = _closest_variable(var, read)
        logger.warning(
            "ignoring %s: websearch_sync reads no such variable%s",
            var,
            "; did you mean %s?" % close if close else " (docs/configuration.md lists those it reads)",
        )


def _warn_other_case_vars(env: Mapping[str, str], known: list[str]) -> None:
    """Log once each variable that is one the library or a registered backend reads but for its case
    (``web_search_backend=ddg_html``, ``Brave_Api_Key``): names are case-sensitive on Linux and macOS,
    so it was ignored without a word and every search went on to the offline stub (or without the
    key). On Windows the environment's names are upper-case already: nothing is said there."""
    other_case = [var for var in env if var != var.upper()]
    if not other_case:
        return
    read = set(SHARED_ENV_VARS) | _backends.variables()
    read.update(prefix + name.upper() for prefix in _PER_BACKEND_VARS for name in known)
    for var in other_case:
        if var not in read and var.upper() in read and _WARNED_VARS.first(var):
            logger.warning(
                "ignoring %s: environment variable names are case-sensitive; did you mean %s?", var, var.upper()
            )


def _closest_variable(var: str, read: set[str]) -> Optional[str]:
    """The variable of ``read`` that ``var`` most likely means, or ``None``: compared without the prefix
    they share (with it, every name was "close" to ``WEB_SEARCH_CA_BUNDLE``), one of ``var``'s own prefix
    first (``WEB_SEARCH_SERVICE_URLS``: ``WEB_SEARCH_SERVICE_URL``, not ``WEB_FETCH_SERVICE_URL``)."""
    prefix = next(prefix for prefix in _OWN_PREFIXES if var.startswith(prefix))
    same = sorted(name for name in read if name.startswith(prefix))
    for names in (same, sorted(read.difference(same))):
        by_rest = {_without_own_prefix(name): name for name in reversed(names)}
        close = difflib.get_close_matches(var[len(prefix) :], list(by_rest), n=1)
        if close:
            return by_rest[close[0]]
    return None


def _without_own_prefix(var: str) -> str:
    """``var`` without the library's prefix it starts with (``BACKEND`` of ``WEB_SEARCH_BACKEND``)."""
    return next((var[len(prefix) :] for prefix in _OWN_PREFIXES if var.startswith(prefix)), var)


def _backends_from_env(env: Mapping[str, str]) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """``(endpoints, providers)`` of every declared backend, read from ``env``."""
    endpoints: dict[str, str] = {}
    providers: dict[str, dict[str, Any]] = {}
    names = _backends.names()
    _warn_unknown_backend_vars(env, names)
    _warn_unknown_own_vars(env)
    _warn_other_case_vars(env, names)
    for name in names:
        url = env_text(env, "WEB_SEARCH_ENDPOINT_" + name.upper())
        if url:
            endpoints[name] = url
        section = _backends.read_settings(name, {}, env)
        if section:
            providers[name] = section
    return endpoints, providers


def env_text(env: Mapping[str, str], name: str) -> str:
    """Variable ``name`` of ``env``, stripped (``""`` when unset)."""
    return (env.get(name) or "").strip()


#: The spellings of a yes/no variable (unset or empty is no).
_FLAG_VALUES = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}
#: What a refusal of a word that is none of them says is taken (a variable's and ``--option``'s).
YES_NO_WORDS = "1, true, yes or on (0, false, no or off to turn it off)"


def yes_no(text: str) -> Optional[bool]:
    """What ``text`` says as a yes/no word, in any case: ``True`` for 1, true, yes or on, ``False`` for
    0, false, no or off, ``None`` for any other word. The one reading of a yes/no variable and of the
    command line's ``--option KEY=VALUE`` for a yes/no option, so that both take the same words."""
    return _FLAG_VALUES.get(text.strip().lower())


def _env_flag(env: Mapping[str, str], name: str) -> bool:
    """A yes/no variable; ``InvalidInput(bad_setting)`` for any other value (``maybe`` is not a
    no to take silently: the variable was set to turn something on)."""
    text = env_text(env, name)
    if not text:
        return False
    said = yes_no(text)
    if said is None:
        raise InvalidInput(
            "%s=%r is not a yes/no value: use %s" % (name, text, YES_NO_WORDS),
            detail_code=BAD_SETTING,
        )
    return said


def env_int(env: Mapping[str, str], name: str, maximum: Optional[int], minimum: int = 1) -> Optional[int]:
    """Variable ``name`` of ``env`` as a whole number in ``minimum..maximum``; ``None`` when
    unset, and when malformed or out of range (logged: a variable never fails a call)."""
    text = env_text(env, name)
    if not text:
        return None
    try:
        number: Optional[int] = int(text)
    except ValueError:
        number = None
    if number is None or number < minimum or (maximum is not None and number > maximum):
        wanted = (
            "an integer in %d..%d" % (minimum, maximum) if maximum is not None else "a whole number >= %d" % minimum
        )
        _ignored(name, text, wanted)
        return None
    return number


#: Why an unknown name close to no backend may be unknown: a plugin not installed where this runs (a
#: plugin author's first test, before ``pip install -e .``, or in another environment).
NOT_INSTALLED = (
    "no installed plugin registers it: a plugin's backend is known once its distribution is installed in this"
    " environment, pip install -e . in its folder, or once its class is registered in code"
)


def _unknown_backend_problem(where: str, names: Sequence[str], auto: bool = True) -> Optional[str]:
    """Why ``names`` (from ``where``) are not all registered backends (or ``auto``, when
    ``auto`` may be named there), with the closest known name for each unknown one; ``None``
    when they are."""
    known = _backends.names()
    extra = ["auto"] if auto else []
    choices = ", ".join(known) + (", or auto" if auto else "")
    if not names:
        return "%s names no backend; known backends: %s" % (where, choices)
    unknown = [name for name in names if name not in known and name not in extra]
    if not unknown:
        return None
    guesses = ["%r (%s)" % (name, why_unknown_backend(name, auto)) for name in unknown]
    # a URL's password is never said back (``-b https://user:pw@searx.example/``)
    return userinfo_hidden("%s names unknown backend %s; known backends: %s" % (where, ", ".join(guesses), choices))


def why_unknown_backend(name: str, auto: bool = False) -> str:
    """What may explain the unknown backend ``name``, the one explanation every unknown-backend
    message gives (settings, the command line, a search's ``backend=``): a URL given as a name, a
    list not split by commas, why its plugin was skipped, an entry point in a mistyped group or of
    another name, a backend ``unregister`` removed, else the closest registered name (or ``auto``, where ``auto`` may be named),
    else how a plugin's backend becomes known (:data:`NOT_INSTALLED`)."""
    extra = ["auto"] if auto else []
    close = _backends.closest(name) or next(iter(difflib.get_close_matches(name, extra, n=1)), None)
    return (
        url_as_backend(name)
        or list_not_split(name, [*_backends.names(), *extra])
        or _backends.skipped(name)
        or _backends.misgrouped(name)
        or ("did you mean %s?" % close if close else NOT_INSTALLED)
    )


def list_not_split(name: str, known: Sequence[str]) -> Optional[str]:
    """What to say of backends listed with another separator than a comma (``stub;ddg_html``,
    ``brave ddg_html``, ``brave|ddg_html``), each a known name, else ``None``: the closest single
    name (``did you mean ddg_html?``) was said, as if one backend were meant."""
    parts = "".join(char if char.isalnum() or char == "_" else " " for char in name).split()
    if len(parts) < 2 or not all(part in known for part in parts):
        return None
    return "a list of backends is separated by commas: %s" % ",".join(parts)


def url_as_backend(name: str) -> Optional[str]:
    """What to say of a URL given as a backend's name, else ``None``: an instance's address is a
    setting of its backend."""
    if "://" not in name:
        return None
    where = settings_place("SEARXNG_BASE_URL (or Settings.providers['searxng']['base_url'])", "SEARXNG_BASE_URL")
    return "a URL is no backend: a SearXNG instance's address is %s, with backend searxng" % where


def check_backend_names(backend: Any, where: str) -> None:
    """``InvalidInput(unknown_backend)`` when ``backend`` (a name, comma list or list of names)
    names an unregistered backend, or a list holds a name that is no string, saying ``where`` it was
    named (``Settings.backend``, the command line's ``--backend``); other types are refused where the
    backend is used."""
    if isinstance(backend, str):
        names = [part.strip().lower() for part in backend.split(",")]
    elif isinstance(backend, (list, tuple)):
        strays = [name for name in backend if not isinstance(name, str)]
        if strays:
            raise InvalidInput(
                "%s=%r: backend names must be strings, got %r" % (where, backend, strays[0]),
                detail_code=UNKNOWN_BACKEND,
            )
        names = [name.strip().lower() for name in backend]
    else:
        return
    problem = _unknown_backend_problem("%s=%r" % (where, backend), [name for name in names if name])
    if problem:
        raise InvalidInput(problem, detail_code=UNKNOWN_BACKEND)


def check_one_backend(name: Optional[str], where: str) -> None:
    """``InvalidInput(unknown_backend)`` unless ``name`` (when given) is one registered backend,
    spelt as registered: what works on one backend's requests and recorded cases (``record``,
    ``verify --backend``, ``check-live``) takes no list and no ``auto``, and a name it would not
    find (``DDG_HTML``, ``ddg_html,bing_html``) is no backend, not "no cases under" its folder."""
    if name is None:
        return
    problem = _unknown_backend_problem("%s=%r" % (where, name), [name], auto=False)
    if problem:
        raise InvalidInput(problem, detail_code=UNKNOWN_BACKEND)


#: The most characters ``repr(settings)`` shows of one text (a megabyte of headers or of a User-Agent
#: made a log line of a megabyte); a longer one keeps its start and end.
_SHOWN_CHARS = 300


def _shown_texts(value: Any, secrets: list[str]) -> Any:
    """``value`` with each text in it (a field's, a list's item, a mapping's value) masked and then cut
    at :data:`_SHOWN_CHARS`: a megabyte is a single text, and cutting a whole field's ``repr`` left
    out entries of an ordinary ``providers``; masked first, so a cut never shows a secret's start."""
    if isinstance(value, str):
        return clipped(redact(value, secrets), _SHOWN_CHARS)
    if isinstance(value, Mapping):
        return {key: _shown_texts(item, secrets) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_shown_texts(item, secrets) for item in value)
    return value


def _userinfo_secret(url: Optional[str]) -> list[str]:
    if not url or "@" not in url:
        return []
    userinfo = url.split("://", 1)[-1].split("@", 1)[0].lstrip("/")  # "//user:pw@host" has no scheme
    return [part for part in (userinfo, userinfo.split(":", 1)[-1]) if part]


def _query_secrets(url: Optional[str]) -> list[str]:
    """The values of ``url``'s secret-named query parameters (``?password=...``)."""
    if not url or "?" not in url:
        return []
    query = url.split("?", 1)[1].split("#", 1)[0]
    found = [value for name, value in parse_qsl(query, keep_blank_values=False) if value and is_secret_name(name)]
    return _cut_query_secrets(query) + found  # the longer first: masked whole before its head is


def _cut_query_secrets(query: str) -> list[str]:
    """A secret-named parameter's value with the parts after it that hold no ``=`` (``password=ab&cd``:
    its ``&`` cut it, and ``cd`` read as a name would be shown as one), as written in ``query``."""
    found: list[str] = []
    head: Optional[str] = None
    cut: list[str] = []
    for part in [*query.split("&"), "="]:  # the last: a parameter, which ends a value cut before it
        name, equals, value = part.partition("=")
        if head is not None and not equals:
            cut.append(part)
            continue
        if head is not None and cut:
            found.append("&".join([head, *cut]))
        head, cut = (value if equals and value and is_secret_name(name) else None), []
    return found


def _shown_url(value: Any) -> Any:
    """``value`` as ``repr`` shows it: a URL with its password and secret query values masked
    (a SearXNG behind Basic auth, a reader service's token), anything else as it is. A text with
    a ``@`` or ``?`` is read as a URL too: ``user:pw@host/api`` and ``//user:pw@host`` have no scheme."""
    return _mask_proxy(value) if isinstance(value, str) and any(mark in value for mark in ("://", "@", "?")) else value


def _mask_proxy(url: str) -> str:
    """``url`` with its password and the values of secret-named query parameters masked."""
    for secret in _userinfo_secret(url)[:1] + _query_secrets(url):
        url = url.replace(secret, "***")
    return url

"""Configuration: explicit :class:`Settings`, or settings read from the environment.

Precedence: explicit call arguments beat :class:`Settings`; ``Settings`` beat the
environment. ``Settings(...)`` never reads the environment; ``Settings.from_env()``
reads it and lets keyword overrides win over it.
"""

import dataclasses
import json
import logging
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from .errors import InvalidInput
from .secrets import is_secret_name, mask as _mask, redact

__all__ = ["Settings", "DEFAULT_TIMEOUT_MS", "DEFAULT_MAX_RESULTS", "SHARED_ENV_VARS", "is_secret_name", "declare_backend", "forget_backend"]

logger = logging.getLogger("websearch_sync")

#: The package version (``websearch_sync.__version__``; setup.cfg reads it from here).
VERSION = "0.1.0"

DEFAULT_TIMEOUT_MS = 15000
DEFAULT_MAX_RESULTS = 5
#: The one byte cap default: of a search response and of a fetched page.
DEFAULT_MAX_BYTES = 5_000_000
DEFAULT_MAX_RESPONSE_BYTES = DEFAULT_MAX_BYTES
MAX_TIMEOUT_MS = 600_000

#: Environment variables shared by every backend and by fetch: name -> (Settings field, meaning).
SHARED_ENV_VARS: Dict[str, Tuple[str, str]] = {
    "WEB_SEARCH_BACKEND": ("backend", "backend name, comma-separated list, or `auto`; unset = `stub`"),
    "WEB_SEARCH_TIMEOUT_MS": ("timeout_ms", "per-call deadline in milliseconds (default 15000)"),
    "WEB_SEARCH_MAX_RESULTS": ("max_results", "default number of results, 1..10 (default 5)"),
    "WEB_SEARCH_PROXY": ("proxy", "proxy URL for search and fetch (http, https, or socks5 with the `socks` extra)"),
    "WEB_SEARCH_USER_AGENT": ("user_agent", "User-Agent for search and fetch (default: a current desktop browser)"),
    "WEB_SEARCH_MAX_BYTES": ("max_response_bytes", "cap on bytes read from one search response (default 5000000)"),
    "WEB_FETCH_SERVICE_URL": ("fetch_service_url", "optional page-reading service tried before local fetch"),
    "WEB_FETCH_SERVICE_KEY": ("fetch_service_key", "bearer key for WEB_FETCH_SERVICE_URL (secret)"),
    "WEB_FETCH_ALLOW_PRIVATE": ("allow_private", "`1` lets fetch read loopback/private addresses (trusted local use)"),
    "WEB_SEARCH_STATE_URL": ("state_url", "Redis URL (`redis://host:port/db`) sharing cache, rate limits and cool-downs between processes"),
    "WEB_SEARCH_STATE_PREFIX": ("state_prefix", "extra namespace of the shared state's keys (after `websearch_sync:`)"),
    "WEB_SEARCH_STATE_REQUIRED": ("state_required", "`1`: an unreachable shared state fails the call instead of falling back to local state"),
}

#: What each registered backend reads from the environment: ``{backend: {setting: ENV_VAR}}``.
#: Filled by the backend registry when a backend registers, so that configuration
#: never imports the backends (they sit above it).
_BACKEND_ENV_VARS: Dict[str, Dict[str, str]] = {}


def declare_backend(name: str, env_vars: Mapping[str, str]) -> None:
    """Make ``Settings.from_env`` know backend ``name`` and the variables it reads."""
    _BACKEND_ENV_VARS[name] = dict(env_vars)


def forget_backend(name: str) -> None:
    """Undo :func:`declare_backend` (a backend was unregistered)."""
    _BACKEND_ENV_VARS.pop(name, None)


BackendSpec = Union[None, str, Sequence[str]]


@dataclasses.dataclass(repr=False)
class Settings:
    """Explicit configuration for searches and fetches.

    Args:
        backend: default backend name, list of names (fallback chain) or ``"auto"``.
            ``None`` means ``"stub"``.
        timeout_ms: whole-call deadline for one search or fetch (default 15000).
        max_results: default number of results (1..10, default 5).
        proxy: proxy URL used for every request (``http://``, ``https://``, ``socks5://``).
        user_agent: User-Agent header; ``None`` uses a current desktop browser string.
        endpoints: ``{backend_name: url}`` overriding a backend's endpoint URL.
        providers: per-backend settings, e.g. ``{"brave": {"api_key": "..."},
            "searxng": {"base_url": "https://searx.example", "timeout_ms": 8000}}``.
        max_response_bytes: cap on the bytes read from one search response.
        fetch_service_url, fetch_service_key: optional page-reading service for fetch.
        allow_private: let fetch read loopback/private/link-local addresses.
        state_url: a Redis URL (``redis://host:port/db``, ``rediss://``, ``unix://``)
            where clients share their cache, rate-limit slots and cool-downs
            (needs the ``redis`` extra); ``None``: each client keeps its own.
        state_prefix: extra namespace for the shared keys (``websearch_sync:<prefix>:``).
        state_required: fail calls with ``NetworkError(state_unavailable)`` when the
            shared state cannot be reached, instead of using local state for them.
        from_environment: set by :meth:`from_env`; tells whether the backend name
            came from ``WEB_SEARCH_BACKEND`` (unknown names then fall back to ``stub``).
    """

    backend: BackendSpec = None
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_results: int = DEFAULT_MAX_RESULTS
    proxy: Optional[str] = None
    user_agent: Optional[str] = None
    endpoints: Dict[str, str] = dataclasses.field(default_factory=dict)
    providers: Dict[str, Dict[str, Any]] = dataclasses.field(default_factory=dict)
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    fetch_service_url: Optional[str] = None
    fetch_service_key: Optional[str] = None
    allow_private: bool = False
    state_url: Optional[str] = None
    state_prefix: str = ""
    state_required: bool = False
    from_environment: bool = False

    def __post_init__(self) -> None:
        _check_positive_int("timeout_ms", self.timeout_ms, MAX_TIMEOUT_MS)
        _check_positive_int("max_results", self.max_results, 10)
        _check_positive_int("max_response_bytes", self.max_response_bytes, None)
        if not isinstance(self.endpoints, Mapping):
            raise InvalidInput("Settings.endpoints must be a mapping {backend: url}")
        if not isinstance(self.providers, Mapping):
            raise InvalidInput("Settings.providers must be a mapping {backend: {setting: value}}")
        self.endpoints = {str(k).lower(): v for k, v in self.endpoints.items() if v}
        self.providers = {str(k).lower(): dict(v or {}) for k, v in self.providers.items()}
        if isinstance(self.backend, str):
            self.backend = self.backend.strip() or None

    # -- reading -------------------------------------------------------------------------

    @classmethod
    def from_env(cls, environ: Optional[Mapping[str, str]] = None, **overrides: Any) -> "Settings":
        """Build settings from environment variables (``os.environ`` by default).

        Keyword ``overrides`` beat the environment. Unknown names in
        ``WEB_SEARCH_BACKEND`` are logged as a warning and replaced by ``stub``.
        Malformed numbers are logged and replaced by the default.
        """
        env = os.environ if environ is None else environ
        values: Dict[str, Any] = {"from_environment": True}
        backend = _env_str(env, "WEB_SEARCH_BACKEND")
        if backend:
            values["backend"] = _backend_from_env(backend, list(_BACKEND_ENV_VARS))
        for var, field_name, maximum in (
            ("WEB_SEARCH_TIMEOUT_MS", "timeout_ms", MAX_TIMEOUT_MS),
            ("WEB_SEARCH_MAX_RESULTS", "max_results", 10),
            ("WEB_SEARCH_MAX_BYTES", "max_response_bytes", None),
        ):
            number = _env_int(env, var, maximum)
            if number is not None:
                values[field_name] = number
        for var, field_name in (
            ("WEB_SEARCH_PROXY", "proxy"),
            ("WEB_SEARCH_USER_AGENT", "user_agent"),
            ("WEB_FETCH_SERVICE_URL", "fetch_service_url"),
            ("WEB_FETCH_SERVICE_KEY", "fetch_service_key"),
            ("WEB_SEARCH_STATE_URL", "state_url"),
            ("WEB_SEARCH_STATE_PREFIX", "state_prefix"),
        ):
            text = _env_str(env, var)
            if text:
                values[field_name] = text
        values["allow_private"] = _env_flag(env, "WEB_FETCH_ALLOW_PRIVATE")
        values["state_required"] = _env_flag(env, "WEB_SEARCH_STATE_REQUIRED")

        endpoints: Dict[str, str] = {}
        providers: Dict[str, Dict[str, Any]] = {}
        for name, env_vars in _BACKEND_ENV_VARS.items():
            url = _env_str(env, "WEB_SEARCH_ENDPOINT_" + name.upper())
            if url:
                endpoints[name] = url
            for key, var in env_vars.items():
                if key.endswith("_ms") or key.endswith("_default"):
                    number = _env_int(env, var, None)
                    if number is not None:
                        providers.setdefault(name, {})[key] = number
                else:
                    text = _env_str(env, var)
                    if text:
                        providers.setdefault(name, {})[key] = text
        values["endpoints"] = endpoints
        values["providers"] = providers

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
        return cls(**values)

    def replace(self, **changes: Any) -> "Settings":
        """Return a copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def provider(self, name: str) -> Dict[str, Any]:
        """Settings of one backend (a copy; empty when none were given)."""
        return dict(self.providers.get(name, {}))

    def secrets(self) -> List[str]:
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
        found.extend(_userinfo_secret(self.proxy))
        found.extend(_userinfo_secret(self.state_url))
        return found

    def __repr__(self) -> str:
        shown = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "providers":
                value = {
                    name: {k: (_mask(v) if is_secret_name(k) else v) for k, v in sub.items()}
                    for name, sub in value.items()
                }
            elif field.name == "proxy" and value:
                value = _mask_proxy(value)
            elif is_secret_name(field.name):
                value = _mask(value)
            shown.append("%s=%r" % (field.name, value))
        return redact("Settings(%s)" % ", ".join(shown), self.secrets())


def _json_object(text: str) -> Optional[Dict[str, Any]]:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _check_positive_int(name: str, value: Any, maximum: Optional[int]) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput("Settings.%s must be a positive integer, got %r" % (name, value))
    if maximum is not None and value > maximum:
        raise InvalidInput("Settings.%s must be at most %d, got %r" % (name, maximum, value))


def _env_str(env: Mapping[str, str], name: str) -> str:
    return (env.get(name) or "").strip()


def _env_flag(env: Mapping[str, str], name: str) -> bool:
    return _env_str(env, name).lower() in ("1", "true", "yes", "on")


def _env_int(env: Mapping[str, str], name: str, maximum: Optional[int]) -> Optional[int]:
    text = _env_str(env, name)
    if not text:
        return None
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1 or (maximum is not None and number > maximum):
        logger.warning("ignoring %s=%r: expected an integer in 1..%s; using the default", name, text, maximum or "inf")
        return None
    return number


def _backend_from_env(text: str, known: Sequence[str]) -> Union[str, List[str]]:
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    valid = [n for n in names if n in known or n == "auto"]
    for name in names:
        if name not in valid:
            logger.warning(
                "WEB_SEARCH_BACKEND names unknown backend %r; known: %s. Using %s.",
                name,
                ", ".join(known),
                ",".join(valid) or "stub",
            )
    if not valid:
        return "stub"
    return valid[0] if len(valid) == 1 else valid


def _userinfo_secret(url: Optional[str]) -> List[str]:
    if not url or "@" not in url:
        return []
    userinfo = url.split("://", 1)[-1].split("@", 1)[0]
    return [part for part in (userinfo, userinfo.split(":", 1)[-1]) if part]


def _mask_proxy(url: str) -> str:
    for secret in _userinfo_secret(url)[:1]:
        return url.replace(secret, "***")
    return url

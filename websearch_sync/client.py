"""SearchClient: validation, backend selection and the shared HTTP session."""

import logging
import time
from typing import Any, Dict, Iterable, List, Optional, Union

import requests

from .backends import registry
from .backends.base import Backend
from .config import Settings
from .deadline import Deadline
from .errors import WebProviderError, WebSearchError, redact
from .http import HttpTransport
from .models import ParseResult, SearchParams
from .normalize import normalize_items
from .validate import backend_list, check_timeout_ms, search_params

__all__ = ["SearchClient"]

logger = logging.getLogger("websearch_sync")

BackendArg = Union[None, str, Iterable[str]]


class SearchClient:
    """A reusable search client owning one HTTP session (keep-alive).

    Args:
        backend: backend name (or list of names) used when a call names none;
            default: ``settings.backend``, else ``"stub"``.
        settings: explicit :class:`~websearch_sync.Settings`; default
            ``Settings.from_env()``.
        session: a ``requests.Session`` to use instead of creating one (it is
            not closed by :meth:`close`).

    Use it as a context manager, or call :meth:`close` when done.
    """

    def __init__(
        self,
        backend: BackendArg = None,
        *,
        settings: Optional[Settings] = None,
        session: Optional[requests.Session] = None,
    ) -> None:
        if settings is not None and not isinstance(settings, Settings):
            raise TypeError("settings must be a websearch_sync.Settings, got %s" % type(settings).__name__)
        self.settings = settings if settings is not None else Settings.from_env()
        self._backend = self._check_backends(backend_list(backend))
        self._transport = HttpTransport(session=session, proxy=self.settings.proxy, user_agent=self.settings.user_agent)
        self._closed = False

    # -- lifecycle ------------------------------------------------------------------------

    def close(self) -> None:
        """Release the HTTP session (if this client created it)."""
        if not self._closed:
            self._closed = True
            self._transport.close()

    def __enter__(self) -> "SearchClient":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return "SearchClient(backend=%r)" % (self._backend or self._default_backends(),)

    # -- searching ------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        backend: BackendArg = None,
        max_results: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        **options: Any,
    ) -> Dict[str, Any]:
        """Search the web and return ``{"items": [...], "provider_meta": {...}}``.

        Args:
            query: the search terms (non-blank, at most 2000 characters).
            backend: backend name(s) for this call (beats the client's default).
            max_results: 1..10 (default ``settings.max_results``, 5).
            timeout_ms: deadline for the whole call (default from settings).
            **options: ``locale``/``lang``, ``time_range`` (day/week/month/year),
                ``site_filter``, ``safe_search`` (off/moderate/strict), ``trace_id``,
                and backend-specific options (see the README).

        Raises:
            WebSearchError: a subclass named by the error code; nothing else
            (except ``TypeError`` for an unknown keyword argument).
        """
        try:
            names = self._check_backends(backend_list(backend)) or self._backend or self._default_backends()
            classes = [registry.backend_class(name) for name in names]
            params = search_params(query, max_results, options, self.settings, _all_backend_options())
            timeout = check_timeout_ms(timeout_ms)
            return self._search_chain(classes, params, timeout)
        except WebSearchError as error:
            raise self._redacted(error)

    def _search_chain(self, classes: List[type], params: SearchParams, timeout_ms: Optional[int]) -> Dict[str, Any]:
        failures: List[WebSearchError] = []
        for cls in classes:
            backend = cls(self.settings)
            try:
                return self._search_one(backend, params, timeout_ms, failures)
            except WebSearchError as error:
                if len(classes) == 1:
                    raise
                failures.append(error)
        raise _most_informative(failures)

    def _search_one(
        self, backend: Backend, params: SearchParams, timeout_ms: Optional[int], failures: List[WebSearchError]
    ) -> Dict[str, Any]:
        deadline = Deadline(backend.timeout_ms(timeout_ms))
        started = time.monotonic()
        result = _call_backend(backend, params, self._transport, deadline)
        latency_ms = int(round((time.monotonic() - started) * 1000))
        items = normalize_items(result.items, backend.name, params.max_results)
        meta: Dict[str, Any] = {"provider_name": backend.name, "latency_ms": latency_ms, "cached": False, "attempts": 1}
        if result.request_id:
            meta["request_id"] = result.request_id
        response: Dict[str, Any] = {"items": items, "provider_meta": meta}
        errors = [_failure_entry(e) for e in failures] + list(result.errors)
        if errors:
            response["errors"] = errors
        return response

    # -- helpers --------------------------------------------------------------------------

    def _default_backends(self) -> List[str]:
        configured = backend_list(self.settings.backend)
        return self._check_backends(configured) or [registry.DEFAULT_BACKEND]

    @staticmethod
    def _check_backends(names: Optional[List[str]]) -> Optional[List[str]]:
        for name in names or ():
            registry.backend_class(name)
        return names

    def _redacted(self, error: WebSearchError) -> WebSearchError:
        secrets = self.settings.secrets()
        for item in [error] + error.errors:
            item.message = redact(item.message, secrets)
            item.args = (item.message,)
        return error


def _all_backend_options() -> List[str]:
    names: List[str] = []
    for name in registry.backend_names():
        names.extend(registry.backend_class(name).options)
    return names


def _call_backend(backend: Backend, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
    """Run one backend; a bug inside it becomes a logged ``WebProviderError``, never a stray exception."""
    try:
        return backend.search(params, transport, deadline)
    except WebSearchError:
        raise
    except Exception as exc:  # a defect in a backend: report it loudly, typed
        logger.error("backend %s failed unexpectedly", backend.name, exc_info=True)
        raise WebProviderError(
            "internal error in backend %s: %s" % (backend.name, type(exc).__name__),
            provider=backend.name,
            detail_code="internal_error",
        ) from exc


_PRECEDENCE = ("WebBlocked", "AuthError", "WebParseError", "BadGateway", "Timeout", "NetworkError", "WebProviderError", "InvalidInput")


def _most_informative(failures: List[WebSearchError]) -> WebSearchError:
    best = min(failures, key=lambda e: _PRECEDENCE.index(e.code) if e.code in _PRECEDENCE else len(_PRECEDENCE))
    best.errors = [e for e in failures if e is not best]
    return best


def _failure_entry(error: WebSearchError) -> Dict[str, Any]:
    return error.to_dict()

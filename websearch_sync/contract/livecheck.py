"""Live health checks of a backend: does it still answer, and does its page still
look the way the parser knows? A drift detector for scheduled jobs with network
(never for CI, which replays recordings).

Each query runs through the normal path (one :class:`~websearch_sync.SearchClient`,
so rate limits and cool-downs apply, no retries, no cache); the last response is
captured and handed to the backend's :meth:`~websearch_sync.engine.base.Backend.structure_report`.
"""

import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, Optional

from ..client.search_client import SearchClient
from ..config import Settings
from ..engine import registry
from ..engine.registry import reported
from ..errors import BAD_ARGUMENTS, InvalidInput, WebSearchError
from ..models import SearchParams
from .recording import Recorder

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: Queries used when none are given: common enough that every engine has results.
DEFAULT_QUERIES = ("python requests timeout", "open source web search engine")

#: The check's status for each error code (a search that returned is ``success``).
STATUS_BY_CODE = {
    "WebBlocked": "blocked",
    "AuthError": "auth_error",
    "WebParseError": "parse_error",
    "Timeout": "timeout",
    "NetworkError": "network_error",
    "BadGateway": "bad_gateway",
    "InvalidInput": "invalid_input",
    "WebProviderError": "provider_error",
}


@dataclass
class LiveCheck:
    """The verdict on one live query."""

    backend: str
    query: str
    status: str  #: ``success`` or one of :data:`STATUS_BY_CODE`'s values
    items: int
    latency_ms: int
    structure: Optional[dict[str, bool]] = None  #: the backend's structure report; None without a complete response
    error: Optional[dict[str, Any]] = None  #: ``{type, detail_code, status, message}`` when the search failed

    @property
    def structure_ok(self) -> Optional[bool]:
        """True when every structure check passed, False when one failed, None when not checked."""
        if self.structure is None:
            return None
        return all(self.structure.values())

    @property
    def ok(self) -> bool:
        """A success whose page structure (when checked) still matches."""
        return self.status == "success" and self.structure_ok is not False

    def to_dict(self) -> dict[str, Any]:
        """The check as JSON-ready data."""
        return {
            "backend": self.backend,
            "query": self.query,
            "ok": self.ok,
            "status": self.status,
            "items": self.items,
            "latency_ms": self.latency_ms,
            "structure": self.structure,
            "structure_ok": self.structure_ok,
            "error": self.error,
        }


def check_live(
    backend: str,
    queries: Iterable[str] = (),
    *,
    settings: Optional[Settings] = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    vertical: str = "web",
) -> list[LiveCheck]:
    """Run each query live against ``backend`` (its ``vertical`` engine) and report how it went.

    ``settings`` default to ``Settings.from_env()``. Raises (before any request)
    ``InvalidInput`` for an unknown backend, ``InvalidInput(bad_arguments)`` for an offline
    one (the ``stub``: it sends no request, so no answer of it says anything about a service),
    and the configuration errors of the backend (``AuthError(missing_api_key)``,
    ``InvalidInput(not_configured)``); every failure of a query itself is reported in its
    :class:`LiveCheck`.
    """
    settings = settings if settings is not None else Settings.from_env()
    checker = registry.instance(registry.backend_class(backend, vertical), settings)
    if checker.kind == "offline":  # else its missing endpoint is reported, and setting one "passes" the check
        raise InvalidInput(
            "%s is an offline backend: it sends no request, so there is nothing live to check; "
            "name a backend that searches the web (websearch-sync backends lists them)" % checker.name,
            provider=checker.name,
            detail_code=BAD_ARGUMENTS,
        )
    checker.check_configured()
    checks: list[LiveCheck] = []
    with Recorder() as recorder:
        with SearchClient(backend, settings=settings, wire=recorder.wrap, cache_ttl_s=0, retries=0) as client:
            for query in list(queries) or list(DEFAULT_QUERIES):
                recorder.reset()
                started = time.monotonic()
                items = 0
                error: Optional[WebSearchError] = None
                try:
                    answer = client.search(query, max_results=max_results, timeout_ms=timeout_ms, vertical=vertical)
                    items = len(answer["items"])
                except WebSearchError as exc:
                    error = exc
                latency = int(round((time.monotonic() - started) * 1000))
                structure = None
                last = recorder.exchanges[-1] if recorder.exchanges else None
                if last is not None and last.complete:
                    params = SearchParams(
                        query=query.strip() or query,
                        max_results=max_results or settings.max_results,
                        vertical=vertical,
                    )
                    report = partial(checker.structure_report, last.http_response(), params)
                    try:  # a plugin's hook that raises fails the query
                        structure = reported(checker, report) or None  # {}: nothing to check
                    except WebSearchError as exc:
                        error = error or exc
                if error is None:
                    checks.append(LiveCheck(backend, query, "success", items, latency, structure))
                else:
                    detail = {
                        "type": error.code,
                        "detail_code": error.detail_code,
                        "status": error.status,
                        "message": error.message,
                    }
                    checks.append(
                        LiveCheck(
                            backend,
                            query,
                            STATUS_BY_CODE.get(error.code, "provider_error"),
                            0,
                            latency,
                            structure,
                            detail,
                        )
                    )
    return checks

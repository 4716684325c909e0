"""The module-level API: stateless one-call functions.

Each call builds a fresh :class:`SearchClient` and closes it: nothing (cache,
cool-downs, rate-limit memory) carries over from one call to the next. Scripts
that search many times should share one ``SearchClient``.
"""

from typing import Any, Dict, Iterable, Optional, Union

from .backends.registry import backend_names
from .client import SearchClient
from .config import Settings

__all__ = ["search", "backend_names"]


def search(
    query: str,
    *,
    backend: Union[None, str, Iterable[str]] = None,
    max_results: Optional[int] = None,
    timeout_ms: Optional[int] = None,
    settings: Optional[Settings] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Search the web once and return ``{"items": [...], "provider_meta": {...}}``.

    ``backend`` defaults to ``settings.backend`` / ``WEB_SEARCH_BACKEND``, else the
    offline ``stub``; a list (or ``"auto"``) is a fallback chain, or a parallel
    merge with ``strategy="merge"``. Stateless: no cache, cool-down or rate-limit
    memory survives the call (share a :class:`SearchClient` for that). See
    :meth:`SearchClient.search` for the options and errors.
    """
    with SearchClient(settings=settings, cache_ttl_s=0) as client:
        return client.search(query, backend=backend, max_results=max_results, timeout_ms=timeout_ms, **options)

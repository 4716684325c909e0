"""``stub``: the offline default backend.

Deterministic, never touches the network: three items built from the query, so
that scripts, CI and examples run anywhere. Set ``WEB_SEARCH_BACKEND`` (or pass
``backend=``) to search the web for real.

Made-up results must never pass for real ones: the first search the stub answers
in a process raises an :class:`OfflineResultsWarning` and logs a warning (once per
process; a caller that tells the user itself, like the command line, calls
:func:`offline_warning_given` first), ``tool.format_results`` marks its results,
and its pages are never read (``include_content`` leaves them without content).
"""

import logging
import threading
import warnings
from urllib.parse import quote, quote_plus

from ..engine.base import Backend
from ..models import ParseResult, SearchParams
from ..net.deadline import Deadline
from ..net.transport import HttpTransport

__all__ = ["OfflineResultsWarning"]

logger = logging.getLogger("websearch_sync")

OFFLINE_WARNING = (
    "searches are answered by the offline 'stub' backend: made-up example results, not the web; "
    "set WEB_SEARCH_BACKEND (or pass backend=) to search the web"
)


class OfflineResultsWarning(UserWarning):
    """Search results in this process come from the offline stub, not from the web."""


_warned = threading.Event()
_warning_lock = threading.Lock()


def offline_warning_given() -> None:
    """Record that the user has been told about offline results, so the stub does not warn again."""
    _warned.set()


def _warn_once() -> None:
    if _warned.is_set():  # the common case: no lock taken
        return
    with _warning_lock:
        if _warned.is_set():
            return
        _warned.set()
    warnings.warn(OFFLINE_WARNING, OfflineResultsWarning, stacklevel=2)
    logger.warning(OFFLINE_WARNING)


class Stub(Backend):
    """Offline backend returning three fixed items derived from the query."""

    name = "stub"
    kind = "offline"
    text_format = "text"  # built from the query: plain text
    summary = "offline, deterministic: 3 items built from the query (the default)"
    provides_content = True  # its pages are made up: include_content never reads them (they get no content)

    def check(self, params: SearchParams) -> None:
        """Only the parameters: the stub has no endpoint or key to check."""
        self.check_params(params)

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """Build the items; no request is sent."""
        self.check(params)
        _warn_once()
        query = params.full_query
        words = quote("-".join(query.split()).lower(), safe="")
        hint = "Offline stub result (set WEB_SEARCH_BACKEND to search the web)."
        return ParseResult(
            items=[
                {
                    "title": "%s - Overview" % query,
                    "url": "https://example.com/search?q=%s" % quote_plus(query),
                    "snippet": "An overview of %s. %s" % (query, hint),
                },
                {
                    "title": "%s - Documentation" % query,
                    "url": "https://docs.example.org/%s" % words,
                    "snippet": "Reference documentation about %s. %s" % (query, hint),
                },
                {
                    "title": "%s - Discussion" % query,
                    "url": "https://forum.example.net/t/%s" % words,
                    "snippet": "Questions and answers on %s. %s" % (query, hint),
                },
            ]
        )

"""``stub``: the offline default backend.

Deterministic, never touches the network: three items built from the query, so
that scripts, CI and examples run anywhere. Set ``WEB_SEARCH_BACKEND`` (or pass
``backend=``) to search the web for real.

Made-up results must never pass for real ones: the first search the stub answers
in a process as the default (no backend named: no ``backend``, positional or keyword, no
``Settings.backend`` / ``WEB_SEARCH_BACKEND``) raises an :class:`OfflineResultsWarning` and, where
logging is configured, logs a warning (once per process; a caller that tells the user itself, like
the command line, calls :func:`offline_warning_given` first); a search that names the stub
(``SearchClient("stub")``) chose it and is not warned. ``tool.format_results`` marks its results,
and its pages are never read (``include_content`` leaves them without content).
"""

import contextlib
import logging
import sys
import warnings
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from types import FrameType
from typing import Any, Optional
from urllib.parse import quote, quote_plus

from ..engine.base import Backend
from ..models import ParseResult, SearchParams
from ..net.deadline import Deadline
from ..net.transport import HttpTransport
from ..once import Once

__all__ = ["OfflineResultsWarning"]

logger = logging.getLogger("websearch_sync")
#: The top-level package, whose frames the warning looks past.
_PACKAGE = __name__.partition(".")[0]

#: What offline results are; a stub the caller named is told this alone (it chose the stub).
OFFLINE_FACT = "searches are answered by the offline 'stub' backend: made-up example results, not the web"
#: The warning of the offline default: what its results are, and how to search the web.
OFFLINE_WARNING = OFFLINE_FACT + "; set WEB_SEARCH_BACKEND (or pass backend=) to search the web"


class OfflineResultsWarning(UserWarning):
    """Search results in this process come from the offline stub, not from the web."""


#: Holds :data:`OFFLINE_WARNING` once the user was told of offline results (by the stub or a command).
_WARNED = Once(outlives_reset=True)  # said once to a whole test suite (docs/contract.md)


def offline_warning_given() -> None:
    """Record that the user has been told about offline results, so the stub does not warn again."""
    _WARNED.first(OFFLINE_WARNING)


#: Whether the search running in this context named its backends (the call's or the client's
#: ``backend``, ``Settings.backend``): the stub answering it was chosen, not fallen back on. A
#: merge's threads run in copies of the caller's context, so they read the caller's.
_NAMED: ContextVar[bool] = ContextVar("websearch_sync_backends_named", default=False)


@contextlib.contextmanager
def backends_named(named: bool) -> Iterator[None]:
    """Within the block, the stub warns (:data:`OFFLINE_WARNING`) only when ``named`` is false:
    a search answered by the offline default, not by a stub the caller named."""
    token = _NAMED.set(named)
    try:
        yield
    finally:
        _NAMED.reset(token)


#: The top-level modules that start a thread's work: a frame of theirs above the library's is no caller.
_THREAD_MACHINERY = ("threading", "concurrent")


def _caller_level() -> int:
    """``warnings.warn``'s stacklevel, from :func:`_warn_once`, of the first frame outside this
    package: the caller's line that searched, which the warning (and pytest's summary) then names
    instead of the stub's; the stub itself in a thread that has no such frame (a merge's worker,
    whose first frame outside the package is Python's thread start, :data:`_THREAD_MACHINERY`)."""
    frame: Optional[FrameType] = sys._getframe(2)  # the frame that called _warn_once: the stub's search
    level = 2
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] == _PACKAGE:
        frame, level = frame.f_back, level + 1
    if frame is None or frame.f_globals.get("__name__", "").partition(".")[0] in _THREAD_MACHINERY:
        return 2  # the library's own worker thread: above it, Python's thread start, no caller's line
    return level


def _warn_once() -> None:
    if not _WARNED.first(OFFLINE_WARNING):
        return
    warnings.warn(OFFLINE_WARNING, OfflineResultsWarning, stacklevel=_caller_level())
    if logger.hasHandlers() and not _warnings_logged():  # else logging's last resort would print it twice
        logger.warning(OFFLINE_WARNING)


def _warnings_logged() -> bool:
    """Whether the application routes warnings to its log (``logging.captureWarnings(True)``, which
    makes ``warnings.showwarning`` logging's own): the warning is then a log record already (logger
    ``py.warnings``), and a second record of ours would put the same words twice in the log."""
    return getattr(warnings.showwarning, "__module__", None) == logging.__name__


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

    def not_sent(self, params: SearchParams) -> list[str]:
        """Besides the base's: ``include_content``, whose pages are made up and never read (the
        call's results carry no ``content``, and say why instead of staying silent)."""
        unsent = super().not_sent(params)
        return sorted(unsent + ["include_content"]) if params.include_content else unsent

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """Build the items; no request is sent."""
        self.check_once(params)
        if not _NAMED.get():  # the offline default: say so; a stub named by the caller was chosen
            _warn_once()
        return ParseResult(items=self.items(params.full_query))

    def items(self, query: str) -> list[dict[str, Any]]:
        """Three web items about ``query``."""
        return [
            {"title": "%s - %s" % (query, label), "url": url, "snippet": _snippet(about, query)}
            for label, url, about in _pages(query)
        ]


#: What each made-up snippet ends with: how to search the web when the stub answers as the offline
#: default (the case :func:`_warn_once` warns of), only that it is made up when the caller named it.
_DEFAULT_HINT = "Offline stub result (set WEB_SEARCH_BACKEND to search the web)."
_NAMED_HINT = "Offline stub result."


def _snippet(about: str, query: str) -> str:
    """The snippet of a made-up page about ``query``: its remedy (set ``WEB_SEARCH_BACKEND``) only for
    the offline default, as the warning (:data:`_NAMED`): ``-b demo,stub`` or ``backend="stub"`` chose it."""
    return "%s %s. %s" % (about, query, _NAMED_HINT if _NAMED.get() else _DEFAULT_HINT)


#: The most characters of a made-up page's URL that hold the query, escaped: a long query (2,000
#: emoji, 24,000 characters escaped) made URLs over the longest a result keeps, and the stub
#: answered "No results found." to a query it answers in any other length.
_URL_QUERY_CHARS = 2000


def _escaped(text: str, escape: Callable[..., str]) -> str:
    """``text`` escaped by ``escape``, cut to :data:`_URL_QUERY_CHARS` before a whole escape."""
    escaped = escape(text, safe="")[:_URL_QUERY_CHARS]
    cut = escaped.find("%", max(0, len(escaped) - 2))  # an escape cut short: %E or %
    return escaped[:cut] if cut != -1 else escaped


def _pages(query: str) -> list[tuple[str, str, str]]:
    """The three made-up pages about ``query``: (label, URL, what they are)."""
    words = _escaped("-".join(query.split()).lower(), quote)
    return [
        ("Overview", "https://example.com/search?q=%s" % _escaped(query, quote_plus), "An overview of"),
        ("Documentation", "https://docs.example.org/%s" % words, "Reference documentation about"),
        ("Discussion", "https://forum.example.net/t/%s" % words, "Questions and answers on"),
    ]


#: The stub's made-up date (fixed: its answers are deterministic).
_STUB_DATE = "2026-01-01T00:00:00Z"


class StubNews(Stub):
    """The offline stub's news: three made-up articles about the query."""

    vertical = "news"

    def items(self, query: str) -> list[dict[str, Any]]:
        """Three news items about ``query``."""
        return [
            {
                "title": "%s - %s" % (query, label),
                "url": url,
                "snippet": _snippet(about, query),
                "source": url.split("/")[2],
                "published_at": _STUB_DATE,
            }
            for label, url, about in _pages(query)
        ]


class StubImages(Stub):
    """The offline stub's images: three made-up pictures about the query."""

    vertical = "images"

    def items(self, query: str) -> list[dict[str, Any]]:
        """Three image items about ``query``."""
        return [
            {
                "title": "%s - %s" % (query, label),
                "url": url,
                "image_url": "https://%s/image-%d.png" % (url.split("/")[2], position),
                "width": 640,
                "height": 480,
                "source": url.split("/")[2],
            }
            for position, (label, url, _about) in enumerate(_pages(query), 1)
        ]


class StubVideos(Stub):
    """The offline stub's videos: three made-up videos about the query."""

    vertical = "videos"

    def items(self, query: str) -> list[dict[str, Any]]:
        """Three video items about ``query``."""
        return [
            {
                "title": "%s - %s" % (query, label),
                "url": url,
                "snippet": _snippet(about, query),
                "published_at": _STUB_DATE,
                "duration": 60 * position,
                "publisher": url.split("/")[2],
            }
            for position, (label, url, about) in enumerate(_pages(query), 1)
        ]

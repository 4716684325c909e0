"""websearch_sync: synchronous web search and page reading with one result shape
and one error vocabulary.

    >>> import websearch_sync as ws
    >>> ws.search("python requests timeout")["items"][0]["rank"]
    1
"""

from typing import TYPE_CHECKING

from .config import VERSION, Settings
from .errors import (
    AuthError,
    BadGateway,
    InvalidInput,
    NetworkError,
    Timeout,
    ToolNotFound,
    UrlTooLong,
    WebBlocked,
    WebParseError,
    WebProviderError,
    WebSearchError,
)
from .models import (
    VERTICALS,
    ErrorInfo,
    FetchResult,
    ImageItem,
    ImageResponse,
    NewsItem,
    NewsResponse,
    ProviderMeta,
    SearchItem,
    SearchResponse,
    Vertical,
    VideoItem,
    VideoResponse,
)

__version__ = VERSION

#: The public names of other modules a newcomer reads here first (the README names the warning):
#: ``ws.OfflineResultsWarning`` is the ``AttributeError`` saying where it is.
_ELSEWHERE = {
    "OfflineResultsWarning": "websearch_sync.backends.stub",
    "register": "websearch_sync.backends",
    "unregister": "websearch_sync.backends",
    "Backend": "websearch_sync.backends",
    "call_tool": "websearch_sync.tool",
    "tool_definitions": "websearch_sync.tool",
    "fake_results": "websearch_sync.testing",
    "replay_fixtures": "websearch_sync.testing",
}

# What needs requests, lxml or an engine is imported when first read
# (websearch_sync.engine.lazy); third-party backends (entry points in ``websearch_sync.backends``)
# register when the registry is first asked about backends.
if TYPE_CHECKING:
    from .api import fetch, search
    from .client.search_client import SearchClient
    from .engine.registry import backend_names
else:
    from .engine.lazy import lazy_exports as _lazy_exports

    __getattr__, __dir__ = _lazy_exports(
        __name__,
        {
            "search": ".api",
            "fetch": ".api",
            "SearchClient": ".client.search_client",
            "backend_names": ".engine.registry",
        },
        _ELSEWHERE,
    )

__all__ = [
    "search",
    "fetch",
    "backend_names",
    "SearchClient",
    "Settings",
    "WebSearchError",
    "InvalidInput",
    "UrlTooLong",
    "Timeout",
    "NetworkError",
    "WebBlocked",
    "AuthError",
    "BadGateway",
    "WebParseError",
    "WebProviderError",
    "ToolNotFound",
    "SearchResponse",
    "SearchItem",
    "NewsResponse",
    "NewsItem",
    "ImageResponse",
    "ImageItem",
    "VideoResponse",
    "VideoItem",
    "Vertical",
    "VERTICALS",
    "ProviderMeta",
    "ErrorInfo",
    "FetchResult",
    "__version__",
]

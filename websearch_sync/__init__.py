"""websearch_sync: synchronous web search and page reading with one result shape
and one error vocabulary.

    >>> import websearch_sync as ws
    >>> ws.search("python requests timeout")["items"][0]["rank"]
    1
"""

from . import backends  # noqa: F401 - registers the built-in backends
from .api import fetch, search
from .client.search_client import SearchClient
from .config import VERSION, Settings
from .engine.registry import backend_names, load_plugins
from .errors import (
    AuthError,
    BadGateway,
    InvalidInput,
    NetworkError,
    Timeout,
    ToolNotFound,
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

# Third-party backends (entry points in ``websearch_sync.backends``) register last,
# once the whole package is importable for them.
load_plugins()

__all__ = [
    "search",
    "fetch",
    "backend_names",
    "SearchClient",
    "Settings",
    "WebSearchError",
    "InvalidInput",
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

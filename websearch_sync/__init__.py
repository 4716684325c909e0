"""websearch_sync: synchronous web search and page reading with one result shape
and one error vocabulary.

    >>> import websearch_sync as ws
    >>> ws.search("python requests timeout")["items"][0]["rank"]
    1
"""

from .api import backend_names, fetch, search
from .client.search_client import SearchClient
from .config import Settings
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

__version__ = "0.1.0"

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
    "__version__",
]

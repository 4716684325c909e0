"""The search client and its parts: caches, rate limits, cool-downs and result fusion."""

from .search_client import AUTO_ORDER, STRATEGIES, SearchClient

__all__ = ["SearchClient", "STRATEGIES", "AUTO_ORDER"]

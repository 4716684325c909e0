"""``tavily`` news: the Tavily Search API with ``topic="news"`` (``POST https://api.tavily.com/search``).

Web search's request and errors (:mod:`.tavily`) with ``topic`` set to ``news``: its
``topic`` option's default (another value is refused: it would be another search). Tavily's
API reference: results of a news search carry ``published_date`` ("only available if
you are using 'news' as your search topic"), an RFC 2822 date (``Tue, 11 Mar 2025
17:00:00 GMT``), read as ISO 8601. Results name no publisher and carry no picture (the
answer's ``images`` list belongs to the query, not to a result): no ``source`` and no
``image_url``. No answer of Tavily's news search has been published: its contract case
is built from the vendor's documented fields (docs/backends.md).
"""

import email.utils
from typing import Any, Optional

from ..engine.option import Option
from ..errors import BAD_TOPIC
from ..models import SearchParams
from .tavily import Tavily

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def iso_date(value: Any) -> Optional[str]:
    """An RFC 2822 date (``Tue, 11 Mar 2025 17:00:00 GMT``) as ISO 8601; other text as it is
    (Tavily may one day send ISO 8601), ``None`` for no text."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return email.utils.parsedate_to_datetime(value).isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):  # not an RFC 2822 date
        return value.strip()


class TavilyNews(Tavily):
    """Tavily's news search."""

    vertical = "news"
    summary = "Tavily Search API, topic=news (needs TAVILY_API_KEY)"

    options = (
        Option(
            "topic",
            "choice",
            default="news",
            choices=("news",),
            detail=BAD_TOPIC,
            doc="always news here (another topic would be another search)",
        ),
    )

    def item_of(self, result: dict[str, Any], params: SearchParams) -> dict[str, Any]:
        """Web search's item with ``published_date`` as ISO 8601."""
        item = super().item_of(result, params)
        item["published_at"] = iso_date(item["published_at"])
        return item

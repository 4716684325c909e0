"""``tavily`` news: the Tavily Search API with ``topic="news"`` (``POST https://api.tavily.com/search``).

Web search's request and errors (:mod:`.tavily`) with ``topic`` set to ``news``: its
``topic`` option's default (another value is refused: it would be another search). Tavily's
API reference: results of a news search carry ``published_date`` ("only available if
you are using 'news' as your search topic"), an RFC 2822 date (``Tue, 11 Mar 2025
17:00:00 GMT``), made ISO 8601 where every item's date is (:mod:`~websearch_sync.engine.normalize`). Results name no publisher and carry no picture (the
answer's ``images`` list belongs to the query, not to a result): no ``source`` and no
``image_url``. No answer of Tavily's news search has been published: its contract case
is built from the vendor's documented fields (docs/backends.md).
"""

from ..engine.option import Option
from ..errors import BAD_TOPIC
from .tavily import Tavily

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


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

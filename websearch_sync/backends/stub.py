"""``stub``: the offline default backend.

Deterministic, never touches the network: three items built from the query, so
that scripts, CI and examples run anywhere. Set ``WEB_SEARCH_BACKEND`` (or pass
``backend=``) to search the web for real.
"""

from urllib.parse import quote, quote_plus

from ..net.deadline import Deadline
from ..net.transport import HttpTransport
from ..models import ParseResult, SearchParams
from ..engine.base import Backend


class Stub(Backend):
    """Offline backend returning three fixed items derived from the query."""

    name = "stub"
    kind = "offline"
    text_format = "text"  # built from the query: plain text
    summary = "offline, deterministic: 3 items built from the query (the default)"

    def search(self, params: SearchParams, transport: HttpTransport, deadline: Deadline) -> ParseResult:
        """Build the items; no request is sent."""
        self.check_params(params)
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

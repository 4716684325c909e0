"""Search backends: one small module per service, registered by name.

The plugin API for third-party backends (see docs/backends.md, "Writing a
backend"): subclass :class:`Backend`, build a :class:`RequestSpec` from
:class:`SearchParams`, read the :class:`HttpResponse` into a :class:`ParseResult`,
and declare the class in the ``websearch_sync.backends`` entry-point group.
"""

from ..models import ParseResult, SearchParams
from ..net.transport import HttpResponse, RequestSpec
from .base import Backend

__all__ = [
    "Backend",
    "RequestSpec",
    "HttpResponse",
    "ParseResult",
    "SearchParams",
]

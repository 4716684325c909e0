"""Search backends: one small module per service, registered by name.

Each module here is an engine (the shared plumbing they build on is
``websearch_sync.engine``); importing this package registers every backend class its
modules define.

The plugin API for third-party backends (see docs/backends.md, "Writing a
backend"): subclass :class:`Backend`, declare what it reads in ``provider_settings``
(a tuple of :class:`Setting`), build a :class:`RequestSpec` from :class:`SearchParams`,
read the :class:`HttpResponse` into a :class:`ParseResult`, and declare the class in
the ``websearch_sync.backends`` entry-point group.
"""

from ..engine.base import Backend
from ..engine.registry import register_package
from ..engine.setting import Setting
from ..models import ParseResult, SearchParams
from ..net.transport import HttpResponse, RequestSpec

__all__ = [
    "Backend",
    "RequestSpec",
    "HttpResponse",
    "ParseResult",
    "SearchParams",
    "Setting",
]

register_package(__name__)

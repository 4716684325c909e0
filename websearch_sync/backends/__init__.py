"""Search backends: one small module per service, registered by name.

Each module here is an engine (the shared plumbing they build on is
``websearch_sync.engine``); importing this package registers every backend class its
modules define.

The plugin API for third-party backends (see docs/backends.md, "Writing a
backend"): subclass :class:`Backend`, build a :class:`RequestSpec` from
:class:`SearchParams`, read the :class:`HttpResponse` into a :class:`ParseResult`,
and declare the class in the ``websearch_sync.backends`` entry-point group.
"""

from ..models import ParseResult, SearchParams
from ..net.transport import HttpResponse, RequestSpec
from ..engine.base import Backend
from ..engine.registry import backend_class, backend_names, load_plugins, register, register_package, unregister

__all__ = [
    "Backend",
    "RequestSpec",
    "HttpResponse",
    "ParseResult",
    "SearchParams",
    "backend_class",
    "backend_names",
    "register",
    "unregister",
    "load_plugins",
]

register_package(__name__)

"""Backend registry: maps names to backend classes."""

from typing import Dict, List, Type

from ..config import declare_backend, forget_backend
from ..errors import InvalidInput
from .baidu import BaiduHtml
from .base import Backend
from .normalize import declare_text_format, forget_text_format
from .bocha import Bocha
from .brave import Brave
from .jina import Jina
from .kagi import Kagi
from .searxng import SearXNG
from .ddg import DuckDuckGoHtml, DuckDuckGoLite
from .service import SearchService
from .stub import Stub
from .tavily import Tavily

__all__ = ["backend_names", "backend_class", "register", "unregister", "DEFAULT_BACKEND"]

DEFAULT_BACKEND = "stub"

_REGISTRY: Dict[str, Type[Backend]] = {}


def register(cls: Type[Backend]) -> Type[Backend]:
    """Register a backend class under ``cls.name`` (usable as a class decorator)."""
    if not (isinstance(cls, type) and issubclass(cls, Backend)) or not cls.name:
        raise TypeError("register() expects a Backend subclass with a name")
    declare_text_format(cls.name, cls.text_format)
    _REGISTRY[cls.name] = cls
    declare_backend(cls.name, cls.env_vars)
    return cls


def unregister(name: str) -> None:
    """Remove a registered backend (for tests and plug-ins)."""
    _REGISTRY.pop(name, None)
    forget_backend(name)
    forget_text_format(name)


def backend_names() -> List[str]:
    """Names of every registered backend, in registration order."""
    return list(_REGISTRY)


def backend_class(name: str) -> Type[Backend]:
    """The class registered as ``name``; ``InvalidInput`` for an unknown name."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise InvalidInput(
            "unknown backend %r; known backends: %s" % (name, ", ".join(_REGISTRY)),
            detail_code="unknown_backend",
        ) from None


for _cls in (Stub, DuckDuckGoHtml, DuckDuckGoLite, BaiduHtml, SearXNG, Brave, Bocha, Tavily, Kagi, Jina, SearchService):
    register(_cls)

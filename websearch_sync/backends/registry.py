"""Backend registry: maps names to backend classes.

Built-in backends register themselves by being here: every module of this package
is imported and each :class:`Backend` subclass it defines with a ``name`` is
registered (no hand-kept list). Third-party backends are plugins: a distribution
declares an entry point in the group ``websearch_sync.backends``
(``name = package.module:Class``) naming a ``Backend`` subclass;
:func:`load_plugins` registers them. A plugin that fails to load is skipped with a
logged warning naming it; it never breaks the library.
"""

import importlib
import inspect
import logging
import pkgutil
import sys
from typing import Any, Dict, Iterator, List, Type

from ..config import declare_backend, forget_backend
from ..errors import InvalidInput
from .base import Backend
from .normalize import declare_text_format, forget_text_format

__all__ = ["backend_names", "backend_class", "backend_options", "register", "unregister", "load_plugins", "DEFAULT_BACKEND", "PLUGIN_GROUP"]

logger = logging.getLogger("websearch_sync")

DEFAULT_BACKEND = "stub"
#: The entry-point group third-party backends are declared in.
PLUGIN_GROUP = "websearch_sync.backends"
#: Listing order of the built-in backends: offline first, then scrapers, then APIs.
_KIND_ORDER = ("offline", "html", "json")

_REGISTRY: Dict[str, Type[Backend]] = {}
_PLUGINS_LOADED = False


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
    """Names of every registered backend: built-ins (offline, HTML, JSON), then plugins."""
    return list(_REGISTRY)


def backend_options() -> List[str]:
    """Every backend-specific ``search()`` option some registered backend understands (sorted, no repeats)."""
    return sorted({option for cls in _REGISTRY.values() for option in cls.options})


def backend_class(name: str) -> Type[Backend]:
    """The class registered as ``name``; ``InvalidInput`` for an unknown name."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise InvalidInput(
            "unknown backend %r; known backends: %s" % (name, ", ".join(_REGISTRY)),
            detail_code="unknown_backend",
        ) from None


def _builtin_classes() -> Iterator[Type[Backend]]:
    """Every named ``Backend`` subclass defined in a module of this package."""
    package = sys.modules[__package__]
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        module = importlib.import_module("%s.%s" % (__package__, info.name))
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Backend) and value.name and value.__module__ == module.__name__:
                yield value


def _kind_rank(cls: Type[Backend]) -> int:
    return _KIND_ORDER.index(cls.kind) if cls.kind in _KIND_ORDER else len(_KIND_ORDER)


def _entry_points() -> List[Any]:
    from importlib import metadata

    found = metadata.entry_points()
    if hasattr(found, "select"):  # Python 3.10+
        return list(found.select(group=PLUGIN_GROUP))
    return list(found.get(PLUGIN_GROUP, []))  # Python 3.9: a dict of lists


def _load_plugin(entry: Any) -> None:
    try:
        cls = entry.load()
    except Exception as exc:  # any failure inside a third-party import: skip it, keep the host working
        logger.warning("websearch_sync: skipping backend plugin %r (%s): it failed to load: %s: %s", entry.name, entry.value, type(exc).__name__, exc)
        return
    if not (inspect.isclass(cls) and issubclass(cls, Backend) and isinstance(cls.name, str) and cls.name):
        logger.warning("websearch_sync: skipping backend plugin %r (%s): not a websearch_sync.backends.Backend subclass with a name", entry.name, entry.value)
        return
    if cls.name in _REGISTRY and _REGISTRY[cls.name].__module__.startswith(__package__ + "."):
        logger.warning("websearch_sync: skipping backend plugin %r (%s): it would replace the built-in backend %r", entry.name, entry.value, cls.name)
        return
    register(cls)


def load_plugins() -> None:
    """Register the backends third-party distributions declare (once per process)."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    for entry in _entry_points():
        _load_plugin(entry)


for _cls in sorted(_builtin_classes(), key=_kind_rank):
    register(_cls)

"""Names a package exports but imports the first time they are read (PEP 562).

``import websearch_sync`` must stay cheap (a CLI call, a script that only builds
``Settings``): requests, lxml, readability and the engines load when a search or fetch
first needs them. A package lists what it exports and where each name is defined;
:func:`lazy_exports` gives it the module ``__getattr__`` and ``__dir__`` that import
the defining module on first read. Type checkers and documentation tools read the same
names from the package's ``if TYPE_CHECKING:`` imports.
"""

import importlib
import sys
from collections.abc import Mapping
from typing import Any, Callable, Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README


def lazy_exports(
    package: str, where: Mapping[str, str], elsewhere: Mapping[str, str] = {}
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the module ``package``: ``where`` maps each name it
    exports lazily to the module defining it, relative to ``package`` (``".api"``), with
    ``:original`` when it is exported under another name (``".engine.json_api:JsonApiBackend"``).
    A read imports that module once and keeps the value as a plain attribute; any other
    non-dunder name is tried as a submodule (``websearch_sync.api``), as eager imports used
    to leave them reachable. ``elsewhere`` maps public names of other modules to them (absolute):
    reading one here is the ``AttributeError`` naming where it is (``ws.OfflineResultsWarning``)."""

    def __getattr__(name: str) -> Any:
        target = where.get(name)
        if target is not None:
            module, _, original = target.partition(":")
            value = getattr(importlib.import_module(module, package), original or name)
        elif not name.startswith("__"):
            try:
                value = importlib.import_module("." + name, package)
            except ModuleNotFoundError as exc:
                if exc.name != "%s.%s" % (package, name):
                    raise  # a submodule that exists but imports something missing
                raise _missing(package, name, elsewhere.get(name)) from None
        else:
            raise AttributeError("module %r has no attribute %r" % (package, name))
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__


def _missing(package: str, name: str, module: Optional[str]) -> AttributeError:
    """Python's own ``AttributeError`` for ``name``, with where it is when another public module exports it."""
    where = " (it is %s.%s: from %s import %s)" % (module, name, module, name) if module else ""
    return AttributeError(
        "module %r has no attribute %r%s" % (package, name, where), name=name, obj=sys.modules[package]
    )

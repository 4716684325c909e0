"""Where in a plugin's own code an exception was raised, for the message that reports it.

A plugin's defect reached its author as ``TypeError: ...`` alone: a ``parse`` bug read as "a body
of an unknown shape", a declaration refused as its module was imported ("it failed to load"), with
no traceback (or one in a log the MCP client keeps). The site is the file's name and line only (no
folder: a message may reach a model or a log), of the innermost frame in the plugin's own modules,
not of the library or the standard library code that raised on its behalf."""

import os
from typing import Optional

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

#: The package whose frames are the library's, never a plugin's.
LIBRARY = __name__.split(".", 1)[0]


def top_package(module: str) -> str:
    """The top-level package of a dotted module name (``acme.search`` -> ``acme``)."""
    return module.split(".", 1)[0]


def plugin_package(cls: type) -> Optional[str]:
    """The top-level package of the first class in ``cls``'s MRO that is not the library's (a plugin's
    backend, also when the testing kit swapped it for a subclass of its own); ``None`` for a built-in."""
    for klass in cls.__mro__:
        package = top_package(getattr(klass, "__module__", "") or "")
        if package not in (LIBRARY, "builtins"):
            return package
    return None


def code_site(exc: BaseException, package: Optional[str]) -> Optional[str]:
    """``file.py:LINE`` of the innermost frame of ``exc``'s traceback whose module is in ``package``
    (a top-level package's name); ``None`` when none is, or for no ``package``."""
    if not package:
        return None
    site = None
    frame = exc.__traceback__
    while frame is not None:
        module = frame.tb_frame.f_globals.get("__name__")
        if isinstance(module, str) and top_package(module) == package:
            site = "%s:%d" % (os.path.basename(frame.tb_frame.f_code.co_filename), frame.tb_lineno)
        frame = frame.tb_next
    return site


def raised_at(exc: BaseException, package: Optional[str]) -> str:
    """`` at file.py:LINE`` (:func:`code_site`) to follow the exception's name in a message, or ``""``."""
    site = code_site(exc, package)
    return " at %s" % site if site else ""

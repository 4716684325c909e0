"""What to say of a plugin's entry point that names a module or class not there: a slip in
``demo = "demo_serch:DemoSearch"`` (the module) or ``"demo_search:DemoSerch"`` (the class) was
skipped as Python's own words, ``No module named 'demo_serch'`` or ``module 'demo_search' has no
attribute 'DemoSerch'``, which did not say the name came from the entry point, what was meant, nor
that entry points are read from the installed metadata, so that a fix in ``pyproject.toml`` takes
effect only once the plugin is installed again."""

import difflib
import inspect
import pkgutil
import sys
from importlib import metadata
from typing import Optional

__all__: list[str] = []  # internal: the registry says its words

#: How close a name must be to be suggested (difflib's ratio).
_CUTOFF = 0.8
#: What fixes an entry point: the metadata pip wrote is what is read, not ``pyproject.toml``.
_REINSTALL = (
    "fix it in the plugin's pyproject.toml and install the plugin again (pip install -e .): entry points are "
    "read from the installed metadata"
)


def entry_point_slip(value: str, exc: BaseException) -> str:
    """`` (...)`` saying which part of the entry point ``value`` (``module:Class``) names nothing, the
    closest name there is and how to fix it, when ``exc`` (what loading it raised) is that part's
    absence; ``""`` otherwise (a dependency the module imports is missing, the module raised)."""
    module, colon, attribute = value.partition(":")
    module = module.strip()
    if isinstance(exc, ModuleNotFoundError) and exc.name == module:
        package, dot, last = module.rpartition(".")
        meant = _close(last, _modules_beside(module))
        return " (the entry point names module '%s'%s; %s)" % (
            module,
            _meant(meant and package + dot + meant),
            _REINSTALL,
        )
    first = attribute.strip().split(".")[0]
    if colon and first and isinstance(exc, AttributeError) and _lacks(module, first):
        names = [name for name, item in vars(sys.modules[module]).items() if inspect.isclass(item)]
        meant = _close(first, names)
        return " (the entry point names class '%s' of %s%s; %s)" % (first, module, _meant(meant), _REINSTALL)
    return ""


def _lacks(module: str, name: str) -> bool:
    """Whether ``module`` was imported and has no attribute ``name``."""
    loaded = sys.modules.get(module)
    return loaded is not None and not hasattr(loaded, name)


def _modules_beside(module: str) -> list[str]:
    """The names of the modules where ``module`` would be: top-level ones on ``sys.path``, or those
    of its package when that imports."""
    package, _, _ = module.rpartition(".")
    if not package:  # the installed distributions' too: an editable install's module is found by a hook
        return [found.name for found in pkgutil.iter_modules()] + list(metadata.packages_distributions())
    loaded = sys.modules.get(package)
    path = getattr(loaded, "__path__", None)
    return [found.name for found in pkgutil.iter_modules(path)] if path is not None else []


def _close(name: str, names: list[str]) -> Optional[str]:
    found = difflib.get_close_matches(name, [other for other in names if other != name], n=1, cutoff=_CUTOFF)
    return found[0] if found else None


def _meant(meant: Optional[str]) -> str:
    """``, which is not there (did you mean X?)``, or without the question when nothing is close."""
    return ", which is not there" + (" (did you mean %s?)" % meant if meant else "")

"""The package's compiled regular expressions, for the tests that audit them
(``tests/sockets/test_hardening_regex.py``: linear time; ``tests/unit/test_python_floor.py``:
syntax the oldest supported Python reads). Read from the imported modules, not the source, so
a pattern is seen as ``re`` compiled it, however the source spelled or assembled it."""

import importlib
import importlib.util
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import websearch_sync

__all__ = ["package_patterns"]

#: A module compiles a pattern at import only if it imports ``re`` (the package has no helper
#: that compiles one for a caller; a pattern imported from another module is found there).
_IMPORTS_RE = re.compile(r"^\s*(?:import re\b|from re import)", re.M)


def _modules() -> Iterator[Any]:
    """The package's modules that can hold a compiled pattern. The others are not imported: the
    agent integrations would load their frameworks (seconds) into every process that collects."""
    yield websearch_sync
    for info in pkgutil.walk_packages(websearch_sync.__path__, "websearch_sync."):
        spec = importlib.util.find_spec(info.name)
        if spec is None or spec.origin is None or not _IMPORTS_RE.search(Path(spec.origin).read_text("utf-8")):
            continue
        try:
            yield importlib.import_module(info.name)
        except ModuleNotFoundError as exc:  # a module of an optional extra that is not installed
            if (exc.name or "").startswith("websearch_sync"):
                raise


def _patterns_in(value: Any, depth: int = 0) -> Iterator["re.Pattern[Any]"]:
    if isinstance(value, re.Pattern):
        yield value
    elif depth < 2 and isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from _patterns_in(item, depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, depth + 1)


def package_patterns() -> dict[tuple[Any, int], tuple[str, "re.Pattern[Any]"]]:
    """Every compiled pattern reachable from a module or class of the package (also inside
    tuples and dicts), by (source, flags), with the name of its first holder."""
    found: dict[tuple[Any, int], tuple[str, re.Pattern[Any]]] = {}
    for module in _modules():
        for name, value in vars(module).items():
            owners = [(name, value)]
            if isinstance(value, type) and value.__module__ == module.__name__:
                owners += [("%s.%s" % (name, attr), item) for attr, item in vars(value).items()]
            for label, item in owners:
                for pattern in _patterns_in(item):
                    found.setdefault((pattern.pattern, pattern.flags), ("%s.%s" % (module.__name__, label), pattern))
    return found

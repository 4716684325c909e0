"""The registry's static table of built-in engines (websearch_sync/engine/builtin.py) is what
the modules of websearch_sync.backends really declare: every ``Backend`` subclass with a
name, its vertical, module and class, in the listing order (offline, then scrapers, then
APIs; by module, then definition, within a kind; a backend's verticals in the order of
VERTICALS). A new, renamed or moved engine fails here, with the table to paste."""

import importlib
import pkgutil

import websearch_sync.backends
from websearch_sync.engine import registry
from websearch_sync.engine.base import Backend
from websearch_sync.engine.builtin import BUILT_IN, ENV_VARS, NAMES, PACKAGE, BuiltIn
from websearch_sync.models import VERTICALS

KIND_ORDER = ("offline", "html", "json")


def declared_rows() -> list[BuiltIn]:
    """The rows the backend modules declare, in listing order."""
    classes = []
    for info in sorted(pkgutil.iter_modules(websearch_sync.backends.__path__), key=lambda i: i.name):
        module = importlib.import_module("%s.%s" % (PACKAGE, info.name))
        classes += [
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, Backend)
            and value.name
            and value.__module__ == module.__name__
        ]
    classes.sort(key=lambda cls: KIND_ORDER.index(cls.kind))
    by_name: dict[str, dict[str, BuiltIn]] = {}
    for cls in classes:
        row = BuiltIn(cls.name, cls.vertical, cls.__module__.rsplit(".", 1)[1], cls.__name__)
        other = by_name.setdefault(cls.name, {}).setdefault(cls.vertical, row)
        assert other == row, "%s and %s both declare %s for %s" % (other, row, cls.name, cls.vertical)
    return [engines[v] for engines in by_name.values() for v in VERTICALS if v in engines]


def test_the_static_table_is_what_the_modules_declare():
    declared = declared_rows()
    paste = "\n".join("    %r," % (row,) for row in declared)
    assert list(BUILT_IN) == declared, "engine/builtin.py's BUILT_IN should read:\n" + paste


def test_each_row_resolves_to_its_class_and_the_names_follow_the_table():
    for row in BUILT_IN:
        assert registry.backend_class(row.name, row.vertical).__name__ == row.cls
    assert list(NAMES) == registry.backend_names()[: len(NAMES)]
    assert len(set(BUILT_IN)) == len(BUILT_IN)


def test_the_environment_table_names_every_variable_each_backends_engines_read():
    declared: dict[str, tuple[str, ...]] = {}
    for row in declared_rows():
        cls = registry.backend_class(row.name, row.vertical)
        found = declared.get(row.name, ()) + tuple(s.env for s in cls.declared_settings() if s.env)
        if found:
            declared[row.name] = tuple(dict.fromkeys(found))
    paste = "\n".join("    %r: %r," % item for item in declared.items())
    assert ENV_VARS == declared, "engine/builtin.py's ENV_VARS should read:\n" + paste

"""docs/backends.md's tables against the backends' declarations: the option table is what
``docs/backend_tables.py`` writes from ``Backend.options``, and the configuration column of
the backend table names exactly the environment variables each backend declares (required
ones first, the others after "optional")."""

import re
from pathlib import Path

import docs_scripts
import pytest
from backend_kit import project_backends

from websearch_sync.engine import registry

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "backends.md"


def _script():
    return docs_scripts.load("backend_tables")


def test_the_option_table_is_written_from_the_declarations():
    page = PAGE.read_text(encoding="utf-8")
    assert _script().written(page) == page, (
        "docs/backends.md's option table is out of date: python docs/backend_tables.py"
    )


def test_the_option_table_has_a_row_for_each_declared_option():
    table = _script().table()
    for name in project_backends():
        for vertical in registry.verticals_of(name):
            for option in registry.backend_class(name, vertical).declared_options():
                assert re.search(r"^\| `%s` \| `%s` \|[^|]*\b%s\b" % (name, option.name, vertical), table, re.M), (
                    name,
                    vertical,
                    option.name,
                )


def _configuration_cells():
    """``{backend: its configuration cell}`` of the page's first table (the backend table)."""
    first = PAGE.read_text(encoding="utf-8").split("\n\n", 2)[1]
    return dict(re.findall(r"^\| `(\w+)`(?: \(default\))? \| \w+ \| ([^|]*) \|", first, re.M))


@pytest.mark.parametrize("name", project_backends())
def test_the_configuration_column_names_the_declared_variables(name):
    cell = _configuration_cells()[name]
    required, _, optional = cell.partition("optional")
    settings = [setting for setting in registry.primary_class(name).declared_settings() if setting.env]
    assert set(re.findall(r"`([A-Z0-9_]+)`", required)) == {s.env for s in settings if s.required}, cell
    assert set(re.findall(r"`([A-Z0-9_]+)`", optional)) == {s.env for s in settings if not s.required}, cell

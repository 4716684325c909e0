"""The documentation's tables against the code, for every registered backend: its row in
docs/backends.md, each of its environment variables in docs/configuration.md, and each
detail code its recorded cases give (fixtures/<name>/*.expected.json) in docs/errors.md.
"""

import json
import re
from pathlib import Path

import pytest
from backend_kit import env_vars, project_backends

from websearch_sync.engine import registry

DOCS = Path(__file__).resolve().parents[2] / "docs"
FIXTURES = DOCS.parent / "fixtures"


def table_names(text):
    """The backquoted names that start the rows of the tables in ``text``."""
    return set(re.findall(r"^\| `([^`]+)`", text, re.M))


def error_rows(text):
    """``{error type: the text of its rows}`` of the error table (one row per detail code)."""
    rows: dict = {}
    for error_type, row in re.findall(r"^\| `(\w+)` \|(.*)$", text, re.M):
        rows[error_type] = rows.get(error_type, "") + row + "\n"
    return rows


def documented(detail, error_type, rows):
    """A detail code is documented when its error's row names it, or names the pattern it follows
    (``http_5xx`` for any 5xx, ``http_<status>`` for any status)."""
    row = rows.get(error_type, "")
    if "`%s`" % detail in row:
        return True
    status = re.fullmatch(r"http_(\d{3})", detail)
    return bool(status) and ("`http_<status>`" in row or (status.group(1).startswith("5") and "`http_5xx`" in row))


def golden_errors(name):
    """``(file name, error type, detail code)`` of every error in the backend's goldens (soft errors included)."""
    for golden in sorted((FIXTURES / name).glob("*.expected.json")):
        outcome = json.loads(golden.read_text(encoding="utf-8"))
        for entry in [outcome.get("error")] + list(outcome.get("errors") or []):
            if entry and entry.get("detail_code"):
                yield golden.name, entry["type"], entry["detail_code"]


@pytest.mark.parametrize("name", project_backends())
def test_the_docs_tables_cover_the_backend(name):
    cls = registry.backend_class(name)
    assert name in table_names((DOCS / "backends.md").read_text(encoding="utf-8")), (
        "no row for %s in docs/backends.md" % name
    )
    variables = table_names((DOCS / "configuration.md").read_text(encoding="utf-8"))
    missing = [var for var in env_vars(cls).values() if var not in variables]
    assert not missing, "docs/configuration.md has no row for %s" % missing
    rows = error_rows((DOCS / "errors.md").read_text(encoding="utf-8"))
    undocumented = [
        (file, kind, detail) for file, kind, detail in golden_errors(name) if not documented(detail, kind, rows)
    ]
    assert not undocumented, "docs/errors.md does not list %s" % undocumented


def provider_rows():
    """``(variable, backend, setting, meaning)`` of docs/configuration.md's rows for provider settings
    (their field is ``providers["name"]["key"]`` or ``providers={"name": {"key": ...}}``)."""
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    for variable, field, meaning in re.findall(r"^\| `([A-Z0-9_]+)` \| `([^`]*)` \|(.*)$", text, re.M):
        named = re.fullmatch(r'providers(?:\["(\w+)"\]\["(\w+)"\]|=\{"(\w+)": \{"(\w+)": \.\.\.\}\})', field)
        if named:
            backend, setting = [group for group in named.groups() if group]
            yield variable, backend, setting, meaning


def test_each_provider_row_is_a_declared_setting():
    """The configuration table against the declarations: the row's variable and key are a
    setting its backend declares, it says "required by" exactly for required ones, and it
    names the declared default."""
    rows = list(provider_rows())
    assert len(rows) > 15  # the table was read
    for variable, backend, key, meaning in rows:
        setting = registry.backend_class(backend).setting(key)
        assert setting.env == variable, (variable, backend, key)
        said_required = re.search(r"required by (?:the )?`%s`" % backend, meaning) is not None
        assert said_required == setting.required, (variable, "required" if setting.required else "optional")
        assert setting.default is None or "`%s`" % setting.default in meaning, (variable, "default", setting.default)

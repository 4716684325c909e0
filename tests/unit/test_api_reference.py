"""The API reference (issue 34.7) builds from the docstrings of exactly the public modules,
and each public name is on its module's page: a module that stops importing, or a public
name pdoc cannot document, fails here (and in `.ci/run`, which builds it too)."""

import html
import importlib.util
from pathlib import Path

import pytest
from test_public_surface import PUBLIC

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("api_reference", ROOT / "docs" / "api_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_covers_the_public_modules():
    assert sorted(_script().PUBLIC_MODULES) == sorted(PUBLIC)


def test_the_reference_builds_with_every_public_name(tmp_path):
    pytest.importorskip("pdoc", reason="pdoc is in the docs and test extras")
    pages = _script().build(tmp_path)
    for module, page in zip(_script().PUBLIC_MODULES, pages):
        text = html.unescape(page.read_text(encoding="utf-8"))
        missing = [name for name in PUBLIC[module] if 'id="%s"' % name not in text and name != "__version__"]
        assert not missing, "%s: no entry for %s" % (page, missing)
    assert (tmp_path / "index.html").is_file()

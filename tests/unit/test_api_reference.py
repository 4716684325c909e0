"""The API reference (issue 34.7) builds from the docstrings of exactly the public modules,
and each public name is on its module's page: a module that stops importing, or a public
name pdoc cannot document, fails here (and in `.ci/run`, which builds it too)."""

import html
from pathlib import Path

import docs_scripts
import pytest
from test_public_surface import PUBLIC

ROOT = Path(__file__).resolve().parents[2]


def _script():
    return docs_scripts.load("api_reference")


def test_the_reference_covers_the_public_modules():
    assert sorted(_script().PUBLIC_MODULES) == sorted(PUBLIC)


def test_the_reference_builds_with_every_public_name(tmp_path):
    pytest.importorskip("pdoc", reason="pdoc is in the docs and test extras")
    pages = _script().build(tmp_path, show_source=False)  # the entries, not the sources: `.ci/run` builds those
    for module, page in zip(_script().PUBLIC_MODULES, pages):
        text = html.unescape(page.read_text(encoding="utf-8"))
        missing = [name for name in PUBLIC[module] if 'id="%s"' % name not in text and name != "__version__"]
        assert not missing, "%s: no entry for %s" % (page, missing)
    assert (tmp_path / "index.html").is_file()

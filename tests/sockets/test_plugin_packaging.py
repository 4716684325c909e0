"""The plugin docs' two files, exactly as docs/backends.md shows them (``demo_search.py`` and its
``pyproject.toml``), make a distribution pip installs and the library then finds by its entry
point. The docs showed only the entry-point table: a plugin author had to know the rest of a
``pyproject.toml`` (build system, name, the module to ship) and that websearch-sync is not on PyPI."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "backends.md").read_text(encoding="utf-8")


def _block(language: str, opening: str) -> str:
    """The docs' code block in ``language`` whose first line starts with ``opening``."""
    found = re.search(r"```%s\n(%s[^\n]*\n.*?)```" % (language, re.escape(opening)), DOCS, re.S)
    assert found, "docs/backends.md has no %s block starting %r" % (language, opening)
    return found.group(1)


def test_the_docs_plugin_files_install_and_register_the_backend(tmp_path):
    source = tmp_path / "demo-search"
    source.mkdir()
    (source / "demo_search.py").write_text(_block("python", "# demo_search.py"), encoding="utf-8")
    (source / "pyproject.toml").write_text(
        _block("toml", "# pyproject.toml of the plugin's distribution"), encoding="utf-8"
    )
    site = tmp_path / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--no-build-isolation"]
    built = subprocess.run(
        pip + ["--target", str(site), str(source)], capture_output=True, text=True, timeout=300, check=False
    )
    assert built.returncode == 0, built.stderr
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    listed = subprocess.run(
        [sys.executable, "-m", "websearch_sync", "backends"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^demo +json +web +no \(set DEMO_API_KEY\)", listed.stdout, re.M), listed.stdout + listed.stderr

"""The suite tests this checkout (issue 23, point 13): the package it imports is the one in
this folder, and the README's test command installs the checkout in editable mode."""

import re
from pathlib import Path

import websearch_sync

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_imports_the_package_of_this_checkout():
    assert Path(websearch_sync.__file__).resolve().parent == ROOT / "websearch_sync", (
        "pytest imported %s: install this checkout with pip install -e '.[test]'" % websearch_sync.__file__
    )


def test_the_readme_test_command_installs_the_checkout_editable():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^pip install .*&& pytest.*$", readme, re.M)
    assert commands and all(" -e " in command for command in commands), commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test]'" in ci

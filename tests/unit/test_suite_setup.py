"""The suite tests this checkout (issue 23, point 13): the package it imports is the one in
this folder, and the README's test command installs the checkout in editable mode."""

import importlib.util
import re
from pathlib import Path

import websearch_sync

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_imports_the_package_of_this_checkout():
    assert Path(websearch_sync.__file__).resolve().parent == ROOT / "websearch_sync", (
        "pytest imported %s: install this checkout with pip install -e '.[test]'" % websearch_sync.__file__
    )


def _quickstart_commands() -> list[str]:
    spec = importlib.util.spec_from_file_location("readme_commands", ROOT / ".ci" / "readme_commands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.quickstart_commands((ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_test_command_installs_the_checkout_editable():
    tests = [command for command in _quickstart_commands() if command.endswith("&& pytest")]
    assert len(tests) == 1 and "pip install -e '.[test]'" in tests[0], tests


def test_ci_runs_the_readme_commands_with_the_pip_a_new_venv_ships():
    """Issue 34.1: CI proves the Quickstart as a newcomer runs it, so it must not upgrade pip first."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 .ci/readme_commands.py" in ci
    for step in ('eval "${quickstart[0]}"', 'eval "$readme_install"', 'eval "$readme_test"'):
        assert step in ci, step
    upgrades = re.findall(r"^\s*\S*(?:python -m )?pip install\b.*(?:-U|--upgrade) pip\b.*$", ci, re.M)
    assert not upgrades, upgrades

"""tests/bytecode.py: a run that ends while another run of the checkout is alive leaves the
bytecode it added to the last run out."""

import importlib.util
import os
import subprocess
import sys
import types
from pathlib import Path

import bytecode
import pytest


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package of two modules as the only folder to compile (so its own folder of runs)."""
    folder = tmp_path / "websearch_sync"
    folder.mkdir()
    for name in ("a.py", "b.py"):
        (folder / name).write_text("X = 1\n")
    monkeypatch.setattr(bytecode, "FOLDERS", (folder,))
    yield folder
    for path in bytecode.runs_folder().iterdir():
        path.unlink()
    bytecode.runs_folder().rmdir()


def _config():
    return types.SimpleNamespace(getini=lambda name: ["test_*.py"])


def _pyc(source):
    return Path(importlib.util.cache_from_source(str(source)))


def _dead_pid():
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_the_bytecode_stays_while_another_run_is_alive_and_goes_with_the_last_run(package):
    first = _config()
    bytecode.compile_all(first)
    added = [_pyc(package / "a.py"), _pyc(package / "b.py")]
    assert sorted(first._websearch_bytecode) == added and all(path.exists() for path in added)
    other = bytecode.runs_folder() / str(os.getppid())  # a live process: another run
    other.write_text("")

    bytecode.remove_written(first)
    assert all(path.exists() for path in added)

    other.unlink()
    second = _config()
    bytecode.compile_all(second)
    assert second._websearch_bytecode == []  # fresh: the first run's
    bytecode.remove_written(second)
    assert not any(path.exists() for path in added) and not _pyc(package / "a.py").parent.exists()


def test_the_bytecode_of_a_killed_run_goes_with_the_next_run_to_end(package):
    killed = bytecode.runs_folder()
    bytecode.compile_all(_config())  # its file, then taken over as a killed run's below
    mine = killed / str(os.getpid())
    dead = killed / str(_dead_pid())
    mine.rename(dead)
    added = [_pyc(package / "a.py"), _pyc(package / "b.py")]
    assert _pyc(package / "a.py") in bytecode._listed(dead)

    run = _config()
    bytecode.compile_all(run)
    assert run._websearch_bytecode == []
    bytecode.remove_written(run)
    assert not any(path.exists() for path in added) and not dead.exists()

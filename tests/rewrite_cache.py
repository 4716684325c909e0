"""The xdist workers share one assertion-rewriting of the test modules when no bytecode is written.

pytest rewrites the ``assert`` statements of every test module it imports (about 3.4 s of CPU for
the whole suite) and keeps the result beside the module (``__pycache__/*-pytest-*.pyc``), but only
where Python writes bytecode: with ``PYTHONDONTWRITEBYTECODE`` set (as on the project's machines)
every xdist worker, each of which collects every module, rewrote all of them again. Here the
controller makes one temporary folder for the run (removed at its end, nothing is written beside
the sources), each worker rewrites its share of the modules into it, and every worker reads the
others' from it: pytest checks each cached file against its source before using it, and rewrites
a module whose file is not there yet itself, as it always did.

pytest has no public interface for this: :func:`share` uses its rewriting functions
(``_pytest.assertion.rewrite``) and does nothing when they are not there, which only makes the run
slower, never different.
"""

import fnmatch
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

#: The key of the shared folder in an xdist worker's ``workerinput``.
WORKERINPUT_KEY = "websearch_rewritten_tests"


def _rewrite_module() -> Optional[Any]:
    """pytest's rewriting module, when it has what :func:`share` uses."""
    from _pytest.assertion import rewrite

    needed = ("_rewrite_test", "_write_pyc", "get_cache_dir", "PYC_TAIL")
    return rewrite if all(hasattr(rewrite, name) for name in needed) else None


def wanted(config: Any) -> bool:
    """Whether this run should share: asserts rewritten, no bytecode written, pytest's functions there."""
    return config.getoption("assertmode") == "rewrite" and sys.dont_write_bytecode and _rewrite_module() is not None


def make_folder(config: Any) -> str:
    """The controller's shared folder for this run (made on the first call), removed by :func:`remove_folder`."""
    folder = getattr(config, "_websearch_rewritten_tests", None)
    if folder is None:
        folder = tempfile.mkdtemp(prefix="websearch-rewritten-tests-")
        config._websearch_rewritten_tests = folder
    return folder


def remove_folder(config: Any) -> None:
    """Remove the controller's shared folder, if it made one."""
    folder = getattr(config, "_websearch_rewritten_tests", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def rewritten_files(config: Any) -> list[Path]:
    """The files pytest will rewrite for this run's arguments: its test modules and conftest files."""
    patterns = list(config.getini("python_files")) + ["conftest.py"]
    files: set[Path] = set()
    for argument in config.args:
        path = Path(config.invocation_params.dir, argument.split("::", 1)[0]).resolve()
        candidates = path.rglob("*.py") if path.is_dir() else [path]
        files.update(p for p in candidates if any(fnmatch.fnmatch(p.name, pattern) for pattern in patterns))
    return sorted(files)


def share(config: Any) -> None:
    """In an xdist worker given a shared folder: read rewritten modules from it, and write this worker's share."""
    folder = getattr(config, "workerinput", {}).get(WORKERINPUT_KEY)
    rewrite = _rewrite_module()
    if folder is None or rewrite is None:
        return
    from _pytest.assertion import assertstate_key

    def cache_dir(source: Path) -> Path:
        return Path(folder, *source.parts[1:-1])

    rewrite.get_cache_dir = cache_dir  # where pytest's import hook looks for the rewritten module
    workers = int(config.workerinput["workercount"])
    index = int(config.workerinput["workerid"].lstrip("gw"))
    state = config.stash[assertstate_key]
    for source in rewritten_files(config)[index::workers]:
        pyc = cache_dir(source) / (source.name[: -len(".py")] + rewrite.PYC_TAIL)
        if pyc.exists():
            continue
        try:
            key, code = rewrite._rewrite_test(source, config)
        except (SyntaxError, ValueError, OSError):  # unreadable or not Python: pytest reports it when it imports it
            continue
        pyc.parent.mkdir(parents=True, exist_ok=True)
        rewrite._write_pyc(state, code, key, pyc)  # written aside and renamed: a reader sees a whole file or none

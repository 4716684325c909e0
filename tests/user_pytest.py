"""pytest as a user of the library runs it: a subprocess in a folder of its own, where
``websearch_sync.testing`` arrives through its ``pytest11`` entry point (or a user's conftest).

The other installed plugins (xdist, hypothesis, requests-mock, and langsmith, anyio, platformdirs
that the agent extras bring) have nothing to do with what these runs check and cost ~1.6 s of
CPU to load in each run (measured: 2.0 s -> 0.4 s user for a one-test run); they are turned off
by name, so ours still loads the way a user's does."""

import os
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any, Optional

from python_forks import PRELOAD, PYTEST, PythonForks

OURS = "websearch_sync.testing"
#: What the fork server of :func:`shared_forks` imports: pytest and the library's third-party
#: dependencies, not the library. pytest marks an installed plugin's distribution for assertion
#: rewriting; the library imported before would not be rewritten (and pytest warns), unlike in a
#: user's run, where it is imported after pytest has started and loaded the plugin.
THIRD_PARTY = tuple(name for name in PRELOAD if not name.startswith("websearch_sync")) + ("pytest",)


def other_plugins() -> list[str]:
    """``-p no:NAME`` for every installed pytest11 plugin but ours."""
    names = sorted({ep.name for ep in metadata.entry_points(group="pytest11") if ep.value.split(":")[0] != OURS})
    return [arg for name in names for arg in ("-p", "no:" + name)]


#: What a user run forked from :func:`shared_forks` does before pytest starts: write its bytecode, and
#: pytest its rewritten modules, as Python does by default (the suite's processes write none,
#: ``PYTHONDONTWRITEBYTECODE``), under a folder of the run's (``sys.pycache_prefix``: nothing
#: beside the sources), so the runs after the first read them.
KEEP_BYTECODE = "import sys\nsys.pycache_prefix = %r\nsys.dont_write_bytecode = False\n"
#: The key, in an xdist worker's ``workerinput``, of the folder every worker's user runs keep their
#: bytecode in (:func:`run_folder`).
WORKERINPUT_KEY = "websearch_user_pytest_bytecode"


def run_folder(config: Any) -> str:
    """The folder, made by the run's first process (the xdist controller) on the first call and
    removed by :func:`remove_run_folder`, where the user runs of all its workers keep their
    bytecode: the library's modules rewritten by pytest in a worker's first run are read by the
    first runs of the other workers too (without it each wrote them under its own server's folder:
    the first run in a worker 1.3-1.5 s of CPU, the later ones about 0.5 s). Writers at once do not
    spoil each other's files: pytest writes its rewritten module aside (named by the process id)
    and renames it, as Python does its bytecode (a name already taken there leaves that module
    unwritten, never half-written); pytest checks a file against its source's hash, Python against
    its source's time and size, before using it."""
    folder = getattr(config, "_websearch_user_pytest_bytecode", None)
    if folder is None:
        folder = config._websearch_user_pytest_bytecode = tempfile.mkdtemp(prefix="websearch-user-pytest-")
    return folder


def remove_run_folder(config: Any) -> None:
    """Remove the folder :func:`run_folder` made, if it did (once the workers have ended)."""
    folder = getattr(config, "_websearch_user_pytest_bytecode", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


class UserRuns(PythonForks):
    """The fork server of :func:`shared_forks`: :data:`THIRD_PARTY` imported, and ``kept``, the
    folder where its runs keep their bytecode (:data:`KEEP_BYTECODE`): ``shared`` (the run's, from
    :func:`run_folder`), or one in the server's folder, removed with it."""

    def __init__(self, shared: Optional[str] = None) -> None:
        super().__init__(preload=THIRD_PARTY)
        self.kept = shared or os.path.join(self.server.folder, "pycache")


def shared_forks(config: Any) -> UserRuns:
    """The fork server (:class:`UserRuns`) for the user runs of every test module of this pytest
    process that asks (``forkserver.shared``): a forked run costs about two thirds of a started
    one, the server's start once per worker. Its runs keep their bytecode: pytest rewrote the
    library's modules (an installed plugin's distribution) from source in every run, 0.52 s of a
    run's CPU; 0.21 s when a run before it left them (the first, 0.67 s, writes them): in an xdist
    worker, in the folder the controller gave every worker (:func:`run_folder`), else in the server's."""
    import forkserver

    shared = getattr(config, "workerinput", {}).get(WORKERINPUT_KEY)
    return forkserver.shared(config, "user pytest", lambda: UserRuns(shared))


def run_pytest(
    folder: Path, *args: str, timeout: float = 300, forks: Optional[PythonForks] = None
) -> subprocess.CompletedProcess:
    """``python -m pytest -q ARGS FOLDER`` in ``folder``, without the cache and the other plugins
    (in a child of ``forks``, tests/python_forks.py, when given: pytest imported before the fork;
    the bytecode kept when they are :class:`UserRuns`)."""
    arguments = ["-q", "-p", "no:cacheprovider", *other_plugins(), *args, str(folder)]
    if forks is not None:
        code = KEEP_BYTECODE % forks.kept + PYTEST if isinstance(forks, UserRuns) else PYTEST
        return forks.run(code, dict(os.environ), *arguments, cwd=str(folder), timeout=timeout)
    command = [sys.executable, "-m", "pytest", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=str(folder))


def write_suite(folder: Path, modules: "dict[str, str]", tests: "dict[str, str]") -> None:
    """A user's project in ``folder``: its ``modules`` (``{name: text}``, as ``name.py``), its test
    files (``test_<n>_<name>.py``, which pytest runs in the order given) and a ``pytest.ini`` putting
    the folder on the path."""
    for name, text in modules.items():
        (folder / (name + ".py")).write_text(text, encoding="utf-8")
    for number, (name, text) in enumerate(tests.items()):
        (folder / ("test_%d_%s.py" % (number, name))).write_text(text, encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\npythonpath = .\n", encoding="utf-8")

"""The library's bytecode, compiled once per run when Python writes none.

With ``PYTHONDONTWRITEBYTECODE`` set (as on the project's machines) every process of a run
compiled from source the modules it imports: each xdist worker, and each of the ~150 Python
processes the tests start (MCP servers, CLI runs, shared-state and Ctrl-C workers, plugin hosts),
a quarter to a third of such a child's CPU (test_plugins.py and test_cli.py, -n 0, side by side:
11.8 s of CPU with no ``.pyc`` of the package, 8.8 s with). Only the children started with a
bare environment (``PATH`` alone: the raw MCP server, the SDKs' stdio clients) wrote the
package's files they imported, so a run left most of them and never the test helpers. Where
bytecode is written, Python keeps it itself and this does nothing.

The run's first process (the xdist controller, or the one process of ``-n 0``) compiles the
package's modules, and the test helpers other processes import (``faults.py``, ``servers.py``,
``shared_state_worker.py`` ...; not the test modules, whose asserts pytest rewrites into its own
files, ``rewrite_cache.py``), to where Python looks for them (``__pycache__`` beside each source,
or under ``PYTHONPYCACHEPREFIX``), and removes the files it added at the end of the run. A
``.pyc`` already there is refreshed when stale (a run cut short left it), never removed. Python
checks each one against its source before using it: a changed source is compiled again, as
without any; a file that cannot be written leaves its module compiled from source, as before.

Two runs in one checkout at once (the whole suite, and one test module run beside it) share
those files: a run that ended removed the files the other one's processes were reading
(``test_every_process_of_the_run_reads_the_librarys_bytecode`` failed in the run still going).
Each run notes itself in a folder of the checkout's runs (:func:`runs_folder`, its process id
and the files it added); a run that ends while another is alive leaves its files to the last
run out, which removes them with its own (and those of a run that was killed).
"""

import fnmatch
import hashlib
import importlib.util
import os
import py_compile
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Where the sources to compile are: the package, and the test helpers (the tests' folders).
FOLDERS = (ROOT / "websearch_sync", ROOT / "tests")


def wanted(config: Any) -> bool:
    """Whether to compile: no bytecode written, and this is the run's first process (not a worker)."""
    return sys.dont_write_bytecode and not hasattr(config, "workerinput")


def sources(config: Any) -> list[Path]:
    """The package's modules and the test helpers: the ``.py`` files pytest does not rewrite."""
    rewritten = list(config.getini("python_files")) + ["conftest.py"]
    found = []
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            if folder.name == "tests" and any(fnmatch.fnmatch(path.name, pattern) for pattern in rewritten):
                continue
            found.append(path)
    return found


def _fresh(source: Path, target: Path) -> bool:
    """Whether ``target`` is a timestamp ``.pyc`` of ``source`` as it is now (what the import checks)."""
    try:
        header = target.read_bytes()[:16]
    except OSError:
        return False
    stat = source.stat()
    expected = (
        importlib.util.MAGIC_NUMBER
        + (0).to_bytes(4, "little")
        + (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
        + (stat.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    )
    return header == expected


def runs_folder() -> Path:
    """Where the runs compiling :data:`FOLDERS` note themselves: one folder per checkout, in the
    temporary folder (a file per run, named by its process id, listing the ``.pyc`` it added;
    ``left``: those of runs that ended while another was alive)."""
    key = hashlib.sha1("\0".join(str(folder) for folder in FOLDERS).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir(), "websearch-bytecode-runs-" + key)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is running."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: running
        return True
    return True


def _listed(path: Path) -> list[Path]:
    """The ``.pyc`` paths a run's file (or ``left``) lists."""
    try:
        return [Path(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    except OSError:
        return []


def compile_all(config: Any) -> None:
    """Note this run in :func:`runs_folder`, compile every source of :func:`sources` whose
    ``.pyc`` is missing or stale, and note the new files (in the run's file too)."""
    written: list[Path] = []
    config._websearch_bytecode = written
    noted = runs_folder() / str(os.getpid())
    try:
        noted.parent.mkdir(exist_ok=True)
        noted.touch()
    except OSError:  # no temporary folder to write: the run removes its files at its end, as before
        pass
    for source in sources(config):
        target = Path(importlib.util.cache_from_source(str(source)))
        if _fresh(source, target):
            continue
        existed = target.exists()
        try:
            py_compile.compile(
                str(source), cfile=str(target), doraise=True, invalidation_mode=py_compile.PycInvalidationMode.TIMESTAMP
            )
        except py_compile.PyCompileError:  # a syntax error: the import that meets it reports it
            continue
        except OSError:  # a read-only checkout: every process compiles from source, as before
            break
        if not existed:
            written.append(target)
    try:
        noted.write_text("".join("%s\n" % target for target in written), encoding="utf-8")
    except OSError:
        pass


def remove_written(config: Any) -> None:
    """Remove the ``.pyc`` files :func:`compile_all` wrote, and the ``__pycache__`` folders it left
    empty, with those of the runs that ended before (``left``) or were killed; unless another run
    noted in :func:`runs_folder` is alive: then add them to ``left`` for the last run out."""
    if not hasattr(config, "_websearch_bytecode"):
        return
    written = list(config._websearch_bytecode)
    folder = runs_folder()
    (folder / str(os.getpid())).unlink(missing_ok=True)
    try:
        others = [path for path in folder.iterdir() if path.name.isdigit()]
    except OSError:
        others = []
    alive = False
    for other in others:
        if _alive(int(other.name)):
            alive = True
        else:  # killed before its end: its files are the last run's to remove
            written += _listed(other)
            other.unlink(missing_ok=True)
    left = folder / "left"
    if alive:
        try:
            with left.open("a", encoding="utf-8") as listing:
                listing.write("".join("%s\n" % target for target in written))
        except OSError:
            pass
        return
    written += _listed(left)
    left.unlink(missing_ok=True)
    for target in written:
        target.unlink(missing_ok=True)
    for pycache in sorted({target.parent for target in written}, reverse=True):
        try:
            pycache.rmdir()  # only when empty: another run's or Python's own files stay
        except OSError:
            pass

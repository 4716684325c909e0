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
"""

import fnmatch
import importlib.util
import py_compile
import sys
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


def compile_all(config: Any) -> None:
    """Compile every source of :func:`sources` whose ``.pyc`` is missing or stale; note the new files."""
    written: list[Path] = []
    config._websearch_bytecode = written
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


def remove_written(config: Any) -> None:
    """Remove the ``.pyc`` files :func:`compile_all` wrote, and the ``__pycache__`` folders it left empty."""
    written = getattr(config, "_websearch_bytecode", [])
    for target in written:
        target.unlink(missing_ok=True)
    for folder in sorted({target.parent for target in written}, reverse=True):
        try:
            folder.rmdir()  # only when empty: another run's or Python's own files stay
        except OSError:
            pass

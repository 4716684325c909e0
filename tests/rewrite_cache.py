"""One assertion-rewriting of the test modules, kept between runs, when no bytecode is written.

pytest rewrites the ``assert`` statements of every test module it imports (about 3.4 s of CPU for
the whole suite) and keeps the result beside the module (``__pycache__/*-pytest-*.pyc``), but only
where Python writes bytecode: with ``PYTHONDONTWRITEBYTECODE`` set (as on the project's machines)
every run rewrote all of them, and every xdist worker, each of which collects every module, did
again. Here the rewritten modules go to one folder, nothing beside the sources: pytest's cache
folder (``.pytest_cache/d/websearch_rewritten_tests``), kept from run to run, or when the cache
is off (``-p no:cacheprovider``) a temporary one for the run, removed at its end. In an xdist
run each worker rewrites its share of the modules that are not there yet and reads the others'
from it; a run in one process rewrites the ones it collects that are not there yet. pytest
checks each cached file against its source's content (a hash) before using it, and rewrites a
module whose file is missing or out of date itself, as it always did: a kept file can make a
run faster, never different.

pytest has no public interface for this: :func:`share` uses its rewriting functions
(``_pytest.assertion.rewrite``) and does nothing when they are not there, which only makes the run
slower, never different.
"""

import fnmatch
import gc
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


#: The folder of pytest's cache (``config.cache.mkdir``) that keeps the rewritten modules.
CACHE_NAME = "websearch_rewritten_tests"


def make_folder(config: Any) -> str:
    """This run's folder of rewritten modules (made on the first call): pytest's cache folder for
    them, or a temporary one when the cache is off or cannot be written (removed by
    :func:`remove_folder`)."""
    folder = getattr(config, "_websearch_rewritten_tests", None)
    if folder is None:
        cache = getattr(config, "cache", None)
        try:
            folder = str(cache.mkdir(CACHE_NAME)) if cache is not None else None
        except OSError:  # a cache that cannot be written (read-only checkout): pytest only warns there
            folder = None
        if folder is None:
            folder = tempfile.mkdtemp(prefix="websearch-rewritten-tests-")
            config._websearch_rewritten_temporary = True
        config._websearch_rewritten_tests = folder
    return folder


def remove_folder(config: Any) -> None:
    """Remove the folder :func:`make_folder` made, if it is a temporary one."""
    folder = getattr(config, "_websearch_rewritten_tests", None)
    if folder is not None and getattr(config, "_websearch_rewritten_temporary", False):
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


def _current(source: Path, pyc: Path) -> bool:
    """Whether ``pyc`` is pytest's rewriting of ``source`` as it is now: its header (the checks of
    pytest's ``_read_pyc`` before it loads the code, whose loading here took a worker about a
    millisecond a module, all of them in a run in one process, for code its import loads again).
    A file whole in its header and broken after it is found at the import, which rewrites the
    module itself: slower, never different."""
    import importlib.util

    try:
        with open(pyc, "rb") as file:
            header = file.read(16)
        source_hash = importlib.util.source_hash(source.read_bytes())
    except OSError:
        return False
    return header == importlib.util.MAGIC_NUMBER + b"\x03\x00\x00\x00" + source_hash[:8]


def _runs_the_tests_alone(config: Any) -> bool:
    """Whether this process runs every test itself: not an xdist worker, nor a controller of workers."""
    return not hasattr(config, "workerinput") and not config.getoption("numprocesses", None)


def share(config: Any) -> None:
    """Read the rewritten modules from this run's folder, and write there the ones of this
    process's share that are missing or out of date: an xdist worker's share of the modules
    (the controller gave it the folder), or all of them in a run in one process with the cache on."""
    folder = getattr(config, "workerinput", {}).get(WORKERINPUT_KEY)
    if folder is None and _runs_the_tests_alone(config) and wanted(config) and getattr(config, "cache", None):
        folder = make_folder(config)
    rewrite = _rewrite_module()
    if folder is None or rewrite is None:
        return
    from _pytest.assertion import assertstate_key

    def cache_dir(source: Path) -> Path:
        return Path(folder, *source.parts[1:-1])

    rewrite.get_cache_dir = cache_dir  # where pytest's import hook looks for the rewritten module
    workerinput = getattr(config, "workerinput", {})
    workers = int(workerinput.get("workercount", 1))
    index = int(workerinput.get("workerid", "gw0").lstrip("gw"))
    state = config.stash[assertstate_key]
    # No cyclic garbage collection while rewriting, as while collecting (tests/conftest.py): each
    # module's syntax tree is hundreds of thousands of new objects and none of them in a cycle, and
    # the passes they set off walked the library and the plugins already imported again and again
    # (a quarter of the rewriting's CPU: 425 modules, 5.3 s with it off, 6.8-7.5 s with it on).
    enabled = gc.isenabled()
    gc.disable()
    try:
        for source in rewritten_files(config)[index::workers]:
            _rewrite_into(rewrite, state, config, source, cache_dir(source))
    finally:
        if enabled:
            gc.enable()


def _rewrite_into(rewrite: Any, state: Any, config: Any, source: Path, folder: Path) -> None:
    """Write pytest's rewriting of ``source`` to ``folder``, unless it is there and current."""
    pyc = folder / (source.name[: -len(".py")] + rewrite.PYC_TAIL)
    if _current(source, pyc):  # there, and of the source as it is now
        return
    try:
        key, code = rewrite._rewrite_test(source, config)
    except (SyntaxError, ValueError, OSError):  # unreadable or not Python: pytest reports it when it imports it
        return
    pyc.parent.mkdir(parents=True, exist_ok=True)
    rewrite._write_pyc(state, code, key, pyc)  # written aside and renamed: a reader sees a whole file or none

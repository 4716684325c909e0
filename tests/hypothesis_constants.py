"""Hypothesis's record of the checkout's literals, made once per run instead of once per worker.

Hypothesis mixes the literals of the code under test into what it draws: when the suite is
collected (its plugin's ``pytest_collection_modifyitems``) and as its tests run, it parses every
imported module that is neither the standard library's, nor an installed package's, nor a test
module, and keeps each one's literals in ``.hypothesis/constants/`` under a hash of its source. A
fresh clone (CI) has none of them, so each xdist worker parsed the same 200 modules of the package
at the same time: 0.7 s of CPU each (0.1 s to read them back once they are kept).

The run's first process (the xdist controller, which runs no test) records them in a thread
(:func:`start`) while the workers start and collect, which takes them seconds; a worker that needs a
module's literals before they are kept parses it itself, as before. Hypothesis reads back exactly
what it would have parsed (its cache is keyed by the source's hash), so it draws the same.

Hypothesis has no public interface for this: :func:`start` uses its
``constants_ast.constants_from_module`` and does nothing when that is not there, which only makes
the run slower, never different.
"""

import threading
import types
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parent.parent


def _recorder() -> Optional[Callable[[types.ModuleType], Any]]:
    """Hypothesis's function that parses a module's literals and keeps them, when it is there."""
    try:
        from hypothesis.internal.constants_ast import constants_from_module
    except ImportError:
        return None
    return constants_from_module


def sources(root: Path = ROOT) -> list[Path]:
    """The checkout's modules hypothesis reads literals from: not in a hidden folder, nor a test
    module, nor under a ``test`` or ``tests`` folder (hypothesis's own rule for test files)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if any(part.startswith(".") for part in parts) or {"test", "tests"} & set(parts[:-1]):
            continue
        if path.stem.startswith("test_") or path.stem.endswith("_test"):
            continue
        found.append(path)
    return found


def record(paths: list[Path]) -> int:
    """Have hypothesis parse and keep (or read back) the literals of each of ``paths``; how many it
    was given (0 when its function is not there)."""
    recorder = _recorder()
    if recorder is None:
        return 0
    for path in paths:
        module = types.ModuleType(path.stem)
        module.__file__ = str(path)
        recorder(module)
    return len(paths)


def wanted(config: Any) -> bool:
    """Whether this process is the controller of xdist workers (a run in one process parses what it
    imports once anyway)."""
    return not hasattr(config, "workerinput") and bool(config.getoption("numprocesses", None))


def start(config: Any) -> None:
    """In a thread of the run's first process, :func:`record` the checkout's :func:`sources`;
    :func:`finish` waits for it."""
    thread = threading.Thread(target=record, args=(sources(),), name="hypothesis-constants", daemon=True)
    thread.start()
    config._websearch_hypothesis_constants = thread


def finish(config: Any, limit_s: float = 30.0) -> None:
    """Wait (bounded) for the thread :func:`start` started, so the run ends with no write under way."""
    thread = getattr(config, "_websearch_hypothesis_constants", None)
    if thread is not None:
        thread.join(limit_s)

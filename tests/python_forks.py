"""``python -c CODE`` in a child forked from a Python that started once, for tests that run many.

Each ``python -c`` a test starts pays the interpreter's start, ``site`` (the editable install's
finder) and the imports of requests, urllib3, lxml and BeautifulSoup: 0.24 of its 0.38 s of CPU
for a one-search script. :class:`PythonForks` starts one interpreter (a fork server,
tests/forkserver.py) that does all that and then imports ``websearch_sync`` alone (its light
layers: what any such script does first, and no client, engine, registry or plugin of the
library), and forks a child per :meth:`PythonForks.run` (one request, with the interpreter's exit).
The child is then what a fresh ``python -c CODE`` is after its first import: its own process,
stdin from ``/dev/null``, stdout and stderr of its own, the given environment, ``sys.path`` as
``PYTHONPATH`` makes it (``''`` first), ``sys.argv == ['-c']``; an exception that escapes the code
is printed and exits 1, ``sys.exit`` exits as it says, and the interpreter's exit runs (atexit,
non-daemon threads joined). Not for what the interpreter reads at its start: stdio encodings,
signal dispositions, ``-X`` options; those tests start ``python`` themselves.
"""

import os
import subprocess
import tempfile
from collections.abc import Sequence
from typing import Optional

from forkserver import ForkServer, status

#: Imported once, before any fork: the third-party libraries the library imports on first use
#: (no state of the library's), then the package itself, as a script's first line does.
PRELOAD = ("requests", "urllib3", "lxml.html", "bs4", "websearch_sync")
#: The code of ``python -m pytest`` (pytest/__main__.py) and of ``python -m websearch_sync``, for
#: :meth:`PythonForks.run` (pytest imported before the fork too: ``preload=PRELOAD + ("pytest",)``).
PYTEST = "import pytest\nraise SystemExit(pytest.console_main())\n"
CLI = "import runpy\nrunpy.run_module('websearch_sync', run_name='__main__', alter_sys=True)\n"


def engines_and_wire() -> list[str]:
    """Every built-in engine's module and the browser wire's (when ``curl_cffi`` is there): what a
    search reading its settings from the environment imports (it asks each engine for its own),
    for a preload that is to leave a child nothing of the library to import."""
    import importlib.util

    from websearch_sync.engine.builtin import BUILT_IN, PACKAGE

    engines = [PACKAGE + "." + module for module in dict.fromkeys(engine.module for engine in BUILT_IN)]
    wire = ["websearch_sync.net.wire_curl"] if importlib.util.find_spec("curl_cffi") is not None else []
    return engines + wire


def searching_preload(*extra: str) -> tuple[str, ...]:
    """:data:`PRELOAD`, then ``extra``, then the modules a search or a CLI command imports on first
    use: the client, the CLI, the engines and the browser wire (:func:`engines_and_wire`). Only
    imported: the registry is built and plugins are discovered at a child's first question, with
    its own environment and path. A child left nothing of the library to import costs about a
    tenth of a fresh interpreter's search (0.05 of 0.45 s of CPU)."""
    return (*PRELOAD, *extra, "websearch_sync.client.search_client", "websearch_sync.cli", *engines_and_wire())


class PythonForks:
    """``with PythonForks() as forks: forks.run(code, env)``: see the module docstring."""

    def __init__(self, env: Optional[dict[str, str]] = None, preload: Sequence[str] = PRELOAD) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="python_forks")
        self.server = ForkServer(list(preload), env=env, path0="")  # as ``python -c`` starts

    def run(
        self, code: str, env: dict[str, str], *args: str, cwd: Optional[str] = None, timeout: float = 60
    ) -> subprocess.CompletedProcess:
        """What ``subprocess.run([python, "-c", code, *args], env=env, cwd=cwd, capture_output=True,
        text=True, timeout=timeout)`` gives, from a forked child."""
        out, err = (os.path.join(self._folder.name, name) for name in ("stdout", "stderr"))
        fds = [os.open(os.devnull, os.O_RDONLY)]
        try:
            fds += [os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC) for path in (out, err)]
            spec = {"env": env, "cwd": cwd or os.getcwd(), "path0": "", "argv": ["-c", *args]}
            conn = self.server.send(fds, code=code, interpreter_exit=True, **spec)
        finally:
            for fd in fds:
                os.close(fd)
        try:
            code_ = status(conn, timeout)
        except TimeoutError:
            conn.close()
            self.server.kill()  # the child that hangs, and the server
            raise subprocess.TimeoutExpired(["python", "-c", code], timeout) from None
        if code_ is None:
            raise RuntimeError("the forking Python ended (exit status %s)" % self.server.process.poll())
        with open(out, encoding="utf-8") as stdout, open(err, encoding="utf-8") as stderr:
            return subprocess.CompletedProcess(["python", "-c", code], code_, stdout.read(), stderr.read())

    def close(self) -> None:
        """End the forking Python: asked (its stdin closed), killed with any child of it that hangs."""
        self.server.close(10.0)
        self._folder.cleanup()

    def __enter__(self) -> "PythonForks":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

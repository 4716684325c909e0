"""``python -c CODE`` in a child forked from a Python that started once, for tests that run many.

Each ``python -c`` a test starts pays the interpreter's start, ``site`` (the editable install's
finder) and the imports of requests, urllib3, lxml and BeautifulSoup: 0.24 of its 0.38 s of CPU
for a one-search script. :class:`PythonForks` starts one interpreter that does all that and then
imports ``websearch_sync`` alone (its light layers: what any such script does first, and no
client, engine, registry or plugin of the library), and forks a child per :meth:`PythonForks.run`.
The child is then what a fresh ``python -c CODE`` is after its first import: its own process,
stdin from ``/dev/null``, stdout and stderr of its own, the given environment, ``sys.path`` as
``PYTHONPATH`` makes it (``''`` first), ``sys.argv == ['-c']``; an exception that escapes the code
is printed and exits 1, ``sys.exit`` exits as it says, and the interpreter's exit runs (atexit,
non-daemon threads joined). Not for what the interpreter reads at its start: stdio encodings,
signal dispositions, ``-X`` options; those tests start ``python`` themselves.
"""

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from typing import Optional

#: Imported once, before any fork: the third-party libraries the library imports on first use
#: (no state of the library's), then the package itself, as a script's first line does.
PRELOAD = ("requests", "urllib3", "lxml.html", "bs4", "websearch_sync")
#: The code of ``python -m pytest`` (pytest/__main__.py) and of ``python -m websearch_sync``, for
#: :meth:`PythonForks.run` (pytest imported before the fork too: ``preload=PRELOAD + ("pytest",)``).
PYTEST = "import pytest\nraise SystemExit(pytest.console_main())\n"
CLI = "import runpy\nrunpy.run_module('websearch_sync', run_name='__main__', alter_sys=True)\n"

_SERVE = r"""
import importlib, json, os, sys

for name in sys.argv[1:]:
    importlib.import_module(name)
start_path = list(sys.path)  # '' then this process's PYTHONPATH, then the installation's
own_pythonpath = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]


def child(request):
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        os.dup2(os.open(path, os.O_WRONLY | os.O_TRUNC), fd)
    sys.stdin = open(os.devnull, encoding="utf-8")
    os.environ.clear()
    os.environ.update(request["env"])
    given = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = [""] + given + start_path[1 + len(own_pythonpath):]
    sys.argv = ["-c"] + request["args"]
    os.chdir(request["cwd"])
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    exec(compile(request["code"], "<string>", "exec"), namespace)


for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        child(request)  # an escaping exception ends the child as it ends an interpreter
        sys.exit(0)
    _, status = os.waitpid(pid, 0)
    print(json.dumps(os.waitstatus_to_exitcode(status)), flush=True)
"""


class PythonForks:
    """``with PythonForks() as forks: forks.run(code, env)``: see the module docstring."""

    def __init__(self, env: Optional[dict[str, str]] = None, preload: Sequence[str] = PRELOAD) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="python_forks")
        self._server = subprocess.Popen(
            [sys.executable, "-c", _SERVE, *preload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
            start_new_session=True,  # its process group: close() ends a child that hangs too
        )

    def run(
        self, code: str, env: dict[str, str], *args: str, cwd: Optional[str] = None, timeout: float = 60
    ) -> subprocess.CompletedProcess:
        """What ``subprocess.run([python, "-c", code, *args], env=env, cwd=cwd, capture_output=True,
        text=True, timeout=timeout)`` gives, from a forked child."""
        out, err = (os.path.join(self._folder.name, name) for name in ("stdout", "stderr"))
        for path in (out, err):
            open(path, "w").close()
        request = {"code": code, "env": env, "args": list(args), "cwd": cwd or os.getcwd()}
        assert self._server.stdin is not None and self._server.stdout is not None
        self._server.stdin.write(json.dumps(dict(request, stdout=out, stderr=err)) + "\n")
        self._server.stdin.flush()
        ready, _, _ = select.select([self._server.stdout], [], [], timeout)
        if not ready:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._server.pid, signal.SIGKILL)  # the child that hangs, and the server
            raise subprocess.TimeoutExpired(["python", "-c", code], timeout)
        line = self._server.stdout.readline()
        if not line:
            raise RuntimeError("the forking Python ended (exit status %s)" % self._server.poll())
        with open(out, encoding="utf-8") as stdout, open(err, encoding="utf-8") as stderr:
            return subprocess.CompletedProcess(["python", "-c", code], json.loads(line), stdout.read(), stderr.read())

    def close(self) -> None:
        """End the forking Python: asked (its stdin closed), killed with any child of it that hangs."""
        assert self._server.stdin is not None and self._server.stdout is not None
        with contextlib.suppress(OSError):
            self._server.stdin.close()
        try:
            self._server.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._server.pid, signal.SIGKILL)
            self._server.wait()
        self._server.stdout.close()
        self._folder.cleanup()

    def __enter__(self) -> "PythonForks":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

"""``python -c CODE`` in a child forked from a Python that started once, for tests that run many.

Each ``python -c`` a test starts pays the interpreter's start, ``site`` (the editable install's
finder) and the imports of requests, urllib3, lxml and BeautifulSoup: 0.24 of its 0.38 s of CPU
for a one-search script. :class:`PythonForks` starts one interpreter (a fork server,
tests/forkserver.py) that does all that and then imports ``websearch_sync`` alone (its light
layers: what any such script does first, and no client, engine, registry or plugin of the
library), and forks a child per :meth:`PythonForks.run` (one request, with the interpreter's exit;
its output in files) or :meth:`PythonForks.popen` (its stdout and stderr pipes the test reads, and
may close). The child is then what a fresh ``python -c CODE`` is after its first import: its own process,
stdin from ``/dev/null``, stdout and stderr of its own, the given environment, ``sys.path`` as
``PYTHONPATH`` makes it (``''`` first), ``sys.argv == ['-c']``; an exception that escapes the code
is printed and exits 1, ``sys.exit`` exits as it says, and the interpreter's exit runs (atexit,
non-daemon threads joined). Not for what the interpreter reads at its start: stdio encodings,
signal dispositions, ``-X`` options; those tests start ``python`` themselves.
:func:`shared_searching` is one such server per pytest process, for the modules whose children search.
"""

import os
import selectors
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from typing import IO, Any, Optional

from forkserver import ForkServer, shared, status

#: Imported once, before any fork: the third-party libraries the library imports on first use
#: (no state of the library's), then the package itself, as a script's first line does.
PRELOAD = ("requests", "urllib3", "lxml.html", "bs4", "websearch_sync")
#: The code of ``python -m pytest`` (pytest/__main__.py) and of ``python -m websearch_sync``, for
#: :meth:`PythonForks.run` (pytest imported before the fork too: ``preload=PRELOAD + ("pytest",)``).
PYTEST = "import pytest\nraise SystemExit(pytest.console_main())\n"
CLI = "import runpy\nrunpy.run_module('websearch_sync', run_name='__main__', alter_sys=True)\n"


def engines_and_wire() -> list[str]:
    """Every built-in engine's module, the requests wire's with the request encoding (which a
    client imports at its first request) and the browser wire's (when ``curl_cffi`` is there): what
    searches may import on first use, for a preload that is to leave a child nothing of the library
    to import."""
    import importlib.util

    from websearch_sync.engine.builtin import BUILT_IN, PACKAGE

    engines = [PACKAGE + "." + module for module in dict.fromkeys(engine.module for engine in BUILT_IN)]
    wires = ["websearch_sync.net.wire_requests", "websearch_sync.net.exchange"]
    wires += ["websearch_sync.net.wire_curl"] if importlib.util.find_spec("curl_cffi") is not None else []
    return engines + wires


def searching_preload(*extra: str) -> tuple[str, ...]:
    """:data:`PRELOAD`, then ``extra``, then the modules a search or a CLI command imports on first
    use: the client, the CLI, the engines and the browser wire (:func:`engines_and_wire`). Only
    imported: the registry is built and plugins are discovered at a child's first question, with
    its own environment and path. A child left nothing of the library to import costs about a
    tenth of a fresh interpreter's search (0.05 of 0.45 s of CPU)."""
    return (*PRELOAD, *extra, "websearch_sync.client.search_client", "websearch_sync.cli", *engines_and_wire())


class ForkedProcess:
    """A child of :meth:`PythonForks.popen` on pipes: the part of ``subprocess.Popen`` the tests use
    (``stdout`` and ``stderr`` binary, ``wait``, ``communicate``, ``returncode``; ``with`` closes the
    pipes and waits), and reads with a deadline (:meth:`readline`, :meth:`read`). Every wait and
    read is bounded: past its ``timeout`` the child and its server are killed (their process group)
    and ``subprocess.TimeoutExpired`` says so."""

    def __init__(self, forks: "PythonForks", conn: socket.socket, stdout: IO[bytes], stderr: IO[bytes]) -> None:
        self._forks, self._conn = forks, conn
        self.stdout, self.stderr = stdout, stderr
        self.returncode: Optional[int] = None
        self._pending: dict[Any, bytes] = {}  # what :meth:`readline` read past a line, by stream

    def _expired(self, timeout: Optional[float]) -> subprocess.TimeoutExpired:
        """Kill the child and its server; the error to raise. ``returncode`` says the kill, so that
        ``with`` waits no more and the timeout stays the test's error."""
        self._conn.close()
        self._forks.server.kill()
        self.returncode = -signal.SIGKILL
        return subprocess.TimeoutExpired(["python", "-c"], timeout or 0)

    def wait(self, timeout: Optional[float] = None) -> int:
        """The exit status once the child has ended (``subprocess.TimeoutExpired`` after ``timeout``)."""
        return self._wait(timeout, timeout)

    def _wait(self, left: Optional[float], timeout: Optional[float]) -> int:
        if self.returncode is None:
            try:
                code = status(self._conn, left)
            except TimeoutError:
                raise self._expired(timeout) from None
            if code is None:
                raise RuntimeError("the forking Python ended (exit status %s)" % self._forks.server.process.poll())
            self.returncode = code
        return self.returncode

    def readline(self, stream: IO[bytes], timeout: float = 60) -> bytes:
        """The next line the child writes on ``stream`` (its ``stdout`` or ``stderr``; shorter, or
        ``b""``, once it closes), within ``timeout``."""
        line, sep, rest = self._read(stream, time.monotonic() + timeout, timeout, line=True).partition(b"\n")
        if rest:
            self._pending[stream] = rest
        return line + sep

    def read(self, stream: IO[bytes], timeout: float = 60) -> bytes:
        """Everything the child writes on ``stream`` until it closes, within ``timeout``."""
        return self._read(stream, time.monotonic() + timeout, timeout, line=False)

    def _read(self, stream: IO[bytes], deadline: float, timeout: float, line: bool) -> bytes:
        data = self._pending.pop(stream, b"")
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while not (line and b"\n" in data):
                if not selector.select(max(0.0, deadline - time.monotonic())):
                    raise self._expired(timeout)
                chunk = os.read(stream.fileno(), 65536)
                if not chunk:
                    break
                data += chunk
        return data

    def communicate(self, timeout: float = 60) -> tuple[bytes, bytes]:
        """Everything the child writes on stdout and stderr until both close, and its end (``wait``),
        all within ``timeout``."""
        deadline = time.monotonic() + timeout
        read: dict[Any, list[bytes]] = {
            stream: [self._pending.pop(stream, b"")] for stream in (self.stdout, self.stderr)
        }
        with selectors.DefaultSelector() as selector:
            for stream in read:
                selector.register(stream, selectors.EVENT_READ)
            while selector.get_map():
                events = selector.select(max(0.0, deadline - time.monotonic()))
                if not events:  # the child hangs, or trickles output past the deadline
                    raise self._expired(timeout)
                for key, _ in events:
                    chunk = os.read(key.fd, 65536)
                    if chunk:
                        read[key.fileobj].append(chunk)
                    else:
                        selector.unregister(key.fileobj)
        self._wait(max(deadline - time.monotonic(), 0.001), timeout)
        return b"".join(read[self.stdout]), b"".join(read[self.stderr])

    def __enter__(self) -> "ForkedProcess":
        return self

    def __exit__(self, *exc_info: object) -> None:
        for stream in (self.stdout, self.stderr):
            stream.close()
        self.wait(60)


class PythonForks:
    """``with PythonForks() as forks: forks.run(code, env)``: see the module docstring."""

    def __init__(self, env: Optional[dict[str, str]] = None, preload: Sequence[str] = PRELOAD) -> None:
        self.server = ForkServer(list(preload), env=env, path0="")  # as ``python -c`` starts

    def run(
        self, code: str, env: dict[str, str], *args: str, cwd: Optional[str] = None, timeout: float = 60
    ) -> subprocess.CompletedProcess:
        """What ``subprocess.run([python, "-c", code, *args], env=env, cwd=cwd, capture_output=True,
        text=True, timeout=timeout)`` gives, from a forked child."""
        # in the server's folder, which it removes as it ends (even when the tests' process is killed)
        out, err = (os.path.join(self.server.folder, name) for name in ("stdout", "stderr"))
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

    def popen(self, code: str, env: dict[str, str], *args: str, path0: str = "") -> ForkedProcess:
        """What ``subprocess.Popen([python, "-c", code, *args], env=env, stdin=DEVNULL, stdout=PIPE,
        stderr=PIPE)`` gives, from a forked child: its stdout and stderr are pipes the test reads
        (and may close, as a reader that has gone). ``path0``: ``sys.path[0]`` (the working
        directory for a ``python -m`` command)."""
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        fds = [os.open(os.devnull, os.O_RDONLY), out_write, err_write]
        try:
            spec = {"env": env, "cwd": os.getcwd(), "path0": path0, "argv": ["-c", *args]}
            conn = self.server.send(fds, code=code, interpreter_exit=True, **spec)
        except BaseException:
            os.close(out_read)
            os.close(err_read)
            raise
        finally:
            for fd in fds:
                os.close(fd)
        return ForkedProcess(self, conn, os.fdopen(out_read, "rb"), os.fdopen(err_read, "rb"))

    def close(self) -> None:
        """End the forking Python: asked (its stdin closed), killed with any child of it that hangs."""
        self.server.close(10.0)

    def __enter__(self) -> "PythonForks":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def shared_searching(config: Any) -> PythonForks:
    """The fork server with :func:`searching_preload` and pytest imported that the test modules of
    this pytest process share (``forkserver.shared``: started by the first that asks, closed as
    the session ends): the modules whose children run a search, a CLI command or a user's pytest
    (test_cli_output.py, test_plugins.py, test_conformance_kit.py)
    pay one server's start and imports per worker (about 0.5 s of CPU) instead of one each."""
    return shared(config, "searching", lambda: PythonForks(preload=searching_preload("pytest")))

"""Children forked from one Python that imported what they need once: the tests' fork server.

Starting a Python and importing the library, its third-party libraries or the MCP SDK costs a
test's child process most of its CPU; many tests start many such children. A
:class:`ForkServer` is one process (``python forkserver.py SOCKET SPEC``, in a session of its
own) that imports a preload list once (a module name, or ``module:function`` to import and
call; they must start no thread, since a fork copies none) and then forks a child for each
request on its unix socket. A request hands over, with ``socket.send_fds``, the fds the child
takes as its 0, 1 and 2 (a launcher's own stdio, or a test's pipes and files), and says the
child's environment, working directory, ``sys.argv``, the first entry of ``sys.path`` (``''``
for ``python -c``, the working directory for ``-m``, a script's folder; the rest is what the
request's ``PYTHONPATH`` and the installation make it) and what to run: ``code`` (as
``python -c`` runs it, in ``__main__``) or ``call`` (a ``module:function`` called without
arguments; what it returns is the exit status). The requester reads the child's exit status on
the same connection (:func:`status`; a signal's as a negative number, as ``subprocess`` says),
after the child's pid when the request asks for it (``tell_pid``: a launcher that passes its
signals on, :func:`pid_and_status`).
An :func:`idle` request is answered once no child of the server is running (a test module's check
that the children it caused have ended).

A child ends with ``os._exit`` after flushing its streams (a traceback printed and status 1 for an
exception), skipping the interpreter's exit; with ``interpreter_exit`` it goes through it as a
fresh interpreter would (an escaping exception printed, exit 1; atexit; non-daemon threads
joined). What no child goes through: the interpreter's start (stdio encodings, signal
dispositions, ``-X`` options) and the preloaded imports; the tests about those start a real
``python``. Each child reseeds ``random``. A child's CPU is charged to the server, which waits for
it, and so to the test that closes the server (``RUSAGE_CHILDREN`` counts waited-for
descendants). :meth:`ForkServer.close` ends the server once its children have, and kills its
process group (the server and every child) after a bound.

This module imports only a few standard modules at its top: a launcher (tests/mcp_zygote.py)
imports it to hand its stdio over with :func:`request`.
"""

import json
import os
import socket
import sys
from typing import Any, Callable, Optional, TypeVar

#: What :meth:`ForkServer.close` writes on the server's stdin before closing it: it bounds the wait
#: for the children itself. A stdin that closes without it means the tests' process has gone
#: (killed): the server then gives its children :data:`ORPHANED_S` to end, kills those left, and
#: exits with status 1 (as after the kill of a requester that waits no more), removing its folder.
CLOSING = b"closing\n"
ORPHANED_S = 60.0
#: A request's first byte: fork a child (fds and a JSON spec follow), or answer once none is running.
FORK, IDLE = b"F", b"I"


def send(path: str, fds: list[int], spec: dict[str, Any]) -> socket.socket:
    """Ask the server at ``path`` for a child on ``fds`` (its 0, 1, 2...) running ``spec`` (see the
    module docstring: ``env``, ``cwd``, ``argv``, ``path0``, ``code`` or ``call``,
    ``interpreter_exit``, ``tell_pid``); the connection on which :func:`status` (with ``tell_pid``:
    :func:`pid_and_status`) reads how it ended."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
        socket.send_fds(conn, [FORK], fds)
        conn.sendall(json.dumps(spec).encode("utf-8") + b"\n")
    except BaseException:
        conn.close()
        raise
    return conn


def status(conn: socket.socket, timeout: Optional[float] = None) -> Optional[int]:
    """The exit status of the child asked for on ``conn`` once it has ended (``TimeoutError`` after
    ``timeout``); None when the server ended without telling (killed). Closes ``conn`` unless it
    timed out."""
    conn.settimeout(timeout)
    line = conn.makefile("rb").readline()
    conn.close()
    return int(line) if line.strip() else None


def pid_and_status(conn: socket.socket, started: Callable[[int], None]) -> Optional[int]:
    """For a request sent with ``tell_pid``: ``started(pid)`` once the child runs, then its exit
    status as :func:`status` reads it (None, and no ``started``, when the server ended without
    telling). Closes ``conn``."""
    lines = conn.makefile("rb")
    try:
        pid = lines.readline()
        if not pid.strip():
            return None
        started(int(pid))
        line = lines.readline()  # a signal handler run meanwhile does not end the read (PEP 475)
    finally:
        lines.close()
        conn.close()
    return int(line) if line.strip() else None


def request(path: str, fds: list[int], spec: dict[str, Any]) -> Optional[int]:
    """:func:`send` then :func:`status`: run a child and wait for it."""
    return status(send(path, fds, spec))


def idle(path: str, timeout: float) -> bool:
    """Whether the server at ``path`` has no running child within ``timeout``: it answers this
    request once every child it forked has ended (a module's check that its children did end)."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
        conn.sendall(IDLE)
        return status(conn, timeout) == 0
    except TimeoutError:
        return False
    finally:
        conn.close()


class ForkServer:
    """A running fork server (``with ForkServer(preload) as server``) and its requests."""

    def __init__(
        self,
        preload: list[str],
        env: Optional[dict[str, str]] = None,
        cwd: Optional[str] = None,
        path0: Optional[str] = None,
        orphaned_s: float = ORPHANED_S,
    ) -> None:
        """Start the server: ``preload`` imported (and called, for ``module:function``) with
        ``path0`` first on its ``sys.path`` (default: this file's folder, as for a script), in
        ``env`` and ``cwd``; ``orphaned_s``: how long its children have to end once its stdin has
        closed without :data:`CLOSING`."""
        import subprocess
        import tempfile

        self.folder = tempfile.mkdtemp(prefix="forkserver-")
        self.path = os.path.join(self.folder, "socket")
        spec = {"preload": list(preload), "path0": path0, "orphaned_s": orphaned_s}
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), self.path, json.dumps(spec)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=cwd,
            start_new_session=True,  # its own process group, which its children join: see close()
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline() != b"ready\n":  # it has imported the preload
            self.close(0)
            raise RuntimeError("the fork server did not start (exit status %s)" % self.process.poll())

    def send(self, fds: list[int], **spec: Any) -> socket.socket:
        """Ask for a child (:func:`send`); the connection its status comes on."""
        return send(self.path, fds, spec)

    def idle(self, timeout: float) -> bool:
        """Whether every child of the server has ended within ``timeout`` (:func:`idle`)."""
        return idle(self.path, timeout)

    def kill(self) -> None:
        """Kill the server and every child of it (their process group) now."""
        import signal

        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()

    def close(self, wait_s: float) -> bool:
        """Stop the server once its children have ended, waiting ``wait_s`` at most before killing
        them all; whether they ended by themselves. Closing it again does nothing more."""
        import shutil
        import subprocess

        assert self.process.stdin is not None and self.process.stdout is not None
        if not self.process.stdin.closed:  # not closed before (a fleet's failed test, then its module's end)
            try:
                self.process.stdin.write(CLOSING)  # this side bounds the wait for the children
                self.process.stdin.close()
            except OSError:  # the server has ended (killed): the pipe is closed all the same
                pass
        try:
            ended = self.process.wait(wait_s) == 0
        except subprocess.TimeoutExpired:
            ended = False
        finally:
            self.kill()
            self.process.stdout.close()
            shutil.rmtree(self.folder, ignore_errors=True)
        return ended

    def __enter__(self) -> "ForkServer":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close(10.0)


Started = TypeVar("Started")
_SHARED: dict[str, Any] = {}


def shared(config: Any, key: str, start: Callable[[], Started]) -> Started:
    """One ``start()`` (a :class:`ForkServer`'s user: its ``server``, and ``close()``) under ``key``
    for every test module of this pytest process that asks: started by the first, or again once the
    last one's server has died (killed), and closed as the session ends (``config.add_cleanup``).
    Modules that one worker runs pay one server's start and preload instead of one each."""
    held = _SHARED.get(key)
    if held is None or held.server.process.poll() is not None:
        held = _SHARED[key] = start()
        config.add_cleanup(held.close)
    return held


# -- the server ---------------------------------------------------------------------------------


def serve(path: str, spec: dict[str, Any]) -> Optional[tuple[list[int], dict[str, Any], list[str]]]:
    """The server: import the preload, then fork a child for every request on ``path`` and tell
    each requester its child's exit status. Returns None when its stdin has closed and its
    children have ended; in a child, returns what that child is to run (see :func:`become`)."""
    import gc
    import importlib
    import select
    import signal
    import threading
    import time

    start_path = list(sys.path)  # this file's folder, the server's PYTHONPATH, the installation's
    if spec.get("path0") is not None:
        sys.path[0] = spec["path0"]
    for entry in spec["preload"]:
        name, _, function = entry.partition(":")
        module = importlib.import_module(name)
        if function:
            getattr(module, function)()
    assert threading.active_count() == 1, "a fork copies no thread: the preload must start none"
    own = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    installation = start_path[1 + len(own) :]
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)  # wakes the select below
    gc.freeze()  # the imported objects stay out of the children's collections (and shared pages)
    waiting: dict[int, socket.socket] = {}  # a running child's pid -> its requester's connection
    idlers: list[socket.socket] = []  # the connections of IDLE requests, answered once ``waiting`` is empty
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    accepting, closing = True, False
    deadline: Optional[float] = None  # once orphaned: when the children left are killed
    while accepting or waiting:
        wait_s = None if deadline is None else max(0.0, deadline - time.monotonic())
        readable, _, _ = select.select([wake_read] + ([listener, 0] if accepting else []), [], [], wait_s)
        if listener in readable and accepting:
            conn, _ = listener.accept()
            kind, fds, _, _ = socket.recv_fds(conn, 1, 16)
            if kind == IDLE:
                idlers.append(conn)
            else:
                request = json.loads(conn.makefile("rb").readline())
                pid = os.fork()
                if pid == 0:
                    for other in [listener, conn, *waiting.values(), *idlers]:
                        other.close()
                    os.close(wake_read)
                    os.close(wake_write)
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    return fds, request, installation
                for fd in fds:
                    os.close(fd)
                if request.get("tell_pid"):
                    try:
                        conn.sendall(b"%d\n" % pid)
                    except OSError:  # the requester is gone: its status has nobody to tell either
                        pass
                waiting[pid] = conn
        if 0 in readable:  # after the requests already made (connected before stdin closed)
            read = os.read(0, 1024)
            closing = closing or CLOSING in read
            if not read:  # the tests are done (or gone): no more requests
                accepting = False
                listener.close()
                deadline = None if closing else time.monotonic() + spec["orphaned_s"]
        if wake_read in readable:
            _drain(wake_read)
        _reap(waiting)
        if not waiting:
            _answer(idlers)
        elif deadline is not None and time.monotonic() >= deadline:
            for pid in waiting:
                os.kill(pid, signal.SIGKILL)
            _reap(waiting, block=True)
            raise SystemExit(1)
    return None


def _drain(fd: int) -> None:
    """Read what the signal handler wrote to ``fd`` (non-blocking), so the next select waits again."""
    try:
        while os.read(fd, 1024):
            pass
    except BlockingIOError:
        pass


def _answer(idlers: list[socket.socket]) -> None:
    """Tell the IDLE requesters that no child is running (status 0), and forget them."""
    for conn in idlers:
        try:
            conn.sendall(b"0\n")
        except OSError:  # the requester gave up waiting
            pass
        conn.close()
    idlers.clear()


def _reap(waiting: dict[int, socket.socket], block: bool = False) -> None:
    """Tell the requesters of the children that have ended their status (with ``block``: of every
    child, once each has ended)."""
    while waiting:
        pid, code = os.waitpid(-1, 0 if block else os.WNOHANG)
        if pid == 0:
            return
        conn = waiting.pop(pid)
        try:
            conn.sendall(b"%d\n" % os.waitstatus_to_exitcode(code))
        except OSError:  # the requester is gone (killed by its test): nobody to tell
            pass
        conn.close()


def become(fds: list[int], request: dict[str, Any], installation: list[str]) -> None:
    """In a forked child: take ``fds`` as 0, 1, 2..., the request's environment, directory,
    ``sys.argv`` and ``sys.path``, and run its code or callable; ends the process."""
    if not request.get("interpreter_exit"):
        code = 1
        try:
            code = _run(fds, request, installation)
        except SystemExit as exit_:  # as the interpreter ends on it: a message is printed, status 1
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
            if code == 1 and not isinstance(exit_.code, int):
                print(exit_.code, file=sys.stderr)
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:  # a closed pipe: what the real interpreter would drop at exit too
                    pass
            os._exit(code)
    code = _run(fds, request, installation)  # an escaping exception ends it as it ends an interpreter
    sys.exit(code)


def _run(fds: list[int], request: dict[str, Any], installation: list[str]) -> int:
    """Set the child up as the request says and run what it names; the exit status it gives."""
    import importlib
    import random

    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    random.seed()  # not the server's sequence, shared by every child
    given = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = [request["path0"]] + given + installation
    sys.argv = list(request["argv"])
    if "call" in request:
        name, _, function = request["call"].partition(":")
        result = getattr(importlib.import_module(name), function)()
        return result if isinstance(result, int) else 0
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    exec(compile(request["code"], "<string>", "exec"), namespace)
    return 0


if __name__ == "__main__":
    server = os.getpid()
    try:
        forked = serve(sys.argv[1], json.loads(sys.argv[2]))
    finally:
        if os.getpid() == server:  # not in a child: the folder (its socket, its users' files) goes with the server
            import shutil

            shutil.rmtree(os.path.dirname(sys.argv[1]), ignore_errors=True)
    if forked is not None:
        become(*forked)

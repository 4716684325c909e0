"""``websearch-sync mcp`` servers forked from one process that has already imported them.

A server's start costs about 1.5 s of CPU, three quarters of it the MCP SDK's import (the
pydantic models of two protocol versions, its client, its high-level server): the MCP tests
started eighteen of them. Most of those tests are about what a server answers, not about how
a fresh interpreter starts one. A :class:`Zygote` is one Python process that imports the CLI
and the server's modules once (``python mcp_zygote.py serve SOCKET``) and builds nothing else.
The command a test gives its MCP client, :meth:`Zygote.command`, is a launcher
(``python mcp_zygote.py launch SOCKET mcp ARGS``: a few standard modules) that hands its own
stdin, stdout and stderr, its environment and its working directory to the zygote; the zygote
forks a child that takes them as its own and runs ``websearch_sync.cli.main(["mcp", ARGS])``,
as ``python -m websearch_sync mcp ARGS`` would, and the launcher exits with the child's status.
The client talks to that child over the launcher's pipes, as to any stdio server.

What a forked server does not go through: the interpreter's start and the imports (whatever
they would print, the time they take) and the interpreter's exit (a child flushes its streams
and ends with ``os._exit``). The tests about those start the real command (test_mcp.py: stdout
holding the protocol only and stderr the server's own lines, EOF, a client that disconnects
mid-call; the import test). A child's CPU is charged to the zygote, which waits for it, and so to the test
that closes the zygote (``RUSAGE_CHILDREN`` counts waited-for descendants).
"""

import json
import os
import socket
import sys

#: What ``websearch-sync mcp`` imports before it serves: the server's modules, the SDK, the client,
#: and (:func:`preload`) every built-in engine's module (reading the settings from the environment
#: asks each engine for its own) and the browser wire's (the default when ``curl_cffi`` is there).
#: A child imports anything else on first use, as the real command does.
PRELOADED = (
    "websearch_sync.cli",
    "websearch_sync.cli.mcp_cmd",
    "websearch_sync.client.search_client",
    "websearch_sync.mcp.tools",
    "websearch_sync.mcp.server",
)


def launch(path: str, argv: list[str]) -> int:
    """Run ``websearch_sync.cli.main(argv)`` in a child of the zygote at ``path`` on this process's
    stdin, stdout and stderr, environment and working directory; its exit status."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        socket.send_fds(conn, [b"F"], [0, 1, 2])
        request = {"argv": argv, "env": dict(os.environ), "cwd": os.getcwd()}
        conn.sendall(json.dumps(request).encode("utf-8") + b"\n")
        status = conn.makefile("rb").readline()  # once the child has ended
    code = int(status) if status.strip() else 1
    return code if code >= 0 else 128 - code  # a signal's number, as a shell reports it


def serve(path: str) -> None:
    """The zygote: import the server's modules, then fork a server for every launcher that connects
    to ``path``, and tell each launcher its server's exit status. Ends when its stdin closes and its
    children have ended."""
    import gc
    import select
    import signal

    sys.path[0] = os.getcwd()  # as for ``python -m``: the working directory, not this file's folder
    preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)  # wakes the select below
    gc.freeze()  # the imported objects stay out of the children's collections (and shared pages)
    waiting: dict[int, socket.socket] = {}  # a running child's pid -> its launcher's connection
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    accepting = True
    while accepting or waiting:
        readable, _, _ = select.select([wake_read] + ([listener, 0] if accepting else []), [], [])
        if 0 in readable and not os.read(0, 1024):  # the tests are done: no more launches
            accepting = False
            listener.close()
        if listener in readable and accepting:
            conn, _ = listener.accept()
            _, fds, _, _ = socket.recv_fds(conn, 1, 3)
            request = json.loads(conn.makefile("rb").readline())
            pid = os.fork()
            if pid == 0:
                for other in [listener, conn, *waiting.values()]:
                    other.close()
                os.close(wake_read)
                os.close(wake_write)
                _child(fds, request)  # never returns
            for fd in fds:
                os.close(fd)
            waiting[pid] = conn
        if wake_read in readable:
            _drain(wake_read)
        _reap(waiting)


def preload() -> None:
    """Import :data:`PRELOADED`, the built-in engines' modules and the browser wire's, and nothing more."""
    import importlib
    import importlib.util

    for name in PRELOADED:
        importlib.import_module(name)
    from websearch_sync.engine.builtin import BUILT_IN, PACKAGE

    for module in dict.fromkeys(engine.module for engine in BUILT_IN):
        importlib.import_module(PACKAGE + "." + module)
    if importlib.util.find_spec("curl_cffi") is not None:
        importlib.import_module("websearch_sync.net.wire_curl")


def _drain(fd: int) -> None:
    """Read what the signal handler wrote to ``fd`` (non-blocking), so the next select waits again."""
    try:
        while os.read(fd, 1024):
            pass
    except BlockingIOError:
        pass


def _reap(waiting: dict[int, socket.socket]) -> None:
    """Tell the launchers of the children that have ended their status."""
    while waiting:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            return
        conn = waiting.pop(pid)
        try:
            conn.sendall(b"%d\n" % os.waitstatus_to_exitcode(status))
        except OSError:  # the launcher is gone (killed by its test): nobody to tell
            pass
        conn.close()


def _child(fds: list[int], request: dict) -> None:
    """In the forked child: become the launcher's server and end with its status."""
    import random
    import signal
    import traceback

    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    status = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        random.seed()  # not the zygote's sequence, shared by every child
        sys.argv = [sys.argv[0]] + request["argv"]
        from websearch_sync.cli import main

        status = main(request["argv"])
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # a closed pipe: what the real interpreter would drop at exit too
                pass
        os._exit(status)


class Zygote:
    """A running zygote (``python mcp_zygote.py serve``) and the commands that launch its servers."""

    def __init__(self, root: str, limit_s: float):
        import subprocess
        import tempfile

        self.folder = tempfile.mkdtemp(prefix="mcp-zygote-")
        self.path = os.path.join(self.folder, "socket")
        self.limit_s = limit_s
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "serve", self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=root,
            env={"PATH": os.environ.get("PATH", "")},
            start_new_session=True,  # its own process group, which its children join: see close()
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline() != b"ready\n":  # it has imported the server's modules
            self.close()
            raise RuntimeError("the MCP zygote did not start")

    def __enter__(self) -> "Zygote":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def command(self, *args: str) -> list[str]:
        """``websearch-sync mcp ARGS`` as a forked server: the command line an MCP client starts."""
        return [sys.executable, os.path.abspath(__file__), "launch", self.path, "mcp", *args]

    def close(self) -> None:
        """Stop the zygote once its servers have ended (each ends when its client closes stdin).
        A server still running after ``limit_s`` is killed with the zygote (their process group),
        and the wait's ``TimeoutExpired`` says so."""
        import shutil
        import signal

        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        try:
            self.process.wait(self.limit_s)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self.process.stdout.close()
            shutil.rmtree(self.folder, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        sys.exit(launch(sys.argv[2], sys.argv[3:]))

"""``websearch-sync mcp`` servers forked from one process that has already imported them.

A server's start costs about 1.5 s of CPU, three quarters of it the MCP SDK's import (the
pydantic models of two protocol versions, its client, its high-level server): the MCP tests
started eighteen of them. Most of those tests are about what a server answers, not about how
a fresh interpreter starts one. A :class:`Zygote` is a fork server (tests/forkserver.py) that
imports the CLI and the server's modules once and builds nothing else. The command a test gives
its MCP client, :meth:`Zygote.command`, is a launcher (``python -S mcp_zygote.py SOCKET mcp ARGS``:
a few standard modules) that hands its own stdin, stdout and stderr, its environment and its
working directory to the zygote in a request; the zygote forks a child that takes them as its
own and runs ``websearch_sync.cli.main(["mcp", ARGS])``, as ``python -m websearch_sync mcp ARGS``
would, and the launcher exits with the child's status (or dies of the signal that ended it).
The client talks to that child over the launcher's pipes, as to any stdio server. The signals a
client ends its server with reach the child: the child is no descendant of the launcher (the MCP
SDK's ``stdio_client`` sends SIGTERM to its server's process group when stdin's close did not end
it; the child is in the zygote's), so the launcher passes on the SIGTERM, SIGINT and SIGHUP it
gets (:data:`PASSED_ON`). Only a SIGKILL, which no process can pass on, leaves a forked server
running: it ends when its stdin closes, and :meth:`Zygote.servers_ended` kills one that does not.

What a forked server does not go through: the interpreter's start and the imports (whatever
they would print, the time they take) and the interpreter's exit (a child flushes its streams
and ends with ``os._exit``). The tests about those start the real command (test_mcp.py: stdout
holding the protocol only and stderr the server's own lines, EOF, a client that disconnects
mid-call; the import test). A child's CPU is charged to the zygote, which waits for it, and so to the test
that closes the zygote (``RUSAGE_CHILDREN`` counts waited-for descendants).
"""

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import forkserver

if TYPE_CHECKING:
    import pytest

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
    # what the server's event loop (``anyio.run``) imports when it starts serving: each server
    # imported it anew (about 10 ms of CPU a server)
    "anyio._backends._asyncio",
)


#: The signals the launcher passes on to its child: what a client or a terminal ends a server with.
PASSED_ON = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
#: Signals whose action is always the default (``signal.signal`` refuses them with OSError).
_DEFAULT_ONLY = (signal.SIGKILL, signal.SIGSTOP)


def launch(path: str, argv: list[str]) -> int:
    """Run ``websearch_sync.cli.main(argv)`` in a child of the zygote at ``path`` on this process's
    stdin, stdout and stderr, environment and working directory, passing on the signals of
    :data:`PASSED_ON` to it; its exit status. A child ended by a signal ends the launcher by the
    same signal: its client sees what the started command's end would show (``-15`` after a
    SIGTERM, Python's default for that signal, which the command keeps)."""
    cwd = os.getcwd()
    spec = {"env": dict(os.environ), "cwd": cwd, "path0": cwd, "argv": [os.path.abspath(__file__), *argv]}
    signal.pthread_sigmask(signal.SIG_BLOCK, PASSED_ON)  # held until the child can be given them
    conn = forkserver.send(path, [0, 1, 2], dict(spec, call="websearch_sync.cli:main", tell_pid=True))
    code = forkserver.pid_and_status(conn, _pass_signals_on)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, PASSED_ON)  # no child: one held ends the launcher
    if code is None:
        return 1
    if code < 0:  # the child died of a signal: so does the launcher, with the default action restored
        if -code not in _DEFAULT_ONLY:
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code if code >= 0 else 128 - code  # a signal that does not end a process (none passed on)


def _pass_signals_on(child: int) -> None:
    """From now on, each signal of :data:`PASSED_ON` this process gets goes to ``child``."""

    def pass_on(signum: int, frame: object) -> None:
        try:
            os.kill(child, signum)
        except ProcessLookupError:  # it has just ended: its status is on its way
            pass

    for signum in PASSED_ON:
        signal.signal(signum, pass_on)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, PASSED_ON)  # one held meanwhile goes to the child now


def preload() -> list[str]:
    """:data:`PRELOADED`, the built-in engines' modules and the browser wire's, and nothing more."""
    from python_forks import engines_and_wire  # here: the launcher imports only a few standard modules

    return [*PRELOADED, *engines_and_wire()]


class Zygote:
    """A running zygote (a fork server with :func:`preload`) and the commands that launch its servers."""

    def __init__(self, root: str, limit_s: float):
        self.limit_s = limit_s
        # as for ``python -m``: the working directory first on the path, not this file's folder
        self.server = forkserver.ForkServer(preload(), env={"PATH": os.environ.get("PATH", "")}, cwd=root, path0=root)
        self.path = self.server.path

    def __enter__(self) -> "Zygote":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def command(self, *args: str) -> list[str]:
        """``websearch-sync mcp ARGS`` as a forked server: the command line an MCP client starts."""
        # -S: the launcher needs no site-packages (the standard library and forkserver.py beside
        # it); a server's start, about a tenth of its CPU, skips the installation's .pth files
        return [sys.executable, "-S", os.path.abspath(__file__), self.path, "mcp", *args]

    def servers_ended(self) -> None:
        """Check that every server forked so far ends within ``limit_s`` (each ends when its client
        closes stdin): what a module asks once its clients have gone, so that a server outliving its
        client fails that module's tests; the session's end (:meth:`close`) names no test, and
        under xdist reports nothing. A server still running is killed with the zygote (the next
        module that asks starts another), and ``TimeoutExpired`` says so."""
        if not self.server.idle(self.limit_s):
            import subprocess

            self.server.kill()
            raise subprocess.TimeoutExpired(self.server.process.args, self.limit_s)

    def close(self) -> None:
        """Stop the zygote once its servers have ended (each ends when its client closes stdin).
        A server still running after ``limit_s`` is killed with the zygote (their process group),
        and ``TimeoutExpired`` says so."""
        if not self.server.close(self.limit_s):
            import subprocess

            raise subprocess.TimeoutExpired(self.server.process.args, self.limit_s)


def shared(config: Any, root: str, limit_s: float) -> Zygote:
    """The zygote the test modules of this pytest process share (:func:`forkserver.shared`: the first
    module that asks starts it, with its ``limit_s``). The modules of the MCP clients run in one
    worker (tests/scheduling.py's agent-frameworks unit): one import of the server for all of them
    instead of one each (about a second of CPU)."""
    return forkserver.shared(config, "mcp zygote", lambda: Zygote(root, limit_s))


@contextmanager
def servers_of(config: Any, root: str, limit_s: float) -> Iterator[Zygote]:
    """The :func:`shared` zygote for a module's (or a test's) servers: once the block is left, every
    server it forked must have ended (:meth:`Zygote.servers_ended`), which fails the module's
    tests when one outlives its client."""
    zygote = shared(config, root, limit_s)
    yield zygote
    zygote.servers_ended()


def stderr_for_sdk_clients(monkeypatch: "pytest.MonkeyPatch") -> None:
    """``mcp.client.stdio.stdio_client``'s ``errlog`` default set to this test's ``sys.stderr``.

    The SDK binds that default to the ``sys.stderr`` of the moment it is first imported, which in a
    test worker may be a stream without a file descriptor (a ``capsys`` capture, or the CLI's
    ``TerminalStream`` while an in-process ``main(["mcp", ...])`` ran): a client relying on the
    default (openai-agents' ``MCPServerStdio``) then cannot start its server
    (``io.UnsupportedOperation: fileno``), whichever test imported the SDK first."""
    from mcp.client import stdio

    monkeypatch.setattr(stdio.stdio_client.__wrapped__, "__defaults__", (sys.stderr,))


if __name__ == "__main__":  # the launcher
    sys.exit(launch(sys.argv[1], sys.argv[2:]))

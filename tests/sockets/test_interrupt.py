"""Ctrl-C ends a hanging call at once on both wires (issue 32 point 5).

A loopback server reads each request and never answers; a child process searches,
fetches, merges or runs a batch against it with the default 15 s deadline; SIGINT comes 2 s
after the server got the child's request. The child must be gone within 3 s of the signal (the browser
wire used to hold Ctrl-C for the whole deadline: libcurl runs in C). The twelve children run side by
side (each on paths of its own), so the module takes one child's time; each case is its own test.

The CLI's search on the browser wire (the requests one without ``curl_cffi``) starts the real
command (``python -m websearch_sync``, SIGINT at Python's default as a shell gives it); the other
children are forked from one Python that imported the library, its CLI, engines and browser wire
once (tests/forkserver.py): what they check is how a running call meets the signal, not how an
interpreter starts, and a real start costs about 0.45 s of CPU where a forked child costs a tenth
of that.
"""

import os
import select
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from clocks import deadline_margin_s, machine_pace
from faults import never_answer
from forkserver import ForkServer, status
from python_forks import CLI, searching_preload
from servers import FaultServer
from sigint import children_get_sigint
from transports import needs_browser

from websearch_sync.net.browser import browser_available

SIGNAL_AFTER_S = 2.0
#: Gone within 3 s on an idle machine; on a loaded one, 1 s per unit of slowdown (ending a
#: process is work too), never as much as the 13 s of deadline a call ignoring Ctrl-C would take.
GONE_WITHIN_S, LOADED_LIMIT_S = 3.0, 8.0

PYTHON_CALLS = {
    "search": "ws.search('q', backend='ddg_html', retries=0, settings=ws.Settings(endpoints={'ddg_html': URL}, impersonate=IMP))",
    "fetch": "ws.fetch(URL, allow_private=True, settings=ws.Settings(impersonate=IMP))",
    # a merge asks in threads of its own: the process must not wait for them at its end
    "merge": "ws.SearchClient(['ddg_html', 'stub'], strategy='merge', retries=0,"
    " settings=ws.Settings(endpoints={'ddg_html': URL}, impersonate=IMP)).search('q')",
}


def _command(kind, url, impersonate, tmp_path):
    wire = ["--impersonate", impersonate or "chrome"]
    if kind == "cli-search":
        return [sys.executable, "-m", "websearch_sync", "search", "q", "-b", "ddg_html", "--retries", "0", *wire]
    if kind == "cli-fetch":
        return [sys.executable, "-m", "websearch_sync", "fetch", url, "--allow-private", *wire]
    if kind == "cli-batch":
        queries = tmp_path / "queries.txt"
        queries.write_text("one\ntwo\nthree\nfour\n")
        return [
            sys.executable,
            "-m",
            "websearch_sync",
            "search",
            "--queries-file",
            str(queries),
            "-b",
            "ddg_html",
            "--retries",
            "0",
            "--workers",
            "2",
            *wire,
        ]
    script = textwrap.dedent(
        """
        import websearch_sync as ws
        URL, IMP = %r, %r
        %s
        """
    ) % (url, impersonate or "chrome", PYTHON_CALLS[kind.split("-", 1)[1]])
    return [sys.executable, "-c", script]


KINDS = ["cli-search", "cli-fetch", "cli-batch", "python-search", "python-fetch", "python-merge"]
WIRES = {"browser": None, "requests": "off"}
#: The command a user types, started for real on the first wire there is (see the module docstring).
STARTED = "cli-search"


class _Forked:
    """A child of the fork server running ``command`` (``python -m websearch_sync ...`` or ``python
    -c ...``) as that command would, with the part of ``subprocess.Popen`` this module uses. It
    writes its pid to a file first (the server tells the requester only the exit status), before
    it searches: the pid is there once the loopback server has the child's request."""

    def __init__(self, server: ForkServer, command: list[str], env: dict[str, str], folder) -> None:
        self._pid_file, self._stderr = folder / "pid", folder / "stderr"
        self.returncode = None
        code = "import os\nwith open(%r, 'w') as out:\n    out.write(str(os.getpid()))\n" % str(self._pid_file)
        if command[1] == "-m":
            code, argv, path0 = code + CLI, ["-m", *command[3:]], os.getcwd()
        else:
            code, argv, path0 = code + command[2], ["-c"], ""
        fds = [os.open(os.devnull, os.O_RDONLY), os.open(os.devnull, os.O_WRONLY)]
        try:
            fds.append(os.open(self._stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC))
            spec = {"env": env, "cwd": os.getcwd(), "path0": path0, "argv": argv}
            self._conn = server.send(fds, code=code, interpreter_exit=True, **spec)
        finally:
            for fd in fds:
                os.close(fd)

    def poll(self):
        """The exit status once the server has reaped the child (a signal's as a negative number)."""
        if self.returncode is None and select.select([self._conn], [], [], 0)[0]:
            ended = status(self._conn)
            self.returncode = -signal.SIGKILL if ended is None else ended  # None: killed with the server
        return self.returncode

    def send_signal(self, signum: int) -> None:
        os.kill(int(self._pid_file.read_text()), signum)

    def kill(self) -> None:
        if self._pid_file.exists():
            self.send_signal(signal.SIGKILL)

    def communicate(self):
        """(no stdout, the stderr text), once the child has ended (the fixture ends them all)."""
        while self.poll() is None:
            select.select([self._conn], [], [])
        return "", self._stderr.read_text()


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """Every case's child, run side by side against one loopback server (each on paths of its
    own): ``{(kind, wire): (seconds from SIGINT to exit, exit status, stderr, slowdown)}``.
    Side by side, the module takes one child's time instead of ten; each child still gets its
    signal 2 s after its own request arrived, and the limit scales with the measured slowdown."""
    wires = {name: value for name, value in WIRES.items() if value == "off" or browser_available()}
    cases = [(kind, wire) for kind in KINDS for wire in wires]
    routes = {}
    for index in range(len(cases)):
        routes["/html%d/" % index] = never_answer()
        routes["/page%d" % index] = never_answer()
    outcomes = {}
    with FaultServer(routes) as server:
        children = {}
        with children_get_sigint():  # the fork server too: its children keep its SIGINT handler
            forks = ForkServer(list(searching_preload()))
            try:
                for index, (kind, wire) in enumerate(cases):
                    env = dict(
                        os.environ,
                        WEB_SEARCH_ENDPOINT_DDG_HTML=server.url("/html%d/" % index),
                    )
                    folder = tmp_path_factory.mktemp("case%d" % index)
                    command = _command(kind, server.url("/page%d" % index), wires[wire], folder)
                    if (kind, wire) == (STARTED, next(iter(wires))):
                        children[index] = subprocess.Popen(
                            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
                        )
                    else:
                        children[index] = _Forked(forks, command, env, folder)
            except BaseException:
                forks.kill()
                raise
        try:
            outcomes = _signal_each(server, cases, children)
        finally:
            for child in children.values():
                if child.poll() is None:
                    child.kill()
            forks.close(LOADED_LIMIT_S)  # kills any child still running (one that never reached the server)
            for child in children.values():
                child.communicate()
    return outcomes


def _signal_each(server, cases, children):
    """SIGINT to each child 2 s after its request arrived; how long each took to end."""
    reached, signalled, outcomes = {}, {}, {}
    waited = time.monotonic() + 60  # starting Python and importing is slow on a loaded machine
    with machine_pace() as pace:
        while len(outcomes) < len(cases) and time.monotonic() < waited + LOADED_LIMIT_S + 10:
            now = time.monotonic()
            arrived = {r.route for r in list(server.requests)}
            for index, child in children.items():
                if index in outcomes:
                    continue
                if index not in reached and {"/html%d/" % index, "/page%d" % index} & arrived:
                    reached[index] = now
                if index in reached and index not in signalled and now >= reached[index] + SIGNAL_AFTER_S:
                    assert child.poll() is None, "%s ended before the signal: %s" % (cases[index], child.communicate())
                    child.send_signal(signal.SIGINT)
                    signalled[index] = time.monotonic()
                if index in signalled and child.poll() is not None:
                    outcomes[index] = time.monotonic() - signalled[index]
            time.sleep(0.02)
    assert len(reached) == len(cases), "children that never reached the server: %s" % [
        cases[i] for i in children if i not in reached
    ]
    results = {}
    for index, case in enumerate(cases):
        child = children[index]
        took = outcomes.get(index, float("inf"))
        if child.poll() is None:
            child.kill()
        _, stderr = child.communicate()
        results[case] = (took, child.returncode, stderr, pace.slowdown)
    return results


@pytest.mark.parametrize("wire", [pytest.param("browser", marks=needs_browser), "requests"])
@pytest.mark.parametrize("kind", KINDS)
def test_ctrl_c_ends_a_hanging_call_at_once(kind, wire, interrupted):
    took, status, stderr, slowdown = interrupted[(kind, wire)]
    limit = max(GONE_WITHIN_S, min(LOADED_LIMIT_S, deadline_margin_s(slowdown, idle_margin_s=1.0)))
    assert took <= limit, "still running %.1f s after Ctrl-C (limit %.1f s)" % (took, limit)
    assert status != 0
    if kind.startswith("cli"):
        assert status == 130 and "interrupted" in stderr

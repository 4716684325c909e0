"""The tests' fork server (tests/forkserver.py): what a forked child is given and how it ends.

Its users' tests (the MCP zygote's, PythonForks', the shared-state fleet's) check what their
children do; these check the mechanism they share on its own, with nothing preloaded."""

import json
import os
import signal
import subprocess

import pytest
from forkserver import ForkServer, pid_and_status, status
from python_forks import PythonForks

#: A child that has nothing left to run ends within this; the server answers at once.
STATUS_WAIT_S = 60.0


def _run(server: ForkServer, code: str, **spec):
    """Run ``code`` in a child on a pipe of ours as its stdout; (exit status, what it printed)."""
    read, write = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        base = {"env": {"GIVEN": "yes"}, "cwd": os.path.dirname(os.devnull), "path0": "", "argv": ["-c", "one"]}
        conn = server.send([null, write, 2], code=code, **dict(base, **spec))
    finally:
        os.close(null)
        os.close(write)
    with os.fdopen(read, encoding="utf-8") as out:
        printed = out.read()  # to its end: the child has closed its copy
    return status(conn, STATUS_WAIT_S), printed


def test_a_child_gets_the_requests_fds_environment_directory_argv_and_path():
    code = (
        "import json, os, sys\n"
        "print(json.dumps([sys.argv, os.getcwd(), dict(os.environ), sys.path[0], sys.stdin.read()]))\n"
        "raise SystemExit(3)\n"
    )
    with ForkServer([]) as server:
        code_, printed = _run(server, code)
    argv, cwd, env, path0, stdin = json.loads(printed)
    assert code_ == 3
    assert (argv, cwd, env, path0, stdin) == (["-c", "one"], os.path.dirname(os.devnull), {"GIVEN": "yes"}, "", "")


def test_the_interpreters_exit_runs_only_when_asked_and_an_exception_exits_1():
    code = "import atexit\natexit.register(print, 'exit ran')\nprint('ran', flush=True)\n"
    failing = "print('ran', flush=True)\nraise ValueError('from the code')\n"
    with ForkServer([]) as server:
        assert _run(server, code) == (0, "ran\n")
        assert _run(server, code, interpreter_exit=True) == (0, "ran\nexit ran\n")
        assert _run(server, failing) == (1, "ran\n")
        assert _run(server, failing, interpreter_exit=True) == (1, "ran\n")


def test_a_callable_by_name_gives_the_status_and_a_signal_is_a_negative_status(tmp_path):
    (tmp_path / "seven.py").write_text("def main():\n    return 7\n")
    with ForkServer([]) as server:  # found on the path the request's PYTHONPATH makes
        assert _run(server, "", call="seven:main", env={"PYTHONPATH": str(tmp_path)}) == (7, "")
        assert _run(server, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")[0] == -signal.SIGKILL


def test_tell_pid_gives_the_childs_pid_before_its_status():
    """What a launcher passing its signals on needs (mcp_zygote.py): the child's pid while it runs."""
    read, write = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    spec = {"env": {}, "cwd": os.path.dirname(os.devnull), "path0": "", "argv": ["-c"], "tell_pid": True}
    with ForkServer([]) as server:
        try:
            conn = server.send([null, write, 2], code="import os\nprint(os.getpid())\nraise SystemExit(5)\n", **spec)
        finally:
            os.close(null)
            os.close(write)
        told = []
        code = pid_and_status(conn, told.append)
    with os.fdopen(read, encoding="utf-8") as out:
        assert (code, told) == (5, [int(out.read())])


def test_close_kills_a_child_that_does_not_end():
    server = ForkServer([])
    read, write = os.pipe()
    null = os.open(os.devnull, os.O_RDONLY)
    conn = server.send(
        [null, write, 2],
        code="import os, time\nprint(os.getpid(), flush=True)\ntime.sleep(600)\n",
        env={},
        cwd="/",
        path0="",
        argv=["-c"],
    )
    os.close(null)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as out:
        pid = int(out.readline())
        assert server.close(0.2) is False
        assert out.read() == ""  # its stdout ended: the child is gone
    assert pid > 0 and status(conn, STATUS_WAIT_S) is None  # the server was killed before it could tell


def test_a_server_closed_again_says_its_children_did_not_end_by_themselves_and_raises_nothing():
    """What a shared fleet parent meets: a failed test's fleet closes it (killing a worker left
    running), then the module's end closes it again."""
    server = ForkServer([])
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        conn = server.send([null, null, 2], code=SLEEPS, env={}, cwd="/", path0="", argv=["-c"])
    finally:
        os.close(null)
    try:
        assert server.close(0.0) is False
        assert server.close(STATUS_WAIT_S) is False  # not a write to its closed stdin
    finally:
        conn.close()


def test_the_server_answers_idle_once_its_children_have_ended():
    with ForkServer([]) as server:
        read, write = os.pipe()
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            conn = server.send(
                [read, null, 2], code="import sys\nsys.stdin.read()\n", env={}, cwd="/", path0="", argv=["-c"]
            )
        finally:
            os.close(null)
            os.close(read)
        try:
            assert server.idle(0.2) is False  # the child reads its stdin, which we hold open
        finally:
            os.close(write)
        assert server.idle(STATUS_WAIT_S) is True
        assert status(conn, STATUS_WAIT_S) == 0


def test_a_server_whose_tests_have_gone_kills_its_children_after_a_bound_and_removes_its_folder():
    server = ForkServer([], orphaned_s=0.5)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        conn = server.send(
            [null, null, 2], code="import time\ntime.sleep(600)\n", env={}, cwd="/", path0="", argv=["-c"]
        )
    finally:
        os.close(null)
    try:
        server.process.stdin.close()  # as when the tests' process is killed: no CLOSING first
        assert server.process.wait(STATUS_WAIT_S) == 1  # it did not wait for the child without a bound
        assert status(conn, STATUS_WAIT_S) == -signal.SIGKILL
        assert not os.path.exists(server.folder)
    finally:
        server.kill()
        server.process.stdout.close()


#: A forked child that never ends by itself, and one that writes a line every tenth of a second forever.
SLEEPS = "import time\ntime.sleep(600)\n"
TRICKLES = "import sys, time\nwhile True:\n    print('.', flush=True)\n    time.sleep(0.1)\n"


@pytest.mark.parametrize(
    "code, use",
    [
        (SLEEPS, lambda proc: proc.wait(0.5)),
        (SLEEPS, lambda proc: proc.readline(proc.stdout, 0.5)),
        (SLEEPS, lambda proc: proc.read(proc.stderr, 0.5)),
        (TRICKLES, lambda proc: proc.read(proc.stdout, 0.5)),
        (TRICKLES, lambda proc: proc.communicate(0.5)),  # the bound is the whole call's, not each read's
    ],
    ids=["wait", "readline", "read", "read-trickling", "communicate-trickling"],
)
def test_a_forked_process_past_its_timeout_is_killed_and_says_timeout_expired(code, use):
    with PythonForks(preload=()) as forks:
        with pytest.raises(subprocess.TimeoutExpired):
            with forks.popen(code, {}) as proc:  # ``with`` adds no error of its own
                use(proc)
        assert proc.returncode == -signal.SIGKILL
        assert forks.server.process.poll() is not None  # killed with its server


def test_a_preload_that_starts_a_thread_is_refused(tmp_path):
    (tmp_path / "starts_a_thread.py").write_text(
        "import threading, time\nthreading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    )
    with pytest.raises(RuntimeError, match="did not start"):
        ForkServer(["starts_a_thread"], env=dict(os.environ, PYTHONPATH=str(tmp_path)))

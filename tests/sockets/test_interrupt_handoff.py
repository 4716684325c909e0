"""The hand-off under Ctrl-C (:func:`websearch_sync.net.interrupt.run_interruptibly`): the main
thread waits while a helper runs the work; whatever the order of Ctrl-C and the work's end, the
transfer's ``release`` runs exactly once, after the work, and the work is told to stop only
when it had not finished. Run in a child process: the SIGINT goes to the child's main thread.
"""

import subprocess
import sys
import textwrap

#: Only a bound on a child that hangs (each of its waits gives up after 30 s); nothing is timed.
HANG_BOUND_S = 120

CHILD = textwrap.dedent(
    """
    import signal, threading, time
    from websearch_sync.net.interrupt import run_interruptibly

    main = threading.main_thread().ident
    events = []

    def interrupt_main():
        signal.pthread_kill(main, signal.SIGINT)

    # 1. Ctrl-C while the work runs: KeyboardInterrupt at once, abandon(), release() by the helper after the work.
    went_on = threading.Event()
    def slow():
        interrupt_main()
        went_on.wait(30)
        events.append("work ended")
    def release():
        events.append("released")
        done.set()
    done = threading.Event()
    try:
        run_interruptibly(slow, abandon=lambda: (events.append("abandoned"), went_on.set()), release=release)
    except KeyboardInterrupt:
        events.append("interrupted")
    done.wait(30)
    print("running:", events)

    # 2. The work ends, raising: its error comes back here, release() once.
    events.clear()
    def failing():
        raise ValueError("from the work")
    try:
        run_interruptibly(failing, abandon=lambda: events.append("abandoned"), release=lambda: events.append("released"))
    except ValueError as exc:
        events.append(str(exc))
    print("failed:", events)

    # 3. Another thread runs the work itself (no signal reaches it), release() once.
    events.clear()
    thread = threading.Thread(target=run_interruptibly, args=(lambda: events.append("worked"),),
                              kwargs={"abandon": lambda: events.append("abandoned"),
                                      "release": lambda: events.append("released")})
    thread.start(); thread.join(30)
    print("thread:", events, threading.current_thread() is threading.main_thread())
    """
)


def test_release_runs_once_after_the_work_whenever_ctrl_c_comes():
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=HANG_BOUND_S, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "running: ['abandoned', 'interrupted', 'work ended', 'released']",
        "failed: ['released', 'from the work']",
        "thread: ['worked', 'released'] True",
    ]

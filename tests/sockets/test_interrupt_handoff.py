"""The hand-off under Ctrl-C (:func:`websearch_sync.net.interrupt.run_interruptibly`): the main
thread waits while a helper runs the work; whatever the order of Ctrl-C and the work's end, the
transfer's ``release`` runs exactly once, after the work, and the work is told to stop only
when it had not finished. A parse or extraction handed to a helper (``run_within``) stops at its
next checkpoint once Ctrl-C ends the wait for it. The signal is sent as the caller starts to
wait, so it often lands just before the caller sleeps: it must still be raised within the
caller's wake-up interval, not at the work's end. Run in a child process: the SIGINT goes to
the child's main thread. Where no Ctrl-C can raise (SIGINT ignored, or at the system's default)
the main thread runs the work itself.
"""

import subprocess
import sys
import textwrap

from sigint import children_get_sigint

#: Only a bound on a child that hangs (each of its waits gives up after 30 s). The child's own
#: timing check allows 10 s for what takes at most the wake-up interval (0.25 s), against the
#: 30-60 s a Ctrl-C seen only at the work's end would take.
HANG_BOUND_S = 120

CHILD = textwrap.dedent(
    """
    import signal, threading, time
    from websearch_sync.net.interrupt import run_interruptibly

    main = threading.main_thread().ident
    events = []
    sent = []

    def interrupt_main():
        sent.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGINT)

    def in_time():  # raised long before the work's own end (30 s) or deadline (60 s)
        return time.monotonic() - sent[-1] < 10

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
        events.append("interrupted" if in_time() else "interrupted late")
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

    # 3. Ctrl-C while a parse or extraction runs in a helper (run_within): the work stops at its next checkpoint.
    from websearch_sync.checkpoints import WorkAbandoned, checkpoint
    from websearch_sync.net.deadline import Deadline, run_within
    stopped = threading.Event()
    def extraction():
        interrupt_main()
        try:
            while True:
                checkpoint()
                time.sleep(0.001)
        except WorkAbandoned:
            stopped.set()
            raise
    try:
        run_within(Deadline(60_000), extraction, name="websearch-extract")
    except KeyboardInterrupt:
        print("extraction: interrupted in time", in_time(), "stopped", stopped.wait(30))

    # 4. Another thread runs the work itself (no signal reaches it), release() once.
    events.clear()
    thread = threading.Thread(target=run_interruptibly, args=(lambda: events.append("worked"),),
                              kwargs={"abandon": lambda: events.append("abandoned"),
                                      "release": lambda: events.append("released")})
    thread.start(); thread.join(30)
    print("thread:", events, threading.current_thread() is threading.main_thread())

    # 5. The main thread runs the work itself where no KeyboardInterrupt can come (SIGINT ignored or
    #    at the system's default); a handler of the program's own is Python's, so the work is handed off.
    for handler in (signal.SIG_IGN, signal.SIG_DFL, lambda signum, frame: None, signal.default_int_handler):
        signal.signal(signal.SIGINT, handler)
        ran_in = []
        run_interruptibly(lambda: ran_in.append(threading.current_thread() is threading.main_thread()),
                          abandon=lambda: None, release=lambda: ran_in.append("released"))
        print("handler:", getattr(handler, "name", "python"), ran_in)

    # 6. Work given up on at a Ctrl-C still runs in its helper: the next hand-off does not wait for it.
    hold = threading.Event()
    def stuck():
        interrupt_main()
        hold.wait(30)
    try:
        run_interruptibly(stuck, abandon=lambda: None, release=lambda: None)
    except KeyboardInterrupt:
        pass
    events.clear()
    run_interruptibly(lambda: events.append("worked"), abandon=lambda: None, release=lambda: events.append("released"))
    print("after a job given up on:", events, "in time", in_time(), "still held", not hold.is_set())
    hold.set()
    """
)


def test_release_runs_once_after_the_work_whenever_ctrl_c_comes():
    with children_get_sigint():
        done = subprocess.run(
            [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=HANG_BOUND_S, check=False
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "running: ['abandoned', 'interrupted', 'work ended', 'released']",
        "failed: ['released', 'from the work']",
        "extraction: interrupted in time True stopped True",
        "thread: ['worked', 'released'] True",
        "handler: SIG_IGN [True, 'released']",
        "handler: SIG_DFL [True, 'released']",
        "handler: python [False, 'released']",
        "handler: python [False, 'released']",
        "after a job given up on: ['worked', 'released'] in time True still held True",
    ]

"""Ctrl-C ends a hanging call at once on both wires (issue 32 point 5).

A loopback server reads each request and never answers; a child process searches,
fetches or runs a batch against it with the default 15 s deadline; SIGINT comes 2 s
after the server got the child's request. The child must be gone within 3 s of the signal (the browser
wire used to hold Ctrl-C for the whole deadline: libcurl runs in C).
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from clocks import deadline_margin_s, machine_pace
from faults import never_answer
from servers import FaultServer
from transports import BOTH

SIGNAL_AFTER_S = 2.0
#: Gone within 3 s on an idle machine; on a loaded one, 1 s per unit of slowdown (ending a
#: process is work too), never as much as the 13 s of deadline a call ignoring Ctrl-C would take.
GONE_WITHIN_S, LOADED_LIMIT_S = 3.0, 8.0

PYTHON_CALLS = {
    "search": "ws.search('q', backend='ddg_html', retries=0, settings=ws.Settings(endpoints={'ddg_html': URL}, impersonate=IMP))",
    "fetch": "ws.fetch(URL, allow_private=True, settings=ws.Settings(impersonate=IMP))",
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


@pytest.mark.parametrize("impersonate", BOTH)
@pytest.mark.parametrize("kind", ["cli-search", "cli-fetch", "cli-batch", "python-search", "python-fetch"])
def test_ctrl_c_ends_a_hanging_call_at_once(kind, impersonate, tmp_path):
    with FaultServer({"/html/": never_answer(), "/page": never_answer()}) as server:
        url = server.url("/page")
        env = dict(os.environ, WEB_SEARCH_ENDPOINT_DDG_HTML=server.url("/html/"), WEB_SEARCH_CACHE_TTL="0")
        child = subprocess.Popen(
            _command(kind, url, impersonate, tmp_path),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            waited = time.monotonic() + 60  # starting Python and importing is slow on a loaded machine
            while not server.requests and child.poll() is None and time.monotonic() < waited:
                time.sleep(0.05)
            assert server.requests, "the child never reached the server: %s" % (child.communicate(),)
            time.sleep(SIGNAL_AFTER_S)
            assert child.poll() is None, "the call ended before the signal: %s" % (child.communicate(),)
            with machine_pace() as pace:
                child.send_signal(signal.SIGINT)
                signalled = time.monotonic()
                try:
                    _, stderr = child.communicate(timeout=LOADED_LIMIT_S + 10)
                finally:
                    took = time.monotonic() - signalled
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
    limit = max(GONE_WITHIN_S, min(LOADED_LIMIT_S, deadline_margin_s(pace.slowdown, idle_margin_s=1.0)))
    assert took <= limit, "still running %.1f s after Ctrl-C (limit %.1f s)" % (took, limit)
    assert child.returncode != 0
    if kind.startswith("cli"):
        assert child.returncode == 130 and "interrupted" in stderr

"""A client used before ``fork`` (gunicorn ``--preload``, a pre-fork worker pool, a forking job
queue), then used by the forked children at once.

Before, every child took the parent's pooled keep-alive connection (the requests wire's urllib3
pool, the browser wire's idle curl handles): the children wrote their requests on one socket and
read each other's answers, so calls failed with ``malformed_response``, ``not_json`` or a
``Timeout``, or got another child's answer. Each child must now connect on its own, and the parent
keep its connection.
"""

import os
import signal
import time
import warnings

import pytest
from servers import KeepAliveServer
from transports import BOTH

import websearch_sync as ws

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")

CHILDREN = 3
#: A child that has not exited by then hung (it does one loopback request).
CHILD_LIMIT_S = 30
PAGE = (
    b"<html><head><title>Small</title></head><body><article><h1>Small page</h1><p>"
    + b"A short article with a few readable sentences. " * 12
    + b"</p></article></body></html>"
)


class PageServer(KeepAliveServer):
    """Keep-alive HTTP/1.1 answering PAGE after ``delay_s``; records (client port, path)."""

    def __init__(self, delay_s):
        self.seen = []
        self.delay_s = delay_s
        super().__init__(self._answer)

    def _answer(self, handler):
        self.seen.append((handler.client_address[1], handler.path))
        time.sleep(self.delay_s)  # the children's requests overlap on a shared connection
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html; charset=utf-8")
        handler.send_header("Content-Length", str(len(PAGE)))
        handler.end_headers()
        handler.wfile.write(PAGE)


def _fork(work) -> int:
    """A child running ``work()``: exit 0 when it returns, 1 when it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # forking a process that has threads: what servers do
        pid = os.fork()
    if pid == 0:
        status = 1
        try:
            work()
            status = 0
        finally:
            os._exit(status)
    return pid


def _exit_codes(pids) -> list[int]:
    codes = []
    ends = time.monotonic() + CHILD_LIMIT_S
    for pid in pids:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                codes.append(os.waitstatus_to_exitcode(status))
                break
            if time.monotonic() > ends:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                codes.append(-signal.SIGKILL)
                break
            time.sleep(0.02)
    return codes


@pytest.mark.parametrize("impersonate", BOTH)
def test_forked_children_connect_on_their_own_not_on_the_parents_pooled_connection(impersonate):
    settings = ws.Settings(allow_private=True, impersonate=impersonate, timeout_ms=10_000)
    with PageServer(delay_s=0.05) as server, ws.SearchClient(settings=settings, retries=0) as client:
        assert client.fetch(server.url("/parent-first"))["text"]
        pids = [_fork(lambda n=n: client.fetch(server.url("/child-%d" % n))) for n in range(CHILDREN)]
        codes = _exit_codes(pids)
        assert client.fetch(server.url("/parent-second"))["text"]
        port = {path: port for port, path in server.seen}
    assert codes == [0] * CHILDREN  # before: malformed_response, or a Timeout, in some children
    children = [port[path] for path in port if path.startswith("/child-")]
    assert len(children) == CHILDREN
    assert port["/parent-first"] not in children  # before: every child wrote on the parent's socket
    assert len(set(children)) == CHILDREN
    assert port["/parent-second"] == port["/parent-first"]  # the parent's connection is still its own

"""A client used before ``fork`` (gunicorn ``--preload``, a pre-fork worker pool, a forking job
queue), then used by the forked children at once.

Before, every child took the parent's pooled keep-alive connection (the requests wire's urllib3
pool, the browser wire's idle curl handles): the children wrote their requests on one socket and
read each other's answers, so calls failed with ``malformed_response``, ``not_json`` or a
``Timeout``, or got another child's answer. Each child must now connect on its own, and the parent
keep its connection.
"""

import os
import time
from pathlib import Path

import pytest
from forked import exit_codes, fork_running
from redis_server import NO_REDIS_REASON, REDIS_UP_TIMEOUT_S, RedisServer, redis_server_binary
from servers import KeepAliveServer
from transports import BOTH

import websearch_sync as ws
from websearch_sync.client.state.server import RETRY_AFTER_S, state_server
from websearch_sync.net.wire_mock import MockResponse, MockWire

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
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


@pytest.mark.parametrize("impersonate", BOTH)
def test_forked_children_connect_on_their_own_not_on_the_parents_pooled_connection(impersonate):
    settings = ws.Settings(allow_private=True, impersonate=impersonate, timeout_ms=10_000)
    with PageServer(delay_s=0.05) as server, ws.SearchClient(settings=settings, retries=0) as client:
        assert client.fetch(server.url("/parent-first"))["text"]
        pids = [fork_running(lambda n=n: client.fetch(server.url("/child-%d" % n))) for n in range(CHILDREN)]
        codes = exit_codes(pids, CHILD_LIMIT_S)
        assert client.fetch(server.url("/parent-second"))["text"]
        port = {path: port for port, path in server.seen}
    assert codes == [0] * CHILDREN  # before: malformed_response, or a Timeout, in some children
    children = [port[path] for path in port if path.startswith("/child-")]
    assert len(children) == CHILDREN
    assert port["/parent-first"] not in children  # before: every child wrote on the parent's socket
    assert len(set(children)) == CHILDREN
    assert port["/parent-second"] == port["/parent-first"]  # the parent's connection is still its own


def _redis_parts(client, url):
    """The locks of the shared state a search takes: its connection's (after an outage) and its
    questions in flight's (a lease is renewed for a budget over 3 s)."""
    return {"state server": state_server(url), "shared questions in flight": client._shared.flights}  # noqa: SLF001


@pytest.mark.skipif(redis_server_binary() is None, reason=NO_REDIS_REASON)
@pytest.mark.parametrize("lock", ["state server", "shared questions in flight"])
def test_a_shared_state_lock_another_thread_held_at_the_fork_is_free_in_the_child(lock):
    recorded = (FIXTURES / "brave" / "brave-search-python-client__1.json").read_bytes()
    wire = MockWire(lambda request: MockResponse(headers={"Content-Type": "application/json"}, body=recorded))
    with RedisServer() as redis:
        url = "%s?socket_timeout=%s" % (redis.url, REDIS_UP_TIMEOUT_S)
        settings = ws.Settings(providers={"brave": {"api_key": "a-key"}}, state_url=url)
        with ws.SearchClient("brave", settings=settings, wire=wire, retries=0, budget_ms=10_000) as client:
            client.search("asked in the parent")
            server = state_server(url)
            server.failed(ConnectionError("an outage over by now"), time.monotonic() - RETRY_AFTER_S - 1)
            with _redis_parts(client, url)[lock]._lock:  # noqa: SLF001 - another thread's, for microseconds
                pid = fork_running(lambda: client.search("asked in the child"))
                code = exit_codes([pid], CHILD_LIMIT_S)[0]
            server.forget_outage()
    assert code == 0  # before: HUNG on the lock

"""A client used before ``fork`` (gunicorn ``--preload``, a pre-fork worker pool, a forking job
queue), then used by the forked children at once.

Before, every child took the parent's pooled keep-alive connection (the requests wire's urllib3
pool, the browser wire's idle curl handles): the children wrote their requests on one socket and
read each other's answers, so calls failed with ``malformed_response``, ``not_json`` or a
``Timeout``, or got another child's answer. Each child must now connect on its own, and the parent
keep its connection.
"""

import functools
import itertools
import os
import threading
import time
from pathlib import Path

import faults
import pytest
import requests
from clocks import paced_budget_s
from fake_searxng import Engine, FakeSearXNG
from forked import exit_codes, fork_running, held_by_another_thread
from redis_server import NO_REDIS_REASON, REDIS_UP_TIMEOUT_S, RedisServer, redis_server_binary
from servers import LOCALHOST_CERT, FaultServer, KeepAliveServer
from transports import BOTH

import websearch_sync as ws
from websearch_sync.backends import searxng_config
from websearch_sync.client.state import server as state_servers
from websearch_sync.client.state.server import RETRY_AFTER_S, state_server
from websearch_sync.net import environment, requests_adapter
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
    """Keep-alive HTTP/1.1 (``tls``: over TLS) answering PAGE after ``delay_s``; records (client port, path)."""

    def __init__(self, delay_s, tls=False):
        self.seen = []
        self.delay_s = delay_s
        super().__init__(self._answer, tls=tls)

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


def _redis_locks(client, url):
    """The locks of the shared state a search takes: its connection's (after an outage), its
    questions in flight's (a lease is renewed for a budget over 3 s) and the table of connections'."""
    return {
        "state server": state_server(url)._lock,  # noqa: SLF001
        "shared questions in flight": client._shared.flights._lock,  # noqa: SLF001
        "state servers": state_servers._SERVERS_LOCK,  # noqa: SLF001
    }


@pytest.mark.skipif(redis_server_binary() is None, reason=NO_REDIS_REASON)
@pytest.mark.parametrize("lock", ["state server", "shared questions in flight", "state servers"])
def test_a_shared_state_lock_another_thread_held_at_the_fork_is_free_in_the_child(lock):
    recorded = (FIXTURES / "brave" / "brave-search-python-client__1.json").read_bytes()
    wire = MockWire(lambda request: MockResponse(headers={"Content-Type": "application/json"}, body=recorded))
    with RedisServer() as redis:
        url = "%s?socket_timeout=%s" % (redis.url, REDIS_UP_TIMEOUT_S)
        settings = ws.Settings(providers={"brave": {"api_key": "a-key"}}, state_url=url)
        new_client = functools.partial(
            ws.SearchClient, "brave", settings=settings, wire=wire, retries=0, budget_ms=10_000
        )

        def child():  # a search of the client, one of a new client (which looks its Redis up)
            client.search("asked in the child")
            with new_client() as another:
                another.search("asked by a new client")

        with new_client() as client:
            client.search("asked in the parent")
            server = state_server(url)
            server.failed(ConnectionError("an outage over by now"), time.monotonic() - RETRY_AFTER_S - 1)
            with held_by_another_thread(_redis_locks(client, url)[lock]):
                pid = fork_running(child)
                code = exit_codes([pid], CHILD_LIMIT_S)[0]
            server.forget_outage()
    assert code == 0  # before: HUNG on the lock


#: The loopback requests of the tests below end well within it; a child still running then hung.
TIMEOUT_MS = 10_000


def test_a_forked_childs_request_ends_at_its_deadline_on_the_requests_wire():
    """The child's deadline is the subject, so it is short (the test waits it out): a child whose
    deadline never fires reads header lines until http.client's cap of 100, at 5x the deadline,
    and fails with another error than ``Timeout``, or hangs past the bound."""
    deadline_s = paced_budget_s(1.5)
    routes = {
        "/page": faults.respond(200, PAGE),
        # each line in time for a read; http.client's cap of 100 header lines is reached at 5x the deadline
        "/slow": faults.slow_header_lines(deadline_s / 20, server_side_s=10 * deadline_s),
    }
    settings = ws.Settings(allow_private=True, impersonate="off", timeout_ms=TIMEOUT_MS)
    with FaultServer(routes) as server, ws.SearchClient(settings=settings, retries=0) as client:
        assert client.fetch(server.url("/page"))["text"]  # the parent's watchdog thread runs now

        def child():
            with pytest.raises(ws.Timeout):
                client.fetch(server.url("/slow"), timeout_ms=int(deadline_s * 1000))

        code = exit_codes([fork_running(child)], 3 * deadline_s)[0]
    assert code == 0  # before: HUNG (no deadline fired in the child: the parent's watchdog thread is not there)


#: Each lock a wire's thread may hold while it sends, by the wire it is on.
WIRE_LOCKS = {
    ("environment proxies", "chrome"): lambda client: environment._SHARED_PROXIES._lock,  # noqa: SLF001
    ("watchdog", "off"): lambda client: requests_adapter._WATCHES._wake,  # noqa: SLF001
    ("browser wire being built", "chrome"): lambda client: client._transport._building,  # noqa: SLF001
}


@pytest.mark.parametrize("lock, impersonate", sorted(WIRE_LOCKS))
def test_a_wires_lock_another_thread_held_at_the_fork_is_free_in_the_child(lock, impersonate):
    settings = ws.Settings(allow_private=True, impersonate=impersonate, timeout_ms=TIMEOUT_MS)
    with FaultServer({"/page": faults.respond(200, PAGE)}) as server:
        with ws.SearchClient(settings=settings, retries=0, cache_ttl_s=0) as client:
            assert client.fetch(server.url("/page"))["text"]
            with held_by_another_thread(WIRE_LOCKS[lock, impersonate](client)):
                pid = fork_running(lambda: client.fetch(server.url("/page")))
            code = exit_codes([pid], 3 * TIMEOUT_MS / 1000)[0]
    assert code == 0  # before: HUNG on the lock


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_child_closing_the_client_before_its_first_request_leaves_the_parents_tls_connection(
    impersonate, monkeypatch
):
    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)  # they would beat the client's CA bundle
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)
    settings = ws.Settings(allow_private=True, impersonate=impersonate, timeout_ms=TIMEOUT_MS, ca_bundle=LOCALHOST_CERT)
    with PageServer(delay_s=0, tls=True) as server, ws.SearchClient(settings=settings, retries=0) as client:
        assert client.fetch(server.url("/parent-first"))["text"]
        code = exit_codes([fork_running(client.close)], 3 * TIMEOUT_MS / 1000)[0]
        assert client.fetch(server.url("/parent-second"))["text"]
        port = {path: port for port, path in server.seen}
    assert code == 0
    assert port["/parent-second"] == port["/parent-first"]  # before: the child's close ended the parent's connection


def _socket_inode(local_port, remote_port):
    """The inode of the loopback TCP socket from ``local_port`` to ``remote_port`` (/proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == local_port and int(fields[2].rsplit(":", 1)[1], 16) == remote_port:
            return int(fields[9])
    raise AssertionError("no socket from port %d to port %d" % (local_port, remote_port))


def _held_socket_inodes():
    """The inodes of the sockets this process holds a descriptor of (/proc/self/fd)."""
    inodes = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink("/proc/self/fd/" + name)
        except OSError:  # the listing's own descriptor, closed by now
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[len("socket:[") : -1]))
    return inodes


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads /proc")
@pytest.mark.parametrize("impersonate", BOTH)
def test_a_forked_child_lets_go_of_the_parents_pooled_tls_connection_without_a_byte_on_it(impersonate, monkeypatch):
    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)  # they would beat the client's CA bundle
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)
    settings = ws.Settings(allow_private=True, impersonate=impersonate, timeout_ms=TIMEOUT_MS, ca_bundle=LOCALHOST_CERT)
    with PageServer(delay_s=0, tls=True) as server, ws.SearchClient(settings=settings, retries=0) as client:
        assert client.fetch(server.url("/parent-first"))["text"]
        connection = _socket_inode(server.seen[0][0], server.server.server_address[1])
        assert connection in _held_socket_inodes()  # the parent's pooled connection

        def child():  # at the fork, before any call of the child
            assert connection not in _held_socket_inodes()
            # even closing the parent's wire itself now reaches nothing: libcurl's cleanup ended the
            # parent's TLS connection with a close_notify (measured before the fix); urllib3's sends nothing
            client._transport.browser.close()  # noqa: SLF001

        code = exit_codes([fork_running(child)], CHILD_LIMIT_S)[0]
        assert client.fetch(server.url("/parent-second"))["text"]
        port = {path: port for port, path in server.seen}
    assert code == 0  # before: 1, the child held the parent's connection until it exited
    assert port["/parent-second"] == port["/parent-first"]  # no close_notify (nor FIN) from the child


def test_a_session_given_in_the_parent_is_refused_in_a_forked_child_and_one_built_there_is_used():
    settings = ws.Settings(allow_private=True, impersonate="off", timeout_ms=TIMEOUT_MS)
    parents = requests.Session()
    with PageServer(delay_s=0) as server, ws.SearchClient(settings=settings, retries=0, session=parents) as client:
        assert client.fetch(server.url("/parent-first"))["text"]

        def child():
            with pytest.raises(ws.InvalidInput) as refused:  # the client built with it in the parent
                client.fetch(server.url("/child"))
            assert refused.value.detail_code == "session_from_parent"
            with ws.SearchClient(settings=settings, retries=0, session=parents) as again:  # a client built here
                with pytest.raises(ws.InvalidInput, match="before the fork"):
                    again.fetch(server.url("/child-again"))
            with requests.Session() as own, ws.SearchClient(settings=settings, retries=0, session=own) as fresh:
                assert fresh.fetch(server.url("/child-own"))["text"]
            client.close()  # the child may close it still

        code = exit_codes([fork_running(child)], CHILD_LIMIT_S)[0]
        assert client.fetch(server.url("/parent-second"))["text"]
        port = {path: port for port, path in server.seen}
    parents.close()
    assert code == 0  # before: 1, the child's request went out on the parent's session's pooled connection
    assert sorted(port) == ["/child-own", "/parent-first", "/parent-second"]
    assert port["/parent-second"] == port["/parent-first"] != port["/child-own"]


def test_a_config_read_another_thread_had_under_way_at_the_fork_is_made_by_the_child(monkeypatch):
    monkeypatch.setattr(searxng_config, "CONFIG_MAX_S", TIMEOUT_MS / 1000)  # the parent's read lasts past the fork
    with FakeSearXNG([Engine("google"), Engine("qwant")]) as sx:
        gate, arrivals = threading.Event(), itertools.count(1)
        config = sx.server.routes["/config"]
        gated = faults.gated(gate, config)  # the first read (the parent's) is answered at the end

        def first_gated(conn, request, server):
            (gated if next(arrivals) == 1 else config)(conn, request, server)

        sx.server.routes["/config"] = first_gated
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        with ws.SearchClient(settings=settings, retries=0, cache_ttl_s=0, budget_ms=5 * TIMEOUT_MS) as client:
            search = functools.partial(client.search, backend="searxng", time_range="day")  # reads /config after
            asking = threading.Thread(target=search, args=("asked in the parent",))
            asking.start()
            try:
                while sx.config_reads == 0 and asking.is_alive():
                    asking.join(0.01)
                assert sx.config_reads == 1  # the parent's read is under way
                code = exit_codes([fork_running(lambda: search("asked in the child"))], 3 * TIMEOUT_MS / 1000)[0]
                reads = sx.config_reads
            finally:
                gate.set()
                asking.join()
    assert code == 0
    assert reads == 2  # before: 1, the child waited its slice for the parent's read (never to end there)


@pytest.mark.parametrize("impersonate", BOTH)
def test_a_child_forked_while_a_parents_thread_reads_an_answer_runs(impersonate):
    """A parent's thread is reading an answer's body (the upstream stalled after 5 KB of 200 KB) at
    the fork: the child runs its own code. Letting go of the parent's connections closed them on the
    requests wire, which took the lock of the answer's reader that the reading thread held: the
    child hung at the fork for ever."""
    started = threading.Event()
    body_start = b"<html><body><p>" + b"x" * 5000

    def stall_mid_body(conn, request, server):
        fields = {"Content-Type": "text/html", "Content-Length": "200000"}  # kept alive: pooled afterwards
        conn.sendall(faults.head(200, fields) + body_start)
        started.set()
        server.wait(CHILD_LIMIT_S)

    settings = ws.Settings(allow_private=True, impersonate=impersonate, timeout_ms=CHILD_LIMIT_S * 1000)
    with FaultServer({"/slow": stall_mid_body}) as server, ws.SearchClient(settings=settings, retries=0) as client:
        reader = threading.Thread(target=_fetch_quietly, args=(client, server.url("/slow")), daemon=True)
        reader.start()
        assert started.wait(CHILD_LIMIT_S)
        time.sleep(paced_budget_s(0.3))  # the thread has read the headers and waits in the body
        code = exit_codes([fork_running(lambda: None)], CHILD_LIMIT_S)[0]
        server.stopping.set()
    assert code == 0


def _fetch_quietly(client, url):
    try:
        client.fetch(url)
    except ws.WebSearchError:
        pass  # the server stops: the read ends in an error, which is not this test's subject

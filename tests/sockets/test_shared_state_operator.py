"""What an operator of a fleet meets on its Redis: a slow link, a second application, a
locked-down server (AUTH, ACL users, a database number), a worker's clock set wrong.

Each test starts what it needs on loopback (a real redis-server, a proxy in front of it) and
stops it; waits are bounded, and where real time is the subject the margin comes from the
machine (tests/clocks.py).
"""

import logging
import os
import re
import shutil
import socket
import struct
import tempfile
import threading
import time
from pathlib import Path

import pytest
from clocks import FakeClock, deadline_margin_s, machine_pace
from faults import refused_port
from redis_server import (  # noqa: F401  (fixtures)
    NO_REDIS_REASON,
    REDIS_UP_TIMEOUT_S,
    RedisServer,
    redis_db,
    redis_server,
    redis_server_binary,
    up,
)
from servers import LoopbackListener

import websearch_sync as ws
from websearch_sync.cli import main as cli_main
from websearch_sync.client.state.server import RETRY_AFTER_S
from websearch_sync.net.deadline import Deadline
from websearch_sync.once import Once

# -- a Redis behind a link that delivers its replies a byte at a time ----------------------------


class TrickleProxy(LoopbackListener):
    """A TCP proxy on 127.0.0.1 in front of ``upstream_port``: what the client sends passes at
    once, what Redis answers reaches the client one byte every ``byte_s`` (each byte well inside
    any socket timeout, so no single read ever times out). Every thread ends when it is closed."""

    def __init__(self, upstream_port: int, byte_s: float) -> None:
        super().__init__()
        self.upstream_port = upstream_port
        self.byte_s = byte_s
        self.url = "redis://127.0.0.1:%d/0" % self.port

    def connected(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=5)
        except OSError:
            client.close()
            return
        for source, sink, pause in ((client, upstream, 0.0), (upstream, client, self.byte_s)):
            threading.Thread(target=self._pipe, args=(source, sink, pause), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, pause: float) -> None:
        try:
            # inside the try: the other direction's thread may have ended and closed this source
            # before this thread began (a loaded machine starts threads late)
            source.settimeout(0.2)
            while not self.stopping.is_set():
                try:
                    data = source.recv(65536)
                except socket.timeout:
                    continue
                if not data:
                    return
                for index in range(len(data) if pause else 1):
                    if pause and self.stopping.wait(pause):
                        return
                    sink.sendall(data[index : index + 1] if pause else data)
        except OSError:
            return
        finally:
            sink.close()


def test_a_redis_that_answers_a_byte_at_a_time_never_makes_a_call_outlast_its_budget(redis_server):  # noqa: F811
    """Each byte of a reply comes 0.05 s after the last, so no single read reaches the 0.25 s
    command timeout, yet one reply of a few dozen bytes takes seconds: a 1 s search took 11.8 s
    (the connection's first command), then 1.1 s and failed with ``budget_exhausted`` every
    time, Redis never counted as failing. A command (the whole round trip) is bounded, not
    each read: the call ends within its budget, with local state, and answers."""
    budget_s = 1.0
    with TrickleProxy(redis_server.port, byte_s=0.05) as proxy:
        with ws.SearchClient("stub", state_url=proxy.url, min_interval_s={"stub": 0.01}) as client:
            for query in ("first", "second"):
                with machine_pace() as pace:
                    started = time.monotonic()
                    answer = client.search(query, timeout_ms=int(budget_s * 1000))
                    elapsed = time.monotonic() - started
                limit = budget_s + deadline_margin_s(pace.slowdown)
                assert elapsed < limit, "a %d ms search took %.2f s (limit %.2f s)" % (budget_s * 1000, elapsed, limit)
                assert answer["items"] and answer["provider_meta"]["cached"] is False


# -- a NAT between the workers and Redis that forgets idle connections ------------------------------


class ForgetfulNat(LoopbackListener):
    """A TCP proxy on 127.0.0.1 in front of ``upstream_port`` that forgets a connection idle for
    ``idle_s``: the client's next bytes are answered with a reset, as a NAT or a cloud load balancer
    does after its idle timeout (the client hears nothing until it sends)."""

    def __init__(self, upstream_port: int, idle_s: float) -> None:
        super().__init__()
        self.upstream_port = upstream_port
        self.idle_s = idle_s
        self.resets = 0
        self.url = "redis://127.0.0.1:%d/0" % self.port

    def connected(self, client: socket.socket) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=5)
        last = [time.monotonic()]
        threading.Thread(target=self._answers, args=(upstream, client, last), daemon=True).start()
        client.settimeout(0.2)
        try:
            while not self.stopping.is_set():
                try:
                    data = client.recv(65536)
                except socket.timeout:
                    continue
                if not data:
                    return
                if time.monotonic() - last[0] > self.idle_s:
                    self.resets += 1
                    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    return  # closed with linger 0: a reset
                last[0] = time.monotonic()
                upstream.sendall(data)
        except OSError:
            return
        finally:
            client.close()
            upstream.close()

    def _answers(self, upstream: socket.socket, client: socket.socket, last: list) -> None:
        try:
            while True:
                data = upstream.recv(65536)
                if not data:
                    return
                last[0] = time.monotonic()
                client.sendall(data)
        except OSError:
            return


def test_a_connection_a_nat_forgot_is_replaced_before_it_fails_a_call(redis_server, caplog, monkeypatch):  # noqa: F811
    """A batch worker idles longer than the NAT in front of Redis keeps a connection: its next
    command met a reset, and Redis counted as down for 5 s (one warning, local state meanwhile,
    nothing shared) after every idle spell. A connection idle longer than ``MAX_IDLE_S`` is
    replaced before its next command (here 0.2 s, the NAT's idle timeout 0.5 s)."""
    from websearch_sync.client.state import server

    monkeypatch.setattr(server, "MAX_IDLE_S", 0.2)
    with ForgetfulNat(redis_server.port, idle_s=0.5) as nat, caplog.at_level(logging.WARNING, logger="websearch_sync"):
        with ws.SearchClient("stub", state_url=up(nat.url), min_interval_s={"stub": 0.01}) as client:
            assert client.search("before the idle spell")["provider_meta"]["cached"] is False
        time.sleep(1.0)
        with ws.SearchClient("stub", state_url=up(nat.url), min_interval_s={"stub": 0.01}) as client:
            assert client.search("before the idle spell")["provider_meta"]["cached"] is True  # from Redis
    assert nat.resets == 0
    assert not [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]


# -- a worker killed while it asked: one of the others takes the question over, not all ----------


def test_followers_of_a_killed_leader_ask_once_between_them(redis_db, redis_server, monkeypatch):  # noqa: F811
    """A worker that claimed a question was killed: its lease is left to lapse. Four workers (four
    clients: only Redis joins them) wait for that question's answer, with no pace to hold them
    back (an API backend). When the lease lapsed, each of them asked the upstream itself: four
    requests for one question. One takes the question over; the others wait for its answer.
    Under load, 1 run of 80 still sent two: a waiter read the lease in its last millisecond (PTTL
    0, its claim still refused) and asked without the question; tests/unit/test_flight_takeover.py
    places that and the other stalls exactly."""
    from shared_state_worker import Upstream

    from websearch_sync.client.state.flights import SharedFlights

    names: list[str] = []
    real_key = SharedFlights._key
    monkeypatch.setattr(SharedFlights, "_key", lambda self, key: names.append(real_key(self, key)) or names[-1])
    with Upstream("browse-API__1", delay_s=0.3) as upstream:
        settings = ws.Settings(endpoints={"searxng": upstream.server.url("/search")}, state_url=up(redis_server.url))
        with ws.SearchClient("searxng", settings=settings, min_interval_s=0) as probe:
            probe.search("orphaned", cache_ttl_s=0.001)  # names the question's key (a hash)
        redis_db.flushdb()
        redis_db.set(names[0], "the token of a worker that was killed", px=500)  # its lease, lapsing
        asked_before = len(upstream.arrivals)
        clients = [ws.SearchClient("searxng", settings=settings, min_interval_s=0) for _ in range(4)]
        answers: list[dict] = []
        try:
            threads = [threading.Thread(target=lambda c=c: answers.append(c.search("orphaned"))) for c in clients]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
        finally:
            for client in clients:
                client.close()
    assert len(answers) == 4 and all(answer["items"] for answer in answers)
    assert len(upstream.arrivals) - asked_before == 1, "requests for one question: %d" % (
        len(upstream.arrivals) - asked_before
    )


# -- a locked-down Redis: the user of docs/scaling.md's ACL line, a database number, a prefix -----

DOCS = Path(__file__).resolve().parents[2] / "docs" / "scaling.md"


def _documented_acl() -> list[str]:
    """The words of the ``acl`` block of docs/scaling.md (``user <name> on >pw ~keys +commands``)."""
    (block,) = re.findall(r"```acl\n(.*?)\n```", DOCS.read_text(encoding="utf-8"), re.S)
    return block.split()


class AclRedis(RedisServer):
    """A redis-server whose only users are the documented one and a default user that may PING
    (how the helper sees it is up), nothing else."""

    def command(self) -> list[str]:
        words = _documented_acl()
        assert words[0] == "user"
        return super().command() + ["--user", "default", "on", "nopass", "-@all", "+ping", "--user", *words[1:]]


def test_the_documented_acl_is_all_the_state_needs(caplog, capsys, monkeypatch):
    """docs/scaling.md gives the commands a restricted user needs; with exactly those, a database
    number, a client name (CLIENT SETNAME at each connection: without it in the ACL every
    connection failed) and a prefix, every part works (cache, pace, single flight, cool-downs,
    state clear, state show) and Redis never counts as failing (a missing command would log the outage warning)."""
    if redis_server_binary() is None:
        pytest.skip(NO_REDIS_REASON)
    pytest.importorskip("redis")
    import redis

    words = _documented_acl()
    user, password = words[1], next(word[1:] for word in words if word.startswith(">"))
    assert "~websearch_sync:*" in words
    with AclRedis() as server:
        url = up("redis://%s:%s@127.0.0.1:%d/2?client_name=crawler-7" % (user, password, server.port))
        settings = ws.Settings(state_url=url, state_prefix="crawler", state_required=True)
        with (
            caplog.at_level(logging.WARNING, logger="websearch_sync"),
            ws.SearchClient("stub", settings=settings, min_interval_s={"stub": 0.01}) as first,
            ws.SearchClient("stub", settings=settings, min_interval_s={"stub": 0.01}) as second,
        ):
            assert first.search("locked down")["provider_meta"]["cached"] is False
            assert second.search("locked down")["provider_meta"]["cached"] is True
            first._cooldowns.record(ws.WebBlocked("slow down", provider="stub", detail_code="http_429", retry_after=60))
            with pytest.raises(ws.WebBlocked):
                second.search("another", cache_ttl_s=0)
            assert second.clear_cooldowns() == ["stub"]
            assert first.search("another", cache_ttl_s=0)["items"]
        monkeypatch.setenv("WEB_SEARCH_STATE_PREFIX", "crawler")
        assert cli_main(["state", "show", "--state-url", url]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == "cached answers: 1"
        keys = redis.Redis(port=server.port, db=2, username=user, password=password).scan_iter(match="*")
        assert {key.decode().split(":")[2] for key in keys} >= {"cache", "slot", "fleet", "sent"}
    assert not [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]


TLS_DIR = Path(__file__).resolve().parents[1] / "data" / "tls"


class TlsRedis(RedisServer):
    """A redis-server that speaks only TLS (tests/data/tls/localhost.*), on ``tls_port``."""

    def __init__(self) -> None:
        super().__init__()
        self.tls_port = self.hold_port()

    def command(self) -> list[str]:
        cert, key = str(TLS_DIR / "localhost.crt"), str(TLS_DIR / "localhost.key")
        tls = ["--tls-port", str(self.tls_port), "--tls-cert-file", cert, "--tls-key-file", key]
        return super().command() + tls + ["--tls-ca-cert-file", cert, "--tls-auth-clients", "no"]


@pytest.mark.parametrize("capped", ["", "&max_connections=1"], ids=["its pool", "a capped pool"])
def test_a_rediss_url_shares_the_state_over_tls(caplog, capped):
    """``rediss://`` with the server's CA: answers are shared, nothing counts as an outage (the
    round-trip bound wraps the TLS socket, not the TCP one under it), with the pool that waits for
    a free connection too."""
    if redis_server_binary() is None:
        pytest.skip(NO_REDIS_REASON)
    pytest.importorskip("redis")
    with TlsRedis() as server:
        # a loaded machine's TLS handshake may outlast the production bound (an outage here): this
        # test is about TLS, not the bound
        url = (
            "rediss://127.0.0.1:%d/1?ssl_ca_certs=%s&socket_timeout=%g&socket_connect_timeout=%g"
            % (
                server.tls_port,
                TLS_DIR / "localhost.crt",
                REDIS_UP_TIMEOUT_S,
                REDIS_UP_TIMEOUT_S,
            )
            + capped
        )
        with caplog.at_level(logging.WARNING, logger="websearch_sync"):
            for cached in (False, True):
                with ws.SearchClient("stub", state_url=url, min_interval_s={"stub": 0.01}) as client:
                    assert client.search("over tls")["provider_meta"]["cached"] is cached
    assert not [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]


def test_a_wrong_password_is_one_warning_naming_it_and_never_shows_the_password(redis_db, redis_server, caplog):  # noqa: F811
    """An operator's typo in the state URL's password: the warning (and ``state_unavailable``) says
    the server refused it, once, and neither shows the password given."""
    redis_db.execute_command("ACL", "SETUSER", "typo-test", "on", ">the-right-one", "~*", "+@all")
    url = up("redis://typo-test:wr0ng-pa55@127.0.0.1:%d/0" % redis_server.port)
    try:
        with (
            caplog.at_level(logging.WARNING, logger="websearch_sync"),
            ws.SearchClient("stub", state_url=url) as client,
        ):
            assert all(client.search("typo %d" % number)["items"] for number in range(3))
        with ws.SearchClient("stub", settings=ws.Settings(state_url=url, state_required=True)) as client:
            with pytest.raises(ws.NetworkError) as info:
                client.search("typo, state required")
    finally:
        redis_db.execute_command("ACL", "DELUSER", "typo-test")
    warned = [record.getMessage() for record in caplog.records if "shared state" in record.getMessage()]
    assert len(warned) == 1 and "AuthenticationError: invalid username-password pair" in warned[0], warned
    assert info.value.detail_code == "state_unavailable" and "AuthenticationError" in info.value.message
    assert "wr0ng-pa55" not in warned[0] + info.value.message


def test_a_rediss_url_to_a_redis_without_tls_says_so(redis_server, caplog):  # noqa: F811
    """A plain Redis never answers the TLS handshake: redis-py said "Timeout connecting to server",
    as of a host that is down, in the warning and in ``state_unavailable``."""
    # the TCP connection (a worker thread's) has 5 s, the handshake then 0.2 s: the message says TLS
    # only of a connection made, and a loaded machine may be slow to start that thread
    url = "rediss://127.0.0.1:%d/0?socket_timeout=0.2&socket_connect_timeout=5" % redis_server.port
    hint = "over TLS (rediss://): a server that does not serve TLS on that port never answers the handshake"
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        with ws.SearchClient("stub", state_url=url) as client:
            assert client.search("plain server")["items"]  # local state meanwhile
    assert [record.getMessage() for record in caplog.records if hint in record.getMessage()]
    with ws.SearchClient("stub", settings=ws.Settings(state_url=url, state_required=True)) as client:
        with pytest.raises(ws.NetworkError) as info:
            client.search("plain server, state required")
    assert info.value.detail_code == "state_unavailable" and hint in info.value.message


def test_a_rediss_url_to_a_host_that_does_not_answer_does_not_blame_tls():
    """A host down (here: a full accept queue, whose SYNs the kernel drops, as a firewall does) makes
    no TCP connection: the timeout was relabelled "a server that does not serve TLS on that port",
    sending the operator after the wrong cause."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    queued = [socket.socket() for _ in range(4)]
    for waiting in queued:  # fills the queue: later SYNs are dropped
        waiting.setblocking(False)
        waiting.connect_ex(("127.0.0.1", port))
    url = "rediss://127.0.0.1:%d/0?socket_timeout=0.2&socket_connect_timeout=0.2" % port
    try:
        with ws.SearchClient("stub", settings=ws.Settings(state_url=url, state_required=True)) as client:
            with pytest.raises(ws.NetworkError) as info:
                client.search("host that does not answer")
    finally:
        for sock in [*queued, listener]:
            sock.close()
    assert info.value.detail_code == "state_unavailable"
    assert "the host did not answer, or a Redis without TLS on that port never answers the handshake" in (
        info.value.message
    )
    assert "a server that does not serve TLS" not in info.value.message


# -- a full Redis: what the documented eviction policy keeps, and what noeviction costs -----------


@pytest.mark.parametrize("policy, outage", [("allkeys-lru", False), ("noeviction", True)])
def test_a_full_state_redis_keeps_the_pace_shared_under_the_documented_policy(
    redis_db,  # noqa: F811
    redis_server,  # noqa: F811
    caplog,
    policy,
    outage,
):
    """docs/scaling.md: with ``allkeys-lru`` a Redis at its memory limit evicts old answers and the
    fleet keeps one pace (no outage); under ``noeviction`` it refuses the slot script and every
    process falls back to its own state (the documented warning)."""
    for number in range(20):  # 2 MB of old answers
        redis_db.set("websearch_sync:cache:old-%d" % number, "x" * 100_000, ex=3600)
    redis_db.config_set("maxmemory", redis_db.info("memory")["used_memory"] - 1_000_000)  # full: 1 MB over
    redis_db.config_set("maxmemory-policy", policy)
    try:
        with (
            caplog.at_level(logging.WARNING, logger="websearch_sync"),
            # a URL of its own: the outage it provokes is this process's for the URL (5 s), not the next test's
            ws.SearchClient(
                "stub", state_url=up(redis_server.url + "?client_name=" + policy), min_interval_s={"stub": 0.01}
            ) as client,
        ):
            for number in range(5):
                client.search("answer %d" % number, max_results=10)
        warned = [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]
        assert bool(warned) is outage, warned
        assert outage or redis_db.exists("websearch_sync:slot:{stub}", "websearch_sync:fleet:{stub}") == 2
        assert not outage or "OutOfMemoryError" in warned[0]
    finally:
        redis_db.flushdb()
        redis_db.config_set("maxmemory", 0)
        redis_db.config_set("maxmemory-policy", "noeviction")


def test_a_redis_restarted_empty_between_calls_is_no_outage(redis_db, redis_server, caplog):  # noqa: F811
    """What a restart without persistence leaves behind, on the module's server: every connection
    closed, no key, no script loaded (the slot scripts are sent by their hash). The next call
    connects again, loads the scripts and books its slot: no outage, no warning."""
    url = up(redis_server.url + "?client_name=restarted")
    with (
        caplog.at_level(logging.WARNING, logger="websearch_sync"),
        ws.SearchClient("stub", state_url=url, min_interval_s={"stub": 0.01}) as client,
    ):
        client.search("before")
        redis_db.script_flush()
        redis_db.flushdb()
        assert redis_db.client_kill_filter(_type="normal", skipme=True) >= 1
        assert client.search("after")["provider_meta"]["cached"] is False
    assert not [record.getMessage() for record in caplog.records if "shared state" in record.getMessage()]
    assert redis_db.exists("websearch_sync:slot:{stub}", "websearch_sync:fleet:{stub}") == 2
    assert len(redis_db.keys("websearch_sync:cache:*")) == 1  # the answer after the restart


def test_a_redis_that_answers_reads_and_refuses_writes_is_one_warning_not_one_every_retry(
    redis_db,  # noqa: F811
    redis_server,  # noqa: F811
    caplog,
):
    """A replica (a URL left on the old primary after a failover) or a full Redis under noeviction
    answered each call's cache read after the 5 s rest, then refused its booking: every 5 s the
    process logged "answers again" and warned of a new outage."""
    clock = FakeClock()
    url = up(redis_server.url + "?client_name=refusing-writes")  # a URL of its own: its outage is this test's
    redis_db.config_set("maxmemory", 1)  # under noeviction (the default): every write refused, reads answered
    try:
        with (
            caplog.at_level(logging.INFO, logger="websearch_sync"),
            ws.SearchClient("stub", state_url=url, min_interval_s={"stub": 0.01}, clock=clock) as client,
        ):
            for number in range(4):
                client.search("refused %d" % number)
                clock.sleep(RETRY_AFTER_S)
            during = [record.getMessage() for record in caplog.records if "shared state" in record.getMessage()]
            redis_db.config_set("maxmemory", 0)
            for number in range(2):
                client.search("answered %d" % number)
                clock.sleep(RETRY_AFTER_S)
    finally:
        redis_db.config_set("maxmemory", 0)
        redis_db.flushdb()
    after = [record.getMessage() for record in caplog.records if "shared state" in record.getMessage()][len(during) :]
    assert len(during) == 1 and "OutOfMemoryError" in during[0], during
    assert len(after) == 1 and after[0].endswith("answers again"), after


def test_a_write_a_full_redis_refuses_in_a_script_is_refused_once_not_run_again(redis_db, redis_server):  # noqa: F811
    """The scripts' reads and writes of a pace key (``ours()``) run a command again after deleting
    a key of the wrong type; they ran it again after any other error too (a full Redis's refusal,
    refused twice: double the work, and the server's statistics doubled)."""
    url = up(redis_server.url + "?client_name=refused-once")  # a URL of its own: its outage is this test's
    try:
        with ws.SearchClient("stub", state_url=url, min_interval_s={"stub": 0.01}) as client:
            assert client.search("loads the scripts", cache_ttl_s=0)["items"]  # no NOSCRIPT refusal below
            redis_db.config_resetstat()
            redis_db.config_set("maxmemory", 1)  # under noeviction (the default): every write refused
            assert client.search("refused", cache_ttl_s=0)[
                "items"
            ]  # no flight to claim: the booking is the first write
        stats = redis_db.info("commandstats")
    finally:
        redis_db.config_set("maxmemory", 0)
    booked = stats["cmdstat_evalsha"]["failed_calls"]  # the slot scripts that ran and were refused
    assert booked >= 1 and stats["cmdstat_zadd"]["rejected_calls"] == booked, stats


# -- two applications on one Redis: prefixes that cannot reach into each other's keys -------------


@pytest.mark.parametrize("prefix", ["cooldown", "crawler:cache", "slot:eu", "a:fleet:b"])
def test_a_prefix_that_would_nest_in_anothers_keys_is_refused(prefix):
    """``websearch_sync:cooldown:…`` is where an application without a prefix keeps its cool-downs:
    an application with the prefix ``cooldown`` kept all its keys there, and the other one's
    ``state clear`` deleted them (its cache, slots and fleets) and listed them as cool-downs. A
    prefix with a segment that names a kind of key is refused when the client is built."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(state_url="redis://127.0.0.1:1/0", state_prefix=prefix))
    assert info.value.detail_code == "bad_state_prefix"


def test_an_applications_state_clear_leaves_anothers_keys(redis_db, redis_server):  # noqa: F811
    """Two applications (no prefix, and ``crawler``): each one's ``state clear`` lifts its own cool-downs only."""
    blocked = ws.WebBlocked("slow down", provider="stub", detail_code="http_429", retry_after=60)
    plain = ws.Settings(state_url=up(redis_server.url))
    crawler = plain.replace(state_prefix="crawler")
    with ws.SearchClient("stub", settings=plain) as first, ws.SearchClient("stub", settings=crawler) as second:
        second.search("kept")
        first._cooldowns.record(blocked)
        second._cooldowns.record(blocked)
        assert first.clear_cooldowns() == ["stub"]
        assert redis_db.exists("websearch_sync:crawler:cooldown:stub")
        assert redis_db.keys("websearch_sync:crawler:cache:*")
        assert second.clear_cooldowns() == ["stub"]


# -- a worker whose wall clock is wrong --------------------------------------------------------------


def test_a_cool_down_from_a_worker_whose_clock_is_an_hour_ahead_ends_when_the_reader_says(redis_db, redis_server):  # noqa: F811
    """How long a shared cool-down lasts is its key's expiry (the Redis clock), so a worker whose
    wall clock is an hour ahead shares a 60 s block as 60 s. The refusal's message said "until"
    the writer's wall-clock time, an hour away from its own "60 s left": the reader's own clock
    says when it ends."""
    wall = 1_700_000_000.0
    ahead, reader = FakeClock(wall_start=wall + 3600), FakeClock(wall_start=wall)
    blocked = ws.WebBlocked("slow down", provider="stub", detail_code="http_429", retry_after=60)
    with (
        ws.SearchClient("stub", state_url=up(redis_server.url), clock=ahead) as writer,
        ws.SearchClient("stub", state_url=up(redis_server.url), clock=reader) as other,
    ):
        writer._cooldowns.record(blocked)
        with pytest.raises(ws.WebBlocked) as info:
            other.search("skewed", cache_ttl_s=0)
    assert 55 < info.value.retry_after <= 60
    ends = [time.strftime("%H:%M:%S", time.localtime(wall + seconds)) for seconds in (59, 60)]
    assert any("until %s" % end in str(info.value) for end in ends), (str(info.value), ends)


# -- a Redis host name the resolver never answers for -------------------------------------------------


def test_a_state_host_whose_name_never_resolves_never_makes_a_call_outlast_its_budget(monkeypatch):
    """``getaddrinfo`` has no timeout (a resolver that does not answer holds it 5-10 s per try, and
    redis-py resolves at every new connection): a 1 s search waited for it. Connecting is bounded
    like a command: the call goes on with local state within its budget."""
    stuck = threading.Event()
    real = socket.getaddrinfo

    def resolver_that_never_answers(host, *args, **kwargs):
        if host == "state.dns.test":
            stuck.wait(10)
            raise socket.gaierror(socket.EAI_AGAIN, "temporary failure in name resolution")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver_that_never_answers)
    budget_s = 1.0
    try:
        with ws.SearchClient(
            "stub", state_url="redis://state.dns.test:6379/0", min_interval_s={"stub": 0.01}
        ) as client:
            with machine_pace() as pace:
                started = time.monotonic()
                answer = client.search("unresolved", timeout_ms=int(budget_s * 1000))
                elapsed = time.monotonic() - started
    finally:
        stuck.set()
    limit = budget_s + deadline_margin_s(pace.slowdown)
    assert elapsed < limit, "a %d ms search took %.2f s (limit %.2f s)" % (budget_s * 1000, elapsed, limit)
    assert answer["items"] and answer["provider_meta"]["cached"] is False


# -- one upstream, two wires: one pace and one cool-down -------------------------------------------


def _searxng(upstream) -> "ws.Settings":
    return ws.Settings(endpoints={"searxng": upstream.server.url("/search")})


def test_module_level_calls_on_another_wire_obey_the_block_one_met():
    """A worker calls ``websearch_sync.search`` with the requests wire and with the browser wire
    (``impersonate``), one host behind both. The process kept a cool-down (and a pace) per
    settings, so a 429 with a 30 s Retry-After met on one wire stopped nothing on the other: it
    asked at once. The upstream sees one client: one pace, one cool-down per process."""
    from shared_state_worker import Upstream

    with Upstream("browse-API__1") as upstream:
        upstream.answer_next_with("http_429_retry_after", retry_after="30")
        settings = _searxng(upstream)
        outcomes = []
        for impersonate in ("off", "chrome"):
            try:
                ws.search("two wires", backend="searxng", settings=settings.replace(impersonate=impersonate))
                outcomes.append("answered")
            except ws.WebBlocked as error:
                outcomes.append(error.detail_code)
        assert outcomes == ["http_429", "http_429"]
        assert len(upstream.log) == 1, "requests inside the Retry-After: %d" % (len(upstream.log) - 1)


def test_module_level_calls_with_other_deadlines_obey_the_block_one_met_while_redis_is_down():
    """A worker sets each job's ``Settings(timeout_ms=...)``; Redis is down (nothing listens). The
    process kept a pace and cool-downs per ``timeout_ms``, so a 429 (Retry-After 30 s) met under one
    deadline stopped nothing under another: it asked at once."""
    from shared_state_worker import Upstream

    pytest.importorskip("redis")
    dead = "redis://127.0.0.1:%d/0" % refused_port()
    with Upstream("browse-API__1") as upstream:
        upstream.answer_next_with("http_429_retry_after", retry_after="30")
        outcomes = []
        for timeout_ms in (8000, 9000):
            settings = _searxng(upstream).replace(state_url=dead, timeout_ms=timeout_ms)
            try:
                ws.search("deadlines", backend="searxng", settings=settings, retries=0)
                outcomes.append("answered")
            except ws.WebBlocked as error:
                outcomes.append(error.detail_code)
        assert outcomes == ["http_429", "http_429"]
        assert len(upstream.log) == 1, "requests inside the Retry-After: %d" % (len(upstream.log) - 1)


def test_clients_on_two_wires_share_one_cool_down_through_redis(redis_db, redis_server):  # noqa: F811
    """Two workers of one fleet on different wires: a block one met stops the other (Redis keys
    cool-downs by backend and endpoint, never by wire)."""
    from shared_state_worker import Upstream

    with Upstream("browse-API__1") as upstream:
        upstream.answer_next_with("http_429_retry_after", retry_after="30")
        settings = _searxng(upstream).replace(state_url=up(redis_server.url))
        with (
            ws.SearchClient("searxng", settings=settings.replace(impersonate="off"), retries=0) as plain,
            ws.SearchClient("searxng", settings=settings.replace(impersonate="chrome"), retries=0) as browser,
        ):
            with pytest.raises(ws.WebBlocked):
                plain.search("two wires")
            with pytest.raises(ws.WebBlocked) as info:
                browser.search("two wires")
        assert info.value.detail_code == "http_429" and len(upstream.log) == 1


# -- nothing grows for ever ------------------------------------------------------------------------------


def test_every_key_the_state_writes_expires_by_itself(redis_db, redis_server):  # noqa: F811
    """docs/scaling.md: "Each key expires by itself. Nothing needs cleaning up." A workload that
    writes every kind of key (answers, slots, departures, fleets, cool-downs of a backend and of
    a host, a question held while it is asked, a question's failure) leaves no key without an expiry, and none of
    another kind."""
    from websearch_sync.client.state.server import KINDS

    seen: dict[bytes, int] = {}
    blocked = ws.WebBlocked("slow down", provider="stub", detail_code="http_429", retry_after=60)
    with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 0.01}) as client:
        for number in range(3):
            client.search("expiring %d" % number)
            client.search("expiring %d" % number)
        client._cooldowns.record(blocked)
        client._cooldowns.record(blocked, "host:example.com")
        with client._flights.turn(("search", "held"), Deadline(10_000), lambda: None):
            seen.update((key, redis_db.pttl(key)) for key in redis_db.scan_iter())
        with pytest.raises(ws.AuthError):  # a failure its waiters in other processes take as theirs
            with client._flights.turn(("search", "refused"), Deadline(10_000), lambda: None):
                raise ws.AuthError("the key was refused", provider="stub", detail_code="http_401")
    seen.update((key, redis_db.pttl(key)) for key in redis_db.scan_iter())
    kinds = {key.decode().split(":")[1] for key in seen}
    assert kinds == set(KINDS), kinds
    assert [key for key, ttl in seen.items() if ttl < 0] == []


class UnixRedis(RedisServer):
    """A redis-server that also listens on a unix socket (``socket_path``)."""

    def __init__(self, socket_path: str) -> None:
        super().__init__()
        self.socket_path = socket_path

    def command(self) -> list[str]:
        return super().command() + ["--unixsocket", self.socket_path, "--unixsocketperm", "700"]


def test_a_unix_socket_url_with_a_database_shares_the_state(caplog):
    """``unix:///path?db=2``: answers are shared, nothing counts as an outage."""
    if redis_server_binary() is None:
        pytest.skip(NO_REDIS_REASON)
    pytest.importorskip("redis")
    folder = tempfile.mkdtemp(prefix="ws-redis-")  # short: a unix socket's path is at most ~100 bytes
    try:
        with UnixRedis(os.path.join(folder, "redis.sock")) as server:
            url = up("unix://%s?db=2" % server.socket_path)
            with caplog.at_level(logging.WARNING, logger="websearch_sync"):
                for cached in (False, True):
                    with ws.SearchClient("stub", state_url=url, min_interval_s={"stub": 0.01}) as client:
                        assert client.search("over a unix socket")["provider_meta"]["cached"] is cached
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert not [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]


# -- settings that differ between the processes of a fleet ------------------------------------------


@pytest.mark.parametrize("intervals, warned", [((0.1, 0.01), True), ((0.1, 0.1), False)])
def test_a_process_pacing_an_upstream_unlike_the_fleet_is_warned_of(
    redis_db, redis_server, caplog, monkeypatch, intervals, warned
):  # noqa: F811
    """Each booking spaces the next slot by its own process's interval: a worker left on an old
    ``min_interval_s`` (0.01 s where the fleet keeps 0.1 s) set the pace the upstream saw, and
    nothing said so. Now the slot remembers its booker's interval and a process booking at
    another one warns, once. (The slots are on the Redis clock, so the waits are real: intervals
    of 0.1 s, not 0.4 s, wait 0.3 s a case, not 1.2 s; a slot's key lives a second past its slot
    whatever the interval, so the next booking still reads it on a loaded machine.)"""
    from websearch_sync.client.state import slots

    monkeypatch.setattr(slots, "_UNEVEN", Once())
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        for interval in intervals + intervals:
            with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": interval}) as client:
                client.search("pace %s" % interval, cache_ttl_s=0)
    uneven = [record.getMessage() for record in caplog.records if "unevenly" in record.getMessage()]
    assert len(uneven) == (2 if warned else 0), uneven  # once for each process's view, not at every booking
    if warned:
        assert "this process waits 0.01 s between requests, another 0.1 s" in uneven[0]


def test_a_process_that_does_not_pace_a_paced_upstream_is_warned_of(redis_db, redis_server, caplog, monkeypatch):  # noqa: F811
    """A worker left on ``min_interval_s=0`` books no slot, so it never learned the fleet's pace
    and nothing said it went around it. Now it reads the pace once per upstream and warns."""
    from websearch_sync.client.state import slots

    monkeypatch.setattr(slots, "_UNEVEN", Once())
    url = up(redis_server.url)
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        with ws.SearchClient("stub", state_url=url, min_interval_s={"stub": 0.4}) as paced:
            paced.search("the fleet's pace", cache_ttl_s=0)
        with ws.SearchClient("stub", state_url=url, min_interval_s={"stub": 0}) as unpaced:
            for query in ("one", "two"):
                unpaced.search(query, cache_ttl_s=0)
    uneven = [record.getMessage() for record in caplog.records if "unevenly" in record.getMessage()]
    assert len(uneven) == 1 and "this process waits 0 s between requests, another 0.4 s" in uneven[0], uneven


def test_an_unpaced_request_that_may_wait_for_no_slot_still_reads_the_fleets_pace(
    redis_db, redis_server, caplog, monkeypatch
):  # noqa: F811
    """The look is bounded by the call's time left, not by the longest wait: a first request that
    may wait for no slot (``at_once``: 0) would have had no time for Redis, and, looking once per
    upstream, the process never warned."""
    from websearch_sync.client.clock import SYSTEM_CLOCK
    from websearch_sync.client.ratelimit import RateLimiter
    from websearch_sync.client.state import SharedSlots, SharedState, slots
    from websearch_sync.client.state.server import state_server

    monkeypatch.setattr(slots, "_UNEVEN", Once())
    url = up(redis_server.url)
    paced, unpaced = (
        RateLimiter(SYSTEM_CLOCK, SharedSlots(SharedState(state_server(url), "", False, SYSTEM_CLOCK)))
        for _ in range(2)
    )
    assert paced.reserve("stub", 0.4, 10.0, 10.0) == 0.0
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        assert unpaced.reserve("stub", 0.0, 0.0, 10.0) == 0.0
    uneven = [record.getMessage() for record in caplog.records if "unevenly" in record.getMessage()]
    assert len(uneven) == 1 and "this process waits 0 s between requests, another 0.4 s" in uneven[0], uneven


def test_an_unpaced_process_alone_is_not_warned_of(redis_db, redis_server, caplog, monkeypatch):  # noqa: F811
    from websearch_sync.client.state import slots

    monkeypatch.setattr(slots, "_UNEVEN", Once())
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 0}) as client:
            client.search("alone", cache_ttl_s=0)
    assert not [record for record in caplog.records if "unevenly" in record.getMessage()]


def test_calls_with_many_deadlines_share_one_connection_pool(redis_db, redis_server):  # noqa: F811
    """A worker gives each job the time it has left (``Settings(timeout_ms=...)``): every distinct
    deadline made a connection pool of its own, and kept its connection open, so a long-lived worker
    piled up connections on the Redis (toward ``maxclients``: then every worker's state is down)."""
    before = redis_db.info("clients")["connected_clients"]
    for number in range(40):
        settings = ws.Settings(state_url=redis_server.url, timeout_ms=2000 + 10 * number)
        ws.search("deadline %d" % number, backend="stub", settings=settings)
    assert redis_db.info("clients")["connected_clients"] - before <= 2


def test_threads_past_a_urls_max_connections_wait_for_one_not_an_outage(redis_db, redis_server, caplog):  # noqa: F811
    """``max_connections`` caps a process's connections to the state (a fleet's toward Redis's
    maxclients). redis-py's default pool raised MaxConnectionsError to the thread that found every
    one in use, and Redis counted as down: the process's calls used local state 5 s at a time (or
    failed with state_unavailable). A thread now waits for a connection within its call's time."""
    url = up(redis_server.url + "?max_connections=2&client_name=capped")
    with (
        caplog.at_level(logging.WARNING, logger="websearch_sync"),
        ws.SearchClient("stub", settings=ws.Settings(state_url=url, state_required=True)) as client,
    ):
        failures = []

        def searches(thread: int) -> None:
            for n in range(10):
                try:
                    client.search("capped %d %d" % (thread, n))
                except ws.WebSearchError as error:  # state_unavailable: the outage this test is about
                    failures.append(error)

        threads = [threading.Thread(target=searches, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        connections = [c for c in redis_db.client_list() if c.get("name") == "capped"]
    assert not [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]
    assert failures == []
    assert 1 <= len(connections) <= 2
    assert len(redis_db.keys("websearch_sync:cache:*")) == 80


def test_a_thread_waiting_past_its_commands_timeout_for_a_capped_pools_connection_is_no_outage(redis_server):  # noqa: F811
    """The wait for one of the process's own connections is not Redis's time: it counted in the
    command's timeout, so a thread queued behind others' healthy commands (a loaded machine: 8
    threads on 2 connections) found "No connection available" at its command's end and Redis
    counted as down. The holder here keeps its connection until the waiter's command time is over
    (an event and the waiter's own bound, no guessed sleep); the waiter then still asks Redis."""
    from websearch_sync.client.clock import SYSTEM_CLOCK
    from websearch_sync.client.state import SharedState
    from websearch_sync.client.state import server as server_module

    server = server_module.state_server(up(redis_server.url + "?max_connections=1&client_name=queued"))
    state = SharedState(server, "", False, SYSTEM_CLOCK)
    pool = server.redis.connection_pool
    acquire, release = pool.get_connection, pool.release
    waiter_ends: list[float] = []
    holding, waiting = threading.Event(), threading.Event()

    def get_connection(*args, **kwargs):
        if threading.current_thread().name == "waiter":
            waiter_ends.append(server_module._OPERATION.ends)
            waiting.set()
        connection = acquire(*args, **kwargs)
        holding.set()
        return connection

    def held_release(connection):
        if threading.current_thread().name == "holder":
            assert waiting.wait(30)
            while time.monotonic() <= waiter_ends[0]:  # past the waiter's command time, waiting all along
                time.sleep(0.05)
        release(connection)

    pool.get_connection, pool.release = get_connection, held_release
    answers = {}

    def ask(name: str) -> None:
        answers[name] = state.run(lambda redis: redis.ping(), "local state", left_s=30.0)

    holder = threading.Thread(target=ask, args=("holder",), name="holder")
    holder.start()
    assert holding.wait(30)  # the holder has the only connection
    waiter = threading.Thread(target=ask, args=("waiter",), name="waiter")
    waiter.start()
    for thread in (holder, waiter):
        thread.join(60)
    assert answers == {"holder": True, "waiter": True}, server.last_error


# -- state_required: Redis gone while the request is out -------------------------------------------

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.skipif(redis_server_binary() is None, reason=NO_REDIS_REASON)
@pytest.mark.parametrize(
    "status, outcome",
    [(200, None), (401, ws.AuthError), (429, ws.WebBlocked)],
    ids=["an answer", "a key refused", "a block"],
)
def test_with_state_required_redis_gone_during_the_request_leaves_the_calls_own_outcome(status, outcome):
    """The writes after a request (the answer cached, the block's cool-down, the question let go)
    raised state_unavailable in its place: an answer the upstream was paid for was lost, and a
    revoked key's AuthError (not retryable) came out as a retryable NetworkError. The next call
    still fails before sending, as state_required says."""
    from websearch_sync.net.wire_mock import MockResponse, MockWire

    pytest.importorskip("redis")
    recorded = (FIXTURES / "brave" / "brave-search-python-client__1.json").read_bytes()
    requests_seen = []
    with RedisServer() as redis:

        def answer(request):
            requests_seen.append(request)
            redis.stop()  # a restart, a failover: gone while the request is out
            body = recorded if status == 200 else b'{"error": "no"}'
            return MockResponse(
                status=status, headers={"Content-Type": "application/json", "Retry-After": "30"}, body=body
            )

        settings = ws.Settings(providers={"brave": {"api_key": "a-key"}}, state_url=up(redis.url), state_required=True)
        with ws.SearchClient("brave", settings=settings, wire=MockWire(answer), retries=0, budget_ms=10_000) as client:
            if outcome is None:
                assert client.search("asked once")["items"]
            else:
                with pytest.raises(outcome):
                    client.search("asked once")
            with pytest.raises(ws.NetworkError) as info:
                client.search("asked again")
    assert info.value.detail_code == "state_unavailable"
    assert len(requests_seen) == 1


@pytest.mark.skipif(redis_server_binary() is None, reason=NO_REDIS_REASON)
@pytest.mark.parametrize("required", [False, True], ids=["local state", "state_required"])
def test_a_waiter_on_another_processs_question_ends_when_redis_dies_not_at_its_deadline(required):
    """Two clients (as two processes: each its own table of questions) ask one question; the second
    waits on the first's lease in Redis, and Redis dies while the first is still out. The waiter asks
    itself at once (its own local state), or fails with state_unavailable under state_required: never
    a wait to its deadline (a Timeout) on a lease no one can read any more."""
    from websearch_sync.net.wire_mock import MockResponse, MockWire

    pytest.importorskip("redis")
    recorded = (FIXTURES / "brave" / "brave-search-python-client__1.json").read_bytes()
    first_out, leader_may_answer = threading.Event(), threading.Event()
    requests_seen = []

    def answer(request):
        requests_seen.append(request)
        if len(requests_seen) == 1:
            first_out.set()
            leader_may_answer.wait(30)
        return MockResponse(headers={"Content-Type": "application/json"}, body=recorded)

    outcome = {}
    with RedisServer() as redis:
        settings = ws.Settings(providers={"brave": {"api_key": "k"}}, state_url=up(redis.url), state_required=required)
        leader = ws.SearchClient("brave", settings=settings, wire=MockWire(answer), retries=0, budget_ms=30_000)
        waiter = ws.SearchClient("brave", settings=settings, wire=MockWire(answer), retries=0, budget_ms=20_000)
        waiting = threading.Event()
        shared = waiter._flights._shared  # noqa: SLF001
        held_for = shared.held_for
        shared.held_for = lambda *args: (waiting.set(), held_for(*args))[1]

        def wait_for_the_leader() -> None:
            try:
                outcome["answer"] = waiter.search("one question")
            except ws.WebSearchError as error:
                outcome["error"] = error

        leading = threading.Thread(target=lambda: leader.search("one question"))
        leading.start()
        assert first_out.wait(30)
        waiting_thread = threading.Thread(target=wait_for_the_leader)
        waiting_thread.start()
        assert waiting.wait(30)  # it read the lease: it waits on it
        redis.stop()
        waiting_thread.join(30)
        done_before_the_leader = not leader_may_answer.is_set()
        leader_may_answer.set()
        leading.join(30)
        leader.close()
        waiter.close()
    assert done_before_the_leader
    if required:
        assert outcome["error"].detail_code == "state_unavailable"
        assert len(requests_seen) == 1
    else:
        assert outcome["answer"]["items"] and len(requests_seen) == 2

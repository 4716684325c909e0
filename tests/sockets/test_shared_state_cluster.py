"""A state URL naming a Redis Cluster node (docs/scaling.md, "Redis Cluster").

Every script's keys share one hash slot (``…slot:{<upstream>}``, ``…fleet:{…}``, ``…sent:{…}``),
so a cluster that serves every key at the URL (a cluster of one shard, a cluster proxy) works:
a real redis-server in cluster mode, owning every slot, refuses a script whose keys are in two
slots (CROSSSLOT) as any cluster does. A node of a cluster of several shards sends a key it does
not hold to another node (MOVED): that is ``InvalidInput(state_is_cluster)``, raised at the first
redirect and from then on without a round trip, never a silent fallback to local state (a fleet
would then keep one pace per process). No cluster of several shards runs here: a fake RESP
server answers MOVED.
"""

import logging
import shutil
import tempfile
import time

import pytest
from redis_server import NO_REDIS_REASON, REDIS_UP_TIMEOUT_S, RedisServer, redis_server_binary, up
from test_shared_state_untrusted import FakeRedis

import websearch_sync as ws


class OneShardCluster(RedisServer):
    """A redis-server in cluster mode that owns all 16384 hash slots (its nodes file in a folder of its own)."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.mkdtemp(prefix="ws-cluster-")
        self.cluster_port = self.hold_port()

    def command(self) -> list[str]:
        return super().command() + [
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            self.folder + "/nodes.conf",
            "--cluster-port",  # else the port + 10000, past 65535 for a high free port
            str(self.cluster_port),
            "--dir",
            self.folder,
        ]

    def start(self) -> "OneShardCluster":
        import redis

        super().start()
        node = redis.Redis(port=self.port, socket_timeout=REDIS_UP_TIMEOUT_S)
        node.execute_command("CLUSTER", "ADDSLOTSRANGE", 0, 16383)
        ends = time.monotonic() + 10.0
        while b"cluster_state:ok" not in node.execute_command("CLUSTER", "INFO"):
            assert time.monotonic() < ends, "the one-node cluster did not come up"
            time.sleep(0.02)
        node.close()
        return self

    def stop(self) -> None:
        super().stop()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def one_shard_cluster():
    """One cluster for the module's tests: a cluster node answers ``cluster_state:ok`` no sooner
    than 2 s after it started (redis-server's ``CLUSTER_WRITABLE_DELAY``), a wait paid once here.
    The tests use different databases of it (0, and 2 which it refuses) or keys of their own."""
    if redis_server_binary() is None:
        pytest.skip(NO_REDIS_REASON)
    pytest.importorskip("redis")
    with OneShardCluster() as server:
        yield server


def test_a_cluster_of_one_shard_shares_the_pace_cache_and_cool_downs(one_shard_cluster, caplog):
    """The slot and sending scripts ran on two hash slots (``slot:stub`` and ``fleet:stub``): the
    cluster refused them (CROSSSLOT) and every process counted Redis as failing (one pace each)."""
    server = one_shard_cluster
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        settings = ws.Settings(state_url=up(server.url), state_required=True)
        with ws.SearchClient("stub", settings=settings, min_interval_s={"stub": 60.0}) as first:
            assert first.search("clustered")["provider_meta"]["cached"] is False
        with ws.SearchClient("stub", settings=settings, min_interval_s={"stub": 60.0}) as second:
            assert second.search("clustered")["provider_meta"]["cached"] is True
            with pytest.raises(ws.Timeout) as info:  # the first client's slot holds for this one
                second.search("another", timeout_ms=15000)
    assert info.value.detail_code == "budget_exhausted"
    assert not [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]


def test_a_node_of_a_sharded_cluster_is_refused_with_a_typed_error_at_its_first_redirect():
    def moved(command):
        return b"-MOVED 3999 127.0.0.1:7001\r\n"

    with FakeRedis(moved) as fake:
        with ws.SearchClient("stub", state_url=fake.url) as client:
            with pytest.raises(ws.InvalidInput) as info:
                client.search("q")
            sent = len(fake.commands)
            with pytest.raises(ws.InvalidInput):
                client.search("again")
        assert len(fake.commands) == sent  # known now: no round trip to find it out again
    assert info.value.detail_code == "state_is_cluster"
    assert "MOVED 3999 127.0.0.1:7001" in info.value.message and "Cluster" in info.value.message


def test_a_database_number_on_a_cluster_is_refused_with_a_typed_error(one_shard_cluster):
    """A cluster has database 0 only: each new connection's SELECT failed, and every call counted
    Redis as down for ever (a warning, local state), a setting no retry could heal."""
    url = up("redis://127.0.0.1:%d/2" % one_shard_cluster.port)
    with ws.SearchClient("stub", state_url=url) as client, pytest.raises(ws.InvalidInput) as info:
        client.search("q")
    assert info.value.detail_code == "state_is_cluster" and "database 0" in info.value.message

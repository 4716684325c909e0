"""SearXNG's ``/config`` read after a time-range search, with the pace kept in a real Redis.

The read goes only on a rate-limit slot free at once (``at_once``: it may wait for none). Before,
that wait of 0 s was also the time limit of the Redis command that books the slot, so the command
was never sent: the client took Redis for down, booked the slot in the process alone (keeping its
outage share of the fleet's pace afterwards), or, with ``state_required``, said there was "0 ms
left: too little for the shared state" with seconds left, and never read ``/config``.

The engine answers in no less than the pace (its delay is the interval), so the slot after the
search is free when the answer comes: no timing margin is involved.
"""

import pytest
from fake_searxng import Engine, FakeSearXNG
from redis_server import redis_db, redis_server, up  # noqa: F401  (fixtures)

import websearch_sync as ws

PACE_S = 0.3


@pytest.mark.parametrize("required", [False, True], ids=["state-optional", "state-required"])
def test_a_time_range_searchs_config_read_takes_a_free_slot_in_redis(redis_db, redis_server, required):  # noqa: F811
    engines = [Engine("google", delay_s=PACE_S), Engine("wikipedia", time_range_support=False)]
    with FakeSearXNG(engines) as sx:
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}}, state_required=required)
        state = up(redis_server.url)
        with ws.SearchClient(settings=settings, min_interval_s=PACE_S, state_url=state, retries=0) as client:
            result = client.search("q", backend="searxng", time_range="week")
            alone = dict(client._runner.limiter._alone)  # upstreams paced alone for want of Redis
        assert sx.config_reads == 1
    assert [e["detail_code"] for e in result["errors"]] == ["time_range_skipped"]
    assert alone == {}

"""With a shared state (a real redis-server), a query the backend refuses before sending
touches Redis not at all: no rate-limit slot, no single-flight lock, no cache read, no
cool-down. The next valid query leaves at once. Brave's answer is a real recorded response
(fixtures/brave), replayed with ``responses``."""

from pathlib import Path

import pytest
import responses
from clocks import FakeClock
from redis_server import redis_db, redis_server  # noqa: F401  (fixtures)

import websearch_sync as ws

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BRAVE = ("GET", "https://api.search.brave.com/res/v1/web/search")
BODY = (FIXTURES / "brave" / "brave-api__minimal_trimmed.json").read_bytes()


def _commands(redis_db):  # noqa: F811
    """Commands the server ran so far, by name (``INFO`` itself left out: this reads it)."""
    stats = redis_db.info("commandstats")
    return {name: stat["calls"] for name, stat in stats.items() if name != "cmdstat_info"}


@pytest.mark.parametrize("cache_ttl_s", [0, 60])
@pytest.mark.parametrize(
    "query, detail",
    [("q" * 450, "query_too_long"), (" ".join(["w"] * 51), "query_too_long")],
    ids=["too_long", "too_many_words"],
)
def test_a_refused_query_sends_nothing_to_redis(redis_db, redis_server, cache_ttl_s, query, detail):  # noqa: F811
    settings = ws.Settings(providers={"brave": {"api_key": "test-brave-key"}}, state_url=redis_server.url)
    clock = FakeClock()
    with responses.RequestsMock() as mock:
        mock.add(*BRAVE, body=BODY, status=200, content_type="application/json")
        with ws.SearchClient("brave", settings=settings, cache_ttl_s=cache_ttl_s, clock=clock) as client:
            before = _commands(redis_db)
            with pytest.raises(ws.InvalidInput) as info:
                client.search(query)
            assert (info.value.detail_code, info.value.provider) == (detail, "brave")
            assert _commands(redis_db) == before  # not one round trip
            assert redis_db.keys("*") == []
            answer = client.search("Blue tack")
        assert len(mock.calls) == 1
    assert clock.sleeps == []  # no shared slot booked by the refusal
    assert answer["items"][0]["url"] == "https://en.wikipedia.org/wiki/Blu_Tack"
    assert answer["provider_meta"]["attempts"] == 1

"""An answer cached in a shared Redis while a backend cooled down (a fallback chain's next backend's)
lasts only as long as that cool-down: lifted for the fleet (``clear_cooldowns``, ``websearch-sync
state clear``), every process asks that backend again, whether it reads the answer from Redis or
from its own memory; answers that cool-down did not shape stay cached. A real redis-server on
loopback (``tests/redis_server.py``); the clients' clock is fake
(a shared cool-down's time left is its Redis key's, which only real time moves)."""

import json

from clocks import FakeClock
from redis_server import redis_db, redis_server, up  # noqa: F401  (fixtures)

import websearch_sync as ws
from websearch_sync.testing import MockResponse, MockWire

RESULTS = json.dumps({"results": [{"title": "B", "url": "https://b.example/1", "snippet": "from bb"}]})


def _answer(request):
    """``aa`` refuses (403) every query but ``ok``; ``bb`` answers each with one result."""
    if "aa.example" in request.url and "ok" not in request.url:
        return MockResponse(403, {}, "<html>no</html>")
    return MockResponse(200, {"Content-Type": "application/json"}, RESULTS)


def _hosts(requests):
    return [request.url.split("/")[2] for request in requests]


def test_lifting_a_shared_cool_down_drops_the_answers_it_shaped_in_every_process(redis_db, redis_server, json_backends):  # noqa: F811
    json_backends("aa", "bb")
    settings = ws.Settings(
        endpoints={"aa": "https://aa.example/s", "bb": "https://bb.example/s"}, state_url=up(redis_server.url)
    )
    wire, clock = MockWire(_answer), FakeClock()

    def client():  # a worker of the fleet: its own memory cache and cool-down table
        return ws.SearchClient(
            ["aa", "bb"], settings=settings, wire=wire, retries=0, clock=clock, cooldowns={"http_403": 100}
        )

    with client() as met, client() as other:
        met.search("ok")
        met.search("q")  # aa's 403: cooled down for the fleet; bb's answer cached in Redis
        shared = other.search("q")  # from Redis, aa not asked
        again = other.search("q")  # from its memory
        asked = len(wire.requests)
        assert met.clear_cooldowns("aa") == ["aa@aa.example", "host:aa.example"]
        ok = other.search("ok")
        lifted = other.search("q")  # its memory held it: aa is asked again
    assert (shared["provider_meta"]["cached"], again["provider_meta"]["cached"]) == (True, True)
    # the note as a call reads it now (the seconds left are Redis's, counted when served), not the 403 cached
    assert shared["errors"][0]["message"].startswith("aa is cooling down after http_403 until ")
    assert _hosts(wire.requests[:asked]) == ["aa.example", "aa.example", "bb.example"]
    assert ok["provider_meta"]["cached"] is True  # aa's own answer: no cool-down shaped it
    assert lifted["provider_meta"]["cached"] is False
    assert _hosts(wire.requests[asked:]) == ["aa.example", "bb.example"]


def _plant_stamp(redis_db, cooldowns):
    """Replace the stamp of the one answer the shared cache holds (the state is untrusted: anyone may write it)."""
    (key,) = redis_db.keys("*:cache:*")
    stored = json.loads(redis_db.get(key))
    stored["_stamp"]["cooldowns"] = cooldowns
    redis_db.set(key, json.dumps(stored), px=100_000)


def test_a_planted_stamp_is_a_miss_and_looks_up_no_cool_down_it_names(redis_db, redis_server, json_backends):  # noqa: F811
    """A stamp naming a cool-down key with a lone surrogate raised ``UnicodeEncodeError`` (redis-py
    cannot send it); one naming backends the call has not, with keys of its own, each planted as
    cooling down, was a hit, read one key after another (64 x 64 of them: thousands of commands,
    past the budget) into the reader's own cool-down table. A stamp names the call's own backends
    with their own keys, or the answer is a miss: no key it names is looked up."""
    json_backends("aa", "bb")
    settings = ws.Settings(
        endpoints={"aa": "https://aa.example/s", "bb": "https://bb.example/s"}, state_url=up(redis_server.url)
    )
    wire, clock = MockWire(_answer), FakeClock()

    def client():
        return ws.SearchClient(
            ["aa", "bb"], settings=settings, wire=wire, retries=0, clock=clock, cooldowns={"http_403": 100}
        )

    with client() as writer:
        writer.search("q")  # aa's 403: bb's answer stamped with aa's cool-down, in Redis
    (cooling,) = redis_db.keys("*:cooldown:aa@*")
    planted = cooling.decode().replace("aa@aa.example", "zz@zz.example")
    redis_db.set(planted, redis_db.get(cooling), px=100_000)
    for stamp in ({"aa": ["\ud800"]}, {"zz": ["zz@zz.example"]}, {"bb": ["zz@zz.example"]}):
        _plant_stamp(redis_db, stamp)
        with client() as reader:
            found = reader.search("q")
            copied = reader._cooldowns.left_s("zz@zz.example")  # held here once read from Redis
        assert found["provider_meta"]["cached"] is False, stamp
        assert copied == 0.0, stamp

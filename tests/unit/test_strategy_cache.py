"""What an answer with a backend's failure in it may be cached for (``client/strategies.py``): the
backend that failed is asked again by the next call unless it cools down; while it does, the next
call (a fallback chain's or a merge's) would get the same answer, so it is kept until the
cool-down ends."""

import json

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.testing import MockResponse, MockWire

RESULTS = json.dumps({"results": [{"title": "B", "url": "https://b.example/1", "snippet": "from bb"}]})


def _chain(json_backends, first_status, clock, strategy):
    """A client asking ``aa`` (answering ``first_status``) and ``bb`` (one result), and its wire."""
    json_backends("aa", "bb")

    def answer(request):
        if "aa.example" in request.url:
            return MockResponse(first_status, {}, "<html>no</html>")
        return MockResponse(200, {"Content-Type": "application/json"}, RESULTS)

    wire = MockWire(answer)
    settings = ws.Settings(endpoints={"aa": "https://aa.example/s", "bb": "https://bb.example/s"})
    client = ws.SearchClient(
        ["aa", "bb"],
        strategy=strategy,
        settings=settings,
        wire=wire,
        retries=0,
        clock=clock,
        cooldowns={"http_403": 100},
    )
    return client, wire


def _asked(wire):
    return sorted(request.url.split("/")[2].split(".")[0] for request in wire.requests)


STRATEGIES = pytest.mark.parametrize("strategy", ["fallback", "merge"])


@STRATEGIES
def test_the_answer_without_a_backend_that_cools_down_is_cached_until_its_cool_down_ends(json_backends, strategy):
    """While ``aa`` cooled down after its 403, each call skipped it, asked ``bb`` again and cached
    nothing: a busy service's repeated queries all queued for ``bb``'s rate-limit slots."""
    clock = FakeClock()
    client, wire = _chain(json_backends, 403, clock, strategy)
    with client:
        first = client.search("q")
        again = client.search("q")
        clock.advance(99)
        still = client.search("q")
        clock.advance(2)  # the cool-down (100 s) is over, the TTL (300 s) is not
        after = client.search("q")
    assert first["provider_meta"]["provider_name"] == "bb" and first["items"]
    assert [e["detail_code"] for e in first["errors"]] == ["http_403"]
    assert (again["provider_meta"]["cached"], still["provider_meta"]["cached"]) == (True, True)
    assert again["items"] == first["items"] and again["errors"] == first["errors"]
    assert after["provider_meta"]["cached"] is False
    assert _asked(wire) == ["aa", "aa", "bb", "bb"]


@STRATEGIES
def test_the_answer_without_a_backend_that_failed_otherwise_is_not_cached(json_backends, strategy):
    """A 502 starts no cool-down: the next call asks ``aa`` again, which may answer."""
    client, wire = _chain(json_backends, 502, FakeClock(), strategy)
    with client:
        client.search("q")
        again = client.search("q")
    assert again["provider_meta"]["cached"] is False
    assert _asked(wire) == ["aa", "aa", "bb", "bb"]

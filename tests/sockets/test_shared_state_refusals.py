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
from websearch_sync.net import browser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
BRAVE = ("GET", "https://api.search.brave.com/res/v1/web/search")
BODY = (FIXTURES / "brave" / "larallama__1.json").read_bytes()  # 18 results: the call's 5 in one page
DDG_PAGE = (FIXTURES / "ddg_html" / "meka__1.html").read_bytes()
HTML = "text/html; charset=UTF-8"


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
            answer = client.search("Laravel news")
        assert len(mock.calls) == 1
    assert clock.sleeps == []  # no shared slot booked by the refusal
    assert answer["items"][0]["url"] == "https://laravel-news.com/"
    assert answer["provider_meta"]["attempts"] == 1


@pytest.mark.parametrize("strategy", ["fallback", "merge"])
def test_a_chain_a_refusal_ends_asks_redis_nothing(redis_db, redis_server, strategy, monkeypatch):  # noqa: F811
    monkeypatch.setattr(browser, "browser_available", lambda: False)  # DuckDuckGo on requests: replayed
    # Baidu refuses a resolve_links that is not a bool: a fallback chain stops there (DuckDuckGo cannot
    # fix the caller's argument) and sends nothing; a merge still asks DuckDuckGo.
    settings = ws.Settings(state_url=redis_server.url)
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mock:
        mock.add("POST", "https://html.duckduckgo.com/html/", body=DDG_PAGE, status=200, content_type=HTML)
        with ws.SearchClient("baidu_html,ddg_html", settings=settings, cache_ttl_s=60, strategy=strategy) as client:
            before = _commands(redis_db)
            if strategy == "fallback":
                with pytest.raises(ws.InvalidInput) as info:
                    client.search("rust programming language", resolve_links="yes")
                assert (info.value.detail_code, info.value.provider) == ("bad_resolve_links", "baidu_html")
                assert _commands(redis_db) == before and len(mock.calls) == 0
            else:
                answer = client.search("rust programming language", resolve_links="yes")
                assert answer["items"][0]["url"] == "https://rust-lang.org/"
                assert _commands(redis_db) != before and len(mock.calls) == 1  # a request: it books its slot

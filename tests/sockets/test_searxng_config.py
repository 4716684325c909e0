"""SearXNG as it really runs (issue 33, point 13): an instance that sets
``outgoing.max_request_timeout`` gives every engine ``timeout_limit`` instead of its own
timeout, so ``timeout_limit`` is capped at the engines' own timeouts, which the instance
publishes at ``/config``. The fake instance (tests/fake_searxng.py) computes its engines' time
as ``searx/search/__init__.py`` does and serves ``/config`` as ``searx/webapp.py`` does.

Until ``/config`` is read, ``timeout_limit`` is at most SearXNG's default engine timeout (3 s);
``/config`` is read after an answer that ran into it. The first two tests wait for such an answer
with that default scaled down to half a second (``short_default``: the same steps, a sixth of the
waiting); the others note one directly (``slow_answer``) instead of waiting at all.
"""

import math
import threading
import time
import types

import pytest
from clocks import FakeClock, paced_budget_s
from fake_searxng import Engine, FakeSearXNG
from faults import respond
from requests.structures import CaseInsensitiveDict

import websearch_sync as ws
from websearch_sync.backends import searxng, searxng_config
from websearch_sync.backends.searxng_config import slow_answer
from websearch_sync.net.deadline import Deadline
from websearch_sync.net.response import HttpResponse


def client(sx):
    return ws.SearchClient(
        settings=ws.Settings(providers={"searxng": {"base_url": sx.url}}), clock=FakeClock(), retries=0, cache_ttl_s=0
    )


def search(c, **options):
    # one result page: the fake instance answers every pageno alike (its engines hold 3 results, a call asks 5)
    return c.search("q", **dict({"backend": "searxng", "max_pages": 1}, **options))


def seen_slow(sx):
    """What the backend notes after an answer slower than SearXNG's default engine timeout."""
    slow_answer(sx.url + "/config", 4.0, 8.0)


def answers_taking(sx, clock, seconds):
    """From now on the instance's /search answers move ``clock`` on by ``seconds`` (an answer that
    took the interval: the slot after it is free when it comes)."""
    answer = sx.server.routes["/search"]

    def taking(conn, request, server):
        clock.advance(seconds)
        answer(conn, request, server)

    sx.server.routes["/search"] = taking


@pytest.fixture
def short_default(monkeypatch):
    """SearXNG's default engine timeout as the backend takes it, half a second instead of 3 s:
    what the first two tests show (a first search no longer than it, an answer that ran into it
    reads ``/config``) needs an answer as slow as it, and the fake instance compares each engine's
    delay with the time it gives them (no race: a loaded machine only makes answers slower)."""
    default_s = 0.5
    monkeypatch.setattr(searxng_config, "DEFAULT_ENGINE_TIMEOUT_S", default_s)
    monkeypatch.setattr(searxng, "DEFAULT_ENGINE_TIMEOUT_S", default_s)
    return default_s


def test_the_first_search_waits_no_longer_than_a_default_instance_then_the_engines_own_timeout(short_default):
    """Before: every search sent what was left of 10 s (8.25 s), which the instance gave its engines
    instead of their own 0.3 s, so each search waited for the slow engine. Now the first
    search (``/config`` not known yet) sends SearXNG's default engine timeout; its answer
    ran into that limit, so ``/config`` is read and the next search sends the engines' own 0.3 s."""
    engines = [Engine("google", timeout_s=0.3), Engine("qwant", delay_s=short_default + 0.5, timeout_s=0.3)]
    with FakeSearXNG(engines, max_request_timeout_s=15.0) as sx:
        c = client(sx)
        first = search(c, timeout_ms=10000, max_results=10)
        second = search(c, timeout_ms=10000, max_results=10)
        limits = [float(s["timeout_limit"]) for s in sx.searches]
        assert sx.config_reads == 1
    assert limits == [short_default, 0.3]
    for answer in (first, second):  # the slow engine was not waited for past the limit
        assert len(answer["items"]) == 3
        assert [(e["engine"], e["detail_code"]) for e in answer["errors"]] == [("qwant", "engine_timeout")]


def test_an_engine_with_a_longer_timeout_of_its_own_gets_it_once_config_is_read(short_default):
    """The default engine timeout of the first search cut an engine the instance gives twice as
    long; ``/config`` says so, and the next search waits for it."""
    own_s = 2 * short_default
    engines = [Engine("google", timeout_s=0.3), Engine("wolfram", delay_s=0.8 * own_s, timeout_s=own_s)]
    with FakeSearXNG(engines) as sx:
        c = client(sx)
        first = search(c, timeout_ms=10000, max_results=10)
        second = search(c, timeout_ms=10000, max_results=10)
        limits = [float(s["timeout_limit"]) for s in sx.searches]
    assert limits == [short_default, own_s]
    assert len(first["items"]) == 3 and len(second["items"]) == 6 and "errors" not in second


def test_the_cap_is_the_slowest_engine_the_call_asks():
    engines = [
        Engine("google", timeout_s=2.0),
        Engine("bing news", categories=("news",), timeout_s=5.0, default=False),
        Engine("wikidata", categories=("general", "science"), timeout_s=1.5),
    ]
    with FakeSearXNG(engines, max_request_timeout_s=15.0) as sx:
        seen_slow(sx)
        c = client(sx)
        search(c, timeout_ms=20000)  # /config is read after it (never before a search)
        search(c, timeout_ms=20000)
        search(c, timeout_ms=20000, engines="wikidata")
        search(c, timeout_ms=20000, categories="news")
        search(c, timeout_ms=20000, categories="science")
        search(c, timeout_ms=20000, categories="nws")  # a category it does not know: its general engines
        search(c, timeout_ms=2000, engines="bing news")  # the deadline is sooner
        limits = [float(s["timeout_limit"]) for s in sx.searches]
    assert limits[:6] == [searxng_config.DEFAULT_ENGINE_TIMEOUT_S, 2.0, 1.5, 5.0, 1.5, 2.0]
    assert limits[6] < 2.0 - 0.25 - 0.3 + 0.01


def test_config_is_read_once_per_instance_with_the_searchs_headers():
    with FakeSearXNG([Engine("google", timeout_s=1.0)]) as sx, FakeSearXNG([Engine("bing")]) as other:
        seen_slow(sx)
        for _ in range(3):
            search(client(sx), locale="de")
        search(client(other))
        assert (sx.config_reads, other.config_reads) == (1, 0)
        [config] = [r for r in sx.server.requests if r.route == "/config"]
    assert config.headers["accept-language"].startswith("de") and "text/html" in config.headers["accept"]
    assert config.headers["sec-fetch-mode"] == "cors"


def test_an_instance_that_answers_fast_is_never_asked_for_its_config():
    with FakeSearXNG([Engine("google"), Engine("qwant", delay_s=0.2)], max_request_timeout_s=15.0) as sx:
        c = client(sx)
        for _ in range(3):
            search(c)
        assert sx.config_reads == 0 and len(sx.searches) == 3


def test_an_instance_without_config_is_searched_as_before():
    with FakeSearXNG([Engine("google", timeout_s=1.0)], config=False) as sx:
        seen_slow(sx)
        c = client(sx)
        result = search(c, timeout_ms=4000)
        search(c, timeout_ms=4000)
        assert sx.config_reads == 1 and len(sx.searches) == 2  # its 404 is kept: not asked again
        limits = [float(s["timeout_limit"]) for s in sx.searches]
    assert len(result["items"]) == 3 and "errors" not in result
    assert min(limits) > 2.0  # what the deadline gives (3.15 s), not the engine's 1 s


def test_a_config_that_hangs_costs_only_its_slice_of_the_deadline():
    def hangs(conn, request, server):
        server.wait(30)
        respond(200, b"{}", content_type="application/json")(conn, request, server)

    with FakeSearXNG([Engine("google")]) as sx:
        sx.server.routes["/config"] = hangs
        seen_slow(sx)
        result = search(client(sx), timeout_ms=5000)
    assert len(result["items"]) == 3  # /config took its slice (1 s) of the 5 s, the search the rest


def test_a_config_of_another_shape_is_ignored():
    with FakeSearXNG([Engine("google", timeout_s=1.0)]) as sx:
        sx.server.routes["/config"] = respond(200, b'{"engines": {"google": 1}}', content_type="application/json")
        seen_slow(sx)
        result = search(client(sx), timeout_ms=4000)
        sent = float(sx.searches[0]["timeout_limit"])
    assert len(result["items"]) == 3
    assert sent > 2.0  # what the deadline gives (3.15 s): no cap from an unreadable /config


# -- many instances, many searches at once ----------------------------------------------------------


def test_the_configs_kept_are_bounded_the_least_recent_going_first():
    """Before: every instance ever searched kept its /config (300 instances: 23 MB)."""
    urls = ["https://searx%d.example/config" % i for i in range(searxng_config.MAX_INSTANCES + 5)]
    for url in urls:
        searxng_config.want_config(url)
    assert len(searxng_config._KNOWN) == searxng_config.MAX_INSTANCES
    assert not searxng_config.wanted(urls[0]) and searxng_config.wanted(urls[-1])


def test_searches_at_once_of_a_new_instance_share_one_config_read(monkeypatch):
    """Before: four time-range searches started together on an instance not yet known each read
    /config. The first reads it; the others wait for its answer (within their own slice) and name
    the skipped engines from it. The fake /config answers once the other three wait for it."""
    monkeypatch.setattr(searxng_config, "CONFIG_MAX_S", paced_budget_s(10.0))
    waiting = threading.Semaphore(0)
    from websearch_sync.net.waits import wait_for as real_wait_for

    def counted_wait(*args, **kwargs):
        waiting.release()
        return real_wait_for(*args, **kwargs)

    monkeypatch.setattr(searxng_config, "wait_for", counted_wait, raising=False)
    with FakeSearXNG([Engine("google"), Engine("wikipedia", time_range_support=False)]) as sx:
        answer = sx.server.routes["/config"]

        def once_the_others_wait(conn, request, server):
            for _ in range(3):
                waiting.acquire(timeout=paced_budget_s(10.0))
            answer(conn, request, server)

        sx.server.routes["/config"] = once_the_others_wait
        c = client(sx)
        results = []
        threads = [  # other queries: the client's own single flight would make them one search
            threading.Thread(
                target=lambda q=q: results.append(c.search(q, backend="searxng", time_range="week", timeout_ms=60_000))
            )
            for q in ("q1", "q2", "q3", "q4")
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sx.config_reads == 1
    assert [[e["detail_code"] for e in r["errors"]] for r in results] == [["time_range_skipped"]] * 4


def test_a_search_that_waits_for_another_config_read_books_no_slot_for_it(monkeypatch):
    """Before: a search that found another search's /config read under way waited for it (sending
    nothing), then booked a second slot as if it had sent /config: with one request every 20 s
    the call failed budget_exhausted without sending a request. The other read ends (failed)
    while this search waits for it."""
    clock = FakeClock()
    with FakeSearXNG([Engine("google")]) as sx:
        url = sx.url + "/config"
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        with ws.SearchClient(settings=settings, clock=clock, min_interval_s=20, cache_ttl_s=0, retries=0) as c:
            search(c)
            clock.advance(60)
            with searxng_config._LOCK:  # another search's read under way
                searxng_config._keep(url, searxng_config._Entry(None, math.inf, threading.Event()))

            def the_other_read_ends(wait, timeout_s):
                with searxng_config._LOCK:
                    searxng_config._keep(url, searxng_config._Entry(None, time.monotonic() + 600.0))

            monkeypatch.setattr(searxng_config, "wait_for", the_other_read_ends)
            result = search(c)
        assert sx.config_reads == 0 and len(sx.searches) == 2
    assert len(result["items"]) == 3


def test_a_slow_answers_config_is_read_after_a_later_search_on_a_slot_free_at_once():
    """Before: the read a slow answer asked for went before the next search; on a paced instance it
    waited for a second slot, then /config and the search went out back to back (the search a
    moment after /config, not a slot later); later it went after the search but waited for its own
    slot (2 s here). The search goes first; /config follows only on a slot free when the answer
    comes: not after a fast answer, and at once after one that took the interval (its /search
    here moves the clock on by it)."""
    clock = FakeClock()
    with FakeSearXNG([Engine("google", timeout_s=1.0)]) as sx:
        seen_slow(sx)
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        with ws.SearchClient(settings=settings, clock=clock, min_interval_s=2, cache_ttl_s=0, retries=0) as c:
            fast = search(c)
            assert [r.route for r in sx.server.requests] == ["/search"] and searxng_config.wanted(sx.url + "/config")

            answers_taking(sx, clock, 2.0)
            clock.advance(60)
            slow = search(c)
        assert [r.route for r in sx.server.requests] == ["/search", "/search", "/config"]
    assert clock.sleeps == [] and "errors" not in fast and "errors" not in slow
    assert searxng_config.known_config(sx.url + "/config") is not None


# -- a time range's /config read: never waited for, said when it could not be made -----------------

_TIME_RANGE_ENGINES = (Engine("google"), Engine("wikipedia", time_range_support=False))


def paced_client(sx, clock, interval_s, **settings):
    return ws.SearchClient(
        settings=ws.Settings(providers={"searxng": dict({"base_url": sx.url}, **settings)}),
        clock=clock,
        min_interval_s=interval_s,
        retries=0,
    )


def codes(result):
    return [e["detail_code"] for e in result.get("errors") or ()]


def test_an_instance_paced_past_the_deadline_says_the_time_range_is_unverified_and_its_answer_is_cached():
    """Before: with one request every 20 s (more than the 15 s deadline) /config never got a slot
    in the call, so no answer ever said whether engines were skipped, and none was cached (held back
    while the warning was unknown): the same search went to the paced instance every time. The answer
    now says the time range could not be checked, and is cached."""
    clock = FakeClock()
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        with paced_client(sx, clock, 20) as c:
            first = search(c, time_range="week")
            clock.advance(60)
            again = search(c, time_range="week")
        assert sx.config_reads == 0 and len(sx.searches) == 1
    assert len(first["items"]) == 3 and codes(first) == ["time_range_unverified"]
    [note] = first["errors"]
    assert note["type"] == "WebProviderError" and "one request every 20" in note["message"]
    assert again["provider_meta"].get("cached") is True and codes(again) == ["time_range_unverified"]


def test_the_config_read_never_waits_for_a_slot_and_goes_once_one_is_free_after_an_answer():
    """Before: with one request every 2 s the first time-range search of an instance waited 2 s after
    its answer for a slot for /config, then read it: that call took an interval plus the read
    longer than its search. The read goes only on a slot free at once: none after a fast answer (the
    call says the range is unverified and waits for nothing, and a search right after it waits only
    its own interval: the try booked no slot); a later call whose answer took the
    interval (its /search here moves the clock on by it) reads it at once and names the skipped engine."""
    clock = FakeClock()
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        with paced_client(sx, clock, 2, timeout_ms=60_000) as c:
            fast = search(c, time_range="week", max_results=5)
            assert clock.sleeps == [] and sx.config_reads == 0
            right_after = search(c, time_range="week", max_results=4)  # the read's try booked no slot
            assert clock.sleeps == [2.0] and sx.config_reads == 0

            answers_taking(sx, clock, 2.0)
            clock.advance(60)
            slow = search(c, time_range="week", max_results=6)
        assert clock.sleeps == [2.0] and sx.config_reads == 1
    assert codes(fast) == codes(right_after) == ["time_range_unverified"] and codes(slow) == ["time_range_skipped"]


@pytest.mark.parametrize(
    "credentials, authorization",
    [({"api_key": "k"}, "Bearer k"), ({"user": "u:p"}, "Basic dTpw")],
    ids=["bearer-key", "user-in-url"],
)
def test_a_failed_config_read_without_credentials_does_not_hide_the_warning_from_a_client_with_them(
    credentials, authorization
):
    """Before: /config's failures were kept per URL: a client without the token the proxy in front of
    /config wants failed to read it, and a client with the token got no warning for 10 minutes
    (/config not asked again); a user name and password in the URL kept what was read from the
    clients without them. A failure is kept per credentials; what is read holds for every client."""
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        answer = sx.server.routes["/config"]

        def wants_credentials(conn, request, server):
            if request.headers.get("authorization") != authorization:
                return respond(401, b"Unauthorized", content_type="text/plain")(conn, request, server)
            return answer(conn, request, server)

        sx.server.routes["/config"] = wants_credentials
        keyless = search(client(sx), time_range="week")
        again_keyless = search(client(sx), time_range="week", max_results=5)
        assert sx.config_reads == 1  # its failure is kept for it
        base_url = sx.url.replace("//", "//%s@" % credentials["user"]) if "user" in credentials else sx.url
        settings = {"base_url": base_url, **{k: v for k, v in credentials.items() if k != "user"}}
        with_them = ws.SearchClient(
            settings=ws.Settings(providers={"searxng": settings}), clock=FakeClock(), retries=0, cache_ttl_s=0
        )
        keyed = search(with_them, time_range="week")
        assert sx.config_reads == 2
        keyless_later = search(client(sx), time_range="week", max_results=6)
        assert sx.config_reads == 2  # read by the other client: known to everyone
    assert codes(keyless) == codes(again_keyless) == ["time_range_unverified"]
    assert codes(keyed) == codes(keyless_later) == ["time_range_skipped"]


def test_an_instance_without_config_says_so_once_read_and_then_that_it_is_not_asked_again():
    """An older instance answers /config with 404: the note says the instance has none (not the
    search's advice to fix the base URL, which works), then that it is not asked again for a while."""
    with FakeSearXNG([Engine("google")], config=False) as sx:
        c = client(sx)
        first = search(c, time_range="week")
        second = search(c, time_range="week", max_results=5)
        assert sx.config_reads == 1 and len(sx.searches) == 2
    assert codes(first) == codes(second) == ["time_range_unverified"]
    assert "/config could not be read: it answered HTTP 404" in first["errors"][0]["message"]
    assert "SEARXNG_BASE_URL" not in first["errors"][0]["message"]
    assert "not asked again for " in second["errors"][0]["message"]


def test_a_search_that_waited_for_a_read_with_other_credentials_says_it_failed_there(monkeypatch):
    """A keyed search finds a keyless client's /config read under way and waits for it (one read
    per instance at a time); that read fails for want of the token. The keyed search's note says
    so (not that the read had not ended), and its failure is not the keyed client's: its next
    search reads /config itself."""
    arrived, waiting = threading.Event(), threading.Semaphore(0)
    from websearch_sync.net.waits import wait_for as real_wait_for

    def counted_wait(*args, **kwargs):
        waiting.release()
        return real_wait_for(*args, **kwargs)

    monkeypatch.setattr(searxng_config, "wait_for", counted_wait)
    monkeypatch.setattr(searxng_config, "CONFIG_MAX_S", paced_budget_s(10.0))  # the wait is the keyless read's
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        answer = sx.server.routes["/config"]

        def once_the_keyed_search_waits(conn, request, server):
            if request.headers.get("authorization") == "Bearer k":
                return answer(conn, request, server)
            arrived.set()
            waiting.acquire(timeout=paced_budget_s(10.0))
            return respond(401, b"Unauthorized", content_type="text/plain")(conn, request, server)

        sx.server.routes["/config"] = once_the_keyed_search_waits
        keyless: list = []
        thread = threading.Thread(
            target=lambda: keyless.append(search(client(sx), time_range="week", timeout_ms=60_000))
        )
        thread.start()
        assert arrived.wait(paced_budget_s(10.0))
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url, "api_key": "k"}})
        keyed_client = ws.SearchClient(settings=settings, clock=FakeClock(), retries=0, cache_ttl_s=0)
        keyed = search(keyed_client, time_range="week", timeout_ms=60_000)
        thread.join()
        assert sx.config_reads == 1
        later = search(keyed_client, time_range="week")
        assert sx.config_reads == 2
    assert codes(keyless[0]) == codes(keyed) == ["time_range_unverified"] and codes(later) == ["time_range_skipped"]
    assert "read for another search, with other credentials, in vain" in keyed["errors"][0]["message"]


def test_a_later_search_without_a_time_range_reads_the_config_a_time_range_left_unverified():
    """A time-range search on a paced instance finds no slot free at once for /config; the wish to
    read it stays, so a later search without a time range reads it after an answer that leaves a
    slot free (its /search here moves the clock on by the interval), and the next time range is judged."""
    clock = FakeClock()
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        with paced_client(sx, clock, 2) as c:
            first = search(c, time_range="week")
            assert sx.config_reads == 0

            answers_taking(sx, clock, 2.0)
            clock.advance(60)
            plain = search(c)
            assert sx.config_reads == 1
            clock.advance(60)
            later = c.search("another query", backend="searxng", time_range="week")
        assert sx.config_reads == 1
    assert codes(first) == ["time_range_unverified"] and "errors" not in plain
    assert codes(later) == ["time_range_skipped"]


def test_a_cached_answer_whose_time_range_was_unverified_says_what_config_says_once_read():
    """Before: an answer cached with the note that /config was not read kept that note for the
    cache's TTL, even once a later answer had read /config. The note is recomputed when the answer
    is served from the cache: it names the engine the time range skipped, without a second search."""
    clock = FakeClock()
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        with paced_client(sx, clock, 2) as c:
            first = search(c, time_range="week")
            answers_taking(sx, clock, 2.0)
            clock.advance(60)
            search(c)  # its answer leaves a slot free at once: /config is read
            assert sx.config_reads == 1
            clock.advance(60)
            again = search(c, time_range="week")
        assert len(sx.searches) == 2 and sx.config_reads == 1
    assert codes(first) == ["time_range_unverified"]
    assert again["provider_meta"].get("cached") is True and codes(again) == ["time_range_skipped"]
    assert "wikipedia" in again["errors"][0]["message"] and again["items"] == first["items"]


def test_an_answer_whose_categories_only_config_can_judge_is_not_cached_while_it_is_unknown():
    """Results of ``categories=science`` that name only ``general`` (each result names its engine's
    first category): only /config tells whether science was searched. An instance without /config
    leaves that unjudged, so the answer is not cached: the same search asks the instance again."""
    engines = [Engine("google"), Engine("wikidata", categories=("general", "science"))]
    with FakeSearXNG(engines, config=False) as sx:
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        with ws.SearchClient(settings=settings, clock=FakeClock(), retries=0) as c:
            first = search(c, categories="science")
            again = search(c, categories="science")
        assert len(sx.searches) == 2 and sx.config_reads == 1
    assert len(first["items"]) == 3 and not again["provider_meta"].get("cached")


def test_a_note_of_one_clients_pace_is_not_cached_for_a_client_with_another(tmp_path):
    """Before: a client paced at one request every 20 s cached its answer saying /config was not
    read (no slot free at once) in a cache file it shares; a client without a pace read that answer
    from the cache, with a note that was not true for it. The pace is part of the cache key: the
    unpaced client searches and reads /config itself; the paced client still finds its own answer."""
    path = str(tmp_path / "cache.sqlite")
    clock = FakeClock()
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        settings = ws.Settings(providers={"searxng": {"base_url": sx.url}})
        with ws.SearchClient(settings=settings, clock=clock, cache_path=path, min_interval_s=20, retries=0) as paced:
            noted = search(paced, time_range="week")
            clock.advance(60)
            paced_again = search(paced, time_range="week")
        with ws.SearchClient(settings=settings, clock=clock, cache_path=path, retries=0) as unpaced:
            unpaced_answer = search(unpaced, time_range="week")
        assert len(sx.searches) == 2 and sx.config_reads == 1
    assert codes(noted) == codes(paced_again) == ["time_range_unverified"]
    assert paced_again["provider_meta"].get("cached") is True
    assert codes(unpaced_answer) == ["time_range_skipped"] and not unpaced_answer["provider_meta"].get("cached")


@pytest.mark.parametrize(
    "refusal",
    [
        respond(302, b"", {"Location": "/login"}),
        respond(401, b"Unauthorized", {"WWW-Authenticate": 'Basic realm="x"'}, content_type="text/plain"),
    ],
    ids=["redirect-to-login", "401"],
)
def test_a_config_read_refused_says_so_not_the_searchs_advice(refusal):
    """Before: a /config behind a login (302 to /login) said the search was redirected and to set
    the base URL; a 401 said the instance refused the user name and password: advice for a search,
    though this one was just answered with the same settings and credentials."""
    with FakeSearXNG(list(_TIME_RANGE_ENGINES)) as sx:
        sx.server.routes["/config"] = refusal
        result = search(client(sx), time_range="week")
        status = sx.server.requests[-1].route
    assert status == "/config" and codes(result) == ["time_range_unverified"]
    message = result["errors"][0]["message"]
    assert "though the instance answered the search with the same credentials" in message
    assert "base_url" not in message and "check them" not in message and "redirected the search" not in message


def test_a_kept_failure_says_how_long_it_is_kept_yet(monkeypatch):
    """Before: a failed read's note always said /config was not asked again "for 10 minutes", also
    9.5 minutes after the failure. It says what is left."""
    now = [1000.0]
    monkeypatch.setattr(searxng_config, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    with FakeSearXNG([Engine("google")], config=False) as sx:
        c = client(sx)
        search(c, time_range="week")
        now[0] += searxng_config.RETRY_FAILED_S - 30
        later = search(c, time_range="week", max_results=5)
        assert sx.config_reads == 1
    assert "not asked again for 30 s more by a client with the same credentials" in later["errors"][0]["message"]


def waiting_counted(monkeypatch):
    """A semaphore released each time a search starts waiting for another's /config read."""
    waiting = threading.Semaphore(0)
    from websearch_sync.net.waits import wait_for as real_wait_for

    def counted_wait(*args, **kwargs):
        waiting.release()
        return real_wait_for(*args, **kwargs)

    monkeypatch.setattr(searxng_config, "wait_for", counted_wait)
    monkeypatch.setattr(searxng_config, "CONFIG_MAX_S", paced_budget_s(10.0))  # the wait is the other read's
    return waiting


class Answering:
    """A transport whose every request is answered ``status`` with ``body`` (JSON), noting the
    deadline each was sent with."""

    def __init__(self, status, body=b"{}"):
        self.status, self.body, self.deadlines = status, body, []

    def send(self, spec, deadline, **kwargs):
        self.deadlines.append(deadline)
        headers = CaseInsensitiveDict({"Content-Type": "application/json"})
        return HttpResponse(status=self.status, headers=headers, content=self.body, url=spec.url)


_URL = "http://127.0.0.1:9/config"  # never connected to: the reads here go through fake transports
_HEADERS = {"Authorization": "Bearer same"}


def _read(transport, before_request):
    return searxng_config.read_config_at(
        transport, _URL, _HEADERS, Deadline(60_000), "searxng", [], lambda response: None, before_request
    )


def _wait_for_another_read(monkeypatch, transport, before_request):
    """What a read of ``/config`` ends with (``transport``, ``before_request``), and what another
    search with the same credentials, which waits for it, says (it waits before that read is sent)."""
    waiting = waiting_counted(monkeypatch)

    def once_the_other_waits():
        waiting.acquire(timeout=paced_budget_s(10.0))
        before_request()

    ended: list = []
    first = threading.Thread(target=lambda: ended.append(_read(transport, once_the_other_waits)))
    first.start()
    ends = time.monotonic() + paced_budget_s(10.0)  # the first read waits for the other this long, no longer
    while searxng_config._entry(searxng_config._instance_key(_URL)) is None:  # the first read is under way
        assert first.is_alive(), "the first read of /config ended before it was seen under way: %r" % ended
        assert time.monotonic() < ends, "the first read of /config was not under way within %.1f s" % (
            paced_budget_s(10.0)
        )
        time.sleep(0.001)
    waited = _read(None, lambda: None)
    first.join()
    return ended[0], waited


def test_a_search_that_waited_for_a_read_never_sent_says_so_not_that_it_failed_with_other_credentials(monkeypatch):
    """Before: a search that waited for another search's read (same credentials) whose turn never
    came (no slot free at once for it) said /config "was read for another search, with other
    credentials, in vain": nothing was read, and the credentials were the same. The waiter learns
    why that read ended."""

    def no_slot():
        raise ws.Timeout("searxng allows one request every 2.0 s and no slot was free at once", provider="searxng")

    ended, waited = _wait_for_another_read(monkeypatch, None, no_slot)
    assert ended.not_sent and "no slot was free at once" in ended.why
    assert waited.not_sent and "other credentials" not in waited.why and "in vain" not in waited.why
    assert waited.why.startswith("/config was to be read for another search, which did not send it (")
    assert searxng_config.failed_read(_URL, _HEADERS) is None  # nothing was asked: no failure kept


def test_a_search_that_waited_for_a_failed_read_with_its_credentials_says_it_is_kept(monkeypatch):
    """The other read was sent with the same credentials and failed: the waiter says what a search
    after it says, that the failure is kept (not that it was read with other credentials)."""
    ended, waited = _wait_for_another_read(monkeypatch, Answering(500), lambda: None)
    assert ended.why == "/config could not be read: it answered HTTP 500" and not ended.not_sent
    assert waited.why.startswith("/config could not be read lately and is not asked again for ")
    assert waited.why.endswith("by a client with the same credentials: it answered HTTP 500")


def test_a_config_read_that_waited_for_its_turn_has_its_whole_slice(monkeypatch):
    """Before: the read's slice of the deadline started before its turn (``before_request``): a wait
    there (the late-request check of a shared pace) ate it, the read was refused unsent for want of
    time, and kept as a failed read ("no complete answer") for 10 minutes. The slice starts when
    the read leaves."""
    monkeypatch.setattr(searxng_config, "CONFIG_MAX_S", 0.05)
    turn_came: list = []

    def a_wait_longer_than_the_slice():
        time.sleep(0.1)  # at least 0.1 s: a slice of 0.05 s from before it would be over
        turn_came.append(time.monotonic())

    transport = Answering(200, b'{"engines": [{"name": "google"}]}')
    unread = _read(transport, a_wait_longer_than_the_slice)
    [slice_] = transport.deadlines
    assert slice_._end > turn_came[0]  # it ends after the turn came, not before
    assert unread is None and searxng_config.known_config(_URL) is not None

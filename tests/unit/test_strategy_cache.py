"""What an answer with a backend's failure in it may be cached for (``client/strategies.py``): the
backend that failed is asked again by the next call unless it cools down; while it does, the next
call (a fallback chain's or a merge's) would get the same answer, so it is kept until the
cool-down ends."""

import dataclasses
import json
import sqlite3

import pytest
from clocks import FakeClock

import websearch_sync as ws
from websearch_sync.client import search_client
from websearch_sync.client.cachekey import locale_key, query_key
from websearch_sync.client.stamps import served
from websearch_sync.testing import MockResponse, MockWire

RESULTS = json.dumps({"results": [{"title": "B", "url": "https://b.example/1", "snippet": "from bb"}]})


def _chain(json_backends, first_status, clock, strategy, **client_args):
    """A client asking ``aa`` (answering ``first_status``, but a query ``ok`` with one result) and
    ``bb`` (one result), and its wire."""
    json_backends("aa", "bb")

    def answer(request):
        if "aa.example" in request.url and "ok" not in request.url:
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
        **client_args,
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
    assert again["items"] == first["items"] and [e["detail_code"] for e in again["errors"]] == ["http_403"]
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


@STRATEGIES
def test_the_cool_down_bounded_answer_expires_with_the_cool_down_after_slow_page_reads(json_backends, strategy):
    """With ``include_content`` the pages are read after the strategy bounded the answer's time by
    ``aa``'s cool-down: the 50 s they took count against it (it was kept 50 s past the cool-down,
    counted again from when it was stored)."""
    json_backends("aa", "bb")
    clock = FakeClock()

    def answer(request):
        if "aa.example" in request.url:
            return MockResponse(403, {}, "<html>no</html>")
        if "bb.example" in request.url:
            return MockResponse(200, {"Content-Type": "application/json"}, RESULTS)
        clock.advance(50)  # the page read takes 50 s
        return MockResponse(200, {"Content-Type": "text/html"}, "<html><body><p>%s</p></body></html>" % ("text " * 50))

    settings = ws.Settings(endpoints={"aa": "https://aa.example/s", "bb": "https://bb.example/s"})
    client = ws.SearchClient(
        ["aa", "bb"],
        strategy=strategy,
        settings=settings,
        wire=MockWire(answer),
        retries=0,
        clock=clock,
        cooldowns={"http_403": 100},
    )
    with client:
        first = client.search("q", include_content=True, budget_ms=200_000)
        clock.advance(49)  # 99 s after aa's 403: it still cools down
        still = client.search("q", include_content=True, budget_ms=200_000)
        clock.advance(2)  # its cool-down is over
        after = client.search("q", include_content=True, budget_ms=200_000)
    assert first["items"][0]["content"] and [e["detail_code"] for e in first["errors"]] == ["http_403"]
    assert (still["provider_meta"]["cached"], after["provider_meta"]["cached"]) == (True, False)


@STRATEGIES
def test_a_cached_answer_says_the_cool_down_left_when_it_is_served(json_backends, strategy):
    """The note of the backend that cooled down said the seconds left when the answer was cached:
    served 99 s later it said 100 s left, for a cool-down ending in 1 s."""
    clock = FakeClock()
    client, _ = _chain(json_backends, 403, clock, strategy)
    with client:
        client.search("q")
        clock.advance(99)
        still = client.search("q")
    (note,) = still["errors"]
    assert still["provider_meta"]["cached"] is True
    assert (note["provider"], note["detail_code"]) == ("aa", "http_403")
    assert "(1 s left)" in note["message"] and "refused the request (HTTP 403)" in note["message"]


@STRATEGIES
def test_lifting_a_cool_down_drops_the_answers_it_shaped_and_keeps_the_others(json_backends, strategy, tmp_path):
    """After ``clear_cooldowns("aa")`` the answer cached without ``aa`` was served until the
    cool-down was to end (``aa`` not asked); now the next call asks ``aa``. An answer ``aa`` gave
    (no cool-down in it) stays cached, and so does the one without ``aa`` when another backend's
    cool-down is lifted. The memory and the file tier alike: a second client reading the file,
    which never met ``aa``'s block, would ask ``aa`` and does not take that answer either."""
    clock = FakeClock()
    client, wire = _chain(json_backends, 403, clock, strategy, cache_path=tmp_path / "cache.sqlite")
    with client:
        client.search("ok")
        client.search("q")
        assert client.clear_cooldowns("bb") == []
        kept = client.search("q")
        file = tmp_path / "cache.sqlite"
        with ws.SearchClient(
            ["aa", "bb"], strategy=strategy, settings=client.settings, wire=wire, clock=clock, cache_path=file
        ) as reader:
            other = reader.search("q")  # asks aa (403: its own cool-down), answered by bb
            ok_there = reader.search("ok")
        asked = len(wire.requests)
        assert client.clear_cooldowns("aa") == ["aa@aa.example", "host:aa.example"]
        ok = client.search("ok")
        lifted = client.search("q")
    assert kept["provider_meta"]["cached"] is True
    assert (other["provider_meta"]["cached"], ok_there["provider_meta"]["cached"]) == (False, True)
    assert ok["provider_meta"]["cached"] is True
    assert lifted["provider_meta"]["cached"] is False
    assert [e["detail_code"] for e in lifted["errors"]] == ["http_403"]  # aa was asked: its 403 again
    assert sorted(request.url.split("/")[2] for request in wire.requests[asked:]) == ["aa.example", "bb.example"]


def _planted(path, edit):
    """Rewrite the one answer the cache file at ``path`` holds: ``edit(stored)`` gives its new text."""
    with sqlite3.connect(path) as conn:
        (value,) = conn.execute("SELECT value FROM results").fetchone()
        conn.execute("UPDATE results SET value = ?", (edit(json.loads(value)),))
    conn.close()


def _huge_in_stamp(stored):
    stored["_stamp"]["stored_for_s"] = 0
    return json.dumps(stored).replace('"stored_for_s": 0', '"stored_for_s": 1' + "0" * 400)


def _huge_in_note(stored):
    stored["_stamp"]["cooldowns"] = {}
    stored["errors"][0]["retry_after"] = 0
    return json.dumps(stored).replace('"retry_after": 0', '"retry_after": 1' + "0" * 400)


@pytest.mark.parametrize("edit", [_huge_in_stamp, _huge_in_note])
def test_a_planted_stamp_with_a_huge_integer_is_a_miss(json_backends, tmp_path, edit):
    """A 400-digit JSON integer (valid JSON, in a file anyone may write) as the seconds an answer
    was stored for, or a note's ``retry_after``, raised ``OverflowError`` out of ``search``
    (``math.isfinite`` makes an int a float): it is no number of seconds, so the entry is a miss."""
    clock = FakeClock()
    path = tmp_path / "cache.sqlite"
    client, _ = _chain(json_backends, 403, clock, "fallback", cache_path=path)
    with client:
        client.search("q")
    _planted(path, edit)
    client, _ = _chain(json_backends, 403, clock, "fallback", cache_path=path)
    with client:
        again = client.search("q")
    assert again["provider_meta"]["cached"] is False


def test_a_stamp_is_checked_only_while_the_call_has_time_left():
    """Each cool-down a stamp names is a shared read (:func:`~.stamps.served`): the call's time left
    is asked before each, and bounds it; once none is left the answer is a miss, nothing more read."""
    asked = []

    def check(key, left_s):
        asked.append((key, left_s))

    lefts = iter([0.5, 0.0])
    stamp = {"stored_for_s": 10, "cooldowns": {"aa": ["aa-1", "aa-2"]}}
    value = {"items": [], "errors": [], "_stamp": stamp}
    own = {"aa": ("aa-1", "aa-2")}.get
    assert served(value, 5, check, own, lambda: next(lefts)) is None
    assert asked == [("aa-1", 0.5)]


def _key_before_stamps(params, backends, strategy, fingerprint, pace=(), named=True):
    """``search_key`` as the versions before stamped answers wrote it (an older worker of a fleet:
    it did not key by ``named`` either)."""
    canonical = dataclasses.replace(params, query=query_key(params.query), locale=locale_key(params.locale))
    return ("search", canonical.cache_key(), tuple(backends), strategy, fingerprint, tuple(pace))


def test_an_older_version_sharing_the_cache_file_misses_the_stamped_answers(json_backends, tmp_path, monkeypatch):
    """A fleet upgraded worker by worker shares one cache: an older worker read a stamped answer
    and handed its caller the ``_stamp`` it does not know. The answers are under keys of their
    format: the older worker misses them (and asks for its own)."""
    clock = FakeClock()
    path = tmp_path / "cache.sqlite"
    client, _ = _chain(json_backends, 403, clock, "fallback", cache_path=path)
    with client:
        client.search("q")
    monkeypatch.setattr(search_client, "search_key", _key_before_stamps)
    monkeypatch.setattr(search_client, "served", lambda value, *stamp_args: value)  # as read before stamps
    older, _ = _chain(json_backends, 403, clock, "fallback", cache_path=path)
    with older:
        read = older.search("q")
    assert read["provider_meta"]["cached"] is False
    assert "_stamp" not in read

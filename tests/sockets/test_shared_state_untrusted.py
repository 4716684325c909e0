"""Shared state is untrusted input (issue 23.6, 23.9) and one Redis is one cache (issue 25.4).

Crafted entries are written into a real redis-server (and a shared SQLite file); replies
of the wrong shape come from a tiny RESP server on loopback that answers what a test says.
"""

import json
import logging
import socket
import sqlite3
import time
from collections.abc import Iterator
from typing import Any, Callable, Optional

import pytest
from clocks import deadline_margin_s, machine_pace
from faults import respond
from images import noise_png, png
from redis_server import REDIS_UP_TIMEOUT_S, redis_db, redis_server, up  # noqa: F401  (fixtures)
from servers import FaultServer, LoopbackListener

import websearch_sync as ws
from websearch_sync.cli import main as cli_main
from websearch_sync.client.answers import page_answer_bytes
from websearch_sync.client.state import server as state_server
from websearch_sync.client.state.slots import process_id, slot_time_us
from websearch_sync.config import DEFAULT_MAX_CHARS
from websearch_sync.tool import format_results

DEEP = "[" * 100_000 + "]" * 100_000


def _cache_keys(db) -> list[bytes]:
    return sorted(db.keys("websearch_sync:cache:*"))


def _good_answer():
    with ws.SearchClient("stub", state_url="") as client:
        answer = client.search("crafted", max_results=3)
    answer["provider_meta"].pop("latency_ms")
    return answer


CRAFTED_ANSWERS = {
    "empty object": "{}",
    "a list": "[]",
    "provider_meta a list": json.dumps({"items": [], "provider_meta": []}),
    "deep JSON": DEEP,
    "a javascript: URL": json.dumps(
        {
            "items": [{"title": "t", "url": "javascript:alert(1)", "snippet": "", "provider": "stub", "rank": 1}],
            "provider_meta": {},
        }
    ),
    "more items than asked": None,  # filled below: the good answer with ten items
    # the right shape, but 10 MB: every reader paid seconds and hundreds of MB, then served 0 items (issue
    # 33.6); built when a test asks (below): at import it cost every process that collects 80 ms and 10 MB
    "ten megabytes": None,
    "an item missing its title": None,
}


def _crafted(name: str) -> str:
    good = _good_answer()
    if name == "more items than asked":
        good["items"] = [dict(good["items"][0], url="https://a.example/%d" % i, rank=i) for i in range(1, 11)]
        return json.dumps(good)
    if name == "an item missing its title":
        del good["items"][0]["title"]
        return json.dumps(good)
    if name == "ten megabytes":
        return json.dumps({"items": [], "provider_meta": {"pad": "x" * 10_000_000}})
    return CRAFTED_ANSWERS[name]


@pytest.mark.parametrize("name", sorted(CRAFTED_ANSWERS))
def test_a_crafted_cache_entry_in_redis_is_a_miss(redis_db, redis_server, name):  # noqa: F811
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as writer:
        writer.search("crafted", max_results=3)
    (key,) = _cache_keys(redis_db)
    redis_db.set(key, _crafted(name), ex=60)
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as reader:
        answer = reader.search("crafted", max_results=3)
    assert answer["provider_meta"]["cached"] is False
    assert len(answer["items"]) == 3 and all(item["url"].startswith("https://") for item in answer["items"])


@pytest.mark.parametrize(
    "name", ["deep JSON", "a javascript: URL", "more items than asked", "provider_meta a list", "ten megabytes"]
)
def test_a_crafted_entry_in_a_shared_sqlite_file_is_a_miss(tmp_path, name):
    path = str(tmp_path / "cache.sqlite")
    with ws.SearchClient("stub", cache_path=path, state_url="") as writer:
        writer.search("crafted", max_results=3)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE results SET value = ?", (_crafted(name),))
    with ws.SearchClient("stub", cache_path=path, state_url="") as reader:
        assert reader.search("crafted", max_results=3)["provider_meta"]["cached"] is False


@pytest.mark.parametrize("vertical", ["web", "news", "images", "videos"])
def test_every_verticals_answer_in_a_shared_sqlite_file_is_a_hit(tmp_path, vertical):
    """Image items have no snippet: the web shape's check made every stored image answer a miss, so
    the file (and a shared Redis) never answered an image search twice."""
    path = str(tmp_path / "cache.sqlite")
    with ws.SearchClient("stub", cache_path=path, state_url="") as writer:
        writer.search("stored", vertical=vertical)
    with ws.SearchClient("stub", cache_path=path, state_url="") as reader:
        assert reader.search("stored", vertical=vertical)["provider_meta"]["cached"] is True


@pytest.mark.parametrize("cuts", [[["max_chars"]], ["ask for more"]], ids=["a list", "a cause fetch never names"])
def test_a_crafted_content_cut_in_a_shared_sqlite_file_is_a_miss(tmp_path, cuts):
    """An item's ``content_truncated_by`` is read as a fetch result's ``truncated_by`` is: the tool
    text looks each cause up."""
    path = str(tmp_path / "cache.sqlite")
    with ws.SearchClient("stub", cache_path=path, state_url="") as writer:
        answer = writer.search("crafted")
    answer["items"][0]["content_truncated_by"] = cuts
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE results SET value = ?", (json.dumps(answer),))
    with ws.SearchClient("stub", cache_path=path, state_url="") as reader:
        assert reader.search("crafted")["provider_meta"]["cached"] is False


PAGE = b"<!doctype html><title>Tides</title><p>" + b"High water at the harbour is at 06:12 today. " * 40 + b"</p>"


@pytest.fixture(scope="module")
def page_server():
    with FaultServer({"/page": respond(200, PAGE)}) as running:
        yield running


def _warning_without(*names: str) -> dict[str, Any]:
    """A warning as fetch writes it (a PDF's pages left out), less ``names``."""
    warning = {
        "type": "WebParseError",
        "message": "2 pages left out",
        "retryable": False,
        "detail_code": "pdf_pages_left_out",
        "provider": "fetch",
    }
    return {key: value for key, value in warning.items() if key not in names}


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({}, id="as stored"),
        pytest.param({"truncated_by": [["max_chars"]]}, id="a cause that is a list"),
        pytest.param({"truncated_by": ["max_chars", "ask for more"]}, id="a cause fetch never names"),
        pytest.param({"truncated_by": "max_chars"}, id="causes that are text"),
        pytest.param({"content_type": ["text/html"]}, id="a content type that is a list"),
        pytest.param({"extractor": None}, id="no extractor"),
        pytest.param({"data": "iVBORw0KGgo=", "width": 1, "height": 1}, id="an image a text fetch never returns"),
        pytest.param({"errors": [1]}, id="a warning that is a number"),
        pytest.param({"errors": [{"type": "WebParseError", "message": "m"}]}, id="a warning without its fields"),
        pytest.param({"errors": [_warning_without("detail_code")]}, id="a warning without its detail code"),
        pytest.param({"errors": [_warning_without("provider")]}, id="a warning without its provider"),
        pytest.param({"errors": [{**_warning_without(), "detail_code": "http_404"}]}, id="a failure as a warning"),
        pytest.param({"errors": [{**_warning_without(), "secret": "x"}]}, id="a warning with a key fetch never writes"),
    ],
)
def test_a_crafted_fetch_entry_in_a_shared_sqlite_file_is_a_miss(tmp_path, page_server, change):
    """A planted ``truncated_by: [["max_chars"]]`` was returned, and the tool text raised TypeError on it."""
    path, url = str(tmp_path / "cache.sqlite"), page_server.url("/page")
    with ws.SearchClient("stub", cache_path=path, state_url="") as writer:
        stored = writer.fetch(url, allow_private=True, max_chars=200)
    assert stored["truncated_by"] == ["max_chars"]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE pages SET value = ?", (json.dumps(dict(stored, **change)),))
    asked = len(page_server.requests)
    with ws.SearchClient("stub", cache_path=path, state_url="") as reader:
        result = reader.fetch(url, allow_private=True, max_chars=200)
    assert len(page_server.requests) - asked == (1 if change else 0)  # a miss reads the page again
    assert "(truncated to 200 characters: ask a larger max_chars" in format_results(result)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"data": ["iVBORw0KGgo="]}, id="data that is a list"),
        pytest.param({"width": "640"}, id="a width that is text"),
        pytest.param({"data": "A" * (5 * 2**20 + 4)}, id="data over the 5 MiB an image is cut to"),
    ],
)
def test_a_crafted_image_entry_in_redis_is_a_miss(redis_db, redis_server, change):  # noqa: F811
    """A planted ``data`` reached the caller as it was (a list, or more text than any image fetch returns)."""
    url = up(redis_server.url)
    with FaultServer({"/i": respond(200, png(64, 48), content_type="image/png")}) as server:
        with ws.SearchClient("stub", state_url=url) as writer:
            stored = writer.fetch(server.url("/i"), allow_private=True, images=True)
        (key,) = _cache_keys(redis_db)
        redis_db.set(key, json.dumps(dict(stored, **change)), ex=60)
        with ws.SearchClient("stub", state_url=url) as reader:
            again = reader.fetch(server.url("/i"), allow_private=True, images=True)
    assert len(server.requests) == 2 and again == stored


def test_an_image_answer_past_the_texts_bound_is_shared_and_warned_of_by_no_one(redis_db, redis_server, caplog):  # noqa: F811
    """An image's base64 ``data`` counted against the text's bound (64 KiB + 6 bytes a character of
    ``max_chars``, 364 KiB by default): every image over about 300 KB was kept out of Redis, each
    worker fetched it again, and the first one warned that an answer was too long to share."""
    body = noise_png(360, 360)  # about 390 KB: 520 KB of base64
    url = up(redis_server.url)
    with (
        caplog.at_level(logging.WARNING, logger="websearch_sync"),
        FaultServer({"/i": respond(200, body, content_type="image/png")}) as server,
    ):
        with ws.SearchClient("stub", state_url=url) as writer:
            stored = writer.fetch(server.url("/i"), allow_private=True, images=True)
        with ws.SearchClient("stub", state_url=url) as reader:
            again = reader.fetch(server.url("/i"), allow_private=True, images=True)
    assert len(stored["data"]) > page_answer_bytes(DEFAULT_MAX_CHARS)
    assert (len(server.requests), again["data"] == stored["data"]) == (1, True)
    assert not [r.getMessage() for r in caplog.records if "longer than" in r.getMessage()]


CRAFTED_COOLDOWNS = {
    "until 1e300": '{"detail_code": "http_429", "status": 429, "until": 1e300}',
    "until Infinity": '{"detail_code": "http_429", "status": 429, "until": Infinity}',
    "until NaN": '{"detail_code": "http_429", "status": 429, "until": NaN}',
    # a JSON integer no float holds: OverflowError escaped every search of the backend
    "until 400 digits": '{"detail_code": "http_429", "status": 429, "until": 1%s}' % ("0" * 400),
    "deep JSON": DEEP,
    "a list": "[1, 2]",
    "not JSON": "\xff\xfe",
}


@pytest.mark.parametrize("name", sorted(CRAFTED_COOLDOWNS))
def test_a_crafted_cool_down_record_is_ignored(redis_db, redis_server, name):  # noqa: F811
    redis_db.set("websearch_sync:cooldown:stub", CRAFTED_COOLDOWNS[name], ex=3600)
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as client:
        assert client.search("q")["items"]


def test_a_shared_cool_down_lasts_at_most_a_day_whatever_its_key_says(redis_db, redis_server):  # noqa: F811
    until = time.time() + 5 * 86400
    redis_db.set(
        "websearch_sync:cooldown:stub",
        json.dumps({"detail_code": "http_429", "status": 429, "until": until}),
        ex=5 * 86400,
    )
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as client, pytest.raises(ws.WebBlocked) as info:
        client.search("q")
    assert 86400 - 60 < info.value.retry_after <= 86400


def test_a_key_of_the_wrong_type_is_unusable_for_that_key_only(redis_db, redis_server):  # noqa: F811
    redis_db.lpush("websearch_sync:cooldown:stub", "x")
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as first:
        assert first.search("wrong type")["provider_meta"]["cached"] is False
    with ws.SearchClient(
        "stub", state_url=up(redis_server.url)
    ) as second:  # Redis was not given up: the answer is there
        assert second.search("wrong type")["provider_meta"]["cached"] is True


@pytest.mark.parametrize("kind, ours", [("slot", b"string"), ("fleet", b"zset"), ("sent", b"string")])
def test_a_pace_key_of_the_wrong_type_is_replaced_not_a_failure_for_ever(redis_db, redis_server, kind, ours):  # noqa: F811
    """A slot, fleet or departure key another program wrote as a hash (no expiry) made every booking
    of the upstream fail, for ever and logged at DEBUG only: each process paced it alone, and the
    upstream saw the fleet's size times the rate."""
    key = "websearch_sync:%s:{stub}" % kind
    redis_db.hset(key, "written by", "another program")
    with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 0.05}) as client:
        for number in range(2):
            assert client.search("paced %d" % number, cache_ttl_s=0)["items"]
    assert redis_db.type(key) == ours and redis_db.pttl(key) > 0  # ours again, expiring by itself
    assert len(redis_db.zrange("websearch_sync:fleet:{stub}", 0, -1)) == 1  # booked in Redis: one fleet
    assert slot_time_us(redis_db.get("websearch_sync:slot:{stub}")) > 0


def test_a_fleet_member_from_a_clock_no_one_has_reached_is_dropped(redis_db, redis_server):  # noqa: F811
    """A member noted in the future (planted, or by a server whose clock ran ahead before a
    failover) never left the fleet: each one shrank every process's share of the pace while Redis
    is down (a fleet of 1,000 planted members: a request every 1,000 intervals). One noted a
    second ahead (the Redis host's clock stepped back since) is a member: all of them were dropped
    at every such step."""
    key = "websearch_sync:fleet:{stub}"
    now_us = _redis_now_us(redis_db)
    redis_db.zadd(key, {"%d-%012x" % (9000 + number, number): now_us + 3600 * 10**6 + number for number in range(3)})
    redis_db.zadd(key, {"1-0123456789ab": now_us + 10**6})  # before a clock step
    with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 0.05}) as client:
        assert client.search("counted", cache_ttl_s=0)["items"]
    assert sorted(member.decode() for member in redis_db.zrange(key, 0, -1)) == sorted(["1-0123456789ab", process_id()])


DAY_US = 86400 * 10**6


def _redis_now_us(db) -> int:
    seconds, micros = db.time()
    return seconds * 1_000_000 + micros


@pytest.mark.parametrize(
    "slot",
    [
        pytest.param(lambda db: ("99999999999999999 1000000", None), id="planted, without expiry"),
        # written by a primary whose clock ran an hour ahead of this one's (a failover): its key lives that hour too
        pytest.param(lambda db: ("%d 1000000" % (_redis_now_us(db) + 3600 * 10**6), 3601), id="an hour ahead"),
        # its value claims an interval no Settings take (two days): the bound grew with it, for ever without an expiry
        pytest.param(lambda db: ("%d %d" % (_redis_now_us(db) + 2 * DAY_US, 2 * DAY_US), None), id="a planted pace"),
        # past what a reply's integer holds: the script answered a negative wait, and Redis counted as down
        pytest.param(lambda db: ("%d %d" % (10**30, 10**30), None), id="a pace past 64 bits"),
    ],
)
def test_a_slot_no_call_could_have_booked_holds_no_one_back(redis_db, redis_server, slot):  # noqa: F811
    """No call books a slot further away than its budget (at most ten minutes) and an interval:
    one further ahead refused every booking of that upstream (``budget_exhausted`` in every
    process) until its key expired, never for one planted without an expiry."""
    value, expiry_s = slot(redis_db)
    redis_db.set("websearch_sync:slot:{stub}", value, ex=expiry_s)
    with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 1.0}) as client:
        assert client.search("booked", timeout_ms=5000, cache_ttl_s=0)["items"]
    assert 0 < redis_db.pttl("websearch_sync:slot:{stub}") <= 2000  # booked anew, expiring by itself


def test_a_process_pacing_an_upstream_slower_than_a_day_keeps_its_own_pace(redis_db, redis_server):  # noqa: F811
    """The control of the planted pace above: a client's own interval (its argument takes any) is
    believed for its own bookings, so its second request still waits two days (refused for its budget)."""
    with ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 2 * 86400.0}) as client:
        assert client.search("first", timeout_ms=5000, cache_ttl_s=0)["items"]
        with pytest.raises(ws.Timeout) as info:
            client.search("second", timeout_ms=5000, cache_ttl_s=0)
    assert info.value.detail_code == "budget_exhausted"


def test_a_departure_no_clock_has_reached_counts_as_none_not_as_a_failing_redis(redis_db, redis_server, caplog):  # noqa: F811
    """A request's departure noted an hour ahead of the Redis clock (a failover to a server whose
    clock is behind, or planted) made the sending script answer an hour's wait: a reply no call
    can get, so every call counted the whole state as down (its cache and cool-downs too)."""
    redis_db.set("websearch_sync:sent:{stub}", "%d" % (_redis_now_us(redis_db) + 3600 * 10**6), ex=3601)
    with (
        caplog.at_level(logging.WARNING, logger="websearch_sync"),
        ws.SearchClient("stub", state_url=up(redis_server.url), min_interval_s={"stub": 0.01}) as client,
    ):
        assert client.search("departed", cache_ttl_s=0)["items"]
    assert not [record.getMessage() for record in caplog.records if "unavailable" in record.getMessage()]


@pytest.mark.parametrize(
    "plant",
    [
        pytest.param(lambda db, name: db.lpush(name, "x"), id="a list"),
        pytest.param(lambda db, name: db.set(name, "someone"), id="no expiry"),
        pytest.param(lambda db, name: db.set(name, "someone", ex=3600), id="an hour"),
    ],
)
def test_a_planted_flight_key_holds_no_one_back(redis_db, redis_server, monkeypatch, plant):  # noqa: F811
    """A question's key that no claim sets (claims are 3 s leases): every call of that question
    used to wait for it until its deadline, then fail (Timeout), in every process, for ever."""
    from websearch_sync.client.state.flights import SharedFlights

    names = []
    real_key = SharedFlights._key
    monkeypatch.setattr(SharedFlights, "_key", lambda self, key: names.append(real_key(self, key)) or names[-1])
    with ws.SearchClient("stub", state_url=up(redis_server.url), cache_ttl_s=0.001) as client:
        client.search("planted")
    redis_db.flushdb()
    plant(redis_db, names[0])
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as client:
        answer = client.search("planted", timeout_ms=3000)
    assert answer["items"] and answer["provider_meta"]["cached"] is False


# -- a Redis that answers what the test says ---------------------------------------------------


class FakeRedis(LoopbackListener):
    """A RESP server on 127.0.0.1: ``reply(command)`` gives the bytes each command gets back
    (``None``: ``+OK``; an iterator: its chunks, one after the other). A round trip (the first
    command of a pipeline: GET, SET, EVALSHA, EXISTS) is answered after ``delay_s``.
    ``commands`` lists what arrived."""

    def __init__(self, reply: Callable[[list[bytes]], Any], delay_s: float = 0.0) -> None:
        super().__init__()
        self.reply = reply
        self.delay_s = delay_s
        self.commands: list[list[bytes]] = []
        self.url = "redis://127.0.0.1:%d/0" % self.port

    def connected(self, conn: socket.socket) -> None:
        conn.settimeout(10)
        reader = conn.makefile("rb")
        try:
            while not self.stopping.is_set():
                head = reader.readline()
                if not head.startswith(b"*"):
                    return
                command = []
                for _ in range(int(head[1:])):
                    length = int(reader.readline()[1:])
                    command.append(reader.read(length + 2)[:-2])
                self.commands.append(command)
                if self.delay_s and command[0].upper() in (b"GET", b"GETRANGE", b"SET", b"EVALSHA", b"EXISTS"):
                    self.stopping.wait(self.delay_s)
                answer = self.reply(command)
                for chunk in [b"+OK\r\n" if answer is None else answer] if not isinstance(answer, Iterator) else answer:
                    conn.sendall(chunk)
        except (OSError, ValueError):
            return
        finally:
            conn.close()


def _by_command(**replies: bytes) -> Callable[[list[bytes]], Optional[bytes]]:
    def reply(command: list[bytes]) -> Optional[bytes]:
        return replies.get(command[0].decode().upper())

    return reply


WRONG_REPLIES = {
    "GET answers an integer": _by_command(GET=b":42\r\n", GETRANGE=b":42\r\n", PTTL=b":5000\r\n", EXISTS=b":0\r\n"),
    "GET answers a one-element array": _by_command(
        GET=b"*1\r\n:1\r\n", GETRANGE=b"*1\r\n:1\r\n", PTTL=b":5000\r\n", EXISTS=b":0\r\n"
    ),
    "PTTL answers text": _by_command(
        GET=b"$2\r\n{}\r\n", GETRANGE=b"$2\r\n{}\r\n", PTTL=b"+soon\r\n", EXISTS=b":0\r\n"
    ),
    "GET answers an array nested 5000 deep": _by_command(
        GET=b"*1\r\n" * 5000 + b":1\r\n",
        GETRANGE=b"*1\r\n" * 5000 + b":1\r\n",
        PTTL=b":5000\r\n",
        EXISTS=b":0\r\n",
    ),
    "GET answers a length that is no number": _by_command(
        GET=b"$abc\r\n", GETRANGE=b"$abc\r\n", PTTL=b":5000\r\n", EXISTS=b":0\r\n"
    ),
    "GET answers a length past any index": _by_command(
        GET=b"$99999999999999999999\r\n", GETRANGE=b"$99999999999999999999\r\n", PTTL=b":5000\r\n", EXISTS=b":0\r\n"
    ),
    "the slot script answers text": _by_command(
        GET=b"$-1\r\n", PTTL=b":-2\r\n", EVALSHA=b"+wait\r\n", EXISTS=b":0\r\n"
    ),
    "the slot script says wait 3600 s": _by_command(
        GET=b"$-1\r\n", PTTL=b":-2\r\n", EVALSHA=b"*4\r\n:1\r\n:3600000000\r\n:1\r\n:0\r\n", EXISTS=b":0\r\n"
    ),
}


@pytest.mark.parametrize("name", sorted(WRONG_REPLIES))
def test_a_reply_of_the_wrong_shape_is_a_failing_redis_never_an_escape_nor_a_long_wait(name):
    with (
        FakeRedis(WRONG_REPLIES[name]) as fake,
        ws.SearchClient("stub", state_url=fake.url, min_interval_s={"stub": 0.001}) as client,
    ):
        started = time.monotonic()
        answer = client.search("q", timeout_ms=2000)
        assert time.monotonic() - started < 2.0
    assert answer["provider_meta"]["cached"] is False and answer["items"]


_TIME = b"*2\r\n$10\r\n1700000000\r\n$1\r\n0\r\n"
_NO_KEYS = b"*2\r\n$1\r\n0\r\n*0\r\n"
OPERATOR_REPLIES = {
    "a cursor that is no number": (b"*2\r\n$3\r\nabc\r\n*0\r\n", _TIME),
    "a cursor 5000 digits long": (b"*2\r\n$5000\r\n%s\r\n*0\r\n" % (b"9" * 5000), _TIME),
    "a page without keys": (b"*1\r\n$1\r\n0\r\n", _TIME),
    "a key that is a number": (b"*2\r\n$1\r\n0\r\n*1\r\n:5\r\n", _TIME),
    "keys that are a number": (b"*2\r\n$1\r\n0\r\n:5\r\n", _TIME),
    "TIME of one part": (_NO_KEYS, b"*1\r\n$1\r\n1\r\n"),
    "TIME of text": (_NO_KEYS, b"*2\r\n$3\r\nabc\r\n$1\r\n0\r\n"),
    "TIME a number": (_NO_KEYS, b":5\r\n"),
}


@pytest.mark.parametrize(
    "command, name",
    [
        pytest.param(command, name, id="%s-%s" % (command[1], name))
        for name in sorted(OPERATOR_REPLIES)
        for command in (["state", "show", "--json"], ["state", "clear", "--cache"])
        if command[1] == "show" or name.startswith("a ") or name.startswith("keys")  # clear asks no TIME
    ],
)
def test_an_operators_command_given_a_reply_no_redis_sends_says_so_never_an_escape(capsys, command, name):
    """redis-py reshapes SCAN's and TIME's replies in callbacks that run after the read (``int(cursor)``,
    ``int(x[0])``): ValueError, IndexError and TypeError escaped ``state show`` and ``state clear``."""
    scan, clock = OPERATOR_REPLIES[name]
    with FakeRedis(_by_command(SCAN=scan, TIME=clock)) as fake:
        code = cli_main([*command, "--state-url", fake.url + "?socket_timeout=2"])
    told = capsys.readouterr()
    assert code == 4 and "BadReply: %s answered" % ("TIME" if name.startswith("TIME") else "SCAN") in told.err, told


@pytest.mark.parametrize(
    "command, kind",
    [
        (["state", "show", "--json"], None),
        (["state", "clear"], "cooldown"),
        (["state", "clear", "--cache"], "cache"),
    ],
    ids=["show", "clear", "clear-cache"],
)
def test_an_operators_command_given_endless_scan_cursors_ends_at_its_deadline(
    capsys, monkeypatch, fake_clock, command, kind
):
    """Each round trip was bounded, the scan was not: a server answering every SCAN with another
    cursor (and a key now and then) held ``state show`` and ``state clear`` for ever. The whole
    command ends at the deadline (``WEB_SEARCH_TIMEOUT_MS``, on the fake clock: a second a round
    here), saying what it did before it stopped."""
    monkeypatch.setenv("WEB_SEARCH_TIMEOUT_MS", "5000")
    scans: list[int] = []

    def reply(said: list[bytes]) -> Optional[bytes]:
        if said[0].upper() == b"SCAN":
            scans.append(1)
            fake_clock.advance(1.0)
            if len(scans) > 1000:  # a command that never stops: end the test's scan, not the test
                return _NO_KEYS
            key = b"websearch_sync:%s:k%d" % (kind.encode() if kind else b"cooldown", len(scans))
            return b"*2\r\n$2\r\n77\r\n*1\r\n$%d\r\n%s\r\n" % (len(key), key)
        if said[0].upper() == b"EVALSHA":
            return _lifted(said)
        return _by_command(TIME=_TIME, GETRANGE=b"$-1\r\n", PTTL=b":-2\r\n", DEL=b":1\r\n")(said)

    with FakeRedis(reply) as fake:
        code = cli_main([*command, "--state-url", fake.url + "?socket_timeout=2"])
    told = capsys.readouterr()
    assert (code, len(scans)) == (4, 5), told
    assert "did not finish reading its keys within 5 s (5 rounds of SCAN, 5 keys found)" in told.err, told.err
    if kind is not None:
        assert "the 5 %s keys it found were deleted" % kind in told.err, told.err


def _clear_backend(reply: Callable[[list[bytes]], Optional[bytes]], capsys: Any) -> tuple[int, Any]:
    """``state clear --backend ddg_html`` on a fake Redis answering with ``reply``: its exit code and output."""
    with FakeRedis(reply) as fake:
        code = cli_main(["state", "clear", "--backend", "ddg_html", "--state-url", fake.url + "?socket_timeout=2"])
    return code, capsys.readouterr()


def test_clearing_a_backends_cool_downs_scans_within_one_deadline_for_it_and_its_hosts(capsys, monkeypatch, fake_clock):
    """``state clear --backend B`` scans for B's keys and its endpoint hosts' (three patterns each):
    each host's scans had a deadline of their own, so the command took that deadline once per host.
    Here every scan takes two rounds of a second (on the fake clock): 12 s in all, past the 7 s."""
    monkeypatch.setenv("WEB_SEARCH_TIMEOUT_MS", "7000")
    scans: list[bytes] = []

    def reply(said: list[bytes]) -> Optional[bytes]:
        if said[0].upper() == b"SCAN":
            scans.append(said[1])
            fake_clock.advance(1.0)
            return b"*2\r\n$1\r\n%s\r\n*0\r\n" % (b"7" if said[1] == b"0" else b"0")
        return None

    code, told = _clear_backend(reply, capsys)
    assert (code, len(scans)) == (4, 7), told
    assert "within 7 s (7 rounds of SCAN, 0 keys found): the 0 cooldown keys it found were deleted" in told.err, told


def test_state_show_reads_its_cool_downs_within_its_deadline(capsys, monkeypatch, fake_clock):
    """The scan was bounded, the pipelines of GETRANGE and PTTL after it were not: 5,000 cool-downs
    read 500 a pipeline, each pipeline 1.5 s, took ``state show`` 16 s with a 3 s deadline. Here
    three pipelines of two take 2 s each (on the fake clock): the third is not sent."""
    from websearch_sync.client.state import survey

    monkeypatch.setenv("WEB_SEARCH_TIMEOUT_MS", "3000")
    monkeypatch.setattr(survey, "_BATCH", 2)
    keys = [b"websearch_sync:cooldown:k%d" % index for index in range(6)]
    pipelines: list[int] = []

    def reply(said: list[bytes]) -> Optional[bytes]:
        if said[0].upper() == b"SCAN":
            return b"*2\r\n$1\r\n0\r\n*%d\r\n" % len(keys) + b"".join(b"$%d\r\n%s\r\n" % (len(k), k) for k in keys)
        if said[0].upper() == b"GETRANGE" and len(pipelines) * 2 == keys.index(said[1]):  # a pipeline's first
            pipelines.append(1)
            fake_clock.advance(2.0)
        return _by_command(TIME=_TIME, GETRANGE=b"$-1\r\n", PTTL=b":-2\r\n")(said)

    with FakeRedis(reply) as fake:
        code = cli_main(["state", "show", "--json", "--state-url", fake.url + "?socket_timeout=2"])
    told = capsys.readouterr()
    assert (code, len(pipelines)) == (4, 2), told
    assert "did not finish reading its keys within 3 s (1 round of SCAN, 6 keys found)" in told.err, told.err


def _lifted(said: list[bytes]) -> bytes:
    """What ``state clear``'s lift script answers for ``EVALSHA <sha> <n> <keys...>``: every key lifted."""
    keys = said[3 : 3 + int(said[2])]
    return b"*%d\r\n" % len(keys) + b"".join(b"$%d\r\n%s\r\n" % (len(key), key) for key in keys)


def test_state_clear_deletes_within_its_deadline(capsys, monkeypatch, fake_clock):
    """``state clear --backend B`` scans several patterns, each found page lifted by a script (a
    DEL before lift markers): each was bounded, the command was not checked between them. Here each
    page's script takes 3 s (on the fake clock) and each scan is one round: past the 5 s, no pattern
    is scanned after the second page."""
    monkeypatch.setenv("WEB_SEARCH_TIMEOUT_MS", "5000")
    deletes: list[bytes] = []

    def reply(said: list[bytes]) -> Optional[bytes]:
        if said[0].upper() == b"SCAN":
            key = b"websearch_sync:cooldown:k%d" % len(deletes)
            return b"*2\r\n$1\r\n0\r\n*1\r\n$%d\r\n%s\r\n" % (len(key), key)
        if said[0].upper() == b"EVALSHA":  # the lift script
            deletes.append(said[3])
            fake_clock.advance(3.0)
            return _lifted(said)
        return None

    code, told = _clear_backend(reply, capsys)
    assert (code, len(deletes)) == (4, 2), told
    assert "within 5 s (2 rounds of SCAN, 2 keys found): the 2 cooldown keys it found were deleted" in told.err, told


#: What a hostile server starts to send: far more than any bound, and than the kernel buffers between.
_ENDLESS_MB = 64


def _endless(head: bytes, chunk: bytes, sent: list[int]) -> Iterator[bytes]:
    """``head``, then ``chunk`` repeated to :data:`_ENDLESS_MB`, noting each one sent in ``sent``."""
    yield head
    for _ in range(_ENDLESS_MB * 2**20 // len(chunk)):
        yield chunk
        sent.append(len(chunk))


@pytest.mark.parametrize("command", ["GETRANGE", "EVALSHA"])
def test_an_endless_reply_is_cut_at_its_bound_not_read_into_memory(caplog, command):
    """A server that answers the cache read (a value of 1 GB) or the slot script (an array of 1 G
    items) with more and more bytes was read for as long as the command's timeout let it: 200 MB in
    0.25 s on loopback, 1.6 GB at ``socket_timeout=2``. The client stops reading past what the
    command can get back (the call's bound for an answer, 64 KiB else) and says so: a failing Redis."""
    sent: list[int] = []
    heads = {"GETRANGE": (b"$%d\r\n" % 2**30, b"x" * 2**16), "EVALSHA": (b"*%d\r\n" % 2**30, b":1\r\n" * 2**14)}
    plain = _by_command(GET=b"$-1\r\n", GETRANGE=b"$0\r\n\r\n", PTTL=b":-2\r\n", EXISTS=b":0\r\n")

    def reply(said: list[bytes]) -> Any:
        return _endless(*heads[command], sent) if said[0].upper() == command.encode() else plain(said)

    with (
        caplog.at_level(logging.WARNING, logger="websearch_sync"),
        FakeRedis(reply) as fake,
        ws.SearchClient("stub", state_url=fake.url + "?socket_timeout=5", min_interval_s={"stub": 0.001}) as client,
    ):
        answer = client.search("q", timeout_ms=20000)
    assert answer["provider_meta"]["cached"] is False and answer["items"]
    (warning,) = [r.getMessage() for r in caplog.records if "unavailable" in r.getMessage()]
    assert "longer than any this library asks for" in warning, warning
    assert sum(sent) < _ENDLESS_MB * 2**20


def test_every_connection_reads_with_the_pure_python_parser_even_with_hiredis_installed():
    """hiredis, redis-py's default parser once installed, allocates an array from its length line before
    a byte of it comes: ``*4294967295`` raised MemoryError out of a search, ``*1073741824`` held a call
    9.5 s, whatever the byte bound. The Python parser reads item by item, within the bound."""
    server = state_server.StateServer("redis://127.0.0.1:1/0")
    parser = server.redis.connection_pool.connection_kwargs.get("parser_class")
    assert parser is state_server.python_parser()
    assert parser.__name__ in ("_RESP2Parser", "PythonParser") and "hiredis" not in parser.__name__.lower()
    assert type(server.redis.connection_pool.make_connection()._parser) is parser


def test_a_parser_out_of_memory_is_a_failing_redis_not_an_escape(monkeypatch):
    """A parser that allocates from a length line (hiredis) raises MemoryError on ``*4294967295``."""

    class Allocating(state_server.python_parser()):  # type: ignore[misc]
        def read_response(self, *args: Any, **kwargs: Any) -> Any:
            raise MemoryError

    monkeypatch.setattr(state_server, "python_parser", lambda: Allocating)
    with (
        FakeRedis(_by_command(GETRANGE=b"*4294967295\r\n", PTTL=b":-2\r\n", EXISTS=b":0\r\n")) as fake,
        ws.SearchClient("stub", state_url=fake.url, min_interval_s={"stub": 0.001}) as client,
    ):
        answer = client.search("q", timeout_ms=2000)
    assert answer["provider_meta"]["cached"] is False and answer["items"]


def _round_trips(fake) -> int:
    """How many commands ``fake`` held back for its ``delay_s`` (one per round trip)."""
    return sum(
        1 for command in fake.commands if command[0].upper() in (b"GET", b"GETRANGE", b"SET", b"EVALSHA", b"EXISTS")
    )


def _timed_search(client, budget_s):
    """``(seconds the search took, the machine's slowdown around it)``; a ``Timeout`` is an answer too."""
    with machine_pace() as pace:
        started = time.monotonic()
        try:
            client.search("q", timeout_ms=int(budget_s * 1000))
        except ws.Timeout:  # a loaded machine may spend the budget before the stub is asked: bounded all the same
            pass
        elapsed = time.monotonic() - started
    return elapsed, pace.slowdown


def test_a_slow_redis_never_makes_a_call_outlast_its_budget():
    """Every reply takes 0.2 s (under the 0.25 s command timeout): a 300 ms search asks Redis only
    while it has the time for one more command, so it makes one round trip at most and ends
    within its budget plus what one reply may take on a machine running this much slower."""
    budget_s, reply_s = 0.3, 0.2
    with (
        FakeRedis(
            _by_command(GET=b"$-1\r\n", GETRANGE=b"$0\r\n\r\n", PTTL=b":-2\r\n", EXISTS=b":0\r\n"), delay_s=reply_s
        ) as fake,
        ws.SearchClient("stub", state_url=fake.url) as client,
    ):
        elapsed, slowdown = _timed_search(client, budget_s)
    assert _round_trips(fake) <= 1, [command[0] for command in fake.commands]
    limit = budget_s + deadline_margin_s(slowdown, reply_s)
    assert elapsed < limit, "a %d ms search took %.3f s (limit %.3f s)" % (budget_s * 1000, elapsed, limit)


def test_a_longer_command_timeout_in_the_url_is_the_one_the_budget_is_checked_against():
    """``?socket_timeout=2`` lets one command take 2 s: a 1 s search must not start one (it used
    to check its time left against the default 0.25 s, and ended 1.5 s late)."""
    budget_s, reply_s = 1.0, 1.5
    with (
        FakeRedis(
            _by_command(GET=b"$-1\r\n", GETRANGE=b"$0\r\n\r\n", PTTL=b":-2\r\n", EXISTS=b":0\r\n"), delay_s=reply_s
        ) as fake,
        ws.SearchClient("stub", state_url=fake.url + "?socket_timeout=2") as client,
    ):
        elapsed, slowdown = _timed_search(client, budget_s)
    assert _round_trips(fake) == 0, [command[0] for command in fake.commands]
    limit = budget_s + deadline_margin_s(slowdown)
    assert elapsed < limit, "a %d ms search took %.3f s (limit %.3f s)" % (budget_s * 1000, elapsed, limit)


def test_a_url_timeout_no_shorter_than_the_clients_deadline_is_warned_of_and_named_in_the_refusal(
    redis_server,  # noqa: F811
    caplog,
):
    """``?socket_timeout=2`` with a 1.5 s budget: no call can ask the state in time, and every search of
    a paced backend was refused with "only 1499 ms ... were left, too little to book", which named
    neither the URL's timeout nor the client's mismatch; the process said nothing else."""
    with (
        caplog.at_level(logging.WARNING, logger="websearch_sync"),
        ws.SearchClient(
            "stub", state_url=redis_server.url + "?socket_timeout=2", budget_ms=1500, min_interval_s={"stub": 0.1}
        ) as client,
        pytest.raises(ws.Timeout) as info,
    ):
        client.search("never booked")
    assert info.value.detail_code == "budget_exhausted"
    assert "may take 2000 ms" in info.value.message
    warned = [
        record.getMessage()
        for record in caplog.records
        if "not less than this client's deadline" in record.getMessage()
    ]
    assert len(warned) == 1 and "2000 ms" in warned[0] and "1500 ms" in warned[0]


# -- state URLs: checked when the client is built, secrets hidden -------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "redis://[::1",
        "redis://h:6379/0?bogus=1",
        "redis://h/0?socket_timeout=-1",
        "redis://h/0?socket_timeout=nan",
        "redis://h/zero",
        "redis://h:99999/0",
    ],
)
def test_a_malformed_state_url_is_refused_when_the_client_is_built(url):
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", state_url=url)
    assert info.value.detail_code == "bad_state_url"


@pytest.mark.parametrize("url", ["redis://127.0.0.1:0/0", "rediss://state.internal:0", "redis://:pw@h:00/1"])
def test_port_0_in_a_state_url_is_refused_not_taken_for_6379(url):
    """redis-py reads port 0 as no port: the state went to whatever Redis listened on 6379 (the
    warning of one that did not named 127.0.0.1:6379, not the URL's port)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", state_url=url)
    assert info.value.detail_code == "bad_state_url"
    assert "port 0 names no server" in info.value.message and "pw" not in info.value.message


@pytest.mark.parametrize(
    "url",
    [
        "redis://:s3cr3tPa/ss@state.internal:6379/0",  # a base64 password's '/': its first part read as a port
        "redis://ops:s3cr3tPa?ss@state.internal/0",  # its last part read as an option's name
        "redis://:98765/s3cr3tPass@state.internal/0",  # read as a port and a database number
        "redis://:s3cr3tPa#ss@state.internal/0",  # read as a port and a fragment
        "rediss://:98765#s3cr3tPass@state.internal/0",  # a valid port, the rest a fragment redis-py drops
    ],
)
def test_a_password_holding_a_character_that_ends_user_info_is_never_quoted(url):
    """A password with an unencoded '/', '?' or '#' ends the URL's user info there: the parse read
    its parts as a port, a path or an option, and the error quoted them ("Port could not be cast to
    integer value as 's3cr3tPa'", "got 'redis://:s3cr3tPa/ss@…'"), or the URL was taken, its
    fragment dropped, and its warnings named the host as ':98765'."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", state_url=url)
    assert info.value.detail_code == "bad_state_url"
    assert "s3cr3t" not in str(info.value) and "98765" not in str(info.value)
    assert "percent-encoded" in info.value.message


@pytest.mark.parametrize(
    "url",
    ["redis://state.internal/0?password=s3cr3tPa&ss98765", "redis://state.internal/0?password=pw&s3cr3t=98765&db=1"],
)
def test_a_query_password_holding_an_ampersand_is_never_quoted(url):
    """A '&' in ``?password=`` ends it: the rest was an unknown option, quoted ("unknown option 'ss98765'")."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", state_url=url)
    assert info.value.detail_code == "bad_state_url"
    assert "s3cr3t" not in str(info.value) and "98765" not in str(info.value)
    assert "%26" in info.value.message


def test_a_query_password_cut_by_its_ampersand_is_masked_whole_in_the_settings_repr():
    """``repr(Settings)`` masked the value up to the '&' and showed the rest as a parameter's name.
    (Settings built in code refuse such a URL, quoting none of it; read from the environment, it is
    left to the client, and the settings holding it are shown.)"""
    url = "redis://state.internal/0?password=s3cr3tPa&ss98765&db=2"
    with pytest.raises(ws.InvalidInput) as info:
        ws.Settings(state_url=url)
    assert "s3cr3t" not in str(info.value) and "98765" not in str(info.value)
    settings = ws.Settings.from_env({"WEB_SEARCH_STATE_URL": url})
    assert "98765" not in repr(settings) and "db=2" in repr(settings)
    assert "s3cr3tPa&ss98765" in settings.secrets()


def test_a_password_in_the_state_urls_query_is_masked_and_redacted():
    settings = ws.Settings(state_url="redis://cache.internal/0?password=s3cr3t-pass&socket_timeout=1")
    assert "s3cr3t-pass" not in repr(settings)
    assert "s3cr3t-pass" in settings.secrets()


# -- one Redis, one cache ----------------------------------------------------------------------


def test_one_query_is_one_cache_entry_however_the_state_is_configured(redis_db, redis_server, monkeypatch, capsys):  # noqa: F811
    # Redis is up here and the subject is the cache key: its commands may take what a loaded machine
    # needs (at the 0.25 s default one timed out, so a client used its local state instead)
    monkeypatch.setattr(state_server, "DEFAULT_TIMEOUT_S", REDIS_UP_TIMEOUT_S)
    url = redis_server.url
    with ws.SearchClient("stub", state_url=url) as client:
        assert client.search("one query")["provider_meta"]["cached"] is False
    localhost = url.replace("127.0.0.1", "localhost")
    clients = [
        ws.SearchClient("stub", settings=ws.Settings(state_url=url)),
        ws.SearchClient("stub", settings=ws.Settings(state_url=url + "?socket_timeout=%g" % (REDIS_UP_TIMEOUT_S + 1))),
        ws.SearchClient("stub", settings=ws.Settings(state_url=localhost)),
        ws.SearchClient("stub", settings=ws.Settings(state_url=url, state_required=True)),
    ]
    monkeypatch.setenv("WEB_SEARCH_STATE_URL", url)
    clients.append(ws.SearchClient("stub", settings=ws.Settings.from_env()))
    for client in clients:
        with client:
            assert client.search("one query")["provider_meta"]["cached"] is True
    monkeypatch.delenv("WEB_SEARCH_STATE_URL")
    assert cli_main(["search", "one query", "--backend", "stub", "--state-url", url, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["provider_meta"]["cached"] is True
    assert len(_cache_keys(redis_db)) == 1


def test_the_outage_warning_says_what_calls_do_meanwhile(caplog):
    """With state_required the calls fail: the warning must not say they use local state."""
    from faults import refused_port

    for required, says in ((True, "fail with state_unavailable"), (False, "own cache, rate limits and cool-downs")):
        caplog.clear()
        settings = ws.Settings(state_url="redis://127.0.0.1:%d/0" % refused_port(), state_required=required)
        with ws.SearchClient("stub", settings=settings) as client:
            try:
                client.search("q")
            except ws.NetworkError as error:
                assert required and error.detail_code == "state_unavailable"
        (warning,) = [
            r.getMessage() for r in caplog.records if "unavailable" in r.getMessage() and r.levelname == "WARNING"
        ]
        assert says in warning and ("own cache" in warning) is not required

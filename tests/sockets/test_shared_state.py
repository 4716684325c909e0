"""Shared state in one process: the three shared tiers against a real redis-server, the
namespace, secrets, and what happens when Redis is missing, dead or hanging."""

import hashlib
import json
import logging
import subprocess
import sys
import time

import pytest
from clocks import FakeClock, deadline_margin_s, machine_pace, pace_throughout, paced_budget_s
from faults import listener_that_never_accepts, refused_port, respond
from redis_server import RedisServer, held_keys, redis_db, redis_server, up  # noqa: F401  (fixtures)
from servers import FaultServer

import websearch_sync as ws
from websearch_sync.backends.stub import Stub
from websearch_sync.cli import main as cli_main
from websearch_sync.client.answers import search_answer_bytes
from websearch_sync.client.cache import SqliteCache
from websearch_sync.client.clock import Clock
from websearch_sync.client.cooldown import Cooldowns
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.client.state import SharedCooldowns, SharedSlots, SharedState, shared_tiers
from websearch_sync.client.state.cooldowns import MAX_RECORD_BYTES
from websearch_sync.client.state.server import MAX_REPLY_BYTES, RETRY_AFTER_S, state_server
from websearch_sync.engine.registry import register, unregister

SECRET = "sk-live-0123456789abcdef"


def _state(url, prefix="", required=False, clock=None):
    return SharedState(state_server(url), prefix, required, clock or Clock())


def _warnings(caplog):
    return [r for r in caplog.records if r.levelno == logging.WARNING and "shared state" in r.getMessage()]


# -- configuration ----------------------------------------------------------------------------


def test_redis_is_imported_only_when_a_state_url_is_used(redis_server):  # noqa: F811
    code = (
        "import sys, websearch_sync as ws, websearch_sync.cli, websearch_sync.tool\n"
        "ws.SearchClient().search('q'); ws.search('q')\n"
        "print('redis' in sys.modules)\n"
        "ws.SearchClient(state_url=%r).search('q')\n"
        "print('redis' in sys.modules)\n" % redis_server.url
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "True"], out.stderr


def test_without_redis_py_a_state_url_is_invalid_input_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "redis", None)  # what an environment without redis-py looks like
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient(state_url="redis://127.0.0.1:%d/0" % refused_port())
    assert info.value.detail_code == "missing_redis_extra"
    assert "the `redis` extra: pip install 'redis>=" in info.value.message
    assert "(from a checkout: pip install -e '.[redis]')" in info.value.message


@pytest.mark.parametrize(
    "url, detail",
    [
        ("http://127.0.0.1:6379/0", "bad_state_url"),
        ("127.0.0.1:6379", "bad_state_url"),
        ("redis://127.0.0.1:6379/0?socket_timeout=soon", "bad_state_url"),
        # TLS options on a plain URL: accepted, then every search raised TypeError (issue 33.12)
        ("redis://127.0.0.1:6379/0?ssl_cert_reqs=none", "bad_state_url"),
        ("redis://127.0.0.1:6379/0?ssl_ca_certs=/etc/ssl/certs/ca.pem", "bad_state_url"),
        ("unix:///tmp/redis.sock?ssl_certfile=/tmp/c.pem", "bad_state_url"),
        # redis-py's blocking pool's wait, handed to the connection: accepted, then every search raised TypeError
        ("redis://127.0.0.1:6379/0?timeout=2", "bad_state_url"),
    ],
)
def test_a_bad_state_url_is_invalid_input(redis_server, url, detail):  # noqa: F811
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient(state_url=url)
    assert info.value.detail_code == detail
    assert "WEB_SEARCH_STATE_URL" in info.value.message  # where an operator set it


def test_tls_options_on_a_rediss_url_are_accepted(redis_server):  # noqa: F811
    """The control: the same options where they mean something build a client."""
    url = redis_server.url.replace("redis://", "rediss://") + "?ssl_cert_reqs=none"
    ws.SearchClient(state_url=url).close()


@pytest.mark.parametrize("prefix", ["has space", "x" * 65, "a/b", "\n"])
def test_a_bad_prefix_is_invalid_input(redis_server, prefix):  # noqa: F811
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient(settings=ws.Settings(state_url=up(redis_server.url), state_prefix=prefix))
    assert info.value.detail_code == "bad_state_prefix"
    assert "WEB_SEARCH_STATE_PREFIX" in info.value.message


def test_settings_read_the_state_from_the_environment_and_hide_the_password():
    settings = ws.Settings.from_env(
        {
            "WEB_SEARCH_STATE_URL": "redis://:hunter2-pass@cache.internal:6379/3",
            "WEB_SEARCH_STATE_PREFIX": "crawler",
            "WEB_SEARCH_STATE_REQUIRED": "1",
        }
    )
    assert (settings.state_url, settings.state_prefix, settings.state_required) == (
        "redis://:hunter2-pass@cache.internal:6379/3",
        "crawler",
        True,
    )
    assert "hunter2-pass" not in repr(settings)
    assert ws.Settings.from_env({}).state_url is None


def test_an_empty_state_url_turns_the_settings_one_off(redis_server):  # noqa: F811
    settings = ws.Settings(state_url=up(redis_server.url))
    assert shared_tiers(settings, "", Clock(), 15000).cache is None
    assert shared_tiers(settings, None, Clock(), 15000).cache is not None


# -- the cache --------------------------------------------------------------------------------


def test_clients_share_answers_with_their_ttl_under_the_namespace(redis_db, redis_server):  # noqa: F811
    with ws.SearchClient(state_url=up(redis_server.url), cache_ttl_s=120) as first:
        fresh = first.search("shared cache", max_results=2)
    with ws.SearchClient(state_url=up(redis_server.url)) as second:
        hit = second.search("shared cache", max_results=2)
        other = second.search("shared cache", max_results=3)  # another call: another key
    assert fresh["provider_meta"]["cached"] is False
    assert hit["provider_meta"]["cached"] is True and hit["provider_meta"]["attempts"] == 0
    assert hit["items"] == fresh["items"]
    assert other["provider_meta"]["cached"] is False
    keys = held_keys(redis_db)
    assert len(keys) == 2 and all(k.startswith(b"websearch_sync:cache:") for k in keys)
    ttls = sorted(redis_db.pttl(k) for k in keys)
    assert 110_000 < ttls[0] <= 120_000 and 290_000 < ttls[1] <= 300_000  # each as its writer's TTL said


def test_cache_keys_are_the_local_keys_serialized_as_sqlite_does_then_hashed(redis_db, redis_server, tmp_path):  # noqa: F811
    tiers = shared_tiers(ws.Settings(state_url=up(redis_server.url)), None, Clock(), 15000)
    key = ("search", "q", ("a", "b"), 3, "fallback", (("locale", "de-DE"),))
    expected = hashlib.sha256(SqliteCache._key(key).encode("utf-8")).hexdigest()
    assert tiers.cache.key_name(key) == "websearch_sync:cache:" + expected
    tiers.cache.set(key, {"items": [], "provider_meta": {}}, 60)
    assert redis_db.keys("*") == [("websearch_sync:cache:" + expected).encode()]


def test_a_prefix_separates_applications(redis_db, redis_server):  # noqa: F811
    with ws.SearchClient(settings=ws.Settings(state_url=up(redis_server.url), state_prefix="app-one")) as one:
        one.search("same question")
    with ws.SearchClient(settings=ws.Settings(state_url=up(redis_server.url), state_prefix="app-two")) as two:
        assert two.search("same question")["provider_meta"]["cached"] is False
    assert sorted(k.split(b":")[1] for k in held_keys(redis_db)) == [b"app-one", b"app-two"]


class EchoKeyStub(Stub):
    """An offline backend with an API key that a careless upstream echoes into a snippet."""

    name = "echokey"
    env_vars = {"api_key": "ECHOKEY_API_KEY"}

    def search(self, params, transport, deadline):
        result = super().search(params, transport, deadline)
        result.items[0]["snippet"] = "request made with key %s" % self.config["api_key"]
        return result


def test_secrets_are_never_stored(redis_db, redis_server):  # noqa: F811
    register(EchoKeyStub)
    try:
        settings = ws.Settings(providers={"echokey": {"api_key": SECRET}}, state_url=up(redis_server.url))
        with ws.SearchClient("echokey", settings=settings) as client:
            client.search("leak check")
        with ws.SearchClient("echokey", settings=settings) as client:
            hit = client.search("leak check")
        stored = [(k, redis_db.get(k)) for k in redis_db.keys("*")]
    finally:
        unregister("echokey")
    assert hit["provider_meta"]["cached"] is True and hit["items"][0]["snippet"] == "request made with key ***"
    assert stored and not any(SECRET.encode() in k or SECRET.encode() in v for k, v in stored)


# -- rate-limit slots and cool-downs ----------------------------------------------------------


def test_rate_limit_slots_are_booked_for_every_limiter_and_refused_ones_book_nothing(redis_db, redis_server):  # noqa: F811
    """Waits are handed back, not slept; the Redis clock runs on in real time, so each wait is
    bounded below by the real time spent since the first booking (a loaded machine may take
    seconds between two calls), above by the interval's arithmetic. The interval is long (10 s,
    never waited) so that the refused reservation's margin is too: with 1 s slots it asked for a
    slot at most 0.5 s away while the next was 2 s after the first booking, and on a machine at a
    load of 17 more than 1.5 s passed in between and it was booked."""
    clock = FakeClock()
    first = RateLimiter(clock, shared=SharedSlots(_state(redis_server.url)))
    second = RateLimiter(clock, shared=SharedSlots(_state(redis_server.url)))
    started = time.monotonic()

    def spent() -> float:
        return time.monotonic() - started

    # Each figure is read before the real time it is bounded by (``spent()`` after it): read the other
    # way round, a loaded machine's pause between the two put the figure under its bound.
    assert first.reserve("brave", 10.0, 100) == 0.0
    wait = second.reserve("brave", 10.0, 100)
    assert 10.0 - spent() <= wait <= 10.0
    assert second.reserve("brave", 10.0, 5) is None  # the next slot is ~20 s away
    free_in = second.next_free_in("brave")
    assert 20.0 - spent() <= free_in <= 20.0
    wait = first.reserve("brave", 10.0, 100)
    assert 20.0 - spent() <= wait <= 20.0  # the refused reservation took no slot
    assert first.reserve("ddg_html", 10.0, 0, 10) == 0.0  # backends are independent
    ttl_ms = redis_db.pttl("websearch_sync:slot:{brave}")
    assert 30_000 - 1_000 * spent() - 1 < ttl_ms <= 31_000  # expires by itself (whole ms, rounded down)


def test_a_block_one_client_met_is_obeyed_by_another_until_its_key_expires(redis_db, redis_server):  # noqa: F811
    clock = FakeClock()
    recorder = Cooldowns(clock=clock, shared=SharedCooldowns(_state(redis_server.url)))
    recorder.record(ws.WebBlocked("429", provider="brave", detail_code="http_429", status=429, retry_after=30))
    obeyer = Cooldowns(shared=SharedCooldowns(_state(redis_server.url)))
    obeyer.clear("brave")  # a success here lifts only this process's own record
    with pytest.raises(ws.WebBlocked) as info:
        obeyer.check("brave")
    error = info.value
    assert (error.provider, error.detail_code, error.status, error.retryable) == ("brave", "http_429", 429, True)
    assert 29 < error.retry_after <= 30
    assert 29_000 < redis_db.pttl("websearch_sync:cooldown:brave") <= 30_000
    stored = json.loads(redis_db.get("websearch_sync:cooldown:brave"))
    assert stored == {
        "detail_code": "http_429",
        "status": 429,
        "until": clock.time() + 30,
        "token": stored["token"],
        "retryable": True,
        "hint": None,
    }
    redis_db.pexpire("websearch_sync:cooldown:brave", 1)
    time.sleep(0.01)
    Cooldowns(shared=SharedCooldowns(_state(redis_server.url))).check("brave")  # expired: nothing raised


def test_a_block_another_process_met_advises_as_the_first_refusal_did(redis_db, redis_server):  # noqa: F811
    """Issue 33.15: after a SearXNG limiter's 429 the cool-down keeps the limiter's hint and its
    ``retryable``; through the shared state too (before, only the detail code travelled)."""
    hint = "the instance's limiter refused this client: ask its operator to allow it, or use another instance"
    blocked = ws.WebBlocked(
        "searx.example's limiter answered 429",
        provider="searxng",
        detail_code="http_429",
        status=429,
        retry_after=30,
        retryable=False,
        hint=hint,
    )
    Cooldowns(clock=FakeClock(), shared=SharedCooldowns(_state(redis_server.url))).record(blocked)
    with pytest.raises(ws.WebBlocked) as info:
        Cooldowns(shared=SharedCooldowns(_state(redis_server.url))).check("searxng")
    assert (info.value.detail_code, info.value.retryable, info.value.hint) == ("http_429", False, hint)
    record = json.loads(redis_db.get("websearch_sync:cooldown:searxng"))
    record["hint"] = "line one\x1b[31m\nline two" + "x" * 2000  # a planted record: untrusted
    redis_db.set("websearch_sync:cooldown:searxng", json.dumps(record), px=30_000)
    with pytest.raises(ws.WebBlocked) as info:
        Cooldowns(shared=SharedCooldowns(_state(redis_server.url))).check("searxng")
    assert info.value.hint.startswith("line one [31m line two") and len(info.value.hint) == 500


def test_a_client_skips_a_backend_another_client_saw_blocked_without_a_request(redis_db, redis_server):  # noqa: F811
    page = respond(429, b"Too Many Requests", {"Retry-After": "30"}, content_type="text/plain")
    with FaultServer({"/search": page}) as upstream:
        settings = ws.Settings(providers={"searxng": {"base_url": upstream.url("")}}, state_url=up(redis_server.url))
        with (
            ws.SearchClient(["searxng", "stub"], settings=settings) as first,
            ws.SearchClient(["searxng", "stub"], settings=settings) as second,
        ):
            assert first.search("one")["errors"][0]["detail_code"] == "http_429"
            answer = second.search("two")
        assert len(upstream.requests) == 1
    assert answer["provider_meta"]["provider_name"] == "stub"
    assert answer["errors"][0]["type"] == "WebBlocked" and "cooling down" in answer["errors"][0]["message"]


def test_two_searxng_instances_do_not_share_a_cool_down(redis_db, redis_server):  # noqa: F811
    """Cool-downs are keyed by endpoint, not backend name (issue 33.20): a 429 from one
    instance leaves another instance alone, here and for every process of the state."""
    blocked = respond(429, b"Too Many Requests", {"Retry-After": "30"}, content_type="text/plain")
    with FaultServer({"/search": blocked}) as one, FaultServer({"/search": blocked}) as two:
        first, second = (
            ws.Settings(providers={"searxng": {"base_url": server.url("")}}, state_url=up(redis_server.url))
            for server in (one, two)
        )
        with ws.SearchClient("searxng", settings=first, retries=0) as client, pytest.raises(ws.WebBlocked):
            client.search("q")
        with ws.SearchClient("searxng", settings=second, retries=0) as client, pytest.raises(ws.WebBlocked) as info:
            client.search("q")
        assert len(two.requests) == 1 and "cooling down" not in info.value.message  # asked, not skipped
        with ws.SearchClient("searxng", settings=first, retries=0) as client, pytest.raises(ws.WebBlocked) as info:
            client.search("q")
        assert len(one.requests) == 1 and "cooling down" in info.value.message  # its own cool-down holds
    assert info.value.provider == "searxng"
    backend_keys = [key for key in redis_db.keys("websearch_sync:cooldown:*") if b":cooldown:host:" not in key]
    assert sorted(backend_keys) == sorted(  # (each host's own cool-down, the fetch gate's, beside them)
        b"websearch_sync:cooldown:searxng@127.0.0.1:%d" % server.port for server in (one, two)
    )


def test_a_block_met_while_a_request_waits_for_its_slot_stops_it_right_before_it_leaves(redis_db, redis_server):  # noqa: F811
    """Issue 33.17: with a shared state the checks after a wait run ahead of the slot (two round
    trips' time); a 429 another process meets after them, before the slot, must still stop the
    request: the cool-downs are checked again right before it leaves."""
    other = Cooldowns(shared=SharedCooldowns(_state(redis_server.url)))

    def another_process_meets_a_429(seconds):
        other.record(ws.WebBlocked("429", provider="stub", detail_code="http_429", status=429, retry_after=30))

    clock = FakeClock()
    with ws.SearchClient(
        "stub", state_url=up(redis_server.url), min_interval_s={"stub": 0.3}, clock=clock, cache_ttl_s=0
    ) as client:
        client.search("one")
        clock.on_sleep = another_process_meets_a_429  # while "two" waits for its slot, 0.3 s away
        with pytest.raises(ws.WebBlocked) as info:
            client.search("two")
    assert "cooling down" in info.value.message and len(clock.sleeps) == 1  # the one wait for the slot


def test_the_shared_pace_holds_as_the_upstream_sees_it(redis_db, redis_server):  # noqa: F811
    """Issue 33.17: a request that leaves late keeps the next one, in any process, an interval
    behind it, and pushes the next free slot along."""
    first, second = (SharedSlots(_state(redis_server.url)) for _ in range(2))
    started = time.monotonic()
    assert first.sending("brave", 0.5) == 0.0
    held = second.sending("brave", 0.5)
    booked, wait, _ = second.reserve("brave", 0.5, 10)
    elapsed = time.monotonic() - started  # on a loaded machine the round trips take some of the interval
    assert 0.5 - elapsed <= held <= 0.5
    assert booked and 0.5 - elapsed <= wait <= 0.5


def test_a_slot_whose_request_gave_up_is_handed_on_unless_a_later_one_was_booked(redis_db, redis_server):  # noqa: F811
    """Another process paces the upstream at 10 ms and its request left; this one paces it at 5 s and
    books the next slot (10 ms away at most), but the upstream saw a request less than 5 s ago: it
    gives up and hands the slot on, so the next booking gets it again instead of one 5 s later. A
    slot booked after it is not handed on (that booking keeps its turn, the next one its own).
    Real time is not the subject: a loaded machine's command may outlast the production 0.25 s (``up``)."""
    other, mine, next_one = (SharedSlots(_state(up(redis_server.url))) for _ in range(3))
    for name, booked_after in (("x", False), ("y", True)):
        assert other.sending(name, 0.01) == 0.0
        booked, wait, booking = mine.reserve(name, 5.0, 1.0, left_s=10.0)
        assert booked and wait <= 0.01 and mine.sending(name, 5.0) > 0  # the request before left < 5 s ago
        if booked_after:
            booked, wait, _ = next_one.reserve(name, 5.0, 10.0)
            assert booked and 2.5 < wait <= 5.01  # the slot after mine (10 ms away at most, then 5 s)
        mine.release(name, booking)
        booked, wait, _ = next_one.reserve(name, 5.0, 20.0)
        assert booked and (5.0 < wait <= 10.01 if booked_after else wait <= 0.01)


# -- when Redis fails -------------------------------------------------------------------------


def test_a_dead_redis_degrades_to_local_state_with_one_warning(caplog):
    url = "redis://:pw-%s@127.0.0.1:%d/0" % (SECRET[-6:], refused_port())  # nothing listens there
    caplog.set_level(logging.INFO, logger="websearch_sync")
    clock = FakeClock()
    answers = []
    for _ in range(2):  # two clients of one process: one outage, one warning
        with ws.SearchClient(state_url=url, min_interval_s={"stub": 0.05}, clock=clock) as client:
            answers += [client.search("q%d" % (i % 3)) for i in range(6)]
            clock.sleep(RETRY_AFTER_S)  # Redis is tried again (and fails again)
            answers.append(client.search("after the retry time"))
    assert [a["provider_meta"]["cached"] for a in answers[:7]] == [False] * 3 + [True] * 3 + [
        False
    ]  # the local cache works
    warnings = _warnings(caplog)
    assert len(warnings) == 1
    assert "127.0.0.1" in warnings[0].getMessage() and SECRET[-6:] not in caplog.text


def test_a_hanging_redis_costs_one_short_timeout_within_the_budget(caplog):
    """One 0.2 s connect timeout (a tenth of the budget), then local state until the retry time:
    twenty calls cost about one timeout, where a timeout each would cost 4 s."""
    calls, timeout_s = 20, 0.2
    with listener_that_never_accepts() as listener, machine_pace() as pace:
        url = "redis://127.0.0.1:%d/0" % listener.port
        started = time.monotonic()
        with ws.SearchClient(state_url=url, budget_ms=2000) as client:
            answers = [client.search("q%d" % i) for i in range(calls)]
        elapsed = time.monotonic() - started
    assert all(a["items"] for a in answers)
    assert len(_warnings(caplog)) == 1
    limit = timeout_s + deadline_margin_s(pace.slowdown, 0.8)
    assert elapsed < limit, "%d calls took %.2f s (limit %.2f s)" % (calls, elapsed, limit)


def test_redis_is_tried_again_later_and_used_when_back(caplog):
    caplog.set_level(logging.INFO, logger="websearch_sync")
    clock = FakeClock()
    server = RedisServer()
    with ws.SearchClient(state_url=server.url, clock=clock) as client:
        client.search("while down")
        with server:
            import redis

            probe = redis.Redis.from_url(server.url)
            client.search("still resting")
            assert probe.keys("*") == []  # not tried before the retry time
            clock.sleep(RETRY_AFTER_S)
            client.search("back again")
            assert len(probe.keys("websearch_sync:cache:*")) == 1
            probe.close()
            assert not any("answers again" in r.getMessage() for r in caplog.records)  # not yet: for 5 s
            clock.sleep(RETRY_AFTER_S)
            client.search("still back")
    assert len(_warnings(caplog)) == 1
    assert any("answers again" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("url", [None, ""])
def test_state_required_without_a_state_url_is_refused(url):
    """A worker whose WEB_SEARCH_STATE_URL was missing or misspelt ran on its own pace and cool-downs
    without a word, though WEB_SEARCH_STATE_REQUIRED=1 was set to refuse exactly that."""
    settings = ws.Settings.from_env({"WEB_SEARCH_STATE_REQUIRED": "1", "WEB_SEARCH_STATE_ULR": "redis://x/0"})
    with pytest.raises(ws.InvalidInput, match="WEB_SEARCH_STATE_REQUIRED.*no state URL") as info:
        ws.SearchClient("stub", settings=settings, state_url=url)
    assert info.value.detail_code == "bad_state_url"


def test_state_clear_with_an_unreachable_redis_says_so_once_and_fails(capsys, caplog):
    """The command's own error says nothing was cleared; the library's outage warning (what calls
    do meanwhile) is no news to a one-shot command and is left out."""
    pytest.importorskip("redis")
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        code = cli_main(["state", "clear", "--state-url", "redis://127.0.0.1:%d/0" % refused_port()])
    assert code == 4
    assert capsys.readouterr().err.startswith("error: NetworkError/state_unavailable: ")
    assert not [record.getMessage() for record in caplog.records if "meanwhile" in record.getMessage()]


def test_with_state_required_an_unreachable_redis_fails_the_call_before_any_request():
    with FaultServer({"/search": respond(200, b'{"results": []}', content_type="application/json")}) as upstream:
        settings = ws.Settings(
            providers={"searxng": {"base_url": upstream.url("")}},
            state_url="redis://127.0.0.1:%d/0" % refused_port(),
            state_required=True,
        )
        with ws.SearchClient("searxng", settings=settings) as client:
            for _ in range(2):
                with pytest.raises(ws.NetworkError) as info:
                    client.search("q")
                assert info.value.detail_code == "state_unavailable" and info.value.retryable is True
        assert upstream.requests == []


# -- the CLI and the module-level functions ---------------------------------------------------


def test_the_cli_flag_shares_the_state(redis_db, redis_server, capsys):  # noqa: F811
    assert cli_main(["search", "cli question", "--state-url", redis_server.url, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["provider_meta"]["cached"] is False
    assert len(redis_db.keys("websearch_sync:cache:*")) == 1
    assert cli_main(["search", "cli question", "--state-url", redis_server.url, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["provider_meta"]["cached"] is True


FETCHED = (
    b"<title>Tides</title><article><p>" + b"High water at the harbour is at 06:12 today. " * 20 + b"</p></article>"
)


def test_the_fetch_command_shares_answers_through_the_state(redis_db, redis_server, monkeypatch, capsys):  # noqa: F811
    """``websearch-sync fetch`` kept no cache at all: a fleet of shell workers fetching one page at
    once each read it, where ``ws.fetch`` with the same state URL shares it (and reads it once)."""
    with FaultServer({"/page": respond(200, FETCHED)}) as server:
        fetch = ["fetch", server.url("/page"), "--allow-private", "--json"]
        for flag in ([], ["--state-url", redis_server.url], ["--state-url", redis_server.url]):
            assert cli_main(fetch + flag) == 0
            assert "06:12" in json.loads(capsys.readouterr().out)["text"]
        assert len(server.requests) == 2  # without a state, then once through it: the third is the shared answer
        assert len(redis_db.keys("websearch_sync:cache:*")) == 1
        monkeypatch.setenv("WEB_SEARCH_STATE_URL", redis_server.url)
        assert cli_main(fetch) == 0
        assert len(server.requests) == 2  # the environment's state: the shared answer


def test_module_level_search_uses_the_environments_state(redis_db, redis_server, monkeypatch):  # noqa: F811
    assert ws.search("module level")["provider_meta"]["cached"] is False
    assert redis_db.keys("*") == []  # no state URL: stateless as before
    monkeypatch.setenv("WEB_SEARCH_STATE_URL", redis_server.url)
    assert ws.search("module level")["provider_meta"]["cached"] is False
    assert ws.search("module level")["provider_meta"]["cached"] is True


def test_the_docs_list_the_settings_and_the_error_codes():
    from pathlib import Path

    from websearch_sync.config import SHARED_ENV_VARS

    docs = Path(__file__).resolve().parents[2] / "docs"
    configuration, errors = (docs / "configuration.md").read_text(), (docs / "errors.md").read_text()
    for var in [v for v in SHARED_ENV_VARS if v.startswith("WEB_SEARCH_STATE_")]:
        assert "| `%s` |" % var in configuration
    for code in ("state_unavailable", "bad_state_url", "bad_state_prefix", "missing_redis_extra"):
        assert "`%s`" % code in errors
    assert (
        "--state-url" in (docs / "cli.md").read_text()
        and "[Scaling](docs/scaling.md)" in (docs.parent / "README.md").read_text()
    )


# -- a leader that dies (issue 33.11) ----------------------------------------------------------------

_LEADER = """
import sys, time
sys.path[:0] = {paths!r}
from websearch_sync.client.clock import Clock
from websearch_sync.client.state import SharedFlights, SharedState
from websearch_sync.client.state import flights as leases
from websearch_sync.client.state.server import state_server
leases.LEASE_S = {lease_s!r}
flights = SharedFlights(SharedState(state_server({url!r}), "", False, Clock()))
assert flights.claim(("search", "asked by a worker that dies"), 60.0)
print("claimed", flush=True)
time.sleep(120)
"""


def _until_renewed(redis_db, lease_s):
    """Wait until the one claim's time to live goes up (its owner renewed it); fail if it lapses
    or is not renewed within a lease and a half. The claim's key."""
    (key,) = redis_db.keys("websearch_sync:flight:*")
    ends, last = time.monotonic() + lease_s * 1.5, redis_db.pttl(key)
    while True:
        left = redis_db.pttl(key)
        assert left > 0, "the live leader's lease lapsed"
        if left > last:
            return key
        assert time.monotonic() < ends, "the live leader did not renew its lease"
        last = left
        time.sleep(0.01)


def test_a_killed_leader_frees_its_question_within_a_lease(redis_db, redis_server, monkeypatch):  # noqa: F811
    """A worker process claims a question for its 60 s budget and is killed (SIGKILL): a follower
    with a 60 s budget takes the question over once the lease lapses, not at the end of its budget.

    Both sides use a lease of a second on an idle machine (the product's 3 s shows nothing more and
    cost 7 s of waiting), as many more as the machine runs slower: the leader renews every third of
    it, so a renewal may run two thirds of a lease late before the live leader loses its question.
    The leader is killed once it has been seen to renew (the claim's time to live went up), not
    after a lease and a half of waiting. The follower may take what the dead claim still had to
    live (read from Redis after the kill) and a margin for its own set-up and polls at the machine's
    pace while it waited (a fixed 10 s was outlasted on a machine running ten times slower)."""
    from websearch_sync.client.flight import Flights
    from websearch_sync.client.state import SharedFlights
    from websearch_sync.client.state import flights as leases
    from websearch_sync.net.deadline import Deadline

    lease_s = paced_budget_s(1.0)
    monkeypatch.setattr(leases, "LEASE_S", lease_s)
    code = _LEADER.format(paths=sys.path, url=up(redis_server.url), lease_s=lease_s)  # a loaded connect is no outage
    leader = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert leader.stdout.readline().strip() == "claimed"
        key = _until_renewed(redis_db, lease_s)  # alive: it renews its lease
        leader.kill()
        leader.wait(10)
        held_s = max(0, redis_db.pttl(key)) / 1000  # what the dead leader's claim still has to live
        with pace_throughout() as pace:
            started = time.monotonic()
            flights = Flights(SharedFlights(_state(up(redis_server.url))))
            with flights.turn(("search", "asked by a worker that dies"), Deadline(60_000), lambda: None) as found:
                took = time.monotonic() - started
                assert found is None  # the follower asks itself
    finally:
        leader.kill()
        leader.wait(10)
        leader.stdout.close()
    margin = deadline_margin_s(pace.slowdown, 1.0) + pace.late_s
    assert took < held_s + margin, "the follower waited %.1f s for a dead leader's claim of %.1f s (margin %.1f s)" % (
        took,
        held_s,
        margin,
    )


@pytest.mark.parametrize("ttl", [float("inf"), 1e300])
def test_a_ttl_past_what_redis_takes_keeps_the_answer_a_year(redis_db, redis_server, ttl):  # noqa: F811
    """``cache_ttl_s=inf`` raised a bare OverflowError out of search(); 1e300 was refused by Redis,
    which then counted as down for the whole process (no shared cache, slots or cool-downs for 5 s)."""
    with ws.SearchClient("stub", state_url=up(redis_server.url), cache_ttl_s=ttl) as client:
        assert client.search("forever")["provider_meta"]["cached"] is False
    (key,) = redis_db.keys("websearch_sync:cache:*")
    assert 364 * 86400 < redis_db.ttl(key) <= 365 * 86400
    with ws.SearchClient("stub", state_url=up(redis_server.url)) as other:
        assert other.search("forever")["provider_meta"]["cached"] is True


def test_too_little_time_for_redis_is_no_outage_and_books_no_slot_alone(redis_db, redis_server):  # noqa: F811
    """A request with less time left than one Redis command cannot learn whether the fleet's slot
    is free: it gets none (at once or not) and this process does not start pacing the upstream
    alone, while another process holds the fleet's slot."""
    clock = FakeClock()  # waits are handed back, not slept
    # the suite's 2 s timeouts (up()): with the production 0.25 s a loaded machine's read timed out,
    # Redis counted as down and the last booking was made alone (load 18); "too little" is relative
    first = RateLimiter(clock, shared=SharedSlots(_state(up(redis_server.url))))
    state = _state(up(redis_server.url))
    second = RateLimiter(clock, shared=SharedSlots(state))
    short = state.timeout_s / 2  # less than one command may take
    booked = time.monotonic()  # before the slot is booked on the Redis clock, which the waits count on
    assert first.reserve("x", 5.0, 10.0, 10.0) == 0.0  # the fleet's slot, held by the first process
    assert second.reserve("x", 5.0, 0.0, short) is None  # at once: no free slot is known
    assert second.reserve("x", 5.0, short, short) is None  # any request: none booked here either
    assert second._alone == {} and not second.asks_shared_in(short) and second.asks_shared_in(state.timeout_s)
    # with the time for Redis, the slot the first process holds is still seen taken
    assert second.reserve("x", 5.0, 0.0, 10.0) is None
    # the interval less what real time has passed since it was booked (at most): a fixed 0.1 s was
    # outlasted by the commands between on a loaded machine ("assert 4.9 < 4.892036")
    wait = second.reserve("x", 5.0, 10.0, 10.0)
    passed = time.monotonic() - booked
    assert 5.0 - passed - 1e-5 <= wait <= 5.0, (wait, passed)  # 1e-5: TIME's microseconds


def test_a_search_with_too_little_time_for_redis_is_refused_for_its_budget(redis_db, redis_server):  # noqa: F811
    """The refusal names the budget and the shared state, not a rate-limit slot that is "0 s away"."""
    settings = ws.Settings(state_url=redis_server.url)
    with ws.SearchClient("stub", settings=settings, min_interval_s={"stub": 5.0}, retries=0) as client:
        client._runner.limiter._shared.fits = lambda left_s: False  # as with less left than one command
        with pytest.raises(ws.Timeout) as caught:
            client.search("q")
    assert caught.value.detail_code == "budget_exhausted"
    assert "too little to book stub's rate-limit slot in the shared state" in str(caught.value)


# -- the safe side of the reply bounds: what a call can get back is read whole, never an outage --


def _padded(answer: dict, size: int) -> bytes:
    """``answer``'s JSON grown to ``size`` bytes by a pad in its ``provider_meta``."""
    answer["provider_meta"]["pad"] = ""
    short = len(json.dumps(answer).encode())
    answer["provider_meta"]["pad"] = "x" * (size - short)
    text = json.dumps(answer).encode()
    assert len(text) == size
    return text


def test_a_cached_answer_up_to_its_bound_is_read_back_and_a_longer_one_is_a_miss_not_an_outage(
    redis_db,  # noqa: F811
    redis_server,  # noqa: F811
    caplog,
):
    """An answer's read may get back its bound (past the 64 KiB of other replies) and the frame of its
    reply (length line, PTTL); one byte more is a miss, read no further, and Redis did nothing wrong."""
    bound = search_answer_bytes(3)
    assert bound > MAX_REPLY_BYTES
    url = up(redis_server.url)
    with ws.SearchClient("stub", state_url=url) as writer:
        writer.search("bounded", max_results=3)
    (key,) = redis_db.keys("websearch_sync:cache:*")
    stored = json.loads(redis_db.get(key))
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        for size, cached in ((bound, True), (bound + 1, False)):
            redis_db.set(key, _padded(stored, size), ex=60)
            with ws.SearchClient("stub", state_url=url) as reader:
                assert reader.search("bounded", max_results=3)["provider_meta"]["cached"] is cached, size
    assert not _warnings(caplog)


def test_replies_past_64_kib_over_one_pooled_connection_are_no_outage(redis_db, redis_server, caplog):  # noqa: F811
    """Each command's reply is bounded, not what a pooled connection read since it was opened."""
    state = _state(up(redis_server.url))
    redis_db.set("websearch_sync:cache:8k", b"x" * 8192, ex=60)
    with caplog.at_level(logging.WARNING, logger="websearch_sync"):
        read = [state.run(lambda redis: redis.get("websearch_sync:cache:8k"), None) for _ in range(12)]
    assert [len(value or b"") for value in read] == [8192] * 12 and 12 * 8192 > MAX_REPLY_BYTES
    assert len(state.server.redis.connection_pool._available_connections) == 1  # one connection read them all
    assert not _warnings(caplog)


def test_state_show_reads_more_than_64_kib_in_a_round_trip(redis_db, redis_server, capsys):  # noqa: F811
    """An operator's round trip (a batch of cool-down records, up to 4 KiB each) may get back far more
    than a call's command."""
    record = json.dumps({"detail_code": "http_429", "status": 429, "until": time.time() + 600, "pad": ""})
    record += " " * (MAX_RECORD_BYTES - len(record))
    for number in range(40):
        redis_db.set("websearch_sync:cooldown:host:h%d.example" % number, record, ex=600)
    assert 40 * MAX_RECORD_BYTES > MAX_REPLY_BYTES
    assert cli_main(["state", "show", "--json", "--state-url", up(redis_server.url)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["cooldowns"]) == 40 and {cooldown["detail_code"] for cooldown in report["cooldowns"]} == {
        "http_429"
    }

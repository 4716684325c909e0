"""The fleet a pace is shared by, as a process believes it (``…fleet:{<upstream>}``, real Redis):
while Redis is down each process paces an upstream at ``min_interval_s`` times that fleet. A key
counting every process seen in the last 30 s (a fork per job, a planted set) made that wait balloon,
and this process's next slot, set by it, only grew: every later outage refused its calls too."""

import json
import os

from clocks import FakeClock
from forked import exit_codes, fork_running
from redis_server import RedisServer, redis_db, redis_server  # noqa: F401  (fixtures)

from websearch_sync.client.clock import Clock
from websearch_sync.client.ratelimit import RateLimiter
from websearch_sync.client.state import SharedSlots, SharedState
from websearch_sync.client.state.server import state_server
from websearch_sync.client.state.slots import MAX_FLEET, process_id

FLEET_KEY = "websearch_sync:fleet:{x}"


def _slots(url, clock=None, timeout_s=None):
    return SharedSlots(SharedState(state_server(url), "", False, clock or Clock(), timeout_s))


def _redis_now_us(db) -> int:
    seconds, micros = db.time()
    return seconds * 1_000_000 + micros


def _plant(db, members):
    """Note ``members`` in the fleet as booking just now."""
    now_us = _redis_now_us(db)
    db.zadd(FLEET_KEY, dict.fromkeys(members, now_us))


def _ours(number: int) -> str:
    """A member of this package's format (``<pid>-<12 hex>``), of another process."""
    return "%d-%012x" % (4_000_000 + number, number)


def test_members_not_of_this_packages_format_are_not_counted_and_dropped(redis_db, redis_server):  # noqa: F811
    """A sorted set planted under the prefix, or a bug's members: each one shrank every process's
    share of the pace while Redis is down. A booking reads a bounded number of members (here the
    first one reads only foreign ones, the latest noted), dropping those not of this package's format."""
    foreign = ["worker-%d" % number for number in range(4 * MAX_FLEET + 40)] + ["12-xyz", "1-0123456789abcdef"]
    _plant(redis_db, foreign + [_ours(1), _ours(2)])
    slots = _slots(redis_server.url)
    for _ in range(2):
        assert slots.reserve("x", 0.001, 10.0) is not None
    assert slots.fleet("x") == 3  # this process and the two of its format
    assert sorted(redis_db.zrange(FLEET_KEY, 0, -1)) == sorted(m.encode() for m in [_ours(1), _ours(2), process_id()])


def test_a_planted_fleet_counts_at_most_max_fleet(redis_db, redis_server):  # noqa: F811
    _plant(redis_db, [_ours(number) for number in range(1000)])
    slots = _slots(redis_server.url)
    assert slots.reserve("x", 0.001, 10.0) is not None
    assert slots.fleet("x") == MAX_FLEET


def test_short_lived_forks_count_at_most_max_fleet(redis_db, redis_server):  # noqa: F811
    """A fork per job: each child books once and exits, and stays in the fleet for 30 s. Ten real
    forks, each noted under its own member (a child is another process to the fleet), among members
    planted as earlier jobs' forks, past MAX_FLEET in all: the count stays MAX_FLEET. Each child
    has a command timeout of seconds (70 children connecting at once on a loaded machine met the
    default 0.25 s). Forking all 70 (a fork of a worker's process took 35-50 ms of CPU in the
    whole suite, 3.4 s for the test) showed nothing ten do not: Redis counts a planted member as
    it counts a fork's."""
    forks = 10
    earlier = MAX_FLEET - forks + 6
    _plant(redis_db, [_ours(number) for number in range(earlier)])

    def job():
        slots = _slots(redis_server.url, timeout_s=10.0)
        if slots.reserve("x", 0.001, 10.0) is None:
            raise SystemExit("no booking: %s" % slots.state.server.last_error)

    codes = exit_codes([fork_running(job) for _ in range(forks)], 60.0)
    assert codes == [0] * forks
    members = {member.decode() for member in redis_db.zrange(FLEET_KEY, 0, -1)}
    assert len(members) == earlier + forks  # every fork noted, each under its own member
    assert process_id() not in members  # the children's, none of them this process's
    slots = _slots(redis_server.url)
    assert slots.reserve("x", 0.001, 10.0) is not None
    assert process_id() == "%d-%s" % (os.getpid(), process_id().split("-")[1])
    assert slots.fleet("x") == MAX_FLEET


def test_an_outage_paces_at_most_max_fleet_intervals(redis_server):  # noqa: F811
    """1,000 members: each request of an outage waited 1,000 intervals (here 10 s, past the 1 s allowed)."""
    clock = FakeClock()
    with RedisServer() as server:
        import redis

        db = redis.Redis.from_url(server.url)
        _plant(db, [_ours(number) for number in range(1000)])
        db.close()
        limiter = RateLimiter(clock, shared=_slots(server.url, clock))
        assert limiter.reserve("x", 0.01, 1.0) is not None  # booked in Redis, the fleet counted
        server.stop()
        clock.advance(0.01)
        wait = limiter.reserve("x", 0.01, 1.0)  # Redis down: this process's share of the pace
        assert wait is not None and wait <= MAX_FLEET * 0.01


def test_the_next_slot_follows_the_fleet_shrinking_into_an_outage(redis_server):  # noqa: F811
    """A fleet counted large once (here 60 processes) put this process's next slot 60 intervals
    ahead; the fleet back to one process, the next outage still waited out those 60 intervals."""
    clock = FakeClock()
    with RedisServer() as server:
        import redis

        db = redis.Redis.from_url(server.url)
        _plant(db, [_ours(number) for number in range(59)])
        limiter = RateLimiter(clock, shared=_slots(server.url, clock))
        assert limiter.reserve("x", 0.1, 10.0) is not None  # a share of 60: next slot 6 s away here
        db.delete(FLEET_KEY)  # the others are gone: alone now
        assert limiter.reserve("x", 0.1, 10.0) is not None  # Redis's next slot, ~0.1 s away
        db.close()
        server.stop()
        wait = limiter.reserve("x", 0.1, 0.5)  # Redis down: alone, an interval after its last slot
        assert wait is not None and wait <= 0.2 + 1e-6


def test_state_show_counts_a_fleet_as_a_booking_counts_it(redis_db, redis_server, capsys):  # noqa: F811
    """``state show`` read the fleet key's size (ZCARD): 1,000 planted members of this package's
    format showed as 1,000 processes, where a booking counts at most MAX_FLEET, and members of another
    format (which count for none) as processes too, without a word."""
    from websearch_sync.cli import main as cli_main

    _plant(redis_db, [_ours(number) for number in range(1000)] + ["worker-%d" % n for n in range(3)])
    assert cli_main(["state", "show", "--json", "--state-url", redis_server.url]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(p["upstream"], p["processes"], p["foreign"]) for p in report["paces"]] == [("x", MAX_FLEET, 3)]
    assert cli_main(["state", "show", "--state-url", redis_server.url]) == 0
    out = capsys.readouterr().out
    assert (
        "  x  %d processes lately (and 3 members of another format, counted for none: the next booking" % (MAX_FLEET)
        in out
    ), out
    assert redis_db.zcard(FLEET_KEY) == 1003  # read only: nothing dropped
    slots = _slots(redis_server.url)
    assert slots.reserve("x", 0.001, 10.0) is not None and slots.fleet("x") == MAX_FLEET  # the booking agrees


def test_state_show_counts_the_members_a_booking_counts(redis_db, redis_server, capsys):  # noqa: F811
    """Two processes of this package's format, noted lately: two, as the next booking counts them (besides itself)."""
    from websearch_sync.cli import main as cli_main

    _plant(redis_db, [_ours(1), _ours(2)])
    assert cli_main(["state", "show", "--state-url", redis_server.url]) == 0
    assert "  x  2 processes lately, next slot free\n" in capsys.readouterr().out

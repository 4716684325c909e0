"""The SQLite cache file outlives processes and boots, so its entries are timed by the wall clock
(no monotonic clock is comparable across them): a wall clock set back must not lengthen an
entry's life past its TTL, nor serve a file's entries from "the future" (a VM restored from a
snapshot, a clock set back by hours) as fresh."""

import sqlite3

from websearch_sync.client.cache import SqliteCache
from websearch_sync.client.clock import Clock

TTL_S = 60.0


class WallClock(Clock):
    """A wall clock a test sets (steps included); nothing else is read here."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


def _cache(tmp_path, clock):
    return SqliteCache(str(tmp_path / "cache.sqlite"), TTL_S, clock=clock)


def test_an_entry_read_after_the_clock_was_set_back_has_no_more_than_its_ttl_left(tmp_path):
    clock = WallClock(1_700_000_000.0)
    cache = _cache(tmp_path, clock)
    cache.set("key", {"answer": 1})
    clock.now -= 30  # set back half a TTL: the entry's age would count -30 s
    found = cache.lookup("key")
    cache.close()
    assert found is not None and found[0] == {"answer": 1}
    assert found[1] == TTL_S  # before: 90 s (the memory tier then kept its copy that long)


def test_an_entry_from_further_in_the_future_than_its_ttl_is_expired_and_pruned(tmp_path):
    clock = WallClock(1_700_000_000.0)
    cache = _cache(tmp_path, clock)
    cache.set("key", {"answer": 1})
    clock.now -= 3600  # set back an hour
    assert cache.lookup("key") is None  # before: served, with an hour and a minute left
    cache.prune()
    clock.now += 3600 - 1  # back where it was: the pruned entry does not come back to life
    assert cache.lookup("key") is None
    cache.close()


def test_an_entry_expires_at_its_ttl_on_a_steady_clock(tmp_path):
    clock = WallClock(1_700_000_000.0)
    cache = _cache(tmp_path, clock)
    cache.set("key", {"answer": 1})
    clock.now += TTL_S - 1
    assert cache.lookup("key") == ({"answer": 1}, 1.0)
    clock.now += 1
    assert cache.lookup("key") is None
    cache.close()


def test_a_file_written_before_entries_had_a_write_time_is_used_and_its_old_entries_expired(tmp_path):
    path = tmp_path / "cache.sqlite"
    with sqlite3.connect(path) as old:  # the table as versions before the write time made it
        old.execute("CREATE TABLE results (key TEXT PRIMARY KEY, expires REAL NOT NULL, value TEXT NOT NULL)")
        old.execute("INSERT INTO results VALUES ('\"key\"', 1e12, '{\"answer\": 0}')")
    old.close()
    clock = WallClock(1_700_000_000.0)
    cache = SqliteCache(str(path), TTL_S, clock=clock)
    assert cache.lookup("key") is None  # its age cannot be told: not served for up to 30,000 years
    cache.set("key", {"answer": 1})
    assert cache.lookup("key") == ({"answer": 1}, TTL_S)
    cache.close()

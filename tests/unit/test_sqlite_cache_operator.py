"""An operator's pass over the SQLite cache file: several processes writing it at once, and a
file the client cannot use (damaged, read-only, in a folder it may not write) refused with the
reason, when the client is built (bad paths a new user meets: test_newuser_cache.py)."""

import threading

from websearch_sync.client.cache import SqliteCache

#: SQLite's ``PRAGMA synchronous`` NORMAL (its default is FULL, 2).
NORMAL = 1


def test_a_write_does_not_hold_the_files_lock_through_a_flush_to_the_disk(tmp_path):
    """With SQLite's default (FULL) every write flushed the disk holding the file's write lock: four
    processes writing at once waited on each other's flushes past their 0.5 s wait (1 write in 100
    lost to "database is locked", 3.6 ms a write; NORMAL: none lost, 0.1 ms a write). Each
    thread's connection is one of its own: each must say so."""
    cache = SqliteCache(tmp_path / "c.sqlite3", ttl_s=60)
    seen = []

    def write_and_look(number):
        cache.set(("k", number), {"items": []})
        seen.append(cache._connection(None).execute("PRAGMA synchronous").fetchone()[0])

    write_and_look(0)
    other = threading.Thread(target=write_and_look, args=(1,))
    other.start()
    other.join()
    cache.close()
    assert seen == [NORMAL, NORMAL]

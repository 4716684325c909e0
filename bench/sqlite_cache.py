"""The figures the SQLite cache's code and docs quote, measured on this machine.

    python bench/sqlite_cache.py [--writers 4] [--writes 300] [--rows 100000] [--lookups 1000]

1. Writes lost to another process's lock: ``--writers`` processes each write ``--writes``
   answers of 2 KB to one file at once, each write waiting at most 0.5 s for the lock (what a
   call's wait comes to), with SQLite's default ``synchronous=FULL`` (a flush to the disk at
   each write, holding the lock) and with the cache's ``NORMAL``. Printed: writes lost to
   "database is locked", and the mean time of a write per process. Then with ``NORMAL`` and a
   0.05 s wait, without a limit on the file's answers and with ``max_answers=500`` (each write
   deleting the oldest answer in the same transaction).
2. A prune of a large file: ``--rows`` answers of 1 KB, a third of them expired. Printed: the
   time of one prune as the cache does it (:data:`_PRUNE_ROWS` rows) and of one scan of the whole
   file (what a prune did before), each holding the file's write lock throughout.
3. The CPU of a lookup: ``--lookups`` answers of ten results, each looked up 25 times over.
   Printed: the best and the median of the per-lookup thread CPU, with a bound on the answer's
   size (``max_bytes``: 64 KiB) and without.

Not a test: nothing is asserted. The files are made in a temporary folder, removed at the end.
"""

import argparse
import multiprocessing
import os
import sqlite3
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from websearch_sync.client.cache import _LIVE, _PRUNE_ROWS, SqliteCache  # noqa: E402

#: How long a write waits for another process's lock (a call's share of its time, at most).
WAIT_S = 0.5
#: A short wait (a call near its deadline), under which lock holds show as lost writes.
SHORT_WAIT_S = 0.05
#: A file's limit on answers below the writes made: each write also deletes one.
LIMIT = 500


def _writer(
    path: str,
    writes: int,
    synchronous: str,
    results: "multiprocessing.Queue[tuple[int, float]]",
    max_answers: int = 10**9,
    wait_s: float = WAIT_S,
) -> None:
    cache = SqliteCache(path, ttl_s=3600, max_answers=max_answers)
    cache._connection(None).execute("PRAGMA synchronous=%s" % synchronous)
    lost = 0
    started = time.perf_counter()
    for number in range(writes):
        try:
            cache.set(("key", os.getpid(), number), {"items": [{"snippet": "x" * 2000}]}, wait_s=wait_s)
        except sqlite3.Error:
            lost += 1
    results.put((lost, (time.perf_counter() - started) / writes))
    cache.close()


def lost_writes(folder: str, writers: int, writes: int) -> None:
    """Part 1: writes lost to the lock with each ``synchronous`` setting; then (``NORMAL``) with a
    short wait, without a limit on the file's answers and at one (each write deleting one)."""
    context = multiprocessing.get_context("fork")
    for synchronous, max_answers, wait_s in (
        ("FULL", 10**9, WAIT_S),
        ("NORMAL", 10**9, WAIT_S),
        ("NORMAL", 10**9, SHORT_WAIT_S),
        ("NORMAL", LIMIT, SHORT_WAIT_S),
    ):
        path = os.path.join(folder, "writers-%s-%d-%g.sqlite3" % (synchronous, max_answers, wait_s))
        SqliteCache(path, ttl_s=3600).close()
        results = context.Queue()
        processes = [
            context.Process(target=_writer, args=(path, writes, synchronous, results, max_answers, wait_s))
            for _ in range(writers)
        ]
        for process in processes:
            process.start()
        answers = [results.get() for _ in processes]
        for process in processes:
            process.join()
        print(
            "synchronous=%-6s %s, wait %g s: %d writers x %d writes: lost %d; ms a write %s"
            % (
                synchronous,
                "max_answers=%d" % max_answers if max_answers < 10**9 else "no limit",
                wait_s,
                writers,
                writes,
                sum(lost for lost, _ in answers),
                " ".join("%.2f" % (mean_s * 1000) for _, mean_s in answers),
            )
        )


def prune_time(folder: str, rows: int) -> None:
    """Part 2: one bounded prune against one scan of the whole file."""
    path = os.path.join(folder, "prune.sqlite3")
    cache = SqliteCache(path, ttl_s=3600)
    now = time.time()
    with sqlite3.connect(path) as writer:
        writer.executemany(
            "INSERT INTO results (key, expires, value, stored) VALUES (?, ?, ?, ?)",
            (
                (
                    "key %d" % number,
                    now - 1 if number % 3 == 0 else now + 3600,
                    "x" * 1000,
                    now - 3601 if number % 3 == 0 else now,
                )
                for number in range(rows)
            ),
        )
    writer.close()
    started = time.perf_counter()
    cache.prune()
    bounded_s = time.perf_counter() - started
    started = time.perf_counter()
    cache._connection(None).execute("DELETE FROM results WHERE NOT (%s)" % _LIVE, (now, now))
    whole_s = time.perf_counter() - started
    cache.close()
    print(
        "prune of %d rows (a third expired): one prune (%d rows) %.1f ms; the whole file %.1f ms"
        % (rows, _PRUNE_ROWS, bounded_s * 1000, whole_s * 1000)
    )


def lookup_cpu(folder: str, lookups: int) -> None:
    """Part 3: the thread CPU of a lookup, with a bound and without."""
    cache = SqliteCache(os.path.join(folder, "lookup.sqlite3"), ttl_s=3600)
    value = {
        "items": [{"title": "t%d" % n, "url": "https://e.example/%d" % n, "snippet": "s" * 200} for n in range(10)]
    }
    for number in range(lookups):
        cache.set(("q", number), value)
    for max_bytes in (64 * 1024, None):
        per_lookup = []
        for _ in range(25):
            started = time.thread_time()
            for number in range(lookups):
                cache.lookup(("q", number), WAIT_S, max_bytes)
            per_lookup.append((time.thread_time() - started) / lookups * 1e6)
        print(
            "lookup CPU, max_bytes=%s: best %.1f us, median %.1f us"
            % (max_bytes, min(per_lookup), statistics.median(per_lookup))
        )
    cache.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--lookups", type=int, default=1000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        lost_writes(folder, options.writers, options.writes)
        prune_time(folder, options.rows)
        lookup_cpu(folder, options.lookups)


if __name__ == "__main__":
    main()

"""A cache file another process holds locked slows no call past its deadline and fails no search.

Real time is the subject (SQLite's busy timeout against the call's deadline), so these live
here, not in the unit tier: the margin comes from the machine's pace, measured around the call.
Before the fix the busy timeout (10 s) ignored the call's deadline.
"""

import logging
import sqlite3
import time

from clocks import deadline_margin_s, machine_pace

import websearch_sync as ws
from websearch_sync.client.cache import _OPEN_WAIT_S

DEADLINE_MS = 300
#: What the call may add on an idle machine: SQLite's busy handler sleeps in steps of up to 100 ms.
IDLE_MARGIN_S = 0.5


def test_a_locked_cache_file_costs_no_more_than_the_deadline(tmp_path, caplog):
    db = str(tmp_path / "c.sqlite3")
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=db) as client:
        client.search("warm")  # the file exists, in WAL mode
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process is writing and does not let go
        try:
            with machine_pace() as pace, caplog.at_level(logging.WARNING, logger="websearch_sync"):
                started = time.monotonic()
                answer = client.search("fresh query", timeout_ms=DEADLINE_MS)
                elapsed = time.monotonic() - started
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert answer["items"] and answer["provider_meta"]["cached"] is False
    assert elapsed < DEADLINE_MS / 1000 + deadline_margin_s(pace.slowdown, IDLE_MARGIN_S), elapsed
    assert "cache" in caplog.text.lower()


def test_a_cache_file_locked_for_reading_costs_no_more_than_the_deadline(tmp_path, caplog):
    db = str(tmp_path / "c.sqlite3")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO t VALUES (1)")  # a rollback-journal writer: nobody may even read
    try:
        with machine_pace() as pace, caplog.at_level(logging.WARNING, logger="websearch_sync"):
            started = time.monotonic()
            with ws.SearchClient("stub", settings=ws.Settings(), cache_path=db) as client:  # waits _OPEN_WAIT_S at most
                answer = client.search("q", timeout_ms=DEADLINE_MS)
            elapsed = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert answer["items"]
    assert elapsed < _OPEN_WAIT_S + DEADLINE_MS / 1000 + deadline_margin_s(pace.slowdown, IDLE_MARGIN_S), elapsed
    assert "cache" in caplog.text.lower()


def test_a_file_locked_for_writing_is_one_warning_not_one_per_search(tmp_path, caplog):
    """Reads go on working beside another process's write lock (WAL): each working read reset the
    warning, so every search logged "writing it failed" again at WARNING."""
    db = str(tmp_path / "c.sqlite3")
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=db) as client:
        client.search("warm")
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            with caplog.at_level(logging.WARNING, logger="websearch_sync"):
                for number in range(3):
                    assert client.search("query %d" % number, timeout_ms=DEADLINE_MS)["items"]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    warnings = [record for record in caplog.records if "writing it failed" in record.getMessage()]
    assert len(warnings) == 1, [record.getMessage() for record in caplog.records]

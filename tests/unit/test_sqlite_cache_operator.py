"""An operator's pass over the SQLite cache file: several processes writing it at once, and a
file the client cannot use (damaged, read-only, in a folder it may not write) refused with the
reason, when the client is built (bad paths a new user meets: test_newuser_cache.py)."""

import glob
import json
import logging
import os
import resource
import sqlite3
import sys
import tempfile
import threading

import pytest
from clocks import FakeClock
from forked import exit_codes, fork_running

import websearch_sync as ws
from websearch_sync.client.cache import _PRUNE_ROWS, SqliteCache, cache_key_text

#: SQLite's ``PRAGMA synchronous`` NORMAL (its default is FULL, 2).
NORMAL = 1
#: The user a root test runs the child as (no permission stops root).
NOBODY = 65534
#: How long the forked child may take (it builds two clients and exits).
CHILD_LIMIT_S = 30.0
#: The length of a planted answer (far over any call's bound, 64 KiB here).
PLANTED_BYTES = 2_000_000


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


# -- a file the client cannot use: refused, saying why ----------------------------------------------


def _refusal(path):
    """The message of the ``InvalidInput`` a client given ``path`` raises (``bad_cache_path``)."""
    with pytest.raises(ws.InvalidInput) as info:
        ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(path))
    assert info.value.detail_code == "bad_cache_path"
    return info.value.message


def test_a_damaged_cache_file_is_refused_saying_what_to_do(tmp_path):
    """A file cut short (a disk that filled, a copy that stopped): SQLite's "database disk image is
    malformed" alone did not say that a new cache is made once it is moved away."""
    path = tmp_path / "c.sqlite3"
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(path)) as client:
        for number in range(60):
            client.search("query %d" % number)
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    message = _refusal(path)
    assert "the file is damaged (database disk image is malformed)" in message
    assert "move it away or delete it (its -wal and -shm files too), and a new cache is made in its place" in message
    path.unlink()
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(path)) as client:
        assert client.search("query 1")["items"]  # as the message said


@pytest.mark.parametrize("special", ["/dev/null", "a FIFO"])
def test_a_path_that_is_no_regular_file_is_refused_saying_so(tmp_path, special):
    """``cache_path=/dev/null`` (meant as "no cache file") was refused with SQLite's "disk I/O error"."""
    path = special if special.startswith("/") else str(tmp_path / "fifo")
    if not special.startswith("/"):
        os.mkfifo(path)
    elif not os.path.exists(path):
        pytest.skip("no %s here" % path)
    message = _refusal(path)
    assert "it is not a regular file (a device, a FIFO, a socket)" in message
    assert "to keep no cache file, leave cache_path unset" in message


def _in_child(work):
    """What ``work()`` returns (JSON), run in a forked child: a process whose user, limits and log
    handlers the test may change."""
    source, sink = os.pipe()

    def run():
        answer = work()
        with os.fdopen(sink, "w") as out:
            json.dump(answer, out)

    child = fork_running(run)
    os.close(sink)
    with os.fdopen(source) as reading:
        seen = json.loads(reading.read() or "null")
    assert exit_codes([child], CHILD_LIMIT_S) == [0]
    return seen


def _cache_warnings():
    """The messages of the cache file warnings logged from now on (a list that grows)."""
    warned = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: warned.append(record.getMessage())
    logging.getLogger("websearch_sync").addHandler(handler)
    return warned


def _as_another_user(read_only_folder, read_only_file, unreadable_file):
    """As a user that is not root (whom no permission stops): the refusals of a new file in
    ``read_only_folder`` and of ``unreadable_file``, then what a client of ``read_only_file``
    serves and warns of."""
    if os.geteuid() == 0:
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    refusal = _refusal(os.path.join(read_only_folder, "c.sqlite3"))
    unreadable = _refusal(unreadable_file)
    warned = _cache_warnings()
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=read_only_file) as client:
        cached = [client.search(query)["provider_meta"]["cached"] for query in ("kept", "new", "other", "new")]
    return {
        "refusal": refusal,
        "unreadable": unreadable,
        "cached": cached,
        "warned": [w for w in warned if "cache file" in w],
    }


def test_a_cache_folder_this_user_may_not_write_is_refused_saying_so_and_a_read_only_file_still_serves():
    """SQLite said "unable to open database file" of a new file in a folder this user may not
    write: not what to change (nor, of an empty file this user may not read, "may not write").
    A read-only file (a cache made beforehand, shared read-only) serves its answers, and its
    failing writes are one warning."""
    with tempfile.TemporaryDirectory() as base:  # under /tmp: tmp_path's parents let only their owner in
        os.chmod(base, 0o777)
        read_only_folder = os.path.join(base, "read-only")
        os.mkdir(read_only_folder, 0o555)
        read_only_file = os.path.join(base, "c.sqlite3")
        with ws.SearchClient("stub", settings=ws.Settings(), cache_path=read_only_file) as client:
            client.search("kept")
        os.chmod(read_only_file, 0o444)
        unreadable_file = os.path.join(base, "unreadable.sqlite3")
        with open(unreadable_file, "wb"):
            pass
        os.chmod(unreadable_file, 0o222)
        seen = _in_child(lambda: _as_another_user(read_only_folder, read_only_file, unreadable_file))
    assert "this user may not write its folder %s" % read_only_folder in seen["refusal"], seen
    assert "this user may not read or write the file (" in seen["unreadable"], seen
    assert seen["cached"] == [True, False, False, True]  # the file's answer, then memory's
    assert len(seen["warned"]) == 1 and "attempt to write a readonly database" in seen["warned"][0], seen


def _searching_past_a_full_disk(path):
    """Searches while the file may not grow (``RLIMIT_FSIZE``: what a full disk does to its writes),
    then once it may again: what they answered, and the warnings."""
    warned = _cache_warnings()
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=path) as client:
        client.search("before")
        resource.setrlimit(resource.RLIMIT_FSIZE, (sum(os.path.getsize(f) for f in glob.glob(path + "*")), hard))
        full = [bool(client.search("while full %d" % number)["items"]) for number in range(30)]
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        client.search("after")
    return {"full": full, "warned": [w for w in warned if "cache file" in w]}


def test_a_full_disk_fails_no_search_warns_once_and_leaves_the_file_whole(tmp_path):
    path = str(tmp_path / "c.sqlite3")
    seen = _in_child(lambda: _searching_past_a_full_disk(path))
    assert all(seen["full"]) and len(seen["full"]) == 30
    assert len(seen["warned"]) == 1 and "writing it failed" in seen["warned"][0], seen
    with sqlite3.connect(path) as reader:
        assert reader.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = {key for (key,) in reader.execute("SELECT key FROM results")}
    reader.close()
    for query in ("before", "after"):  # written while there was room
        assert [key for key in stored if '"%s"' % query in key], stored


def test_one_prune_looks_at_a_bounded_part_of_the_file_and_the_next_ones_go_on_from_there(tmp_path):
    """A prune scanned the whole file, reading every answer in it while holding its write lock:
    0.27 s a prune on a file of 100,000 answers (4.9 s when a third of them had expired), which the
    call that pruned (one write in 50) waited for, and other processes' writes too."""
    path = tmp_path / "c.sqlite3"
    clock = FakeClock()
    cache = SqliteCache(path, ttl_s=60, clock=clock)
    now = clock.time()
    rows = [("expired %d" % number, now - 1, "{}", now - 61) for number in range(3 * _PRUNE_ROWS)]
    rows[1::2] = [("live %d" % number, now + 3600, "{}", now) for number in range(len(rows[1::2]))]
    with sqlite3.connect(path) as writer:
        writer.executemany("INSERT INTO results (key, expires, value, stored) VALUES (?, ?, ?, ?)", rows)
    writer.close()

    def left():
        return cache._connection(None).execute("SELECT count(*) FROM results WHERE key LIKE 'expired%'").fetchone()[0]

    counts = [left()]
    for _ in range(4):  # each looks at _PRUNE_ROWS rows from a random one, going on from the first past the last
        cache.prune()
        counts.append(left())
    live = cache._connection(None).execute("SELECT count(*) FROM results WHERE key LIKE 'live%'").fetchone()[0]
    cache.close()
    half = _PRUNE_ROWS // 2  # the expired rows among the rows one prune looks at
    assert counts[0] == 3 * half and counts[3] == 0, counts  # three prunes, every row
    assert all(0 <= before - after <= half for before, after in zip(counts, counts[1:])), counts
    assert live == 3 * half


@pytest.mark.parametrize("start", [0, 4, 10])
def test_one_prune_of_a_small_file_looks_at_every_row_wherever_it_starts(tmp_path, start):
    """A prune stopped at the last row: a file's first prune, from a random row, looked only at the
    rows after it (a 10-row file kept up to 9 expired rows). Where it starts is set here (the
    random start: the first row, one within, the last)."""
    path = tmp_path / "c.sqlite3"
    clock = FakeClock()
    cache = SqliteCache(path, ttl_s=60, clock=clock)
    now = clock.time()
    with sqlite3.connect(path) as writer:
        writer.executemany(
            "INSERT INTO results (key, expires, value, stored) VALUES (?, ?, ?, ?)",
            [("expired %d" % number, now - 1, "{}", now - 61) for number in range(10)],
        )
    writer.close()
    cache._pruned_to = start
    cache.prune()
    left = cache._connection(None).execute("SELECT count(*) FROM results").fetchone()[0]
    cache.close()
    assert left == 0


# -- rows another program wrote --------------------------------------------------------------------


def _bytes_read():
    """What this process has read by system calls so far (Linux), SQLite's page reads included."""
    with open("/proc/self/io") as io:
        return int(next(line for line in io if line.startswith("rchar:")).split()[1])


@pytest.mark.skipif(not os.path.exists("/proc/self/io") or sys.version_info < (3, 11), reason="Linux, Python 3.11+")
def test_a_planted_answer_longer_than_the_bound_is_not_read(tmp_path):
    """``length(CAST(value AS BLOB))`` read the whole value to measure it, and so did reading the
    write time stored after it: a planted 300 MB answer cost every lookup of its question 0.76 s."""
    path = tmp_path / "c.sqlite3"
    clock = FakeClock()
    SqliteCache(path, ttl_s=60, clock=clock).close()
    now = clock.time()
    with sqlite3.connect(path) as writer:
        writer.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?)",
            (cache_key_text("planted"), now + 60, '{"items": [], "x": "%s"}' % ("x" * PLANTED_BYTES), now),
        )
    writer.close()
    cache = SqliteCache(path, ttl_s=60, clock=clock)
    before = _bytes_read()
    found = cache.lookup("planted", max_bytes=64 * 1024)
    read = _bytes_read() - before
    assert cache.lookup("planted") is not None  # there, and live: only its length makes it a miss
    cache.close()
    assert found is None and read < PLANTED_BYTES / 8, read


def test_an_answer_that_is_not_text_is_a_failing_read_not_a_type_error_through_the_search(tmp_path, caplog):
    """A file whose table another program made without the column's type held a number as an
    answer: ``json.loads`` raised ``TypeError`` through the search."""
    path = tmp_path / "c.sqlite3"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE results (key TEXT PRIMARY KEY, expires REAL NOT NULL, value NOT NULL, stored REAL)")
    other.close()
    with ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(path)) as client:
        client.search("q")
    with sqlite3.connect(path) as other:
        other.execute("UPDATE results SET value = 5")
    other.close()
    with (
        caplog.at_level(logging.WARNING, logger="websearch_sync"),
        ws.SearchClient("stub", settings=ws.Settings(), cache_path=str(path)) as client,
    ):
        answer = client.search("q")
    assert answer["items"] and answer["provider_meta"]["cached"] is False
    assert [record.getMessage() for record in caplog.records if "reading it failed" in record.getMessage()]


def _built_on_a_full_disk(path):
    """A client built while no file may grow (a worker restarted on a full disk): its searches, and
    whether it raised."""
    warned = _cache_warnings()
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1, hard))
    try:
        client = ws.SearchClient("stub", settings=ws.Settings(), cache_path=path)
    except ws.InvalidInput as error:
        return {"raised": str(error)}
    with client:
        answered = bool(client.search("while full")["items"])
        resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
        client.search("once there is room")
    return {"answered": answered, "warned": warned[:1]}


def test_a_client_built_on_a_full_disk_is_built_and_uses_its_file_once_there_is_room(tmp_path):
    """A job restarted on a full disk failed for its cache file: ``InvalidInput(bad_cache_path)``,
    "disk I/O error", though the file was fine and every search would have been answered. The
    warning does not say it is a full disk: SQLite's "disk I/O error" may be a failing disk too."""
    path = str(tmp_path / "c.sqlite3")
    SqliteCache(path, ttl_s=60, clock=FakeClock()).close()
    seen = _in_child(lambda: _built_on_a_full_disk(path))
    assert seen["answered"] is True, seen
    assert "(disk I/O error: a full disk or an I/O error)" in seen["warned"][0], seen
    with sqlite3.connect(path) as reader:
        keys = [key for (key,) in reader.execute("SELECT key FROM results")]
    reader.close()
    assert [key for key in keys if '"once there is room"' in key], keys


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_a_cache_file_deleted_or_replaced_while_in_use_is_opened_anew(tmp_path, how):
    """An operator who deletes the file to clear the cache while workers run (or puts another one
    in its place): their connections went on with the old file, serving the answers meant to be
    cleared and writing where no other process reads."""
    path = tmp_path / "c.sqlite3"
    clock = FakeClock()
    worker = SqliteCache(path, ttl_s=60, clock=clock)
    worker.set("cleared", {"items": []})
    for name in ("c.sqlite3", "c.sqlite3-wal", "c.sqlite3-shm"):
        if (tmp_path / name).exists():
            (tmp_path / name).unlink()
    if how == "replaced":
        other = SqliteCache(tmp_path / "other.sqlite3", ttl_s=60, clock=clock)
        other.set("put there", {"items": []})
        other.close()
        os.replace(tmp_path / "other.sqlite3", path)
    assert worker.get("cleared") is None
    worker.set("written after", {"items": []})
    reader = SqliteCache(path, ttl_s=60, clock=clock)  # another process, later
    found = [reader.get(key) is not None for key in ("written after", "put there")]
    worker.close()
    reader.close()
    assert found == [True, how == "replaced"]


def test_a_relative_cache_path_names_the_same_file_after_the_working_folder_changes(tmp_path, monkeypatch):
    """The check for a deleted or replaced file stat()ed the relative path in the new working folder
    (a daemon's chdir("/"), a job changing folder): the cache closed its file and opened one there,
    losing every answer (or failing: "unable to open database file" where it may not write)."""
    first, then = tmp_path / "first", tmp_path / "then"
    first.mkdir()
    then.mkdir()
    monkeypatch.chdir(first)
    cache = SqliteCache("c.sqlite3", ttl_s=60, clock=FakeClock())
    cache.set("kept", {"items": []})
    monkeypatch.chdir(then)
    found = cache.get("kept")
    cache.close()
    assert found == {"items": []}
    assert os.listdir(then) == []


@pytest.mark.parametrize("value", [5, None], ids=["integer", "NULL"])
def test_a_lookup_of_a_value_that_is_not_text_raises_value_error_not_type_error(tmp_path, value):
    """What the search test above meets on Python 3.11+ is the bounded lookup's refusal (SQLite:
    "cannot open value of type integer"); a lookup without a bound read the value into Python,
    and ``json.loads`` raised ``TypeError``, which :class:`ResultCache` does not take for a failing read."""
    path = tmp_path / "c.sqlite3"
    clock = FakeClock()
    now = clock.time()
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE results (key TEXT PRIMARY KEY, expires REAL NOT NULL, value, stored REAL)")
        other.execute("INSERT INTO results VALUES (?, ?, ?, ?)", (cache_key_text("q"), now + 60, value, now))
    other.close()
    cache = SqliteCache(path, ttl_s=60, clock=clock)
    try:
        with pytest.raises(ValueError, match="not JSON text"):
            cache.lookup("q")
    finally:
        cache.close()


def _rows(path):
    with sqlite3.connect(path) as conn:
        return [json.loads(value)["n"] for (value,) in conn.execute("SELECT value FROM results ORDER BY rowid")]


def test_the_file_keeps_at_most_its_answers_the_oldest_written_going_first(tmp_path):
    """The file had no bound: a long TTL and many questions grew it without end (each answer a few KB)."""
    cache = SqliteCache(tmp_path / "c.sqlite3", ttl_s=10**9, max_answers=3)
    for n in range(5):
        cache.set(("q", n), {"n": n})
    cache.set(("q", 2), {"n": 22})  # written again: now the newest
    assert _rows(tmp_path / "c.sqlite3") == [3, 4, 22]
    assert cache.get(("q", 0)) is None and cache.get(("q", 4)) == {"n": 4}
    cache.close()


def test_a_clients_cache_max_answers_bounds_its_file_and_is_checked():
    """``SearchClient(cache_max_answers=N)``, default 100,000; a bad value is refused, with or without a file."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "c.sqlite3")
        with ws.SearchClient("stub", cache_path=path, cache_max_answers=2, clock=FakeClock()) as client:
            for query in ("one", "two", "three"):
                client.search(query)
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT count(*) FROM results").fetchone() == (2,)
    for bad in (0, 1.5, True):
        with pytest.raises(ws.InvalidInput) as caught:
            ws.SearchClient("stub", cache_max_answers=bad)
        assert caught.value.detail_code == "bad_cache_max_answers"


def test_the_mcp_servers_cache_max_answers_flag_reaches_its_client(tmp_path):
    """``websearch-sync mcp --cache-path F --cache-max-answers N``: the long-lived server's file, bounded."""
    from websearch_sync.cli import build_parser, mcp_cmd

    path = str(tmp_path / "c.sqlite3")
    args = build_parser().parse_args(["mcp", "--cache-path", path, "--cache-max-answers", "7"])
    with ws.SearchClient(**mcp_cmd._client_options(args)) as client:
        assert (client._disk.path, client._disk.max_answers) == (path, 7)


def test_a_file_over_the_limit_comes_down_to_it_a_bounded_number_of_rows_a_write(tmp_path):
    """A file written under a larger limit (another process's) was cut to this cache's limit in one
    delete: 150,000 rows held the write lock 1.3 s. Each write now deletes at most ``_PRUNE_ROWS``."""
    from websearch_sync.client.cache import _PRUNE_ROWS

    path = tmp_path / "c.sqlite3"
    big = SqliteCache(path, ttl_s=10**9, max_answers=10**9)
    for n in range(2 * _PRUNE_ROWS + 50):
        big.set(("q", n), {"n": n})
    big.close()
    small = SqliteCache(path, ttl_s=10**9, max_answers=10)
    counts = []
    for n in range(4):
        small.set(("new", n), {"n": n})
        with sqlite3.connect(path) as conn:
            counts.append(conn.execute("SELECT count(*) FROM results").fetchone()[0])
    assert counts == [2 * _PRUNE_ROWS + 51 - _PRUNE_ROWS, 52, 10, 10]
    assert small.get(("new", 3)) == {"n": 3} and small.get(("q", 2 * _PRUNE_ROWS + 49)) is not None
    small.close()


def test_a_write_and_its_limits_delete_are_one_transaction(tmp_path, monkeypatch):
    """The delete over ``max_answers`` was a second transaction after the insert: another writer could
    take the lock between them (the write then raised with its answer stored, the file over its limit),
    and four writing processes lost twice the writes to busy errors. Here another writer tries to take
    the lock at each statement the write runs after its first: it never gets in."""
    from websearch_sync.client import cache as cache_module

    monkeypatch.setattr(cache_module.random, "random", lambda: 1.0)  # no prune after the write
    path = tmp_path / "c.sqlite3"
    cache = SqliteCache(path, ttl_s=10**9, max_answers=1)
    cache.set("first", {"n": 1})
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    writing, got_in = [], []

    def at_statement(sql):
        if writing and not got_in:
            try:
                other.execute("BEGIN IMMEDIATE")  # kept: the write would have to wait for it
                got_in.append(sql)
            except sqlite3.OperationalError:
                if other.in_transaction:
                    other.execute("ROLLBACK")
        if sql.startswith(("INSERT", "BEGIN")):  # the write's first statement
            writing.append(sql)

    conn = cache._connection(None)
    conn.set_trace_callback(at_statement)
    cache.set("second", {"n": 2}, wait_s=0)
    conn.set_trace_callback(None)
    assert (got_in, _rows(path)) == ([], [2]) and writing
    other.close()
    cache.close()


def test_the_search_commands_cache_max_answers_flag_reaches_its_client_and_a_bad_one_names_the_flag(tmp_path, capsys):
    """``websearch-sync search --cache-max-answers N``, as ``mcp`` has it: a default client cut a shared
    file written under a larger limit down to 100,000 answers, and the command could not say otherwise."""
    from websearch_sync.cli import build_parser, main, search_cmd

    path = str(tmp_path / "c.sqlite3")
    args = build_parser().parse_args(["search", "q", "--cache-path", path, "--cache-max-answers", "7"])
    with ws.SearchClient(**search_cmd._client_options(args)) as client:
        assert (client._disk.path, client._disk.max_answers) == (path, 7)
    assert main(["search", "q", "--cache-path", path, "--cache-max-answers", "0"]) == 2
    err = capsys.readouterr().err
    assert "bad_cache_max_answers: --cache-max-answers must be a positive integer, got 0" in err
    assert "cache_max_answers" not in err.replace("bad_cache_max_answers", "")  # the flag's name, not Python's


@pytest.mark.parametrize("command", [["search", "q"], ["mcp"]])
def test_cache_max_answers_without_a_cache_path_is_a_usage_error(command):
    """It bounds the ``--cache-path`` file only: without one it was checked, then ignored without a word."""
    from websearch_sync.cli import build_parser, mcp_cmd, search_cmd

    args = build_parser().parse_args([*command, "--cache-max-answers", "7"])
    options = search_cmd._client_options if command[0] == "search" else mcp_cmd._client_options
    with pytest.raises(ws.InvalidInput) as caught:
        options(args)
    assert caught.value.detail_code == "bad_arguments" and "give --cache-path FILE too" in caught.value.message


def test_pages_have_a_budget_of_their_own_in_the_file_and_never_push_search_answers_out():
    """A search with ``include_content`` reading ten pages wrote eleven answers to one table: at
    ``cache_max_answers=2`` its pages pushed the search answers out. Pages (fetch's, include_content's)
    now go to a table of their own, each kept to ``cache_max_answers``, as in memory."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "c.sqlite3")
        with ws.SearchClient("stub", cache_path=path, cache_max_answers=2, clock=FakeClock()) as client:
            for query in ("one", "two"):
                client.search(query)
            for n in range(3):  # three pages read, as include_content or fetch writes them
                client._pages.set(("fetch", "https://example.org/%d" % n), {"text": "page %d" % n}, 300.0)
            assert [client.search(query)["provider_meta"]["cached"] for query in ("one", "two")] == [True, True]
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT count(*) FROM results").fetchone() == (2,)
            assert conn.execute("SELECT count(*) FROM pages").fetchone() == (2,)

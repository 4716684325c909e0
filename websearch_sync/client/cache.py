"""Result caches: an in-memory TTL cache and a persistent SQLite cache.

Only successful answers are stored. Values are JSON-compatible dicts; every read
returns a fresh copy, so a caller that edits a result never edits the cache.

The cache never fails a call: SQLite I/O waits for a lock at most as long as the
call has left, and a locked, corrupt or unwritable file is skipped with a
warning. Only a path that cannot hold a cache at all (missing folder, a folder, a
file that is not a SQLite database or is damaged, a file or folder this user may not
write) is refused, when the cache is built, saying which.
"""

import copy
import json
import logging
import os
import random
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Callable, Optional

from ..errors import BAD_CACHE_PATH, InvalidInput
from ..forks import renewed_in_children
from ..models import StrPath
from ..once import Once
from .clock import SYSTEM_CLOCK, Clock
from .tiers import SharedCacheTier

__all__: list[str] = []  # internal: the public names are documented in docs/ and README

logger = logging.getLogger("websearch_sync")

_SQLITE_HEADER = b"SQLite format 3\x00"
#: How long building a cache may wait for a lock held by another process.
_OPEN_WAIT_S = 0.5
#: A call's cache I/O waits for a lock at most this share of the time the call has left, and at most
#: ``_MAX_CALL_WAIT_S``: the cache saves time, it must not spend the search's.
_CALL_WAIT_SHARE = 0.1
_MAX_CALL_WAIT_S = 0.5
#: How many rows of the file one prune looks at (:meth:`SqliteCache.prune`): a few milliseconds.
_PRUNE_ROWS = 500
#: How many answers a cache file keeps by default (``SearchClient(cache_max_answers=...)``): past it,
#: the oldest written go. An answer of a few results is a few KB (one with page content up to about
#: ``max_content_chars`` a result), so about a few hundred MB at most for ordinary answers.
DEFAULT_FILE_ANSWERS = 100_000
#: The tables of a cache file: search answers, and pages (fetch's, include_content's) apart, each
#: kept to ``max_answers`` of its own, as the memory cache keeps pages apart (:data:`PAGE_MEMORY_ENTRIES`):
#: ten pages a search read no longer push ten search answers out.
TABLES = ("results", "pages")
#: How long a read or write may wait for a lock when the caller gives no deadline.
_DEFAULT_WAIT_S = 10.0
_SQLITE_BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
_SQLITE_DAMAGED = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
_SQLITE_NO_ROOM = (10, 13)  # SQLITE_IOERR (a write past RLIMIT_FSIZE, a failing disk), SQLITE_FULL


def cache_key_text(key: Hashable) -> str:
    """A cache key as text: the one serialization of every tier that leaves the process."""
    return json.dumps(key, sort_keys=True, default=repr, ensure_ascii=False)


#: Holds :data:`_WARNED` once this process warned of an answer too long to share (a service answering
#: so answers so again: one warning a process, whichever tier it was kept out of first; then DEBUG).
_TOO_LONG_WARNED = Once()
_WARNED = "warned"


def too_long(text: str, max_bytes: Optional[int], kept_from: str) -> bool:
    """True when ``text`` takes more than ``max_bytes`` bytes in UTF-8 (never, without a bound): the
    answer is then not written to ``kept_from``, a tier other processes read, and the first such answer
    in the process is warned of, once for every tier (it was silent: a service answering with megabytes
    of snippet had every worker of a fleet ask it the same question, none of them told why; then one
    warning for each tier, two for one answer with a state URL and a cache file)."""
    if max_bytes is None:
        return False
    size = len(text.encode("utf-8", "surrogatepass"))
    if size <= max_bytes:
        return False
    logger.log(
        logging.WARNING if _TOO_LONG_WARNED.first(_WARNED) else logging.DEBUG,
        "an answer of %d bytes is longer than any call asking it takes back (%d bytes): kept in this"
        " process's memory only, not in %s nor any other place other processes read, so they ask the"
        " service for it themselves (a service answering with very long snippets; warned once per process,"
        " the next ones at DEBUG)",
        size,
        max_bytes,
        kept_from,
    )
    return True


def copy_result(value: dict[str, Any]) -> dict[str, Any]:
    """A copy of a search or fetch result that shares no mutable part with ``value``.

    Knows the result shapes (that is what makes it fast enough for a cache hit):
    top-level scalars and strings are shared (immutable); ``items`` are canonical items
    (:func:`~websearch_sync.engine.normalize.normalize_items` writes them), flat dicts whose only
    mutable values are the lists of strings :data:`_ITEM_LISTS`, copied; every other list
    (``errors``, whose entries a backend writes freely) is copied all the way down
    (:func:`_copied`); ``provider_meta`` is a dict that may hold lists (``providers``,
    ``not_sent``), ``extras`` (SearXNG's answers, infoboxes...) and ``not_sent_by`` (nested, so
    copied all the way down).
    """
    out = dict(value)
    for key, part in value.items():
        if type(part) is list:
            out[key] = _copied_items(part) if key == "items" else _copied(part)
        elif type(part) is dict:
            out[key] = copied_meta = dict(part)
            for listed in ("providers", "not_sent"):
                if listed in copied_meta:
                    copied_meta[listed] = list(copied_meta[listed])
            for nested in ("extras", "not_sent_by"):
                if nested in copied_meta:
                    copied_meta[nested] = copy.deepcopy(copied_meta[nested])
    return out


#: The mutable values of a canonical item: lists of strings (every other value is a string or a number).
_ITEM_LISTS = ("providers", "content_truncated_by")


def _copied_items(items: list[Any]) -> list[Any]:
    """A copy of a result's canonical ``items``: each a new dict, its :data:`_ITEM_LISTS` new lists
    (a cache hit copies each item, so only what can change is copied: a generic walk cost twice as much)."""
    copied = []
    for item in items:
        if type(item) is dict:
            item = dict(item)
            for name in _ITEM_LISTS:
                if name in item:
                    item[name] = list(item[name])
        copied.append(item)
    return copied


def _copied(part: Any) -> Any:
    """``part`` with its lists, dicts and tuples copied all the way down, the rest shared (immutable
    in a result: JSON's strings, numbers, booleans, null); cheaper than ``copy.deepcopy`` on a hit.
    A tuple is copied too: a backend's error entry may hold one, with a list in it. Each container
    is copied whole, then only its containers replaced (most values are strings: measured, a
    comprehension testing each value cost 2.5 times as much)."""
    if type(part) is dict:
        copied = dict(part)
        for name, one in part.items():
            if type(one) in _CONTAINERS:
                copied[name] = _copied(one)
        return copied
    if type(part) is list or type(part) is tuple:
        listed = list(part)
        for index, one in enumerate(part):
            if type(one) in _CONTAINERS:
                listed[index] = _copied(one)
        return listed if type(part) is list else tuple(listed)
    return part


_CONTAINERS = (list, dict, tuple)


#: The memory cache's default budget of text (characters of the results' strings): an image a
#: fetch returns holds up to ~7 MB of base64, so 1,024 of them would hold gigabytes.
MEMORY_CACHE_CHARS = 64_000_000
#: The bounds of a client's memory cache of pages (fetch's answers, and include_content's pages),
#: kept apart from its search answers': one search reads up to ``max_results`` pages, whose
#: entries in one cache pushed out the answers (10 pages a search: ~93 searches filled 1,024
#: entries), and their text, already in the search's answer, took the answers' budget of characters.
PAGE_MEMORY_ENTRIES = 1024
PAGE_MEMORY_CHARS = 16_000_000


def result_chars(value: dict[str, Any]) -> int:
    """The characters of the strings of a search or fetch result (its top level and its lists of
    flat dicts: the shapes :func:`copy_result` knows), what its size in memory grows with."""
    total = 0
    for part in value.values():
        if type(part) is str:
            total += len(part)
        elif type(part) is list:
            for entry in part:
                if type(entry) is dict:
                    total += sum(len(field) for field in entry.values() if type(field) is str)
    return total


class MemoryCache:
    """A thread-safe TTL cache bounded in entries and in the characters of its results
    (:func:`result_chars`; least recently used evicted; a result over the whole budget is not kept)."""

    def __init__(
        self, ttl_s: float, max_entries: int = 1024, clock: Clock = SYSTEM_CLOCK, max_chars: int = MEMORY_CACHE_CHARS
    ) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self.max_chars = max_chars
        self._clock = clock
        self._data: OrderedDict[Hashable, tuple[float, dict[str, Any], int]] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()
        renewed_in_children(self)

    def forked(self) -> None:
        """In a forked child: a parent's thread may have held the lock at the fork."""
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Optional[dict[str, Any]]:
        """A copy of the cached value, or ``None`` when absent or expired."""
        found = self.lookup(key)
        return found[0] if found else None

    def lookup(self, key: Hashable) -> Optional[tuple[dict[str, Any], float]]:
        """``(a copy of the cached value, seconds it has left)``, or ``None`` when absent or expired."""
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                return None
            expires, value, _ = entry
            left = expires - self._clock.monotonic()
            if left <= 0:
                self._drop(key)
                return None
            self._data.move_to_end(key)
        return copy_result(value), left

    def set(self, key: Hashable, value: dict[str, Any], ttl_s: Optional[float] = None) -> None:
        """Store a copy of ``value`` for ``ttl_s`` seconds (default: the cache's TTL)."""
        stored, chars = copy_result(value), result_chars(value)
        with self._lock:
            self._drop(key)
            if chars > self.max_chars:
                return
            self._data[key] = (self._clock.monotonic() + (self.ttl_s if ttl_s is None else ttl_s), stored, chars)
            self._chars += chars
            while len(self._data) > self.max_entries or self._chars > self.max_chars:
                self._drop(next(iter(self._data)))

    def _drop(self, key: Hashable) -> None:
        """Forget ``key`` (held lock)."""
        entry = self._data.pop(key, None)
        if entry is not None:
            self._chars -= entry[2]

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._data.clear()
            self._chars = 0

    def __len__(self) -> int:
        return len(self._data)


def check_cache_path(path: Any) -> str:
    """``path`` as a string, or ``InvalidInput(bad_cache_path)`` when it cannot hold a SQLite cache:
    its folder does not exist, it is a folder, not a regular file (``/dev/null``), or a file that
    is not a SQLite database."""
    try:
        text = os.fspath(path)
    except TypeError:
        raise InvalidInput("cache_path must be a file path, got %r" % (path,), detail_code=BAD_CACHE_PATH) from None
    if not isinstance(text, str):
        raise InvalidInput("cache_path must be a file path, got %r" % (path,), detail_code=BAD_CACHE_PATH)
    if not text:  # `--cache-path "$CACHE"` with CACHE unset: no file would be kept, and nothing said
        raise InvalidInput(
            "cache_path is empty: give a file path, or leave it unset to keep no cache file", detail_code=BAD_CACHE_PATH
        )
    if text == ":memory:":
        return text
    problem = _path_problem(text)
    if problem is not None:
        raise InvalidInput("cannot use %s as a cache file: %s" % (text, problem), detail_code=BAD_CACHE_PATH)
    return text


def _path_problem(text: str) -> Optional[str]:
    """What makes the file path ``text`` unable to hold a SQLite cache (:func:`check_cache_path`), or ``None``."""
    folder = os.path.dirname(os.path.abspath(text))
    if os.path.isdir(text):
        return "it is a folder"
    if os.path.exists(text) and not os.path.isfile(text):  # SQLite said "disk I/O error" of /dev/null
        return "it is not a regular file (a device, a FIFO, a socket); to keep no cache file, leave cache_path unset"
    if not os.path.isdir(folder):
        return "its folder %s %s" % (folder, "is a file" if os.path.exists(folder) else "does not exist")
    if os.path.isfile(text) and os.path.getsize(text) > 0:
        try:
            with open(text, "rb") as handle:
                header = handle.read(len(_SQLITE_HEADER))
        except OSError as exc:
            return exc.strerror or str(exc)
        if header != _SQLITE_HEADER:
            return "it is not a SQLite database"
    return None


def _unusable_because(path: str, error: sqlite3.Error) -> str:
    """Why SQLite could not open ``path`` as a cache, said so that the operator knows what to change:
    SQLite says "unable to open database file" or "attempt to write a readonly database" whether
    the file or its folder is what this user may not write, and "malformed" of a file it could read."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        return "this user may not read or write the file (%s)" % error
    if not os.access(folder, os.W_OK | os.X_OK):
        return "this user may not write its folder %s, where SQLite keeps the file's -wal and -shm files (%s)" % (
            folder,
            error,
        )
    if _is(error, _SQLITE_DAMAGED, ("malformed",)):
        return (
            "the file is damaged (%s): move it away or delete it (its -wal and -shm files too), and a new cache is made in its place"
            % error
        )
    return str(error)


def _file_identity(path: str) -> Optional[tuple[int, int]]:
    """The device and inode of the file at ``path`` (``None`` when there is none): what tells the
    file a connection opened from one put in its place since."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _is(error: sqlite3.Error, codes: tuple[int, ...], words: tuple[str, ...]) -> bool:
    """Whether ``error`` is one of SQLite's result ``codes`` (their extended codes included: BUSY_RECOVERY
    is BUSY), or, where Python does not give the code (before 3.11), says one of ``words``."""
    code = getattr(error, "sqlite_errorcode", None)
    return (code & 0xFF) in codes if code is not None else any(word in str(error) for word in words)


def _is_busy(error: sqlite3.Error) -> bool:
    """True when ``error`` means another connection holds a lock (it may pass), not a broken file."""
    return _is(error, _SQLITE_BUSY, ("locked", "busy"))


def _is_out_of_room(error: sqlite3.Error) -> bool:
    """True when ``error`` is what a full disk (or a file that may not grow: ``RLIMIT_FSIZE``) gives:
    it may pass too."""
    return _is(error, _SQLITE_NO_ROOM, ("disk I/O error", "disk is full"))


class SqliteCache:
    """A persistent TTL cache in one SQLite file, safe across threads and processes.

    Each thread uses its own connection (:meth:`close` closes every one); writes use WAL
    mode, without a flush to the disk at each (``synchronous=NORMAL``), so several processes can
    share the file (scripts that re-run, a fleet's workers) without waiting on each other's disk. Every read or write waits for a lock
    at most ``wait_s`` seconds (the caller's remaining deadline), then raises
    ``sqlite3.Error`` for :class:`ResultCache` to skip. A path that cannot hold a
    cache is ``InvalidInput(bad_cache_path)`` here, at construction; a file locked
    by another process is not (its table is made at the first use). It keeps at most ``max_answers``
    answers: each write deletes those written before the last ``max_answers`` (the oldest first,
    a bounded number a write: a file over the limit comes down to it over several writes).
    """

    def __init__(
        self,
        path: StrPath,
        ttl_s: float,
        clock: Clock = SYSTEM_CLOCK,
        max_answers: int = DEFAULT_FILE_ANSWERS,
        table: str = "results",
    ) -> None:
        self.path = check_cache_path(path)
        self.max_answers = max_answers
        #: The file's table of these answers (a name of :data:`TABLES`): search answers' or pages'.
        self.table = TABLES[TABLES.index(table)]
        if self.path != ":memory:":  # the file named now, not another one after an os.chdir (a daemon's)
            self.path = os.path.abspath(self.path)
        self.ttl_s = ttl_s
        self._clock = clock
        self._local = threading.local()  # per thread: the connection whose journal mode is set (WAL)
        #: Each thread's connection, by thread: :meth:`close` closes them all (the threads of a
        #: client shared by many are gone or busy by then), so the file is released, its WAL too;
        #: a new thread's first use closes those of the threads that have ended.
        self._open: dict[threading.Thread, sqlite3.Connection] = {}
        self._open_lock = threading.Lock()
        self._closed = False
        self._pid = os.getpid()  # a forked child opens connections of its own (SQLite: none may cross a fork)
        self._ready = False
        self._pruned_to: Optional[int] = None  #: the last row (rowid) the last prune looked at
        try:
            self._connection(_OPEN_WAIT_S)
        except sqlite3.Error as exc:
            if _is_busy(exc):
                logger.warning("cache file %s is locked by another process; trying again at the next call", self.path)
            elif _is_out_of_room(exc):  # it was refused: a job restarted on a full disk failed for its cache
                logger.warning(
                    "cache file %s cannot be written (%s: a full disk or an I/O error); skipped, and tried again at the next call",
                    self.path,
                    exc,
                )
            else:
                self.close()
                raise InvalidInput(
                    "cannot use %s as a cache file: %s" % (self.path, _unusable_because(self.path, exc)),
                    detail_code=BAD_CACHE_PATH,
                ) from None

    def _connection(self, wait_s: Optional[float]) -> sqlite3.Connection:
        """This thread's connection, waiting at most ``wait_s`` for a lock; the table made on first use."""
        if self._pid != os.getpid():
            self._forked()
        me = threading.current_thread()
        found = self._open.get(me)
        if found is not None and getattr(self._local, "file", None) != _file_identity(self.path):
            # deleted or replaced (an operator clearing the cache while workers run): the connection went on
            # with the old file, which no other process sees, serving what the operator meant to clear
            with self._open_lock:
                self._open.pop(me, None)
            found.close()
            found, self._ready = None, False
        if found is not None:
            conn = found
        else:
            conn = sqlite3.connect(self.path, timeout=0, isolation_level=None, check_same_thread=False)
            with self._open_lock:
                if self._closed:  # a call under way when the client was closed: no connection no one would close
                    conn.close()
                    raise sqlite3.ProgrammingError("the cache file %s is closed" % self.path)
                for thread in [thread for thread in self._open if not thread.is_alive()]:
                    self._open.pop(thread).close()
                self._open[me] = conn
        conn.execute("PRAGMA busy_timeout=%d" % max(0, int((_DEFAULT_WAIT_S if wait_s is None else wait_s) * 1000)))
        if getattr(self._local, "wal", None) is not conn:
            conn.execute("PRAGMA journal_mode=WAL")
            # no flush to the disk at every write (FULL, SQLite's default): a write held the file's lock
            # through an fsync, so four processes writing at once lost about 1 write in 100 to "database is
            # locked" once their wait ran out. In WAL mode NORMAL keeps the file whole; a power cut may
            # lose the last answers written, which a cache can do without.
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.wal, self._local.file = conn, _file_identity(self.path)
        if not self._ready:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS %s" % self.table
                + " (key TEXT PRIMARY KEY, expires REAL NOT NULL, value TEXT NOT NULL, stored REAL)"
            )
            _add_write_time(conn, self.table)
            self._ready = True
        return conn

    def _forked(self) -> None:
        """In a child process (a preforking server, a Celery worker): forget the parent's connections
        without closing them (closing one could checkpoint and remove the WAL the parent still uses),
        and its lock (a parent's thread may have held it at the fork)."""
        self._open_lock = threading.Lock()
        self._open = {}
        self._local = threading.local()
        self._pid = os.getpid()

    _key = staticmethod(cache_key_text)

    def lookup(
        self, key: Hashable, wait_s: Optional[float] = None, max_bytes: Optional[int] = None
    ) -> Optional[tuple[dict[str, Any], float]]:
        """``(value, seconds it has left)``, or ``None`` when absent, expired or longer than
        ``max_bytes`` (then not loaded into Python at all). Timed by the wall clock, guarded
        against its steps (:data:`_LIVE`): an entry never has more than its TTL left."""
        now = self._clock.time()
        conn = self._connection(wait_s)
        if max_bytes is not None and hasattr(conn, "blobopen"):  # Python 3.11+
            return self._bounded_lookup(conn, key, now, max_bytes)
        row = conn.execute(
            "SELECT value, min(expires - ?, expires - stored) FROM " + self.table + " WHERE key = ? AND %s"
            " AND (? IS NULL OR length(CAST(value AS BLOB)) <= ?)" % _LIVE,
            (now, self._key(key), now, now, max_bytes, max_bytes),
        ).fetchone()
        return (_answer(row[0]), row[1]) if row else None

    def _bounded_lookup(
        self, conn: sqlite3.Connection, key: Hashable, now: float, max_bytes: int
    ) -> Optional[tuple[dict[str, Any], float]]:
        """:meth:`lookup` reading no more of the file than ``max_bytes``: the value's size from its
        row's header, then (the write time, stored after it, included) the rest, in one read
        transaction (another process may replace the row). SQL's ``length(CAST(value AS BLOB))``
        read all of it: 0.76 s for a planted 300 MB answer (a row holds up to 1 GB), at every
        lookup of that question."""
        conn.execute("BEGIN")
        try:
            row = conn.execute("SELECT rowid FROM %s WHERE key = ?" % self.table, (self._key(key),)).fetchone()
            if row is None:
                return None
            with conn.blobopen(self.table, "value", row[0], readonly=True) as blob:  # type: ignore[attr-defined]
                if len(blob) > max_bytes:
                    return None
                live = conn.execute(
                    "SELECT min(expires - ?, expires - stored) FROM " + self.table + " WHERE rowid = ? AND %s" % _LIVE,
                    (now, row[0], now, now),
                ).fetchone()
                if live is None:
                    return None
                data = blob.read()
        finally:
            conn.execute("ROLLBACK")  # a read: nothing to keep
        return _answer(data), live[0]

    def get(self, key: Hashable, wait_s: Optional[float] = None) -> Optional[dict[str, Any]]:
        """The cached value (a fresh object), or ``None`` when absent or expired."""
        found = self.lookup(key, wait_s)
        return found[0] if found else None

    def set(
        self,
        key: Hashable,
        value: dict[str, Any],
        ttl_s: Optional[float] = None,
        wait_s: Optional[float] = None,
        max_bytes: Optional[int] = None,
    ) -> None:
        """Store ``value`` for ``ttl_s`` seconds (default: the cache's TTL; nothing when its JSON is
        longer than ``max_bytes``: no reader would take it); expired rows are pruned now and then, and
        the rows written before the last :attr:`max_answers` now (a row's ``rowid`` counts the writes:
        a new or replaced row takes one past the largest), at most :data:`_PRUNE_ROWS` of them a write:
        a file written under a larger limit (another process's) comes down to this one over several
        writes, where one delete of 150,000 rows held its write lock 1.3 s; in the same statement as the
        insert (:meth:`_bound`)."""
        text = json.dumps(value, ensure_ascii=False)
        if too_long(text, max_bytes, "the cache file"):
            return
        conn = self._connection(wait_s)
        now = self._clock.time()
        self._bound(conn)
        conn.execute(  # with its trigger's delete: one statement, one transaction
            "INSERT OR REPLACE INTO %s (key, expires, value, stored) VALUES (?, ?, ?, ?)" % self.table,
            (self._key(key), now + (self.ttl_s if ttl_s is None else ttl_s), text, now),
        )
        if random.random() < 0.02:
            self.prune(wait_s)

    def _bound(self, conn: sqlite3.Connection) -> None:
        """Give ``conn`` (once per :attr:`max_answers`) a trigger deleting, at each insert, the rows
        written before the last :attr:`max_answers`, at most :data:`_PRUNE_ROWS` of them (a range
        of the rowid index: no scan). A trigger of the connection's own (``TEMP``): other processes
        keep theirs. The delete runs in the insert's statement and transaction: as a second
        transaction another writer could take the lock between them (the write then failed with
        its answer stored), and it waited for the lock again. ``bench/sqlite_cache.py`` on a loaded
        2-core machine, 4 writers at ``max_answers=500`` waiting 0.05 s, five runs: 105 writes of
        40,000 lost with two transactions, 53 with ``BEGIN IMMEDIATE`` around both (Python between
        the statements holds the lock), 23 with the trigger; idle, about 7 each way."""
        if getattr(self._local, "bound", None) == (conn, self.max_answers):
            return
        conn.execute("DROP TRIGGER IF EXISTS temp.bound_%s" % self.table)
        conn.execute(
            "CREATE TEMP TRIGGER bound_%s AFTER INSERT ON main.%s WHEN NEW.rowid > %d BEGIN"
            " DELETE FROM %s WHERE rowid IN (SELECT rowid FROM %s"
            " WHERE rowid <= NEW.rowid - %d ORDER BY rowid LIMIT %d); END"
            % (self.table, self.table, self.max_answers, self.table, self.table, self.max_answers, _PRUNE_ROWS)
        )
        self._local.bound = (conn, self.max_answers)

    def prune(self, wait_s: Optional[float] = None) -> None:
        """Delete the entries that are not live (:data:`_LIVE`): expired ones, and those from further
        in the future than their TTL, which would otherwise be served again once the wall clock
        caught up with them (after a clock set back, as fresh as the day they were written).

        One prune looks at :data:`_PRUNE_ROWS` rows (all of a smaller file), from where the last one
        stopped (in the order they were written, going on from the first row past the last; the
        first one of a cache at a random row: a short-lived client, a command run per query, would
        look at the same first rows each time):
        a scan of the whole file read every answer in it while holding its write lock, 0.2 s a
        100,000 answers, which the call that pruned waited for and other processes' writes too
        (lost once their wait ran out)."""
        now = self._clock.time()
        conn = self._connection(wait_s)
        if self._pruned_to is None:
            (end,) = conn.execute("SELECT max(rowid) FROM %s" % self.table).fetchone()
            self._pruned_to = random.randrange((end or 0) + 1)
        start = self._pruned_to
        ahead, looked = conn.execute(
            "SELECT max(rowid), count(*) FROM (SELECT rowid FROM %s WHERE rowid > ? ORDER BY rowid LIMIT ?)"
            % self.table,
            (start, _PRUNE_ROWS),
        ).fetchone()
        if ahead is not None:
            conn.execute(
                "DELETE FROM " + self.table + " WHERE rowid > ? AND rowid <= ? AND NOT (%s)" % _LIVE,
                (start, ahead, now, now),
            )
            self._pruned_to = ahead
        if looked < _PRUNE_ROWS:  # the last row reached: the rest from the first row on (a small file: all of it)
            (wrapped,) = conn.execute(
                "SELECT max(rowid) FROM (SELECT rowid FROM %s WHERE rowid <= ? ORDER BY rowid LIMIT ?)" % self.table,
                (start, _PRUNE_ROWS - looked),
            ).fetchone()
            if wrapped is not None:
                conn.execute(
                    "DELETE FROM " + self.table + " WHERE rowid <= ? AND NOT (%s)" % _LIVE, (wrapped, now, now)
                )
            self._pruned_to = 0 if wrapped is None else wrapped

    def clear(self) -> None:
        """Forget everything."""
        self._connection(None).execute("DELETE FROM %s" % self.table)

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._closed

    def close(self) -> None:
        """Close every thread's connection; a use after it raises ``sqlite3.ProgrammingError``
        (which :class:`ResultCache` skips, as any failure of the file)."""
        with self._open_lock:
            self._closed = True
            connections, self._open = self._open, {}
        for conn in connections.values():
            conn.close()


#: When a row of the file is served, by the wall clock (``?``: now, twice): before it expires, and
#: not written further in the future than its TTL (``stored``, its write time, is how a clock set
#: back is seen: the entry would count a negative age). A row without a write time (written by a
#: version before it was kept) is not served: its age cannot be told.
_LIVE = "expires > ? AND stored IS NOT NULL AND stored - ? <= expires - stored"


def _answer(value: Any) -> dict[str, Any]:
    """A row's value as the answer it holds; ``ValueError`` for one that is not JSON text (a row
    another program wrote: a number there raised ``TypeError`` through the search)."""
    if not isinstance(value, (str, bytes)):
        raise ValueError("a cache entry of type %s, not JSON text" % type(value).__name__)
    answer: dict[str, Any] = json.loads(value)
    return answer


def _add_write_time(conn: sqlite3.Connection, table: str) -> None:
    """Give a cache file from a version that kept no write time the ``stored`` column."""
    if any(column[1] == "stored" for column in conn.execute("PRAGMA table_info(%s)" % table)):
        return
    try:
        conn.execute("ALTER TABLE %s ADD COLUMN stored REAL" % table)
    except sqlite3.OperationalError as exc:
        if "duplicate column" not in str(exc):  # another process added it first
            raise


def _checked(
    found: Optional[tuple[dict[str, Any], float]],
    check: Optional[Callable[[dict[str, Any]], bool]],
    revise: Optional[Callable[[dict[str, Any]], None]],
) -> Optional[tuple[dict[str, Any], float]]:
    """``found`` (a hit from a tier outside the process) revised by ``revise``, when ``check``
    accepts it; else ``None``."""
    if found is None:
        return None
    if revise is not None and isinstance(found[0], dict):
        revise(found[0])
    return found if check is None or check(found[0]) else None


def _lock_wait_s(left_s: Optional[float]) -> float:
    """How long a call with ``left_s`` seconds left may wait for a cache file lock."""
    if left_s is None:
        return _MAX_CALL_WAIT_S
    return min(_MAX_CALL_WAIT_S, max(0.0, left_s) * _CALL_WAIT_SHARE)


class ResultCache:
    """The client's cache: memory in front of an optional SQLite file and an optional
    shared tier (``state/results.py``: Redis, shared by many processes).

    ``get`` looks in memory, then on disk, then in the shared tier; a hit below
    memory is copied to memory for the time it has left. ``set`` writes to every
    tier. Any tier may be absent; the shared tier degrades by itself.
    ``left_s`` is the time the call has left: disk I/O waits for a lock at most a
    tenth of it (and at most 0.5 s), and any SQLite failure is logged and skipped,
    so the cache never fails a call nor spends its deadline. A hit from the disk or
    the shared tier (untrusted: others can write there) is returned only when
    ``check`` accepts it.
    """

    def __init__(
        self, memory: Optional[MemoryCache], disk: Optional[SqliteCache], shared: Optional[SharedCacheTier] = None
    ) -> None:
        self.memory = memory
        self.disk = disk
        self.shared = shared
        #: What failed on the file last time, by operation: a warning when one starts failing, not at every call
        #: (reads may go on working while another process holds the write lock).
        self._disk_failing = {"reading": False, "writing": False}

    def get(
        self,
        key: Hashable,
        left_s: Optional[float] = None,
        check: Optional[Callable[[dict[str, Any]], bool]] = None,
        max_bytes: Optional[int] = None,
    ) -> Optional[dict[str, Any]]:
        """A copy of the cached answer, or ``None``. ``max_bytes`` bounds what is read from the
        disk and shared tiers (a longer value is a miss, read no further)."""
        found = self.lookup(key, left_s, check, max_bytes)
        return found[0] if found else None

    def lookup(
        self,
        key: Hashable,
        left_s: Optional[float] = None,
        check: Optional[Callable[[dict[str, Any]], bool]] = None,
        max_bytes: Optional[int] = None,
        revise: Optional[Callable[[dict[str, Any]], None]] = None,
    ) -> Optional[tuple[dict[str, Any], float]]:
        """:meth:`get`, with the seconds the answer has left: every tier keeps the expiry it was
        stored with (a copy to memory for the time it had left), so what the answer was stored for
        less this is its age (:mod:`.stamps`). ``revise`` brings a hit from the disk or the shared
        tier (stored by an older version, maybe) to what the answer would be now, in place, before
        ``check`` reads it (a value that is no object is left to ``check``)."""
        if self.memory is not None:
            hit = self.memory.lookup(key)
            if hit is not None:
                return hit
        found = _checked(self._disk_lookup(key, left_s, max_bytes), check, revise)
        if found is None and self.shared is not None and self._shared_fits(left_s):
            found = _checked(self.shared.get_entry(key, left_s, max_bytes), check, revise)
        if found is None:
            return None
        value, value_left_s = found
        if self.memory is not None:
            self.memory.set(key, value, value_left_s)
        return value, value_left_s

    def _shared_fits(self, left_s: Optional[float]) -> bool:
        """True when there is a shared tier and one call to it fits in the time the call has left
        (a call with less left skips it: the cache never spends the search's deadline)."""
        return self.shared is not None and (left_s is None or left_s > self.shared.timeout_s)

    def _disk_lookup(
        self, key: Hashable, left_s: Optional[float], max_bytes: Optional[int]
    ) -> Optional[tuple[dict[str, Any], float]]:
        if self.disk is None or self.disk.closed:  # closed: a call under way when its client closed
            return None
        try:
            found = self.disk.lookup(key, _lock_wait_s(left_s), max_bytes)
        except (
            sqlite3.Error,
            ValueError,
            RecursionError,
        ) as exc:  # locked, corrupt, a value that is not JSON or too deep
            self._disk_failed("reading", exc)
            return None
        self._disk_failing["reading"] = False
        return found

    def set(
        self,
        key: Hashable,
        value: dict[str, Any],
        ttl_s: float,
        left_s: Optional[float] = None,
        max_bytes: Optional[int] = None,
    ) -> None:
        """Store ``value`` for ``ttl_s`` seconds in every tier (in memory only when its JSON is
        longer than ``max_bytes``: the other tiers' readers would refuse it)."""
        if self.memory is not None:
            self.memory.set(key, value, ttl_s)
        if self.shared is not None and self._shared_fits(left_s):
            self.shared.set(key, value, ttl_s, left_s, max_bytes)
        if self.disk is None or self.disk.closed:
            return
        try:
            self.disk.set(key, value, ttl_s, _lock_wait_s(left_s), max_bytes)
        except sqlite3.Error as exc:
            self._disk_failed("writing", exc)
            return
        self._disk_failing["writing"] = False

    def _disk_failed(self, doing: str, exc: Exception) -> None:
        """Log a cache file failure: a warning when it starts, then quietly until the file works again."""
        level = logging.DEBUG if self._disk_failing[doing] else logging.WARNING
        self._disk_failing[doing] = True
        logger.log(
            level, "skipping the cache file %s: %s it failed (%s)", self.disk.path if self.disk else "?", doing, exc
        )

    def close(self) -> None:
        """Close the SQLite file, if any."""
        if self.disk is not None:
            self.disk.close()

"""Result caches: an in-memory TTL cache, a persistent SQLite cache, and the client's
tiered cache in front of them (plus, with a state URL, a shared tier in Redis:
``state/results.py``).

Only successful answers are stored. Values are JSON-compatible dicts; every read
returns a fresh copy, so a caller that edits a result never edits the cache.
"""

import json
import os
import random
import sqlite3
import threading
import time
from collections import OrderedDict
from typing import Any, Dict, Hashable, Optional, Tuple

__all__ = ["MemoryCache", "SqliteCache", "ResultCache", "copy_result", "cache_key_text"]


def cache_key_text(key: Hashable) -> str:
    """A cache key as text: the one serialization of every tier that leaves the process."""
    return json.dumps(key, sort_keys=True, default=repr, ensure_ascii=False)


def copy_result(value: Dict[str, Any]) -> Dict[str, Any]:
    """A copy of a search or fetch result that shares no mutable part with ``value``.

    Knows the result shapes (that is what makes it fast enough for a cache hit):
    top-level scalars and strings are shared (immutable), ``items``/``errors`` are
    lists of flat dicts whose only mutable values are lists of strings
    (``providers``), ``provider_meta`` is a flat dict that may hold such a list.
    """
    out = dict(value)
    for key, part in value.items():
        if type(part) is list:
            out[key] = copied = [dict(entry) if type(entry) is dict else entry for entry in part]
            for entry in copied:
                if type(entry) is dict and "providers" in entry:
                    entry["providers"] = list(entry["providers"])
        elif type(part) is dict:
            out[key] = copied_meta = dict(part)
            if "providers" in copied_meta:
                copied_meta["providers"] = list(copied_meta["providers"])
    return out


class MemoryCache:
    """A thread-safe TTL cache with a bounded number of entries (least recently used evicted)."""

    def __init__(self, ttl_s: float, max_entries: int = 1024) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._data: "OrderedDict[Hashable, Tuple[float, Dict[str, Any]]]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Optional[Dict[str, Any]]:
        """A copy of the cached value, or ``None`` when absent or expired."""
        with self._lock:
            entry = self._data.get(key)
            if entry is None:
                return None
            expires, value = entry
            if expires <= time.monotonic():
                del self._data[key]
                return None
            self._data.move_to_end(key)
        return copy_result(value)

    def set(self, key: Hashable, value: Dict[str, Any], ttl_s: Optional[float] = None) -> None:
        """Store a copy of ``value`` for ``ttl_s`` seconds (default: the cache's TTL)."""
        stored = copy_result(value)
        with self._lock:
            self._data[key] = (time.monotonic() + (self.ttl_s if ttl_s is None else ttl_s), stored)
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


class SqliteCache:
    """A persistent TTL cache in one SQLite file, safe across threads and processes.

    Each thread uses its own connection; writes use WAL mode and a busy timeout,
    so several processes can share the file (scripts that re-run).
    """

    def __init__(self, path: "os.PathLike[str] | str", ttl_s: float) -> None:
        self.path = os.fspath(path)
        self.ttl_s = ttl_s
        self._local = threading.local()
        self._connection().execute(
            "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, expires REAL NOT NULL, value TEXT NOT NULL)"
        )

    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=10.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA busy_timeout=10000")
            self._local.conn = conn
        return conn

    _key = staticmethod(cache_key_text)

    def get(self, key: Hashable) -> Optional[Dict[str, Any]]:
        """The cached value (a fresh object), or ``None`` when absent or expired."""
        entry = self.get_entry(key)
        return entry[0] if entry else None

    def get_entry(self, key: Hashable) -> Optional[Tuple[Dict[str, Any], float]]:
        """``(value, seconds it has left)``, or ``None`` when absent or expired."""
        now = time.time()
        row = self._connection().execute(
            "SELECT value, expires FROM results WHERE key = ? AND expires > ?", (self._key(key), now)
        ).fetchone()
        return (json.loads(row[0]), row[1] - now) if row else None

    def set(self, key: Hashable, value: Dict[str, Any], ttl_s: Optional[float] = None) -> None:
        """Store ``value`` for ``ttl_s`` seconds (default: the cache's TTL); expired rows are pruned now and then."""
        conn = self._connection()
        text_key = self._key(key)
        conn.execute(
            "INSERT OR REPLACE INTO results (key, expires, value) VALUES (?, ?, ?)",
            (text_key, time.time() + (self.ttl_s if ttl_s is None else ttl_s), json.dumps(value, ensure_ascii=False)),
        )
        if random.random() < 0.02:
            conn.execute("DELETE FROM results WHERE expires <= ?", (time.time(),))

    def clear(self) -> None:
        """Forget everything."""
        self._connection().execute("DELETE FROM results")

    def close(self) -> None:
        """Close this thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


class ResultCache:
    """The client's cache: memory in front of an optional SQLite file and an optional
    shared tier (``state/results.py``: Redis, shared by many processes).

    ``get`` looks in memory, then on disk, then in the shared tier; a hit below memory
    is copied to memory for the time it has left. ``set`` writes to every tier. Any
    tier may be absent.
    """

    def __init__(self, memory: Optional[MemoryCache], disk: Optional[SqliteCache], shared: Any = None) -> None:
        self.memory = memory
        self.disk = disk
        self.shared = shared

    def get(self, key: Hashable) -> Optional[Dict[str, Any]]:
        """A copy of the cached answer, or ``None``."""
        if self.memory is not None:
            hit = self.memory.get(key)
            if hit is not None:
                return hit
        for tier in (self.disk, self.shared):
            entry = tier.get_entry(key) if tier is not None else None
            if entry is not None:
                if self.memory is not None:
                    self.memory.set(key, entry[0], entry[1])
                return entry[0]
        return None

    def set(self, key: Hashable, value: Dict[str, Any], ttl_s: float) -> None:
        """Store ``value`` for ``ttl_s`` seconds in every tier."""
        for tier in (self.memory, self.disk, self.shared):
            if tier is not None:
                tier.set(key, value, ttl_s)

    def close(self) -> None:
        """Close the SQLite file, if any."""
        if self.disk is not None:
            self.disk.close()

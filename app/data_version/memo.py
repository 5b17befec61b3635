"""The one cache of things computed from the data: values keyed by data version, bounded.

Every memo of the app (read models, filter vocabularies, the matrix base, chart cards, whole
rendered pages) is a `VersionedCache`, with one invalidation rule:

- a value is found only under the exact data version it was computed from, so nothing built
  from one version is ever handed to a reader of another;
- the cache holds one version at a time: storing a value of a *newer* version drops the rest,
  and a value of an *older* version (a slow build that began before a write) is not stored;
- it is bounded, by entry count or by a size the caller measures (bytes of a page), oldest
  use first out.

Versions are "<count>.<random>" (app/data_version/version.py): the count orders them within
one database. Two versions with the same count and different random parts come from two
databases (tests, a restore); the one arriving last wins, as nothing orders them.
"""

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from threading import Lock
from typing import Generic, TypeVar
from weakref import WeakKeyDictionary

from sqlmodel import Session

V = TypeVar("V")


def version_count(version: str) -> int:
    """The ordering part of a data version ("12.a1b2c3d4" -> 12; anything else -> 0)."""
    head = version.partition(".")[0]
    return int(head) if head.isdigit() else 0


def is_older(version: str, than: str) -> bool:
    """Whether `version` was certainly replaced by `than` (same database, lower count)."""
    return version != than and version_count(version) < version_count(than)


def _one(_value: object) -> int:
    return 1


# Stands for "not stored": a memoised function may return None.
_MISSING = object()


@dataclass
class VersionedCache(Generic[V]):
    """Values of one data version, bounded by `max_size` units of `size_of` (default: one
    per entry). Thread-safe; values are shared between requests and must not be mutated."""

    max_size: int = 256
    size_of: Callable[[V], int] = _one
    # A single value bigger than this is returned to its caller and never kept.
    max_entry_size: int | None = None
    _entries: OrderedDict[Hashable, V] = field(default_factory=OrderedDict)
    _size: int = 0
    _version: str = ""
    _lock: Lock = field(default_factory=Lock)
    # Read by /metrics.
    hits: int = 0
    misses: int = 0

    @property
    def version(self) -> str:
        return self._version

    @property
    def size(self) -> int:
        return self._size

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, version: str, key: Hashable, count_miss: bool = True) -> V | None:
        """The value stored for (version, key), or None."""
        found = self._find(version, key, count_miss)
        return None if found is _MISSING else found  # type: ignore[return-value]

    def _find(self, version: str, key: Hashable, count_miss: bool = True) -> V | object:
        with self._lock:
            if version != self._version and not is_older(version, self._version):
                # A newer version: the old entries go now, before anything of the new one is
                # built, so the two are never held at once (the peak of a reseed at ten
                # times the data).
                self._drop_all(version)
            if version != self._version or key not in self._entries:
                self.misses += count_miss
                return _MISSING
            self.hits += 1
            self._entries.move_to_end(key)
            return self._entries[key]

    def put(self, version: str, key: Hashable, value: V) -> bool:
        """Keep `value` unless it is too big or of an older version; True when kept."""
        size = self.size_of(value)
        if self.max_entry_size is not None and size > self.max_entry_size:
            return False
        with self._lock:
            if version != self._version:
                if is_older(version, self._version):
                    return False
                self._drop_all(version)
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= self.size_of(old)
            self._entries[key] = value
            self._size += size
            while self._size > self.max_size and self._entries:
                _, dropped = self._entries.popitem(last=False)
                self._size -= self.size_of(dropped)
            return True

    def get_or_build(self, version: str, key: Hashable, build: Callable[[], V]) -> V:
        """The stored value, or `build()` (outside the lock: two threads may build the same
        value once each), kept when the rule allows."""
        found = self._find(version, key)
        if found is not _MISSING:
            return found  # type: ignore[return-value]
        value = build()
        self.put(version, key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._drop_all(self._version)

    def _drop_all(self, version: str) -> None:
        self._entries.clear()
        self._size = 0
        self._version = version


class PerDatabase(Generic[V]):
    """One `VersionedCache` per database, made on first use: a process may read several
    databases (tests, a restore into a new file), whose version counts do not compare.

    Keyed by the engine's connection pool, which every session of one database shares
    (`engine.execution_options()` makes a new engine object over the same pool)."""

    def __init__(self, make: Callable[[], VersionedCache[V]]) -> None:
        self._make = make
        self._caches: WeakKeyDictionary[object, VersionedCache[V]] = WeakKeyDictionary()
        self._lock = Lock()

    def of(self, session: Session) -> VersionedCache[V]:
        pool = session.get_bind().pool  # type: ignore[union-attr]
        with self._lock:
            cache = self._caches.get(pool)
            if cache is None:
                cache = self._caches[pool] = self._make()
            return cache

    def caches(self) -> list[VersionedCache[V]]:
        """Every database's cache (for /metrics and tests)."""
        with self._lock:
            return list(self._caches.values())

    # Totals over every database, for /metrics (the shape of a single cache's counters).
    @property
    def hits(self) -> int:
        return sum(c.hits for c in self.caches())

    @property
    def misses(self) -> int:
        return sum(c.misses for c in self.caches())

    @property
    def bytes_used(self) -> int:
        return sum(c.size for c in self.caches())

    def __len__(self) -> int:
        return sum(len(c) for c in self.caches())

"""Rendered parts of pages shared by many URLs, kept by key and bounded by bytes.

A benchmark context's chart card looks the same on every sort order and page of /benchmarks
and under every filter that keeps the same figures in it; rendering it once per data version
keeps those URLs cheap on an instance with many figures.
"""

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock

from markupsafe import Markup


class FragmentCache:
    """An LRU of rendered HTML fragments, bounded by their total size."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, Markup] = OrderedDict()
        self._bytes = 0
        self._lock = Lock()
        # Read by /metrics.
        self.hits = 0
        self.misses = 0

    @property
    def bytes_used(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable, render: Callable[[], str]) -> Markup:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self.hits += 1
                self._entries.move_to_end(key)
                return found
            self.misses += 1
        made = Markup(render())  # outside the lock: two threads may render the same once
        with self._lock:
            if key not in self._entries:
                self._entries[key] = made
                self._bytes += len(made)
                while self._bytes > self.max_bytes and self._entries:
                    _, dropped = self._entries.popitem(last=False)
                    self._bytes -= len(dropped)
        return made

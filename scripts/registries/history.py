"""Walk a registry through release tags: the first tag that lists each key, and where it went.

`since` is the first tag read that lists a key; `until` is the first tag read after it that does
not (support removed), or None while it is still listed. Tags whose registry cannot be read
(the file did not exist yet) are skipped and not counted as read.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

Registry = dict[str, str]  # key the project registers -> its native name (module, class, arch)


@dataclass
class History:
    read: list[str] = field(default_factory=list)
    since: dict[str, str] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)
    native: dict[str, str] = field(default_factory=dict)

    def until(self, key: str) -> str | None:
        last = self.last[key]
        if last == self.read[-1]:
            return None
        return self.read[self.read.index(last) + 1]


def walk(specs: Iterable[str], registry_at: Callable[[str], Registry | None]) -> History:
    """Read each spec, oldest first. A spec is a tag, or TAG=COMMIT to read COMMIT as TAG (for a
    mirror that lacks the tag itself)."""
    history = History()
    for spec in specs:
        tag, _, commit = spec.partition("=")
        found = registry_at(commit or tag)
        if found is None:
            continue
        history.read.append(tag)
        for key, native in found.items():
            history.since.setdefault(key, tag)
            history.last[key] = tag
            history.native[key] = native
    return history


def print_history(history: History, label: str = "") -> None:
    """One tab-separated line per key: [label,] key, native, since=, until=."""
    print(f"# {label or 'registry'}: read {' '.join(history.read) or 'nothing'}", file=sys.stderr)
    for key in sorted(history.since, key=str.lower):
        until = history.until(key) or ""
        row = [key, history.native[key], f"since={history.since[key]}", f"until={until}"]
        print("\t".join([label, *row] if label else row))

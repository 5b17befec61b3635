"""Turn claim rows into cells: one per system and capability, disputes flagged.

A withdrawn claim (gone from the published data, kept because a team note points at it) is
listed with the others, marked, but says nothing about the cell: the headline level and the
dispute flag come from the current claims alone, and a cell whose claims are all withdrawn
reads as one no source speaks to.
"""

from collections import Counter
from collections.abc import Hashable, Iterable

from app.schemas import LEVEL_GROUP, ClaimView

NO_CLAIM = "no-claim"
"""The level of a cell no (current) source speaks to: unknown, never "no"."""


def current(claims: Iterable[ClaimView]) -> list[ClaimView]:
    """The claims that are still in the published data (and every team claim)."""
    return [c for c in claims if not c.withdrawn]


def newest_first(claims: list[ClaimView]) -> list[ClaimView]:
    """Newest source first, withdrawn claims last; ties broken by source slug (stable)."""
    ordered = sorted(claims, key=lambda c: (c.source.date, c.source.slug), reverse=True)
    return sorted(ordered, key=lambda c: c.withdrawn)


def headline_level(claims: list[ClaimView]) -> str:
    """The newest current source's level, skipping sources that only say 'unknown'."""
    for claim in newest_first(current(claims)):
        if claim.level != "unknown":
            return claim.level
    return "unknown"


def cell_level(claims: list[ClaimView]) -> str:
    """The headline level, or NO_CLAIM when no current claim is left."""
    return headline_level(claims) if current(claims) else NO_CLAIM


def is_disputed(claims: list[ClaimView]) -> bool:
    """Current sources disagree: their levels fall in different groups (works / partly / not)."""
    groups = {LEVEL_GROUP[c.level] for c in current(claims) if c.level in LEVEL_GROUP}
    return len(groups) > 1


def reading_numbers(keys: list[Hashable]) -> list[int | None]:
    """For claims in file order, keyed by their cell and source: which of the source's
    readings of the cell each is (1, 2, ...), or None where the source gives only one."""
    counts = Counter(keys)
    seen: Counter[Hashable] = Counter()
    numbers: list[int | None] = []
    for key in keys:
        seen[key] += 1
        numbers.append(seen[key] if counts[key] > 1 else None)
    return numbers

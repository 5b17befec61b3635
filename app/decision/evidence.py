"""Weighing sources that disagree: how many stand on each side, and how recent they are.

A newer source counts for more because the systems change fast (a feature missing in January
may ship by April). Weight = 1 / (1 + months older than the newest source in the dispute / 6):
the newest counts 1, one six months older counts 0.5.
"""

from dataclasses import dataclass

from app.decision.model import ClaimRef, SourceLink
from app.schemas import SourceRef
from app.vocabulary.fixed import FIRST_PARTY_KINDS

HALF_LIFE_MONTHS = 6.0


def months(date: str) -> float:
    """A 'YYYY[-MM[-DD]]' date as a month count (a bare year sits mid-year)."""
    parts = [int(p) for p in date.split("-")]
    year, month, day = [*parts, 6, 15][:3] if len(parts) == 1 else [*parts, 15][:3]
    return year * 12 + month + (day - 1) / 31


def recency(date: str, newest: str) -> float:
    """How much a source dated `date` counts next to one dated `newest`."""
    return 1 / (1 + max(months(newest) - months(date), 0) / HALF_LIFE_MONTHS)


def link(source: SourceRef, weight: float = 0.0) -> SourceLink:
    return SourceLink(
        slug=source.slug,
        short=source.short,
        title=source.title,
        date=source.date,
        weight=round(weight, 2),
    )


@dataclass(frozen=True)
class Sides:
    """The sources behind a statement and the sources against it."""

    behind: tuple[SourceRef, ...]
    against: tuple[SourceRef, ...]

    @property
    def disputed(self) -> bool:
        return bool(self.behind) and bool(self.against)

    @property
    def share(self) -> float:
        """The recency-weighted share of the sources that stand behind the statement."""
        everyone = self.behind + self.against
        if not everyone:
            return 1.0
        newest = max(s.date for s in everyone)
        behind = sum(recency(s.date, newest) for s in self.behind)
        return behind / (behind + sum(recency(s.date, newest) for s in self.against))

    @property
    def weighed_share(self) -> float:
        """The share with the project's own word first: when any first-party source speaks,
        only the first-party sources count (a secondary article stays visible in `text`, but
        never outweighs the project's docs); otherwise every source, by recency."""
        own = [s for s in self.behind + self.against if s.kind in FIRST_PARTY_KINDS]
        if not own:
            return self.share
        return Sides(
            tuple(s for s in self.behind if s in own), tuple(s for s in self.against if s in own)
        ).share

    def text(self, share: float | None = None) -> str:
        """Who says what, in a line: 'says so: A (2026-01); says otherwise: B · C (…)'."""
        counted = self.share if share is None else share
        return (
            f"disputed — says so: {_who(self.behind)}; says otherwise: {_who(self.against)}; "
            f"counted at {counted:.0%}"
        )


def _who(sources: tuple[SourceRef, ...]) -> str:
    names = " · ".join(s.short for s in sources)
    dates = sorted(s.date[:7] for s in sources)
    span = dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"
    return f"{names} ({span})"


def sides(claims: list[ClaimRef], levels: set[str]) -> Sides:
    """Sources whose level is in `levels` against those with another known level."""
    known = [c for c in claims if c.level != "unknown"]
    return Sides(
        behind=tuple(c.source for c in known if c.level in levels),
        against=tuple(c.source for c in known if c.level not in levels),
    )

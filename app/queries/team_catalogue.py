"""The team's own catalogue as its page lists it (/catalogue): the hardware, models,
workloads and systems the team added, what uses each, and the aliases the team gave to
published entries. app/writes/entries.py makes and changes them."""

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.models import VOCABULARY_TABLES, BenchmarkResult, Claim, System, TeamNote

KINDS = ("hardware", "model", "workload", "system")
PATHS = {"hardware": "hardware", "model": "models", "workload": "workloads", "system": "systems"}


@dataclass(frozen=True)
class TeamEntry:
    kind: str
    slug: str
    name: str
    withdrawn: bool
    uses: list[str]  # "3 results", "2 claims": what keeps it from being deleted
    aliases: list[str] = field(default_factory=list)  # for a published entry: the team's own

    @property
    def page(self) -> str:
        return f"/{PATHS[self.kind]}/{self.slug}"

    @property
    def edit(self) -> str:
        return f"/catalogue/{self.kind}/{self.slug}/edit"

    @property
    def delete(self) -> str:
        return f"/catalogue/{self.kind}/{self.slug}/delete"


@dataclass(frozen=True)
class TeamCatalogue:
    entries: dict[str, list[TeamEntry]]  # kind -> the team's entries, by name
    aliased: list[TeamEntry]  # published entries the team gave names of its own

    @property
    def total(self) -> int:
        return sum(len(v) for v in self.entries.values())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _result_counts(session: Session, kind: str, ids: list[int]) -> dict[int, int]:
    column = getattr(BenchmarkResult, f"{kind}_id")
    rows = session.exec(
        select(column, func.count()).where(col(column).in_(ids)).group_by(column)
    ).all()
    return {entry_id: n for entry_id, n in rows}


def _system_uses(session: Session, ids: list[int]) -> dict[int, list[str]]:
    uses: dict[int, list[str]] = {i: [] for i in ids}
    for model, word in ((Claim, "claim"), (BenchmarkResult, "result"), (TeamNote, "note")):
        rows = session.exec(
            select(model.system_id, func.count())
            .where(col(model.system_id).in_(ids))
            .group_by(col(model.system_id))
        ).all()
        for system_id, n in rows:
            uses[system_id].append(_plural(n, word))
    return uses


def team_catalogue(session: Session) -> TeamCatalogue:
    """Every entry the team added (withdrawn ones too), and its aliases of published ones."""
    entries: dict[str, list[TeamEntry]] = {}
    aliased: list[TeamEntry] = []
    for kind, (model, alias_model, parent) in VOCABULARY_TABLES.items():
        rows: list[Any] = list(
            session.exec(select(model).where(col(model.team).is_(True)).order_by(model.name))
        )
        counts = _result_counts(session, kind, [r.id for r in rows])
        entries[kind] = [
            TeamEntry(
                kind,
                r.slug,
                r.name,
                bool(r.withdrawn),
                [_plural(counts[r.id], "result")] if counts.get(r.id) else [],
            )
            for r in rows
        ]
        named: dict[str, TeamEntry] = {}
        for alias, entry in session.exec(
            select(alias_model, model)
            .join(model, getattr(alias_model, parent) == model.id)
            .where(col(alias_model.team).is_(True), col(model.team).is_(False))
            .order_by(model.name, alias_model.position)
        ):
            if entry.slug not in named:
                named[entry.slug] = TeamEntry(kind, entry.slug, entry.name, False, [], [])
            named[entry.slug].aliases.append(alias.alias)
        aliased += named.values()
    systems = list(
        session.exec(select(System).where(col(System.team).is_(True)).order_by(System.name))
    )
    uses = _system_uses(session, [s.id for s in systems if s.id is not None])
    entries["system"] = [
        TeamEntry("system", s.slug, s.name, bool(s.withdrawn), uses.get(s.id or 0, []))
        for s in systems
    ]
    return TeamCatalogue(entries, aliased)


def entry_uses(session: Session, kind: str, slug: str) -> list[str]:
    """What points at one entry ("3 results"; for a system its claims, results, notes)."""
    if kind == "system":
        row = session.exec(select(System).where(System.slug == slug)).first()
        return _system_uses(session, [row.id]).get(row.id, []) if row and row.id else []
    model = VOCABULARY_TABLES[kind][0]
    entry = session.exec(select(model).where(model.slug == slug)).first()
    if entry is None:
        return []
    n = _result_counts(session, kind, [entry.id]).get(entry.id, 0)
    return [_plural(n, "result")] if n else []

"""Lookups shared by the query modules."""

from collections import defaultdict
from collections.abc import Sequence

from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.models import (
    Capability,
    CapabilityCategory,
    Metric,
    Source,
    SourceCaveat,
    System,
    SystemFact,
    SystemNote,
)
from app.schemas import Caveat, SourceRef


@per_version()
def source_refs(session: Session) -> dict[int, SourceRef]:
    """Every source as a reference, with its caveats, by database id."""
    caveats = source_caveats(session)
    columns = (
        Source.id,
        Source.slug,
        Source.short,
        Source.title,
        Source.date,
        Source.kind,
        Source.version,
        Source.commit,
        Source.read,
    )
    return {
        sid: SourceRef(
            slug=slug,
            short=short,
            title=title,
            date=date,
            kind=kind,
            caveats=caveats.get(sid, []),
            version=version,
            commit=commit,
            read=read,
        )
        # SQLModel's select() is typed for at most four columns (app/queries/matrix_data.py).
        for sid, slug, short, title, date, kind, version, commit, read in session.exec(
            select(*columns)  # type: ignore[call-overload]
        )
    }


def source_caveats(session: Session) -> dict[int, list[Caveat]]:
    """Each source's caveats, in seed order, by source id."""
    out: dict[int, list[Caveat]] = defaultdict(list)
    rows = session.exec(select(SourceCaveat).order_by(col(SourceCaveat.position)))
    for row in rows:
        out[row.source_id].append(Caveat(kind=row.kind, text=row.text))
    return out


def notes_and_facts(
    session: Session, system_id: int | None
) -> tuple[Sequence[SystemNote], Sequence[SystemFact]]:
    """A system's best-for and weakness notes and its facts, each in seed order."""
    notes = session.exec(
        select(SystemNote)
        .where(SystemNote.system_id == system_id)
        .order_by(col(SystemNote.position))
    ).all()
    facts = session.exec(
        select(SystemFact)
        .where(SystemFact.system_id == system_id)
        .order_by(col(SystemFact.position))
    ).all()
    return notes, facts


@per_version(max_entries=2)
def system_names(session: Session) -> dict[int, tuple[str, str]]:
    """id -> (slug, name) for every system."""
    rows = session.exec(select(System.id, System.slug, System.name))
    return {sid: (slug, name) for sid, slug, name in rows}  # type: ignore[misc]


@per_version(max_entries=2)
def metrics_by_id(session: Session) -> dict[int, Metric]:
    # Copies, not the session's own rows: they outlive the request that loaded them.
    return {m.id: Metric.model_validate(m) for m in session.exec(select(Metric))}  # type: ignore[misc]


@per_version(max_entries=1)
def compared_units(session: Session) -> dict[str, str]:
    """metric slug -> the unit its figures are compared in (the first of its units)."""
    return {m.slug: m.units[0] for m in metrics_by_id(session).values()}


@per_version(max_entries=2)
def capabilities_in_order(session: Session) -> list[tuple[Capability, CapabilityCategory]]:
    """Capabilities with their categories, in seed (display) order (copies, shared)."""
    statement = (
        select(Capability, CapabilityCategory)
        .join(CapabilityCategory, col(Capability.category_id) == col(CapabilityCategory.id))
        .order_by(col(CapabilityCategory.position), col(Capability.position))
    )
    return [
        (Capability.model_validate(capability), CapabilityCategory.model_validate(category))
        for capability, category in session.exec(statement)
    ]

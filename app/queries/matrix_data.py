"""The matrices' data: every system, the capability columns of each view in their groups,
and every cell's claims weighed (app/queries/cells.py), loaded once per data version and
shared by the matrix pages, the feature pages, the finder, /decide and the exports."""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from threading import Lock

from pydantic import BaseModel
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.data_version.memo import PerDatabase, VersionedCache
from app.data_version.version import data_version
from app.models import Claim, System
from app.queries.cells import (
    NO_CLAIM,
    cell_level,
    cell_reason,
    is_disputed,
    is_weak,
    outweighed,
    reading_numbers,
    strongest_first,
)
from app.queries.common import capabilities_in_order, source_refs
from app.queries.note_index import note_index
from app.schemas import ClaimView, SystemSummary, licence_family

VIEWS = {"features": "feature", "hardware": "hardware"}


class MatrixColumn(BaseModel):
    slug: str
    name: str
    description: str
    group: str


class MatrixGroup(BaseModel):
    slug: str
    name: str
    columns: list[MatrixColumn]


@dataclass(frozen=True)
class CellClaims:
    level: str  # NO_CLAIM when every claim left is withdrawn
    disputed: bool
    claims: list[ClaimView]  # current ones strongest first (app/queries/cells.py), then withdrawn
    weak: bool = False  # a "no" resting only on sources with a weakening caveat
    reason: str = ""  # why the cell reads what it reads, in one sentence

    @property
    def claimed(self) -> bool:
        """Whether a current source speaks to the cell (withdrawn claims are only shown)."""
        return self.level != NO_CLAIM


@dataclass(frozen=True)
class MatrixBase:
    """Everything the matrix needs, loaded once per data version."""

    systems: list[SystemSummary]
    groups: dict[str, list[MatrixGroup]]  # view -> groups in display order
    cells: dict[tuple[str, str], CellClaims]

    def cell(self, system: str, capability: str) -> CellClaims | None:
        return self.cells.get((system, capability))


_BASES: PerDatabase[MatrixBase] = PerDatabase(lambda: VersionedCache(max_size=1))
# One load at a time per process: a crowd arriving after a change waits for the first.
_lock = Lock()


def matrix_base(session: Session) -> MatrixBase:
    """The base for the data version this session sees, loaded once per version."""
    version = data_version(session)
    memo = _BASES.of(session)
    with _lock:
        return memo.get_or_build(version, "base", lambda: _load_base(session))


def system_name_map(session: Session) -> dict[str, str]:
    """slug -> name of every system (for suggestions and labels)."""
    return {s.slug: s.name for s in matrix_base(session).systems}


def _load_base(session: Session) -> MatrixBase:
    systems = session.exec(select(System).order_by(col(System.name))).all()
    summaries = [
        SystemSummary(
            licence_family=licence_family(s.licence),
            **s.model_dump(exclude={"id", "summary_sources"}),
        )
        for s in systems
    ]
    groups: dict[str, list[MatrixGroup]] = {view: [] for view in VIEWS}
    by_category: dict[str, MatrixGroup] = {}
    cap_slugs: dict[int, str] = {}
    for capability, category in capabilities_in_order(session):
        cap_slugs[capability.id] = capability.slug  # type: ignore[index]
        group = by_category.get(category.slug)
        if group is None:
            group = by_category[category.slug] = MatrixGroup(
                slug=category.slug, name=category.name, columns=[]
            )
            view = "features" if category.kind == "feature" else "hardware"
            groups[view].append(group)
        group.columns.append(
            MatrixColumn(
                slug=capability.slug,
                name=capability.name,
                description=capability.description,
                group=category.slug,
            )
        )
    return MatrixBase(summaries, groups, _load_cells(session, systems, cap_slugs))


def _load_cells(
    session: Session, systems: Sequence[System], cap_slugs: dict[int, str]
) -> dict[tuple[str, str], CellClaims]:
    refs = source_refs(session)
    notes = note_index(session).claims
    system_slugs = {s.id: s.slug for s in systems}
    claims: dict[tuple[str, str], list[ClaimView]] = defaultdict(list)
    # SQLAlchemy's own select: SQLModel's typed overloads stop short of eight columns.
    statement = sa_select(
        col(Claim.id),
        col(Claim.system_id),
        col(Claim.capability_id),
        col(Claim.source_id),
        col(Claim.level),
        col(Claim.strength),
        col(Claim.since),
        col(Claim.how),
        col(Claim.page),
        col(Claim.engine_page),
        col(Claim.note),
        col(Claim.withdrawn),
    ).order_by(col(Claim.position))  # the seed's order breaks ties, on every database
    rows = list(session.execute(statement))
    readings = reading_numbers([(r.system_id, r.capability_id, r.source_id) for r in rows])
    for r, reading in zip(rows, readings, strict=True):
        claims[(system_slugs[r.system_id], cap_slugs[r.capability_id])].append(
            ClaimView(
                level=r.level,
                strength=r.strength,
                note=r.note,
                source=refs[r.source_id],
                since=r.since,
                how=r.how,
                page=r.page,
                engine_page=r.engine_page,
                withdrawn=r.withdrawn,
                reading=reading,
                team_notes=notes.get(r.id, []),
            )
        )
    return {key: _cell_claims(views) for key, views in claims.items()}


def _cell_claims(views: list[ClaimView]) -> CellClaims:
    beaten = {id(c) for c in outweighed(views)}
    if beaten:
        views = [c.model_copy(update={"outweighed": True}) if id(c) in beaten else c for c in views]
    return CellClaims(
        cell_level(views),
        is_disputed(views),
        strongest_first(views),
        is_weak(views),
        cell_reason(views),
    )


def cell_claims(session: Session, system: str, capability: str) -> CellClaims | None:
    """Every claim behind one cell, newest source first."""
    return matrix_base(session).cell(system, capability)

"""One feature or hardware target across every system: /features/{slug} and its API twin."""

from pydantic import BaseModel
from sqlmodel import Session

from app.queries.matrix_data import MatrixBase, MatrixColumn, matrix_base
from app.schemas import LEVEL_RANK, CapabilityView, ClaimView


class SystemRef(BaseModel):
    slug: str
    name: str


class FeatureRow(BaseModel):
    """What the sources say about one system for this capability, newest source first."""

    system: SystemRef
    level: str
    disputed: bool
    claims: list[ClaimView]


class FeaturePage(BaseModel):
    capability: CapabilityView
    disputed: list[FeatureRow]  # sources disagree: shown first, they need a reader's judgement
    claimed: list[FeatureRow]  # strongest level first
    unknown: list[SystemRef]  # no source says: unknown, never "no"
    total_systems: int


def capability_columns(base: MatrixBase) -> dict[str, tuple[MatrixColumn, str, str]]:
    """slug -> (column, category name, kind) for every feature and hardware target."""
    return {
        column.slug: (column, group.name, "feature" if view == "features" else "hardware")
        for view, groups in base.groups.items()
        for group in groups
        for column in group.columns
    }


def capability_names(session: Session) -> dict[str, str]:
    """slug -> name of every capability, for suggestions and search."""
    return {slug: c.name for slug, (c, _, _) in capability_columns(matrix_base(session)).items()}


def feature_page(session: Session, slug: str) -> FeaturePage | None:
    """Every system's level for `slug` with all its sources; None for an unknown slug."""
    base = matrix_base(session)
    found = capability_columns(base).get(slug)
    if found is None:
        return None
    column, category_name, kind = found
    rows, unknown = [], []
    for system in base.systems:
        ref = SystemRef(slug=system.slug, name=system.name)
        cell = base.cell(system.slug, slug)
        if cell is None or not cell.claimed:  # withdrawn claims alone say nothing
            unknown.append(ref)
        else:
            rows.append(
                FeatureRow(system=ref, level=cell.level, disputed=cell.disputed, claims=cell.claims)
            )
    rows.sort(key=lambda r: (-LEVEL_RANK.get(r.level, 0), r.system.name.lower()))
    capability = CapabilityView(
        slug=slug,
        name=column.name,
        description=column.description,
        category=column.group,
        category_name=category_name,
        kind=kind,
    )
    return FeaturePage(
        capability=capability,
        disputed=[r for r in rows if r.disputed],
        claimed=[r for r in rows if not r.disputed],
        unknown=unknown,
        total_systems=len(base.systems),
    )

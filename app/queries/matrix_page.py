"""What /matrix and /hardware show besides the MatrixResult their JSON twin returns (kept
apart, so the API's fields stay as they are): every column group, for the form's column
choices, and the cell a link opens beside the matrix."""

from dataclasses import dataclass

from sqlmodel import Session

from app.params.matrix import MatrixParams
from app.queries.matrix import MatrixResult, build_matrix
from app.queries.matrix_data import CellClaims, MatrixBase, MatrixColumn, MatrixGroup, matrix_base
from app.schemas import SystemSummary


@dataclass(frozen=True)
class MatrixPageView:
    result: MatrixResult
    all_groups: list[MatrixGroup]  # this view's
    feature_groups: list[MatrixGroup]
    hardware_groups: list[MatrixGroup]


def matrix_page_view(session: Session, view: str, params: MatrixParams) -> MatrixPageView:
    """The matrix for `view` ("features" or "hardware"), one page of it, and every group."""
    result = build_matrix(session, view, params)
    groups = matrix_base(session).groups
    return MatrixPageView(result, groups[view], groups["features"], groups["hardware"])


@dataclass(frozen=True)
class CellView:
    """One cell with its row and column: the panel beside the matrix and /matrix/cell."""

    system: SystemSummary
    capability: MatrixColumn
    cell: CellClaims | None  # None: no source speaks to it

    @property
    def names(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """(slug, name) of the system and of the capability."""
        return (self.system.slug, self.system.name), (self.capability.slug, self.capability.name)


def find_cell(session: Session, system: str, capability: str) -> CellView | None:
    """The cell of system `system` and capability `capability`; None if either is unknown."""
    base = matrix_base(session)
    summary = next((s for s in base.systems if s.slug == system), None)
    column = columns(base).get(capability)
    if summary is None or column is None:
        return None
    return CellView(summary, column, base.cell(system, capability))


def named_cell(session: Session, cell: str) -> CellView | None:
    """The cell a `cell=system:capability` parameter names; None if it names none."""
    system, _, capability = cell.partition(":")
    return find_cell(session, system, capability)


def columns(base: MatrixBase) -> dict[str, MatrixColumn]:
    """Every capability's column (both views), by slug."""
    return {c.slug: c for groups in base.groups.values() for g in groups for c in g.columns}

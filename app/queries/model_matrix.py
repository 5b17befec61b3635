"""The models x systems matrix (/matrix?view=models, its CSV and /api/v1/matrix?view=models):
architectures as rows grouped by family, the systems as columns, cells from support_base."""

from pydantic import BaseModel
from sqlmodel import Session

from app.params.models import MODEL_MATRIX_PAGE_SIZE, ModelMatrixParams
from app.queries.paging import Paging, paginate
from app.queries.support import (
    ArchitectureView,
    SupportBase,
    SupportCell,
    SupportClaimView,
    SupportSystem,
    support_base,
)


class ArchitectureRow(BaseModel):
    architecture: ArchitectureView
    cells: list[SupportCell | None]  # one per column; None: no source says (unknown)


class FamilyGroup(BaseModel):
    family: str
    rows: list[ArchitectureRow]


class ModelFilter(BaseModel):
    label: str
    remove_query: str


class ModelMatrixResult(BaseModel):
    systems: list[SupportSystem]  # the columns shown
    groups: list[FamilyGroup]  # this page's rows, by family
    paging: Paging
    total_architectures: int
    filters: list[ModelFilter]
    page_queries: list[str]
    query: str  # the canonical query of what is shown (for the twins)

    def rows(self) -> list[ArchitectureRow]:
        """Every row of the page, in order."""
        return [row for group in self.groups for row in group.rows]


def model_vocabularies(session: Session) -> dict[str, list[str]]:
    """The values `family` and `system` may take."""
    base = support_base(session)
    return {
        "arch-family": base.families(),
        "support-system": [s.slug for s in base.systems],
    }


def _matches(base: SupportBase, a: ArchitectureView, p: ModelMatrixParams) -> bool:
    if p.listed and not a.listed:
        return False
    if p.family and a.family not in p.family:
        return False
    if p.arch_kind and a.kind not in p.arch_kind:
        return False
    if not p.q:
        return True
    words = p.q.casefold().split()
    natives = [c.native for s in base.systems for c in _claims(base, s.slug, a.name)]
    text = " ".join([a.name, a.family, a.model_type or "", a.gguf or "", *filter(None, natives)])
    return all(w in text.casefold() for w in words)


def _claims(base: SupportBase, system: str, architecture: str) -> list[SupportClaimView]:
    cell = base.cells.get((system, architecture))
    return cell.claims if cell else []


def build_model_matrix(
    session: Session, params: ModelMatrixParams, *, paged: bool = True
) -> ModelMatrixResult:
    """The rows, columns and paging for these parameters."""
    base = support_base(session)
    columns = [s for s in base.systems if not params.system or s.slug in params.system]
    found = [a for a in base.architectures if _matches(base, a, params)]
    size = MODEL_MATRIX_PAGE_SIZE if paged else max(1, len(found))
    shown, paging = paginate(found, params.page, size)
    groups: list[FamilyGroup] = []
    for a in shown:
        row = ArchitectureRow(
            architecture=a, cells=[base.cells.get((s.slug, a.name)) for s in columns]
        )
        if groups and groups[-1].family == a.family:
            groups[-1].rows.append(row)
        else:
            groups.append(FamilyGroup(family=a.family, rows=[row]))
    names = {s.slug: s.name for s in base.systems}
    filters = [
        ModelFilter(
            label=_filter_label(name, value, names),
            remove_query=params.without(name, value).query_string(),
        )
        for name, value in params.active_filters()
    ]
    return ModelMatrixResult(
        systems=columns,
        groups=groups,
        paging=paging,
        total_architectures=len(base.architectures),
        filters=filters,
        page_queries=[params.query_string(page=n) for n in range(1, paging.pages + 1)],
        query=params.query_string(page=paging.page),
    )


def _filter_label(name: str, value: str, systems: dict[str, str]) -> str:
    if name == "q":
        return f"“{value}”"
    if name == "listed":
        return "Described architectures only"
    if name == "system":
        return f"System: {systems.get(value, value)}"
    return f"{'Kind' if name == 'arch_kind' else name.capitalize()}: {value}"


def model_matrix_csv_rows(result: ModelMatrixResult) -> list[list[str]]:
    """The CSV's rows: a header, then one line per architecture with each column's level,
    since and until (an empty level: no source says)."""
    header = ["architecture", "family", "kind"]
    for s in result.systems:
        header += [s.slug, f"{s.slug} since", f"{s.slug} until"]
    lines = [header]
    for row in result.rows():
        a = row.architecture
        line = [a.name, a.family, a.kind or ""]
        for cell in row.cells:
            if cell is None:
                line += ["no claim", "", ""]
                continue
            level = f"{cell.level} (disputed)" if cell.disputed else cell.level
            line += [level, cell.since or "", cell.until or ""]
        lines.append(line)
    return lines

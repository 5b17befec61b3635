"""The feature and hardware matrices: every system x capability cell, filtered, searched,
sorted and paged for one request, from the data app/queries/matrix_data.py loads once per
data version."""

from dataclasses import dataclass

from pydantic import BaseModel
from sqlmodel import Session

from app.params.matrix import MATRIX_PAGE_SIZE, MatrixParams, Need
from app.queries.cells import NO_CLAIM, current
from app.queries.matrix_data import MatrixBase, MatrixColumn, MatrixGroup, matrix_base
from app.queries.paging import Paging, paginate
from app.schemas import LEVEL_GROUP, LEVEL_RANK, SystemSummary

# Which headline levels satisfy each minimum a user can ask for.
ACCEPTED_LEVELS = {
    "yes": {"yes"},
    "partial": {"yes", "partial"},
    "any": {"yes", "partial", "experimental", "via"},
}
# NO_CLAIM (app/queries/cells.py), the level of a cell no current source speaks to, is
# spelled out so exports never read it as "no".


class MatrixCell(BaseModel):
    capability: str
    level: str  # NO_CLAIM when no source speaks to this cell: unknown, never "no"
    disputed: bool
    weak: bool = False  # a "no" resting only on sources marked machine-written or vendor-interest
    strength: int | None
    sources: list[str]  # the current sources
    withdrawn: bool = False  # some claim behind it has left the published data (still shown)


class MatrixRow(BaseModel):
    system: SystemSummary
    cells: list[MatrixCell]
    matches: int
    coverage: float
    claimed: int  # capabilities of this view that at least one source speaks to
    claimable: int  # capabilities in this view


class Relaxation(BaseModel):
    field: str
    value: str
    would_show: int
    query: str
    action: str = ""  # what to do, in words: "Clear the search “tool calling”"


class ActiveFilter(BaseModel):
    """One filter in force, in words, with the query string that drops it."""

    field: str
    value: str
    label: str
    remove_query: str


class CapabilityMatch(BaseModel):
    """A feature or hardware target whose name matches the search, with a one-click filter."""

    slug: str
    name: str
    kind: str  # feature or hardware
    filter_query: str  # these parameters with the search swapped for "must have this"


class MatrixResult(BaseModel):
    view: str
    query: str
    groups: list[MatrixGroup]
    rows: list[MatrixRow]  # one page of them
    total_systems: int
    paging: Paging = Paging()  # paging.total: the systems that pass the filters
    page_queries: list[str] = []  # the canonical query string of each page, in order
    hidden_columns: int
    relax: Relaxation | None
    capabilities: list[CapabilityMatch] = []
    filters: list[ActiveFilter] = []
    # How the search narrowed the rows: "name" (systems named like it), "capability" (systems
    # that support a feature or hardware target named like it), "text" (summaries), or "".
    search_mode: str = ""
    search_capabilities: list[str] = []  # in "capability" mode, the columns it matched


def build_matrix(
    session: Session, view: str, params: MatrixParams, paged: bool = True
) -> MatrixResult:
    """The rows and columns the page shows for `params`: one page of rows, or all of them
    (`paged=False`, for exports). Only the page's rows are built."""
    base = matrix_base(session)
    rows = _filter_rows(base, view, params)
    search = search_systems(base, params.q)
    groups = _visible_groups(base, view, params, rows)
    relax = _relaxation(base, view, params) if not rows else None
    shown_columns = [c for g in groups for c in g.columns]
    all_columns = sum(len(g.columns) for g in base.groups[view])
    ordered = _sorted(base, rows, shown_columns, params)
    size = MATRIX_PAGE_SIZE if paged else max(len(ordered), 1)
    shown, paging = paginate(ordered, params.page if paged else 1, size)
    return MatrixResult(
        view=view,
        query=params.query_string(),
        groups=groups,
        rows=[_row(base, view, s, shown_columns, params.needs) for s in shown],
        total_systems=len(base.systems),
        paging=paging,
        page_queries=[params.query_string(page=n) for n in range(1, paging.pages + 1)],
        hidden_columns=all_columns - len(shown_columns),
        relax=relax,
        capabilities=_capability_matches(base, params),
        search_mode=search.mode,
        search_capabilities=list(search.capabilities),
        filters=[
            ActiveFilter(
                field=name,
                value=value,
                label=filter_label(base, name, value),
                remove_query=params.without(name, value).query_string(),
            )
            for name, value in params.active_filters()
        ],
    )


NEED_LEVEL_WORDS = {"any": "", "partial": " (at least partial)", "yes": " (yes)"}


def filter_label(base: MatrixBase, name: str, value: str) -> str:
    """A filter as a person would say it: "Must have Tool calling (yes)", not need=…:yes."""
    names = {c.slug: c.name for gs in base.groups.values() for g in gs for c in g.columns}
    if name == "need":
        need = Need.parse(value)
        return f"Must have {names.get(need.capability, need.capability)}" + NEED_LEVEL_WORDS.get(
            need.level, ""
        )
    labels = {
        "hw": lambda: f"Runs on {names.get(value, value)}",
        "licence": lambda: f"{value.capitalize()} licence",
        "kind": lambda: f"Kind: {value.replace('-', ' ')}",
        "status": lambda: f"Status: {value}",
        "q": lambda: f"Search “{value}”",
        "min_coverage": lambda: f"Claims on at least {value}%",
    }
    return labels[name]() if name in labels else f"{name}: {value}"


def relax_action(base: MatrixBase, name: str, value: str) -> str:
    if name == "q":
        return f"Clear the search “{value}”"
    return f"Remove the filter “{filter_label(base, name, value)}”"


def _capability_matches(base: MatrixBase, params: MatrixParams) -> list[CapabilityMatch]:
    """Features and hardware targets named like the search: people type "tool calling" too."""
    if not params.q.strip():
        return []
    out = []
    for view, groups in base.groups.items():
        for column in (c for g in groups for c in g.columns):
            if not _words_in(params.q, f"{column.name} {column.slug.replace('-', ' ')}"):
                continue
            if view == "hardware":
                hw = tuple(dict.fromkeys((*params.hw, column.slug)))
                query = params.query_string(q="", hw=hw, page=1)
            else:
                have = {n.capability for n in params.needs}
                extra = () if column.slug in have else (column.slug,)
                need = (*(n.token() for n in params.needs), *extra)
                query = params.query_string(q="", need=need, add="", page=1)
            kind = "feature" if view == "features" else "hardware"
            out.append(
                CapabilityMatch(slug=column.slug, name=column.name, kind=kind, filter_query=query)
            )
    return out[:8]


def _words_in(text: str, haystack: str) -> bool:
    return all(word in haystack.lower() for word in text.lower().split())


@dataclass(frozen=True)
class Search:
    """The systems a search keeps, and why (see MatrixResult.search_mode)."""

    mode: str
    systems: frozenset[str]
    capabilities: tuple[str, ...] = ()


def search_systems(base: MatrixBase, q: str) -> Search:
    """Names first ("vllm" is vLLM and vLLM Metal, not every summary that mentions vLLM);
    else a feature or hardware target named like it keeps the systems that support it at any
    level, as a caniuse reader expects ("ROCm", "tool calling"); else words in summaries."""
    if not q.strip():
        return Search("", frozenset())
    named = {s.slug for s in base.systems if _words_in(q, _name_text(s))}
    if named:
        return Search("name", frozenset(named))
    columns = [
        c.slug
        for gs in base.groups.values()
        for g in gs
        for c in g.columns
        if _words_in(q, f"{c.name} {c.slug.replace('-', ' ')}")
    ]
    if columns:
        supported = {
            s.slug
            for s in base.systems
            if any(_level(base, s.slug, c) in ACCEPTED_LEVELS["any"] for c in columns)
        }
        return Search("capability", frozenset(supported), tuple(dict.fromkeys(columns)))
    return Search("text", frozenset(s.slug for s in base.systems if _text_matches(s, q)))


def _name_text(system: SystemSummary) -> str:
    return f"{system.name} {system.slug} {system.slug.replace('-', ' ')}"


def _filter_rows(base: MatrixBase, view: str, params: MatrixParams) -> list[SystemSummary]:
    search = search_systems(base, params.q)
    return [
        s
        for s in base.systems
        if (not search.mode or s.slug in search.systems)
        and _keeps(base, s, params)
        and _covered(base, view, s.slug, params.min_coverage)
    ]


def claim_count(base: MatrixBase, view: str, system: str) -> tuple[int, int]:
    """(capabilities of `view` some source speaks to for `system`, capabilities in `view`)."""
    slugs = [c.slug for g in base.groups[view] for c in g.columns]
    return sum(1 for c in slugs if _level(base, system, c) != NO_CLAIM), len(slugs)


def _covered(base: MatrixBase, view: str, system: str, min_coverage: int) -> bool:
    # Sparse rows are mostly "no source says"; hiding them is the reader's choice, in percent.
    if not min_coverage:
        return True
    claimed, claimable = claim_count(base, view, system)
    return claimed * 100 >= min_coverage * claimable


def _keeps(base: MatrixBase, system: SystemSummary, params: MatrixParams) -> bool:
    if params.kind and system.kind not in params.kind:
        return False
    if params.status and system.status not in params.status:
        return False
    if params.licence and system.licence_family not in params.licence:
        return False
    needs = [*params.needs, *(Need(hw) for hw in params.hw)]
    return all(_level(base, system.slug, n.capability) in ACCEPTED_LEVELS[n.level] for n in needs)


def _text_matches(system: SystemSummary, text: str) -> bool:
    return _words_in(text, f"{system.name} {system.slug} {system.summary}")


def _level(base: MatrixBase, system: str, capability: str) -> str:
    cell = base.cell(system, capability)
    return cell.level if cell else NO_CLAIM


def _visible_groups(
    base: MatrixBase, view: str, params: MatrixParams, rows: list[SystemSummary]
) -> list[MatrixGroup]:
    # Groups of the other view are accepted (one vocabulary for both) but narrow nothing here.
    wanted = {g.slug for g in base.groups[view]} & set(params.group)
    chosen = [g for g in base.groups[view] if not wanted or g.slug in wanted]
    if not params.diff or not rows:
        return chosen
    out = []
    for group in chosen:
        columns = [
            c for c in group.columns if len({_level(base, s.slug, c.slug) for s in rows}) > 1
        ]
        if columns:
            out.append(MatrixGroup(slug=group.slug, name=group.name, columns=columns))
    return out


def _row(
    base: MatrixBase,
    view: str,
    system: SystemSummary,
    columns: list[MatrixColumn],
    needs: tuple[Need, ...],
) -> MatrixRow:
    cells = [_matrix_cell(base, system.slug, c.slug) for c in columns]
    matches = _matches(base, system.slug, needs)
    coverage = sum(_coverage_weight(c.level) for c in cells)
    claimed, claimable = claim_count(base, view, system.slug)
    return MatrixRow(
        system=system,
        cells=cells,
        matches=matches,
        coverage=coverage,
        claimed=claimed,
        claimable=claimable,
    )


def _coverage_weight(level: str) -> float:
    group = LEVEL_GROUP.get(level)
    return 1.0 if group == "supported" else 0.5 if group == "partial" else 0.0


def _matrix_cell(base: MatrixBase, system: str, capability: str) -> MatrixCell:
    cell = base.cell(system, capability)
    if cell is None:
        return MatrixCell(
            capability=capability, level=NO_CLAIM, disputed=False, strength=None, sources=[]
        )
    claims = current(cell.claims)
    headline = next((c for c in claims if c.level == cell.level), None)
    return MatrixCell(
        capability=capability,
        level=cell.level,
        disputed=cell.disputed,
        weak=cell.weak,
        strength=headline.strength if headline else None,
        sources=[c.source.slug for c in claims],
        withdrawn=len(claims) < len(cell.claims),
    )


def _sorted(
    base: MatrixBase, rows: list[SystemSummary], columns: list[MatrixColumn], params: MatrixParams
) -> list[SystemSummary]:
    """The rows in the page's order, worked out from the levels alone (rows are built later,
    for one page)."""
    if params.sort == "matches":
        needs = params.needs
        return sorted(rows, key=lambda s: (-_matches(base, s.slug, needs), s.name.lower()))
    if params.sort == "coverage":
        return sorted(rows, key=lambda s: (-_coverage(base, s.slug, columns), s.name.lower()))
    return sorted(rows, key=lambda s: s.name.lower())


def _matches(base: MatrixBase, system: str, needs: tuple[Need, ...]) -> int:
    return sum(LEVEL_RANK.get(_level(base, system, n.capability), 0) for n in needs)


def _coverage(base: MatrixBase, system: str, columns: list[MatrixColumn]) -> float:
    return sum(_coverage_weight(_level(base, system, c.slug)) for c in columns)


def _relaxation(base: MatrixBase, view: str, params: MatrixParams) -> Relaxation | None:
    """The one filter whose removal brings back the most systems."""
    best: Relaxation | None = None
    for name, value in params.active_filters():
        relaxed = params.without(name, value)
        count = len(_filter_rows(base, view, relaxed))
        if count and (best is None or count > best.would_show):
            best = Relaxation(
                field=name,
                value=value,
                would_show=count,
                query=relaxed.query_string(),
                action=relax_action(base, name, value),
            )
    return best

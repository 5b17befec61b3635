"""Two to four systems side by side: overview, features, hardware, shared benchmarks."""

import datetime as dt

from pydantic import BaseModel
from sqlmodel import Session, select

from app.models import Metric
from app.queries.benchmark_page import all_results
from app.queries.benchmarks import latest_versions
from app.queries.contexts import Context, group_contexts
from app.queries.systems import get_system
from app.schemas import LEVEL_RANK, Cell, SourceRef, SystemDetail

SUPPORTED = {"yes", "via", "partial", "experimental"}


class CompareRow(BaseModel):
    key: str
    name: str
    description: str
    cells: list[Cell | None]  # one per system, None when no source speaks
    differs: bool
    ahead: int | None  # index of the one system strictly ahead on this row


class CompareSection(BaseModel):
    slug: str
    name: str
    rows: list[CompareRow]


class OverviewRow(BaseModel):
    name: str
    values: list[str]
    differs: bool


class Comparison(BaseModel):
    slugs: list[str]
    systems: list[SystemDetail]
    overview: list[OverviewRow]
    features: list[CompareSection]
    hardware: list[CompareSection]
    hardware_counts: list[int]
    shared_contexts: list[Context]
    other_contexts: list[Context]
    sources: list[SourceRef]
    differences: int


def build_comparison(
    session: Session, slugs: list[str], diff: bool, today: dt.date | None = None
) -> Comparison:
    """The comparison of `slugs` (already checked to exist), in the user's order."""
    systems = [get_system(session, slug) for slug in slugs]
    details: list[SystemDetail] = [s for s in systems if s is not None]
    versions = latest_versions(session)
    overview = _overview(details, versions)
    features = _sections(details, "features")
    hardware = _sections(details, "hardware")
    differences = sum(r.differs for r in overview) + sum(
        r.differs for section in features + hardware for r in section.rows
    )
    shared, other = _benchmark_contexts(session, slugs, today or dt.date.today())
    if diff:
        overview = [r for r in overview if r.differs]
        features, hardware = _only_differences(features), _only_differences(hardware)
    return Comparison(
        slugs=slugs,
        systems=details,
        overview=overview,
        features=features,
        hardware=hardware,
        hardware_counts=[_supported_hardware(s) for s in details],
        shared_contexts=shared,
        other_contexts=other,
        sources=_sources(details),
        differences=differences,
    )


def _overview(details: list[SystemDetail], versions: dict[str, str]) -> list[OverviewRow]:
    def status(s: SystemDetail) -> str:
        since = f" since {s.status_since}" if s.status_since else ""
        return f"{s.status}{since}" if s.status != "unknown" else "not stated"

    rows = [
        ("Kind", [s.kind.replace("-", " ") for s in details]),
        ("Licence", [s.licence if s.licence != "unknown" else "not stated" for s in details]),
        ("Status", [status(s) for s in details]),
        ("Language", [s.language or "not stated" for s in details]),
        ("Latest version in the sources", [versions.get(s.slug, "not stated") for s in details]),
        ("Repository", [s.repository or "not stated" for s in details]),
    ]
    return [OverviewRow(name=n, values=v, differs=len(set(v)) > 1) for n, v in rows]


def _sections(details: list[SystemDetail], view: str) -> list[CompareSection]:
    """Category by category, every capability any of the systems has a claim about."""
    order: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {}
    cells: dict[tuple[int, str], Cell] = {}
    for index, system in enumerate(details):
        for group in getattr(system, view):
            _, caps = order.setdefault(group.slug, (group.name, {}))
            for cell in group.cells:
                caps.setdefault(cell.capability, (cell.name, cell.description))
                cells[(index, cell.capability)] = cell
    sections = []
    for slug, (name, caps) in order.items():
        rows = [_row(key, n, d, [cells.get((i, key)) for i in range(len(details))])
                for key, (n, d) in caps.items()]  # fmt: skip
        sections.append(CompareSection(slug=slug, name=name, rows=rows))
    return sections


def _row(key: str, name: str, description: str, cells: list[Cell | None]) -> CompareRow:
    ranks = [LEVEL_RANK.get(c.level, 0) if c else 0 for c in cells]
    levels = [c.level if c else "none" for c in cells]
    best = max(ranks)
    ahead = ranks.index(best) if ranks.count(best) == 1 and best > 0 else None
    return CompareRow(key=key, name=name, description=description, cells=cells,
                      differs=len(set(levels)) > 1, ahead=ahead)  # fmt: skip


def _only_differences(sections: list[CompareSection]) -> list[CompareSection]:
    out = []
    for section in sections:
        rows = [r for r in section.rows if r.differs]
        if rows:
            out.append(CompareSection(slug=section.slug, name=section.name, rows=rows))
    return out


def _supported_hardware(system: SystemDetail) -> int:
    return sum(1 for g in system.hardware for c in g.cells if c.level in SUPPORTED)


def _benchmark_contexts(
    session: Session, slugs: list[str], today: dt.date
) -> tuple[list[Context], list[Context]]:
    """Ranked contexts where at least two of the systems were measured, and the rest."""
    units = {m.slug: m.units[0] for m in session.exec(select(Metric))}
    results = [r for r in all_results(session, today) if r.system in slugs]
    contexts = group_contexts(results, units)
    shared = [c for c in contexts if c.ranked and len({r.result.system for r in c.results}) >= 2]
    shared_keys = {c.key for c in shared}
    return shared, [c for c in contexts if c.key not in shared_keys]


def _sources(details: list[SystemDetail]) -> list[SourceRef]:
    seen: dict[str, SourceRef] = {}
    for system in details:
        for source in system.sources:
            seen.setdefault(source.slug, source)
    return sorted(seen.values(), key=lambda s: s.date, reverse=True)

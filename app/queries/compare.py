"""Two to four systems side by side: overview, features, hardware, shared benchmarks."""

import datetime as dt

from pydantic import BaseModel
from sqlmodel import Session

from app.measures.service_level import Level
from app.params.benchmarks import SweepParams
from app.params.compare import CompareParams
from app.queries.benchmarks import all_results, latest_versions
from app.queries.common import compared_units
from app.queries.contexts import Context, group_contexts
from app.queries.sweep_models import SweepPage
from app.queries.sweeps import team_sweeps
from app.queries.systems import get_system
from app.schemas import LEVEL_GROUP, Cell, SourceRef, SystemDetail, SystemSummary

SUPPORTED = {"yes", "via", "partial", "experimental"}
# Only explicit claims are weighed, by what they mean for a user: "via llama.cpp" works as
# well as "yes", so neither is ahead of the other.
GROUP_RANK = {"supported": 3, "partial": 2, "absent": 1}


class CompareRow(BaseModel):
    key: str
    name: str
    description: str
    cells: list[Cell | None]  # one per system, None when no source speaks
    covered: list[bool]  # per system: does a source make an explicit claim?
    differs: bool  # two explicit claims disagree on what works
    gap: bool  # some systems have an explicit claim here, others none
    ahead: int | None  # the one system strictly ahead, only when every system has a claim


class CompareSection(BaseModel):
    slug: str
    name: str
    rows: list[CompareRow]


class OverviewRow(BaseModel):
    name: str
    values: list[str]
    differs: bool  # stated values disagree (a row of per-system identifiers never does)
    gap: bool  # stated for some systems, not for others


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
    differences: int  # rows where explicit claims or stated values disagree
    gaps: int  # rows where only some of the systems' sources say anything
    # The team's sweeps of these systems read at the service level, when the URL gives one.
    team_sweeps: SweepPage | None = None

    def headline(self) -> str:
        """'12 differences, 30 rows only one side's sources cover': for titles and previews."""
        plural = "" if self.differences == 1 else "s"
        if not self.gaps:
            return f"{self.differences} difference{plural}"
        return f"{self.differences} difference{plural}, {self.gaps_sentence()}"

    def gaps_sentence(self) -> str:
        """How many rows only some of the systems' sources cover, in words."""
        rows = "1 row" if self.gaps == 1 else f"{self.gaps} rows"
        who = "one side's" if len(self.systems) == 2 else "some of the systems'"
        return f"{rows} only {who} sources cover"


def build_comparison(
    session: Session,
    slugs: list[str],
    diff: bool,
    today: dt.date | None = None,
    level: Level | None = None,
) -> Comparison:
    """The comparison of `slugs` (already checked to exist), in the user's order."""
    systems = [get_system(session, slug) for slug in slugs]
    details: list[SystemDetail] = [s for s in systems if s is not None]
    versions = latest_versions(session)
    overview = _overview(details, versions)
    features = _sections(details, "features")
    hardware = _sections(details, "hardware")
    rows: list[OverviewRow | CompareRow] = [*overview]
    rows += [r for section in features + hardware for r in section.rows]
    differences, gaps = sum(r.differs for r in rows), sum(r.gap for r in rows)
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
        gaps=gaps,
        team_sweeps=_at_level(session, slugs, level) if level else None,
    )


def _at_level(session: Session, slugs: list[str], level: Level) -> SweepPage:
    """The compared systems' team sweeps at `level` (ranked within one hardware, model,
    precision and workload, as /benchmarks does)."""
    params = SweepParams(
        system=tuple(slugs),
        per_user=level.per_user,
        ttft_p99=level.ttft_p99,
        tpot_p99=level.tpot_p99,
        goodput=level.goodput,
    )
    return team_sweeps(session, params)


def _overview(details: list[SystemDetail], versions: dict[str, str]) -> list[OverviewRow]:
    def status(s: SystemDetail) -> str:
        since = f" since {s.status_since}" if s.status_since else ""
        return f"{s.status}{since}" if s.status != "unknown" else "not stated"

    rows = [
        ("Kind", [s.kind.replace("-", " ") for s in details]),
        ("Licence", [s.licence if s.licence != "unknown" else "not stated" for s in details]),
        ("Status", [status(s) for s in details]),
        ("Language", [s.language or "not stated" for s in details]),
    ]
    # Versions and repositories differ between any two projects: shown, never counted.
    own = [
        ("Latest version in the sources", [versions.get(s.slug, "not stated") for s in details]),
        ("Repository", [s.repository or "not stated" for s in details]),
    ]
    return [_overview_row(n, v) for n, v in rows] + [
        OverviewRow(name=n, values=v, differs=False, gap=False) for n, v in own
    ]


def _overview_row(name: str, values: list[str]) -> OverviewRow:
    stated = {v for v in values if v != "not stated"}
    gap = bool(stated) and len(stated) < len(set(values))
    return OverviewRow(name=name, values=values, differs=len(stated) > 1, gap=gap)


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
        rows = [
            _row(key, n, d, [cells.get((i, key)) for i in range(len(details))])
            for key, (n, d) in caps.items()
        ]
        sections.append(CompareSection(slug=slug, name=name, rows=rows))
    return sections


def _row(key: str, name: str, description: str, cells: list[Cell | None]) -> CompareRow:
    groups = [LEVEL_GROUP.get(c.level) if c else None for c in cells]
    covered = [g is not None for g in groups]
    stated = [g for g in groups if g is not None]
    return CompareRow(
        key=key,
        name=name,
        description=description,
        cells=cells,
        covered=covered,
        differs=len(set(stated)) > 1,
        gap=0 < len(stated) < len(cells),
        ahead=_ahead(groups),
    )


def _ahead(groups: list[str | None]) -> int | None:
    """The one system strictly ahead of all others; a system without a claim beats no one."""
    if None in groups:
        return None
    ranks = [GROUP_RANK[g] for g in groups if g is not None]
    best = max(ranks)
    return ranks.index(best) if ranks.count(best) == 1 else None


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
    units = compared_units(session)
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


def suggestions(systems: list[SystemSummary], params: CompareParams) -> list[SystemSummary]:
    """Systems matching the search box that are not in the comparison yet."""
    words = params.q.lower().split()
    if not words:
        return []
    pool = [s for s in systems if s.slug not in params.s]

    def matches(s: SystemSummary, text: str) -> bool:
        return all(w in text.lower() for w in words)

    # Name matches first: "llama" should offer llama.cpp before systems that mention it, and
    # before ExLlamaV2 and Ollama, whose names hold it in the middle of a word.
    by_name = sorted(
        (s for s in pool if matches(s, f"{s.name} {s.slug}")),
        key=lambda s: (_name_rank(s, params.q), s.name.lower()),
    )
    by_summary = [s for s in pool if s not in by_name and matches(s, s.summary)]
    return (by_name + by_summary)[:8]


def _name_rank(system: SystemSummary, q: str) -> int:
    """0 the name itself, 1 the name starts with it, 2 a word starts with it, 3 elsewhere."""
    wanted = q.strip().lower()
    names = [system.name.lower(), system.slug]
    if wanted in names or wanted.replace(" ", "-") == system.slug:
        return 0
    if any(n.startswith(wanted) for n in names):
        return 1
    words = [w for n in names for w in n.replace("-", " ").replace(".", " ").split()]
    return 2 if any(w.startswith(wanted) for w in words) else 3


def clear_pick(systems: list[SystemSummary], params: CompareParams) -> str | None:
    """The system the search names: exactly, or as the only name that holds it; else None."""
    words = params.q.lower().split()
    named = [
        s
        for s in suggestions(systems, params)
        if all(w in f"{s.name} {s.slug}".lower() for w in words)
    ]
    exact = [s for s in named if _name_rank(s, params.q) == 0]
    if len(exact) == 1:
        return exact[0].slug
    return named[0].slug if len(named) == 1 else None

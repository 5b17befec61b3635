"""Systems: the list and one system in full."""

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.models import System, SystemFact, SystemNote
from app.queries.benchmarks import all_benchmark_views, benchmark_views_by_system
from app.queries.common import capabilities_in_order, source_refs
from app.queries.contexts import context_key
from app.queries.matrix_data import matrix_base
from app.queries.note_index import note_index
from app.queries.summary import summarise
from app.schemas import (
    BenchmarkView,
    CategoryCells,
    Cell,
    Fact,
    FactGroup,
    FactValue,
    Glance,
    SourcedText,
    SourceRef,
    SystemDetail,
    SystemSummary,
    licence_family,
)


def _summary(system: System) -> SystemSummary:
    return SystemSummary(
        licence_family=licence_family(system.licence),
        **system.model_dump(exclude={"id", "summary_sources"}),
    )


@per_version()
def list_systems(session: Session) -> list[SystemSummary]:
    """Every system, by name."""
    rows = session.exec(select(System).order_by(func.lower(System.name)))
    return [_summary(s) for s in rows]


def system_slugs(session: Session) -> list[str]:
    return list(session.exec(select(System.slug).order_by(col(System.slug))))


@per_version(max_entries=64)  # the most visited systems; a big instance has hundreds
def get_system(session: Session, slug: str) -> SystemDetail | None:
    """One system with its claims grouped by category, facts, benchmarks and sources."""
    system = session.exec(select(System).where(System.slug == slug)).first()
    if system is None:
        return None
    refs = source_refs(session)
    by_slug = {r.slug: r for r in refs.values()}
    texts = _texts_by_system(session).get(system.id, _NO_TEXTS)  # type: ignore[arg-type]
    groups = _category_cells(session, system.slug)
    benchmarks = benchmark_views_by_system(session).get(system.slug, [])
    used = _sources_used(groups, texts, benchmarks, refs)
    best_for, weaknesses = texts.best_for, texts.weaknesses
    features = [g for g in groups if g.kind == "feature"]
    hardware = [g for g in groups if g.kind == "hardware"]
    return SystemDetail(
        **_summary(system).model_dump(),
        summary_sources=[by_slug[s] for s in system.summary_sources],
        best_for=best_for,
        weaknesses=weaknesses,
        best_for_summary=summarise(best_for, features, hardware, system.slug, weakness=False),
        weakness_summary=summarise(weaknesses, features, hardware, system.slug, weakness=True),
        facts=texts.facts,
        features=features,
        hardware=hardware,
        benchmarks=benchmarks,
        sources=used,
        disputed_count=sum(c.disputed for g in groups for c in g.cells),
        team_notes=note_index(session).systems.get(system.id, []),  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class _Texts:
    """A system's notes and facts, as its page shows them."""

    best_for: list[SourcedText] = field(default_factory=list)
    weaknesses: list[SourcedText] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    note_sources: set[str] = field(default_factory=set)  # of every note, whatever its kind


_NO_TEXTS = _Texts()


@per_version(max_entries=1)
def _texts_by_system(session: Session) -> dict[int, _Texts]:
    """Every system's notes and facts, read in two queries once per data version (a system
    page read its own with two queries each, a third of a compare page's work at x10)."""
    refs = source_refs(session)
    out: dict[int, _Texts] = defaultdict(_Texts)
    for note in session.exec(select(SystemNote).order_by(col(SystemNote.position))):
        texts = out[note.system_id]
        sourced = SourcedText(text=note.text, source=refs[note.source_id])
        if note.kind == "best_for":
            texts.best_for.append(sourced)
        elif note.kind == "weakness":
            texts.weaknesses.append(sourced)
        texts.note_sources.add(sourced.source.slug)
    for fact in session.exec(select(SystemFact).order_by(col(SystemFact.position))):
        fields = fact.model_dump(include={"attribute", "value", "date", "note"})
        out[fact.system_id].facts.append(Fact(source=refs[fact.source_id], **fields))
    return dict(out)


def _category_cells(session: Session, system: str) -> list[CategoryCells]:
    """The system's answered cells by category, from the matrix's base for this version
    (which weighs every cell once), so a system page rebuilds no claim."""
    base = matrix_base(session)
    groups: dict[str, CategoryCells] = {}
    for capability, category in capabilities_in_order(session):
        found = base.cell(system, capability.slug)
        if found is None or not found.claims:
            continue
        group = groups.setdefault(
            category.slug,
            CategoryCells(slug=category.slug, name=category.name, kind=category.kind, cells=[]),
        )
        group.cells.append(
            Cell(
                capability=capability.slug,
                name=capability.name,
                description=capability.description,
                level=found.level,
                disputed=found.disputed,
                weak=found.weak,
                reason=found.reason,
                claims=found.claims,
            )
        )
    return list(groups.values())


def _sources_used(
    groups: list[CategoryCells],
    texts: _Texts,
    benchmarks: list[BenchmarkView],
    refs: dict[int, SourceRef],
) -> list[SourceRef]:
    slugs = {c.source.slug for g in groups for cell in g.cells for c in cell.claims}
    slugs |= {f.source.slug for f in texts.facts} | texts.note_sources
    slugs |= {b.source.slug for b in benchmarks}
    return sorted((r for r in refs.values() if r.slug in slugs), key=lambda r: r.date, reverse=True)


@per_version(max_entries=2)
def measured_together(session: Session) -> dict[str, dict[str, int]]:
    """For each system, how many benchmark contexts it shares with each other system."""
    measured: dict[tuple[str, ...], set[str]] = defaultdict(set)
    for result in all_benchmark_views(session):
        if not result.withdrawn:  # no longer published: it puts no two systems side by side
            measured[context_key(result)].add(result.system)
    shared: dict[str, dict[str, int]] = defaultdict(dict)
    for members in measured.values():
        for slug in members:
            for other in members - {slug}:
                shared[slug][other] = shared[slug].get(other, 0) + 1
    return dict(shared)


def compare_candidates(session: Session, slug: str, limit: int = 4) -> list[SystemSummary]:
    """Systems most often weighed against `slug`: shared best-for tags and benchmark contexts."""
    systems = list_systems(session)
    this = next((s for s in systems if s.slug == slug), None)
    if this is None:
        return []
    shared = measured_together(session).get(slug, {})
    scored = [
        (len(set(s.tags) & set(this.tags)) + 2 * shared.get(s.slug, 0), s)
        for s in systems
        if s.slug != slug
    ]
    scored = [pair for pair in scored if pair[0] > 0]
    scored.sort(key=lambda pair: (-pair[0], pair[1].name.lower()))
    return [s for _, s in scored[:limit]]


GLANCE_STRENGTHS = 3
GLANCE_FIGURES = 3
SUPPORTED_FIRST = {"yes": 0, "via": 1, "partial": 2, "experimental": 3}


def system_glance(system: SystemDetail, latest_version: str | None) -> Glance:
    """The summary a system page opens with, drawn from data already on the page."""
    hardware = [c for g in system.hardware for c in g.cells if c.level in SUPPORTED_FIRST]
    hardware.sort(key=lambda c: SUPPORTED_FIRST[c.level])  # stable: seed order within a level
    features = sum(c.level in SUPPORTED_FIRST for g in system.features for c in g.cells)
    return Glance(
        latest_version=latest_version,
        # The best supported first; a cautioned line comes last and keeps its mark.
        strengths=system.best_for_summary[:GLANCE_STRENGTHS],
        hardware=hardware,
        figures=key_figures(system.benchmarks),
        feature_count=features,
    )


def key_figures(results: list[BenchmarkView]) -> list[BenchmarkView]:
    """One figure per metric, only those measured on named hardware with a named model."""
    seen: set[str] = set()
    chosen = []
    for result in results:
        full_context = result.hardware and result.model and result.value is not None
        full_context = full_context and not result.withdrawn
        if full_context and result.metric not in seen:
            seen.add(result.metric)
            chosen.append(result)
    return chosen[:GLANCE_FIGURES]


def group_facts(facts: list[Fact]) -> list[FactGroup]:
    """One group per attribute, and within it one entry per distinct value, in seed order."""
    groups: dict[str, dict[str, list[Fact]]] = {}
    for fact in facts:
        groups.setdefault(fact.attribute, {}).setdefault(fact.value, []).append(fact)
    return [
        FactGroup(
            attribute=attribute, values=[FactValue(value=v, facts=f) for v, f in values.items()]
        )
        for attribute, values in groups.items()
    ]

"""One benchmark figure, and one source's claim on one cell, each with everything the Atlas
holds about it: the read models of /benchmarks/{id} and /systems/{slug}/claims/{capability}/
{source}, and of their JSON twins under /api/v1 (the same function for both)."""

import datetime as dt
from urllib.parse import urlencode

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.models import BenchmarkResult
from app.params.benchmarks import BenchmarkParams
from app.queries.benchmark_page import context_query
from app.queries.benchmarks import benchmark_views, latest_versions, with_freshness
from app.queries.catalogue import list_capabilities, list_sources
from app.queries.contexts import context_key
from app.queries.matrix_data import system_name_map
from app.queries.matrix_page import find_cell
from app.schemas import BenchmarkView, CapabilityView, ClaimView, SourceDetail, SystemSummary
from app.vocabulary.fixed import FIRST_PARTY_KINDS

SAME_CONTEXT_LISTED = 50
"""Figures of the same context a figure's page lists; the context link has every one."""


class ItemLinks(BaseModel):
    """Where else the item shows: its page, its JSON, its system, and its cell or context."""

    page: str
    json_url: str
    system: str
    source: str
    cell: str | None = None  # a claim's cell (the panel's own page)
    feature: str | None = None  # a claim's capability across every system
    context: str | None = None  # a figure's context on /benchmarks (filtered to it)


class FigureDetail(BaseModel):
    """One benchmark figure (a result row) in full."""

    figure: BenchmarkView  # value, unit, context, source, notes; with age and staleness
    source: SourceDetail  # the source in full: URL, publisher, caveats
    team: bool  # measured by this instance's team, not taken from a published source
    context_label: str  # the setting in words: "1× H100 SXM5 · Llama 3.3 70B · FP8 · …"
    # Other current figures of the same metric and setting: the ones it may be ranked against.
    same_context: list[BenchmarkView]
    same_context_total: int
    links: ItemLinks


class ClaimDetail(BaseModel):
    """What one source says about one capability of one system (every reading it gives),
    beside the cell it is part of."""

    system: SystemSummary
    capability: CapabilityView
    source: SourceDetail
    readings: list[ClaimView]  # usually one; several where the source contradicts itself
    team: bool  # the team's own claim, not a published source's
    first_party: bool  # the project's own docs, release notes or blog
    cell_level: str  # what the cell reads, weighing every source (docs/data-model.md)
    cell_disputed: bool
    cell_weak: bool
    cell_reason: str
    others: list[ClaimView]  # the other sources' claims on the same cell, strongest first
    links: ItemLinks


def figure_detail(session: Session, figure_id: str, today: dt.date) -> FigureDetail | None:
    """The figure with id `figure_id`, or None when no figure has it."""
    found = benchmark_views(session, BenchmarkResult.slug == figure_id)
    if not found:
        return None
    latest = latest_versions(session)
    view = with_freshness(found, latest, today)[0]
    row = session.exec(select(BenchmarkResult).where(BenchmarkResult.slug == figure_id)).one()
    # The same metric and setting, then checked on every part of the key (gpus, concurrency).
    peers = benchmark_views(
        session,
        BenchmarkResult.metric_id == row.metric_id,
        BenchmarkResult.hardware_id == row.hardware_id,
        BenchmarkResult.model_id == row.model_id,
        col(BenchmarkResult.withdrawn).is_(False),
        BenchmarkResult.slug != figure_id,
    )
    key = context_key(view)
    same = [p for p in peers if context_key(p) == key]
    source = next(s for s in list_sources(session) if s.slug == view.source.slug)
    return FigureDetail(
        figure=view,
        source=source,
        team=source.kind == "team-measurement",
        context_label=context_label(view),
        same_context=with_freshness(same[:SAME_CONTEXT_LISTED], latest, today),
        same_context_total=len(same),
        links=ItemLinks(
            page=f"/benchmarks/{figure_id}",
            json_url=f"/api/v1/benchmarks/{figure_id}",
            system=f"/systems/{view.system}#benchmarks",
            source=f"/sources#{view.source.slug}",
            context=context_url(view),
        ),
    )


def figure_ids(session: Session) -> list[str]:
    """Every figure's id: what an unknown id's 404 suggests from."""
    return list(session.exec(select(BenchmarkResult.slug)))


def context_label(view: BenchmarkView) -> str:
    """The figure's setting in words; what the source leaves out is said to be unstated."""
    hardware = view.hardware_name or view.hardware_text or "hardware not stated"
    if view.gpus:
        hardware = f"{view.gpus}× {hardware}"
    parts = [hardware, view.model_name or view.model_text or "model not stated"]
    if view.precision:
        parts.append(view.precision)
    if view.concurrency:
        parts.append(f"{view.concurrency} concurrent")
    if view.workload_name:
        parts.append(view.workload_name)
    return " · ".join(parts)


def context_url(view: BenchmarkView) -> str:
    """/benchmarks filtered to the figure's metric and setting (as far as filters reach)."""
    return f"/benchmarks?{context_query(view, BenchmarkParams())}"


def claim_path(system: str, capability: str, source: str) -> str:
    return f"/systems/{system}/claims/{capability}/{source}"


def claim_detail(session: Session, system: str, capability: str, source: str) -> ClaimDetail | None:
    """What `source` says about `capability` of `system`; None when it says nothing there
    (or a slug names nothing: `claim_miss` says which)."""
    found = find_cell(session, system, capability)
    if found is None or found.cell is None:
        return None
    readings = [c for c in found.cell.claims if c.source.slug == source]
    if not readings:
        return None
    readings.sort(key=lambda c: c.reading or 0)
    detail = next(s for s in list_sources(session) if s.slug == source)
    cap = next(c for c in list_capabilities(session) if c.slug == capability)
    path = claim_path(system, capability, source)
    return ClaimDetail(
        system=found.system,
        capability=cap,
        source=detail,
        readings=readings,
        team=detail.kind == "team-measurement",
        first_party=detail.kind in FIRST_PARTY_KINDS,
        cell_level=found.cell.level,
        cell_disputed=found.cell.disputed,
        cell_weak=found.cell.weak,
        cell_reason=found.cell.reason,
        others=[c for c in found.cell.claims if c.source.slug != source],
        links=ItemLinks(
            page=path,
            json_url=f"/api/v1{path}",
            system=f"/systems/{system}#cap-{capability}",
            source=f"/sources#{source}",
            cell=f"/matrix/cell?{urlencode({'system': system, 'capability': capability})}",
            feature=f"/features/{capability}",
        ),
    )


def claim_miss(
    session: Session, system: str, capability: str, source: str
) -> tuple[str, str, list[str], dict[str, str]]:
    """Why no claim page: (field, value, allowed, names) for the 404 — the first slug that
    names nothing, else the source, with the sources that do speak to the cell allowed."""
    found = find_cell(session, system, capability)
    if found is None:
        names = system_name_map(session)
        if system not in names:
            return "system", system, list(names), names
        caps = {c.slug: c.name for c in list_capabilities(session)}
        return "capability", capability, list(caps), caps
    claims = found.cell.claims if found.cell else []
    speaking = {c.source.slug: c.source.short for c in claims}
    return "source", source, list(speaking), speaking

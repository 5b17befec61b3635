"""Capabilities, sources and the freshness of the data set."""

import datetime as dt
from collections import Counter, defaultdict

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.data_version.version import data_version, per_version
from app.models import BenchmarkResult, Claim, Meta, Source, System, SystemFact, SystemNote
from app.queries.common import capabilities_in_order, source_caveats, source_refs, system_names
from app.schemas import CapabilityView, Freshness, Names, SourceDetail


@per_version()
def list_capabilities(session: Session) -> list[CapabilityView]:
    """Every capability with its category, in display order."""
    return [
        CapabilityView(
            slug=cap.slug,
            name=cap.name,
            description=cap.description,
            category=cat.slug,
            category_name=cat.name,
            kind=cat.kind,
        )
        for cap, cat in capabilities_in_order(session)
    ]


@per_version()
def list_sources(session: Session) -> list[SourceDetail]:
    """Every source, newest first, with what it contributed."""
    names = system_names(session)
    caveats = source_caveats(session)
    claims = Counter(session.exec(select(Claim.source_id)).all())
    benchmarks = Counter(session.exec(select(BenchmarkResult.source_id)).all())
    facts = Counter(session.exec(select(SystemFact.source_id)).all())
    systems: dict[int, set[str]] = defaultdict(set)
    for model in (Claim, BenchmarkResult, SystemFact, SystemNote):
        for source_id, system_id in session.exec(select(model.source_id, model.system_id)):
            systems[source_id].add(names[system_id][0])
    rows = session.exec(select(Source).order_by(col(Source.date).desc(), col(Source.slug)))
    return [
        SourceDetail(
            **s.model_dump(exclude={"id", "position"}),
            caveats=caveats.get(s.id, []),  # type: ignore[arg-type]
            claim_count=claims[s.id],  # type: ignore[index]
            benchmark_count=benchmarks[s.id],  # type: ignore[index]
            fact_count=facts[s.id],  # type: ignore[index]
            systems=sorted(systems[s.id]),  # type: ignore[index]
        )
        for s in rows
    ]


def freshness(session: Session) -> Freshness:
    """How much data there is and how recent it is."""

    def count(model: type) -> int:
        return session.exec(select(func.count()).select_from(model)).one()

    meta = {m.key: m.value for m in session.exec(select(Meta))}
    return Freshness(
        seeded_at=meta.get("seeded_at"),
        newest_source=session.exec(select(func.max(Source.date))).one(),
        system_count=count(System),
        claim_count=count(Claim),
        benchmark_count=count(BenchmarkResult),
        source_count=count(Source),
    )


_facts: dict[str, Freshness] = {}


def site_facts(session: Session) -> Freshness:
    """The footer's figures, computed once per data version inside the caller's transaction."""
    version = data_version(session)
    facts = _facts.get(version)
    if facts is None:
        facts = freshness(session)
        _facts.clear()  # only the newest version is asked for again
        _facts[version] = facts
    return facts


def last_loaded(session: Session) -> dt.datetime:
    """When the data was last loaded (an empty feed still needs a time), or else the epoch."""
    seeded_at = site_facts(session).seeded_at
    if seeded_at:
        return dt.datetime.fromisoformat(seeded_at)
    return dt.datetime.fromtimestamp(0, dt.UTC)


def change_names(session: Session) -> Names:
    """The names a change is described with: systems, capabilities, sources' short names."""
    return Names(
        systems={slug: name for slug, name in system_names(session).values()},
        capabilities={c.slug: c.name for c in list_capabilities(session)},
        sources={r.slug: r.short for r in source_refs(session).values()},
    )

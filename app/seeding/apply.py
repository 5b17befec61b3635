"""Write validated seed data to the database in one transaction."""

import secrets
from datetime import UTC, datetime

from sqlalchemy import Engine, delete
from sqlmodel import Session, SQLModel, select

from app.db import writer
from app.models import (
    BenchmarkResult,
    Capability,
    CapabilityCategory,
    Claim,
    Meta,
    Metric,
    Rule,
    Source,
    SourceCaveat,
    System,
    SystemFact,
    SystemNote,
)
from app.seeding.load import SeedData

# Children first, so foreign keys never dangle while the old data is removed.
_TABLES_IN_DELETE_ORDER: tuple[type[SQLModel], ...] = (
    Rule, BenchmarkResult, Claim, SystemFact, SystemNote, System, Metric,
    Capability, CapabilityCategory, SourceCaveat, Source,
)  # fmt: skip


def apply_seed(engine: Engine, data: SeedData) -> None:
    """Replace the seeded data with `data`; all or nothing."""
    with Session(writer(engine)) as session, session.begin():
        for table in _TABLES_IN_DELETE_ORDER:
            session.exec(delete(table))  # type: ignore[call-overload]
        ids = _Ids()
        ids.sources = _add_sources(session, data)
        ids.capabilities = _add_capabilities(session, data)
        ids.metrics = _add_metrics(session, data)
        ids.systems = _add_systems(session, data, ids.sources)
        _add_claims(session, data, ids)
        _add_benchmarks(session, data, ids)
        _add_rules(session, data, ids.sources)
        _bump_version(session)


class _Ids:
    sources: dict[str, int]
    capabilities: dict[str, int]
    metrics: dict[str, int]
    systems: dict[str, int]


def _flush_ids(session: Session, rows: dict[str, SQLModel]) -> dict[str, int]:
    session.add_all(rows.values())
    session.flush()
    return {slug: row.id for slug, row in rows.items()}  # type: ignore[attr-defined]


def _add_sources(session: Session, data: SeedData) -> dict[str, int]:
    rows = {
        slug: Source(slug=slug, position=i, **entry.model_dump(exclude={"caveats"}))
        for i, (slug, entry) in enumerate(data.sources.items())
    }
    ids = _flush_ids(session, rows)
    for slug, entry in data.sources.items():
        session.add_all(
            SourceCaveat(source_id=ids[slug], position=i, **caveat.model_dump())
            for i, caveat in enumerate(entry.caveats)
        )
    return ids


def _add_capabilities(session: Session, data: SeedData) -> dict[str, int]:
    categories = {
        slug: CapabilityCategory(slug=slug, name=c.name, kind=c.kind, position=i)
        for i, (slug, c) in enumerate(data.categories.items())
    }
    category_ids = _flush_ids(session, categories)
    rows = {
        slug: Capability(
            slug=slug,
            name=c.name,
            description=c.description,
            category_id=category_ids[c.category],
            position=i,
        )
        for i, (slug, c) in enumerate(data.capabilities.items())
    }
    return _flush_ids(session, rows)


def _add_metrics(session: Session, data: SeedData) -> dict[str, int]:
    rows = {
        slug: Metric(slug=slug, position=i, **m.model_dump())
        for i, (slug, m) in enumerate(data.metrics.items())
    }
    return _flush_ids(session, rows)


def _add_systems(session: Session, data: SeedData, source_ids: dict[str, int]) -> dict[str, int]:
    rows = {
        slug: System(
            slug=slug,
            **s.model_dump(exclude={"best_for", "weaknesses", "facts"}),
        )
        for slug, s in data.systems.items()
    }
    system_ids = _flush_ids(session, rows)
    for slug, s in data.systems.items():
        sid = system_ids[slug]
        for kind, lines in (("best_for", s.best_for), ("weakness", s.weaknesses)):
            session.add_all(
                SystemNote(system_id=sid, kind=kind, text=line.text,
                           source_id=source_ids[line.source], position=i)
                for i, line in enumerate(lines)
            )  # fmt: skip
        session.add_all(
            SystemFact(system_id=sid, source_id=source_ids[f.source], position=i,
                       **f.model_dump(exclude={"source"}))
            for i, f in enumerate(s.facts)
        )  # fmt: skip
    return system_ids


def _add_claims(session: Session, data: SeedData, ids: _Ids) -> None:
    position = 0
    for source, by_system in data.claims.items():
        for system, by_capability in by_system.items():
            for capability, entries in by_capability.items():
                for claim in entries if isinstance(entries, list) else [entries]:
                    session.add(
                        Claim(
                            system_id=ids.systems[system],
                            capability_id=ids.capabilities[capability],
                            source_id=ids.sources[source],
                            position=position,
                            **claim.model_dump(),
                        )
                    )
                    position += 1


def _add_benchmarks(session: Session, data: SeedData, ids: _Ids) -> None:
    position = 0
    for source, rows in data.benchmarks.items():
        for row in rows:
            fields = row.model_dump(exclude={"id", "system", "metric"})
            session.add(
                BenchmarkResult(
                    slug=row.id,
                    system_id=ids.systems[row.system],
                    metric_id=ids.metrics[row.metric],
                    source_id=ids.sources[source],
                    position=position,
                    **fields,
                )
            )
            position += 1


def _add_rules(session: Session, data: SeedData, source_ids: dict[str, int]) -> None:
    for i, (slug, rule) in enumerate(data.rules.items()):
        fields = rule.model_dump(exclude={"source", "requires", "rests_on"})
        fields["requires"] = rule.requires.model_dump(exclude_none=True) if rule.requires else None
        fields["rests_on"] = rule.rests_on.model_dump(exclude_none=True) if rule.rests_on else None
        session.add(Rule(slug=slug, source_id=source_ids[rule.source], position=i, **fields))


def _bump_version(session: Session) -> None:
    """Record when the data changed; caches key on the version."""
    current = session.exec(select(Meta).where(Meta.key == "data_version")).first()
    count = int(current.value.partition(".")[0]) + 1 if current else 1
    # The random part makes a version unique across databases, so caches shared by
    # several databases in one process (tests, a restore) never mix them up.
    version = f"{count}.{secrets.token_hex(4)}"
    now = datetime.now(UTC).isoformat(timespec="seconds")
    for key, value in (("data_version", version), ("seeded_at", now)):
        session.merge(Meta(key=key, value=value))

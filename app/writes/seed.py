"""Bring the published data in the database up to validated seed data, in one transaction.

An upsert by stable keys, not wipe-and-insert, so the ids of unchanged rows (and everything
that points at them: team items, revisions) stay valid:

- sources, capability categories, capabilities, metrics, systems and rules by slug,
  benchmark results by their id (`slug` in the table);
- claims by cell and source (system, capability, source); when a source gives several
  readings of a cell, its readings are matched by note first, then in file order;
- a system's best-for/weakness lines (per kind) and facts, and a source's caveats, are lists
  without keys of their own: they are matched as a diff would (`pair_up`): an unchanged
  entry keeps its row wherever it moved, an edited one is updated in place, and what is
  left over is added or removed.

A row whose values are unchanged is not written. A published row that is no longer in the
seed is deleted, unless another row points at it (any foreign key, so team tables added
later count): then it stays, marked withdrawn. The seed owns the published sources and the
rows citing them, and every system, capability, category, metric and rule; rows citing a
team's own (unpublished) source are never read or written here.

Every published item whose document changed (see seeding/docs.py) gets a revision by the actor
"seed". The first seed of an empty database writes one summary revision instead of one per
row: before it there was nothing to compare with.
"""

from collections import defaultdict
from operator import attrgetter
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, SQLModel, select

from app.data_version.version import bump_data_version
from app.db import lock_writes, writer
from app.models import (
    VOCABULARY_TABLES,
    BenchmarkResult,
    Capability,
    CapabilityCategory,
    Claim,
    Hardware,
    HardwareAlias,
    LanguageModel,
    LanguageModelAlias,
    Metric,
    Rule,
    Source,
    SourceCaveat,
    System,
    SystemFact,
    SystemNote,
    Workload,
    WorkloadAlias,
)
from app.seeding.docs import Doc, published_docs
from app.seeding.entries import VOCABULARY_FILES
from app.seeding.errors import SeedError, SeedProblem
from app.seeding.reader import SeedData
from app.vocabulary.names import alias_key
from app.writes import revisions, seed_models
from app.writes.seed_rows import SeedReport, SeedRows

# Children before the rows they point at, so a parent is checked for references only once
# its own published children are gone.
_REMOVAL_ORDER: tuple[type[SQLModel], ...] = (
    *seed_models.REMOVAL_ORDER,
    Rule,
    BenchmarkResult,
    HardwareAlias,
    LanguageModelAlias,
    WorkloadAlias,
    Hardware,
    LanguageModel,
    Workload,
    Claim,
    SystemFact,
    SystemNote,
    System,
    Metric,
    Capability,
    CapabilityCategory,
    SourceCaveat,
    Source,
)


def apply_seed(engine: Engine, data: SeedData, actor: str = revisions.SEED_ACTOR) -> SeedReport:
    """Make the published data match `data`; all or nothing."""
    with Session(writer(engine)) as session, session.begin():
        report = apply_seed_in(session, data, actor)
    return report


def apply_seed_in(
    session: Session, data: SeedData, actor: str = revisions.SEED_ACTOR
) -> SeedReport:
    """`apply_seed` inside the caller's write transaction (a restore seeds and adds the
    team's rows in one); the caller commits."""
    lock_writes(session)
    report = _Seeder(session, data).run(actor)
    bump_data_version(session, seeded=True)
    return report


class _Seeder(SeedRows):
    def run(self, actor: str) -> SeedReport:
        self.report.first = not self.published and self._count(System) == 0
        before = {} if self.report.first else published_docs(self.session)
        self.sync_sources()
        self.sync_capabilities()
        self.sync_metrics()
        self.sync_vocabularies()
        self.sync_systems()
        self.sync_claims()
        self.sync_benchmarks()
        self.sync_rules()
        seed_models.sync_model_support(self)
        self.session.flush()
        for model in _REMOVAL_ORDER:
            self.remove(model, self.report.leftovers.get(model, []))
        if self.report.first:
            self.record_first_load(actor)
        elif self.report.changed:
            self.record_changes(actor, before, published_docs(self.session))
        return self.report

    # -- tables ---------------------------------------------------------------------------
    def sync_sources(self) -> None:
        existing = {s.slug: s for s in self.session.exec(select(Source))}
        taken = [
            slug for slug in self.data.sources if slug in existing and not existing[slug].published
        ]
        if taken:
            raise SeedError(
                [
                    SeedProblem(
                        "sources.yaml",
                        None,
                        slug,
                        "a team's own source already has this slug; rename one",
                    )
                    for slug in taken
                ]
            )
        rows = {}
        for position, (slug, entry) in enumerate(self.data.sources.items()):
            fields = entry.model_dump(exclude={"caveats"})
            fields.update(slug=slug, position=position, published=True, withdrawn=False)
            rows[slug] = self.put(Source, existing.get(slug), fields)
        self.leave(Source, (s for slug, s in existing.items() if s.published and slug not in rows))
        self.session.flush()
        self.ids.sources = {slug: row.id for slug, row in rows.items()}  # type: ignore[misc]
        caveats = self._grouped(SourceCaveat, lambda c: c.source_id)
        for slug, entry in self.data.sources.items():
            source_id = self.ids.sources[slug]
            wanted = [
                {"source_id": source_id, "position": i, **c.model_dump()}
                for i, c in enumerate(entry.caveats)
            ]
            self.sync_list(SourceCaveat, caveats.pop(source_id, []), wanted, ("kind", "text"))
        for rows_left in caveats.values():  # caveats of sources that left the seed
            self.leave(SourceCaveat, (c for c in rows_left if c.source_id in self.published))

    def sync_capabilities(self) -> None:
        self.ids.categories = self.by_slug(
            CapabilityCategory,
            {
                slug: {"name": c.name, "kind": c.kind, "position": i}
                for i, (slug, c) in enumerate(self.data.categories.items())
            },
        )
        self.ids.capabilities = self.by_slug(
            Capability,
            {
                slug: {
                    "name": c.name,
                    "description": c.description,
                    "position": i,
                    "category_id": self.ids.categories[c.category],
                    "withdrawn": False,
                }
                for i, (slug, c) in enumerate(self.data.capabilities.items())
            },
        )

    def sync_metrics(self) -> None:
        self.ids.metrics = self.by_slug(
            Metric,
            {
                slug: {**m.model_dump(), "position": i, "withdrawn": False}
                for i, (slug, m) in enumerate(self.data.metrics.items())
            },
        )

    def sync_vocabularies(self) -> None:
        """Hardware, models and workloads by slug; each entry's aliases as a keyless list."""
        self.ids.vocabulary = {}
        for kind, (model, alias_model, parent) in VOCABULARY_TABLES.items():
            entries = getattr(self.data, VOCABULARY_FILES[kind][2])
            ids = self.ids.vocabulary[kind] = self.by_slug(
                model,
                {
                    slug: {
                        **e.model_dump(exclude={"aliases", *seed_models.APPLIED_APART}),
                        "position": i,
                        "withdrawn": False,
                    }
                    for i, (slug, e) in enumerate(entries.items())
                },
            )
            aliases = self._grouped(alias_model, attrgetter(parent), seeded_only=True)
            for slug, entry in entries.items():
                wanted = [
                    {parent: ids[slug], "alias": alias, "key": alias_key(alias), "position": i}
                    for i, alias in enumerate(entry.aliases)
                ]
                self.sync_list(alias_model, aliases.pop(ids[slug], []), wanted, ("alias",))
            for rows in aliases.values():  # aliases of entries that left the seed
                self.leave(alias_model, rows)

    def sync_systems(self) -> None:
        self.ids.systems = self.by_slug(
            System,
            {
                slug: {
                    **s.model_dump(exclude={"best_for", "weaknesses", "facts"}),
                    "withdrawn": False,
                }
                for slug, s in self.data.systems.items()
            },
        )
        sources = self.ids.sources
        notes = self._grouped(SystemNote, lambda n: (n.system_id, n.kind), scoped=True)
        facts = self._grouped(SystemFact, lambda f: f.system_id, scoped=True)
        for slug, s in self.data.systems.items():
            sid = self.ids.systems[slug]
            for kind, lines in (("best_for", s.best_for), ("weakness", s.weaknesses)):
                wanted = [
                    {
                        "system_id": sid,
                        "kind": kind,
                        "text": line.text,
                        "source_id": sources[line.source],
                        "position": i,
                    }
                    for i, line in enumerate(lines)
                ]
                self.sync_list(
                    SystemNote, notes.pop((sid, kind), []), wanted, ("text", "source_id")
                )
            wanted = [
                {
                    **f.model_dump(exclude={"source"}),
                    "system_id": sid,
                    "source_id": sources[f.source],
                    "position": i,
                }
                for i, f in enumerate(s.facts)
            ]
            content = ("attribute", "value", "date", "note", "source_id")
            self.sync_list(SystemFact, facts.pop(sid, []), wanted, content)
        # What is left belongs to systems that left the seed.
        for note_rows in notes.values():
            self.leave(SystemNote, note_rows)
        for fact_rows in facts.values():
            self.leave(SystemFact, fact_rows)

    def sync_claims(self) -> None:
        cells = self._grouped(
            Claim, lambda c: (c.system_id, c.capability_id, c.source_id), scoped=True
        )
        wanted: dict[tuple[int, int, int], list[dict[str, Any]]] = defaultdict(list)
        position = 0
        for source, by_system in self.data.claims.items():
            for system, by_capability in by_system.items():
                for capability, entries in by_capability.items():
                    cell = (
                        self.ids.systems[system],
                        self.ids.capabilities[capability],
                        self.ids.sources[source],
                    )
                    for claim in entries if isinstance(entries, list) else [entries]:
                        wanted[cell].append(
                            {
                                "system_id": cell[0],
                                "capability_id": cell[1],
                                "source_id": cell[2],
                                "position": position,
                                "withdrawn": False,
                                **claim.model_dump(),
                            }
                        )
                        position += 1
        for cell, readings in wanted.items():
            self.sync_list(Claim, cells.pop(cell, []), readings, ("note",))
        for rows in cells.values():
            self.leave(Claim, rows)

    def sync_benchmarks(self) -> None:
        existing = {r.slug: r for r in self.session.exec(select(BenchmarkResult))}
        wanted: dict[str, dict[str, Any]] = {}
        position = 0
        for source, rows in self.data.benchmarks.items():
            for row in rows:
                vocabulary = {
                    f"{kind}_id": self.ids.vocabulary[kind][slug] if slug else None
                    for kind in VOCABULARY_TABLES
                    for slug in [getattr(row, kind)]
                }
                wanted[row.id] = {
                    **row.model_dump(exclude={"id", "system", "metric", *VOCABULARY_TABLES}),
                    **vocabulary,
                    "hardware_text": None,
                    "model_text": None,
                    "slug": row.id,
                    "system_id": self.ids.systems[row.system],
                    "metric_id": self.ids.metrics[row.metric],
                    "source_id": self.ids.sources[source],
                    "position": position,
                    "withdrawn": False,
                }
                position += 1
        taken = [slug for slug in wanted if slug in existing and not self._ours(existing[slug])]
        if taken:
            raise SeedError(
                [
                    SeedProblem(
                        "benchmarks", None, slug, "a team result already has this id; rename one"
                    )
                    for slug in taken
                ]
            )
        for slug, fields in wanted.items():
            self.put(BenchmarkResult, existing.get(slug), fields)
        self.leave(
            BenchmarkResult,
            (r for slug, r in existing.items() if slug not in wanted and self._ours(r)),
        )

    def sync_rules(self) -> None:
        wanted = {}
        for i, (slug, rule) in enumerate(self.data.rules.items()):
            fields = rule.model_dump(exclude={"source", "requires", "rests_on"})
            fields["requires"] = (
                rule.requires.model_dump(exclude_defaults=True) if rule.requires else None
            )
            fields["rests_on"] = (
                rule.rests_on.model_dump(exclude_defaults=True) if rule.rests_on else None
            )
            wanted[slug] = {**fields, "source_id": self.ids.sources[rule.source], "position": i}
        self.by_slug(Rule, wanted)

    # -- revisions ------------------------------------------------------------------------
    def record_first_load(self, actor: str) -> None:
        counts = {
            "sources": len(self.data.sources),
            "systems": len(self.data.systems),
            "capabilities": len(self.data.capabilities),
            "claims": self._count(Claim),
            "benchmark_results": self._count(BenchmarkResult),
            "rules": len(self.data.rules),
        }
        revisions.record(
            self.session,
            actor=actor,
            entity="dataset",
            key="published",
            action="create",
            after=counts,
            message="First load of the published data set",
        )
        self.report.revisions = 1

    def record_changes(
        self, actor: str, before: dict[tuple[str, str], Doc], after: dict[tuple[str, str], Doc]
    ) -> None:
        for key in [*before, *(k for k in after if k not in before)]:
            old, new = before.get(key), after.get(key)
            if old is not None and new is not None and old.body == new.body:
                continue
            action = _action(old, new)
            doc = new or old
            assert doc is not None
            revisions.record(
                self.session,
                actor=actor,
                entity=doc.entity,
                key=doc.key,
                action=action,
                before=old.body if old else None,
                after=new.body if new else None,
                system_slug=doc.system_slug,
            )
            self.report.revisions += 1


def _action(old: Doc | None, new: Doc | None) -> revisions.Action:
    if old is None:
        return "create"
    if new is None:
        return "delete"
    if new.body.get("withdrawn") and not old.body.get("withdrawn"):
        return "withdraw"
    return "update"

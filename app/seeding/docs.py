"""Each published item as a JSON document in the seed's own terms (slugs, not ids).

A reseed reads these before and after it writes and records a revision for every document
that changed, so a revision shows what a reader of the seed files would see change. A system's
best-for/weakness lines and facts belong to its document, a source's caveats to the source's:
they have no identity of their own. Positions (file order) are not content and are left out,
except as the order of those lists.
"""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, select
from sqlmodel import Session, col

from app.models import (
    VOCABULARY_TABLES,
    BenchmarkResult,
    Capability,
    CapabilityCategory,
    Claim,
    Metric,
    Rule,
    Source,
    SourceCaveat,
    System,
    SystemFact,
    SystemNote,
)

NOT_CONTENT = {
    "id",
    "slug",
    "position",
    "published",
    "withdrawn",
    "user_id",
    "version",
    "updated_at",
    "team",
}


VOCABULARY_IDS = {f"{kind}_id" for kind in VOCABULARY_TABLES}


@dataclass(frozen=True)
class Doc:
    entity: str
    key: str
    system_slug: str | None
    body: dict[str, Any]


def published_docs(session: Session) -> dict[tuple[str, str], Doc]:
    """Every published item's document, keyed by (entity, key)."""
    reader = _Reader(session)
    docs = [
        *reader.sources(),
        *reader.categories(),
        *reader.capabilities(),
        *reader.metrics(),
        *reader.vocabularies(),
        *reader.systems(),
        *reader.claims(),
        *reader.benchmarks(),
        *reader.rules(),
    ]
    return {(d.entity, d.key): d for d in docs}


def _compact(values: dict[str, Any], drop: set[str] = NOT_CONTENT) -> dict[str, Any]:
    """The content fields, without empty ones; `withdrawn` shown only when set."""
    body = {k: v for k, v in values.items() if k not in drop and v is not None and v != []}
    if values.get("withdrawn"):
        body["withdrawn"] = True
    return body


class _Reader:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.published = {
            row.id: row.slug
            for row in self._rows(Source.__table__)  # type: ignore[attr-defined]
            if row.published
        }
        self.system = self._slugs(System)
        self.capability = self._slugs(Capability)
        self.category = self._slugs(CapabilityCategory)
        self.metric = self._slugs(Metric)
        self.vocabulary = {
            kind: self._slugs(model) for kind, (model, *_) in VOCABULARY_TABLES.items()
        }

    def _rows(self, table: Table, *order: Any) -> list[Any]:
        return list(self.session.execute(select(table).order_by(*order)).mappings())

    def _slugs(self, model: Any) -> dict[int, str]:
        return {row[0]: row[1] for row in self.session.execute(select(model.id, model.slug))}

    def _table(self, model: Any) -> Table:
        return model.__table__  # type: ignore[no-any-return]

    def sources(self) -> list[Doc]:
        caveats: dict[int, list[dict[str, str]]] = defaultdict(list)
        for c in self._rows(self._table(SourceCaveat), col(SourceCaveat.position)):
            caveats[c.source_id].append({"kind": c.kind, "text": c.text})
        return [
            Doc("source", s.slug, None, _compact({**s, "caveats": caveats[s.id]}))
            for s in self._rows(self._table(Source))
            if s.id in self.published
        ]

    def categories(self) -> list[Doc]:
        return [
            Doc("capability_category", c.slug, None, _compact(dict(c)))
            for c in self._rows(self._table(CapabilityCategory))
        ]

    def capabilities(self) -> list[Doc]:
        drop = {*NOT_CONTENT, "category_id"}
        return [
            Doc(
                "capability",
                c.slug,
                None,
                _compact({**c, "category": self.category[c.category_id]}, drop),
            )
            for c in self._rows(self._table(Capability))
        ]

    def metrics(self) -> list[Doc]:
        return [
            Doc("metric", m.slug, None, _compact(dict(m))) for m in self._rows(self._table(Metric))
        ]

    def vocabularies(self) -> list[Doc]:
        """A hardware, model or workload entry with its aliases, as its seed file has it."""
        docs = []
        for kind, (model, alias_model, parent) in VOCABULARY_TABLES.items():
            aliases: dict[int, list[str]] = defaultdict(list)
            for a in self._rows(self._table(alias_model), col(alias_model.position)):
                if not a.team:  # a team's alias is the team's change, not the seed's
                    aliases[a[parent]].append(a.alias)
            docs += [
                Doc(kind, e.slug, None, _compact({**e, "aliases": aliases[e.id]}))
                for e in self._rows(self._table(model))
                if not e.team
            ]
        return docs

    def systems(self) -> list[Doc]:
        notes: dict[int, dict[str, list[dict[str, str]]]] = defaultdict(lambda: defaultdict(list))
        for n in self._rows(self._table(SystemNote), col(SystemNote.position)):
            if n.source_id in self.published:
                key = "best_for" if n.kind == "best_for" else "weaknesses"
                notes[n.system_id][key].append(
                    {"text": n.text, "source": self.published[n.source_id]}
                )
        facts: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for f in self._rows(self._table(SystemFact), col(SystemFact.position)):
            if f.source_id in self.published:
                facts[f.system_id].append(
                    _compact(
                        {**f, "source": self.published[f.source_id]},
                        {*NOT_CONTENT, "system_id", "source_id"},
                    )
                )
        return [
            Doc("system", s.slug, s.slug, _compact({**s, **notes[s.id], "facts": facts[s.id]}))
            for s in self._rows(self._table(System))
            if not s.team
        ]

    def claims(self) -> list[Doc]:
        # A source that contradicts itself has several readings of one cell: one document.
        readings: dict[tuple[int, int, int], list[dict[str, Any]]] = defaultdict(list)
        for c in self._rows(self._table(Claim), col(Claim.position)):
            if c.source_id in self.published:
                readings[(c.system_id, c.capability_id, c.source_id)].append(
                    _compact(dict(c), {*NOT_CONTENT, "system_id", "capability_id", "source_id"})
                )
        docs = []
        for (system_id, capability_id, source_id), rows in readings.items():
            system = self.system[system_id]
            key = f"{system}/{self.capability[capability_id]}/{self.published[source_id]}"
            body = rows[0] if len(rows) == 1 else {"readings": rows}
            docs.append(Doc("claim", key, system, body))
        return docs

    def benchmarks(self) -> list[Doc]:
        docs = []
        for r in self._rows(self._table(BenchmarkResult)):
            if r.source_id in self.published:
                body = _compact(
                    {
                        **r,
                        "system": self.system[r.system_id],
                        "metric": self.metric[r.metric_id],
                        "source": self.published[r.source_id],
                        **{kind: ids.get(r[f"{kind}_id"]) for kind, ids in self.vocabulary.items()},
                    },
                    {*NOT_CONTENT, "system_id", "metric_id", "source_id", *VOCABULARY_IDS},
                )
                docs.append(Doc("benchmark_result", r.slug, self.system[r.system_id], body))
        return docs

    def rules(self) -> list[Doc]:
        drop = {*NOT_CONTENT, "source_id"}
        return [
            Doc(
                "rule",
                r.slug,
                None,
                _compact({**r, "source": self.published.get(r.source_id)}, drop),
            )
            for r in self._rows(self._table(Rule))
        ]

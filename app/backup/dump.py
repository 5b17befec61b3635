"""Write a backup: the seed files and team.json, both read in one snapshot of the database.

The seed files hold the published data (app/seeding/export.py); team.json holds every row
they do not: the team's own sources, claims and results, published rows kept only because
team rows point at them (withdrawn), users, API tokens and the whole history.
"""

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, or_
from sqlmodel import Session, SQLModel, col, select

from app.accounts.models import ApiToken, UserAccount
from app.backup.document import FORMAT, FORMAT_VERSION, TEAM_FILE, BackupError, BackupProblem
from app.db import reader
from app.migrations.migrate import current_revision, head_revision
from app.models import (
    VOCABULARY_TABLES,
    BenchmarkResult,
    Capability,
    CapabilityCategory,
    Claim,
    Hardware,
    HardwarePrice,
    ImportBatch,
    ImportRun,
    LanguageModel,
    Metric,
    ModelConfig,
    Revision,
    Source,
    SourceCaveat,
    System,
    SystemFact,
    SystemNote,
    TeamNote,
    Workload,
)
from app.ops.files import write_atomically
from app.seeding.export import render_seed_files, write_seed_files

# A foreign key is written as the stable key of the row it points at, under this name.
FOREIGN = {
    "system_id": "system",
    "capability_id": "capability",
    "metric_id": "metric",
    "source_id": "source",
    "category_id": "category",
    "user_id": "user",
    "import_run_id": "import_run",
    "hardware_id": "hardware",
    "model_id": "model",
    "workload_id": "workload",
}


@dataclass
class Exported:
    """What `export_backup` wrote: how many seed files, and the items in team.json."""

    seed_files: int
    counts: dict[str, int]


def export_backup(engine: Engine, out_dir: Path) -> Exported:
    """Write the seed files and team.json under out_dir (team.json readable by its owner only:
    it holds password hashes)."""
    with Session(reader(engine)) as session:
        document = team_document(session)
        files = render_seed_files(session)
    write_seed_files(out_dir, files)
    write_atomically(out_dir / TEAM_FILE, dumps(document), mode=0o600)
    counts = {k: len(v) for k, v in document.items() if isinstance(v, list)}
    return Exported(seed_files=len(files), counts=counts)


def dumps(document: dict[str, Any]) -> str:
    """The document as team.json's text: the same data always gives the same bytes."""
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def team_document(session: Session) -> dict[str, Any]:
    """Everything the seed files do not hold, keyed by stable keys, in a fixed order."""
    revision = current_revision(session.connection())
    if revision != head_revision():
        at = f"is at schema revision {revision}" if revision else "has no schema yet"
        newest = f"the newest is {head_revision()}; run `inference-atlas migrate` first"
        message = f"the database {at}; {newest}"
        problem = BackupProblem("", message)
        raise BackupError("the database", [problem])
    rows = _Rows(session)
    _check_everything_carried(session, rows)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_revision": revision,
        "users": [rows.doc(u) for u in _all(session, UserAccount, UserAccount.name)],
        "tokens": rows.tokens(),
        "sources": rows.sources(),
        "withdrawn_systems": rows.withdrawn(System, System.slug),
        "withdrawn_capabilities": rows.withdrawn(Capability, Capability.position),
        "withdrawn_metrics": rows.withdrawn(Metric, Metric.position),
        "withdrawn_hardware": rows.withdrawn(Hardware, Hardware.position),
        # A published model's base link is seed data (seed/models.yaml), not the team's.
        "withdrawn_models": [
            {k: v for k, v in doc.items() if k != "base_id"}
            for doc in rows.withdrawn(LanguageModel, LanguageModel.position)
        ],
        "withdrawn_workloads": rows.withdrawn(Workload, Workload.position),
        "team_aliases": rows.team_aliases(),
        "claims": rows.claims(),
        "imports": rows.imports(),
        "results": rows.results(),
        "notes": rows.notes(),
        "prices": [
            rows.doc(p, drop=()) for p in _all(session, HardwarePrice, HardwarePrice.hardware)
        ],
        "model_configs": _team_configs(session, rows),
        "revisions": [rows.doc(r, drop=()) for r in _all(session, Revision, Revision.id)],
    }


def _team_configs(session: Session, rows: "_Rows") -> list[dict[str, Any]]:
    """The config facts of the team's own models (published ones are in seed/models.yaml)."""
    held = select(LanguageModel.id, LanguageModel.slug).where(col(LanguageModel.team))
    team = dict(session.exec(held).all())
    configs = _all(session, ModelConfig, ModelConfig.id)
    return [
        {"model": team[c.languagemodel_id], **rows.doc(c, drop=("id", "languagemodel_id"))}
        for c in configs
        if c.languagemodel_id in team
    ]


def _all(session: Session, model: type[SQLModel], *order: Any) -> list[Any]:
    return list(session.exec(select(model).order_by(*order)))


class _Rows:
    """Reads the rows to carry and writes them as documents (ids turned into keys)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.names: dict[str, dict[int, str]] = {
            "source": self._slugs(Source),
            "system": self._slugs(System),
            "capability": self._slugs(Capability),
            "metric": self._slugs(Metric),
            "category": self._slugs(CapabilityCategory),
            **{kind: self._slugs(model) for kind, (model, *_) in VOCABULARY_TABLES.items()},
            "user": {u.id: u.name for u in session.exec(select(UserAccount))},  # type: ignore[misc]
        }
        # The sources the seed files hold (published, not withdrawn): rows citing one of
        # them, unless withdrawn, are in the seed files; every other row is carried here.
        self.seeded = set(
            session.exec(select(Source.id).where(col(Source.published), ~col(Source.withdrawn)))
        )

    def _slugs(self, model: Any) -> dict[int, str]:
        return dict(self.session.exec(select(model.id, model.slug)).all())

    def in_seed_files(self, row: Any) -> bool:
        return row.source_id in self.seeded and not row.withdrawn

    def doc(self, row: SQLModel, drop: tuple[str, ...] = ("id",)) -> dict[str, Any]:
        """The row's columns in table order, foreign keys as the keys of what they point at."""
        out: dict[str, Any] = {}
        # In the table's column order: a loaded row's attributes come in no fixed order.
        for column in row.__table__.columns:  # type: ignore[attr-defined]
            name = column.key
            if name in drop:
                continue
            value = getattr(row, name)
            if name in FOREIGN:
                kind = FOREIGN[name]
                out[kind] = None if value is None else self.names[kind][value]
            else:
                out[name] = value.astimezone(dt.UTC).isoformat() if _is_time(value) else value
        return out

    def tokens(self) -> list[dict[str, Any]]:
        docs = [self.doc(t) for t in _all(self.session, ApiToken)]
        return sorted(docs, key=lambda t: (t["user"], t["created_at"], t["token_hash"]))

    def sources(self) -> list[dict[str, Any]]:
        caveats: dict[int, list[dict[str, Any]]] = {}
        for c in _all(self.session, SourceCaveat, SourceCaveat.position, SourceCaveat.id):
            caveats.setdefault(c.source_id, []).append({"kind": c.kind, "text": c.text})
        return [
            self.doc(s) | {"caveats": caveats.get(s.id, [])}
            for s in _all(self.session, Source, Source.position, Source.slug)
            if s.id not in self.seeded
        ]

    def withdrawn(self, model: Any, order: Any) -> list[dict[str, Any]]:
        """Rows the seed files do not hold: published ones kept withdrawn, and a team's own."""
        held = (
            or_(col(model.withdrawn), col(model.team))
            if hasattr(model, "team")
            else (col(model.withdrawn))
        )
        rows = self.session.exec(select(model).where(held).order_by(order))
        return sorted((self.doc(r) for r in rows), key=lambda d: (d.get("position", 0), d["slug"]))

    def team_aliases(self) -> list[dict[str, Any]]:
        """The names a team gave entries (its own or published ones), by kind and entry."""
        docs = []
        for kind, (_, alias_model, parent) in VOCABULARY_TABLES.items():
            for a in _all(self.session, alias_model, alias_model.position, alias_model.id):
                if a.team:
                    user = self.names["user"][a.user_id] if a.user_id is not None else None
                    entry = self.names[kind][getattr(a, parent)]
                    docs.append(
                        {
                            "kind": kind,
                            "entry": entry,
                            "alias": a.alias,
                            "position": a.position,
                            "user": user,
                        }
                    )
        return docs

    def claims(self) -> list[dict[str, Any]]:
        docs = [self.doc(c) for c in _all(self.session, Claim) if not self.in_seed_files(c)]
        order = ("position", "system", "capability", "source")
        return sorted(docs, key=lambda d: (*(d[k] for k in order), d["note"] or ""))

    def results(self) -> list[dict[str, Any]]:
        rows = [r for r in _all(self.session, BenchmarkResult) if not self.in_seed_files(r)]
        runs = {
            run.id: f"{key}#{run.position}"
            for run, key in self.session.exec(
                select(ImportRun, ImportBatch.key).join(
                    ImportBatch,
                    col(ImportBatch.id) == ImportRun.batch_id,
                )
            )
        }
        docs = [
            {"id": r.slug}
            | self.doc(r, drop=("id", "slug", "import_run_id"))
            | {"import_run": runs.get(r.import_run_id) if r.import_run_id else None}
            for r in rows
        ]
        return sorted(docs, key=lambda d: (d["position"], d["id"]))

    def imports(self) -> list[dict[str, Any]]:
        batches = self.session.exec(
            select(ImportBatch).where(ImportBatch.state == "saved").order_by(ImportBatch.key)
        )
        docs = []
        for batch in batches:
            runs = self.session.exec(
                select(ImportRun)
                .where(ImportRun.batch_id == batch.id)
                .order_by(col(ImportRun.position))
            )
            docs.append(
                self.doc(batch) | {"runs": [self.doc(r, drop=("id", "batch_id")) for r in runs]}
            )
        return docs

    def notes(self) -> list[dict[str, Any]]:
        """Each note with its item by stable keys: a claim by its cell, source and note (what
        tells a source's readings apart), a figure by its id."""
        notes = _all(self.session, TeamNote)
        claim_ids = {n.claim_id for n in notes if n.claim_id is not None}
        result_ids = {n.result_id for n in notes if n.result_id is not None}
        claims = {c.id: c for c in _all(self.session, Claim) if c.id in claim_ids}
        results = {r.id: r.slug for r in _all(self.session, BenchmarkResult) if r.id in result_ids}
        docs = []
        for note in notes:
            doc = self.doc(note, drop=("id", "slug", "claim_id", "result_id"))
            claim = claims.get(note.claim_id)
            on = (
                {
                    "capability": self.names["capability"][claim.capability_id],
                    "source": self.names["source"][claim.source_id],
                    "note": claim.note,
                }
                if claim
                else None
            )
            item = {"claim": on, "result": results.get(note.result_id)}
            docs.append({"id": note.slug, "system": doc.pop("system")} | item | doc)
        return sorted(docs, key=lambda d: (d["created_at"], d["id"]))


def _is_time(value: Any) -> bool:
    return isinstance(value, dt.datetime)


def _check_everything_carried(session: Session, rows: _Rows) -> None:
    """Refuse to write a backup that would lose rows: the seed files hold a system's lines
    and facts only when they cite a published source, and team.json does not hold them
    (no team writes such rows yet). A new kind of team row must be added here first."""
    withdrawn = set(session.exec(select(System.id).where(col(System.withdrawn))))
    problems = []
    for model in (SystemNote, SystemFact):
        for row in _all(session, model, model.id):
            if row.source_id not in rows.seeded or row.system_id in withdrawn:
                system = rows.names["system"][row.system_id]
                source = rows.names["source"][row.source_id]
                place = f"{model.__tablename__} of {system} citing {source}"
                problems.append(BackupProblem(place, "a backup cannot hold this row yet"))
    if problems:
        raise BackupError("the database", problems)

"""Write the published data back out in the seed format (the inverse of load + apply).

Only what the seed owns: published sources and the rows citing them, without withdrawn
rows (they have left the seed). A team's own sources, claims and results are not seed data.
"""

import csv
import io
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.db import reader
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
)
from app.ops.files import write_atomically
from app.queries.common import notes_and_facts
from app.seeding.entries import VOCABULARY_FILES
from app.seeding.export_models import model_extras, model_files
from app.seeding.layout import FOLDERS
from app.seeding.schema import (
    BENCHMARK_COLUMNS,
    ClaimEntry,
    MetricEntry,
    SourceEntry,
    SystemFile,
)
from app.seeding.yamlio import dump_yaml


def export_seed(engine: Engine, out_dir: Path) -> list[Path]:
    """Write every seed file under out_dir; return the paths written."""
    # One read snapshot (REPEATABLE READ on PostgreSQL), so a write committed meanwhile
    # never leaves the files disagreeing with each other.
    with Session(reader(engine)) as session:
        files = render_seed_files(session)
    return write_seed_files(out_dir, files)


def write_seed_files(out_dir: Path, files: dict[str, str]) -> list[Path]:
    """Write `files` (relative path -> text) under out_dir, each one atomically.

    Data files of the seed layout already in out_dir that are not among them are removed:
    they hold rows that have left the database since an earlier export, and the loader
    would read them back. Nothing else in out_dir is touched.
    """
    written = []
    for relative, text in files.items():
        path = out_dir / relative
        write_atomically(path, text)
        written.append(path)
    for folder, suffix in FOLDERS.items():
        for path in sorted((out_dir / folder).glob(f"*{suffix}")):
            if path.relative_to(out_dir).as_posix() not in files:
                path.unlink()
    return written


def render_seed_files(session: Session) -> dict[str, str]:
    """Every seed file (relative path -> text) for the published data in `session`."""
    slugs = _Slugs(session)
    files = {
        "sources.yaml": dump_yaml(_sources(session, slugs)),
        "capabilities.yaml": dump_yaml(_capabilities(session)),
        "metrics.yaml": dump_yaml(_metrics(session)),
        **{
            file_name: dump_yaml(_vocabulary(session, kind, slugs))
            for kind, (file_name, *_) in VOCABULARY_FILES.items()
        },
    }
    for system in session.exec(_current(System).order_by(System.slug)):
        files[f"systems/{system.slug}.yaml"] = dump_yaml(_system(session, system, slugs))
    for source_slug, claims in _claims(session, slugs).items():
        files[f"claims/{source_slug}.yaml"] = dump_yaml(claims)
    for source_slug, rows in _benchmarks(session, slugs).items():
        files[f"benchmarks/{source_slug}.csv"] = _csv(rows)
    files.update(model_files(session, slugs))
    # Always written: an empty rules.yaml is an error, and no rules is written `{}`.
    files["rules.yaml"] = dump_yaml(_rules(session, slugs))
    return files


class _Slugs:
    """id -> slug lookups of the seed's current rows, loaded once."""

    def __init__(self, session: Session) -> None:
        self.source = {
            s.id: s.slug for s in session.exec(_current(Source).where(col(Source.published)))
        }
        self.system = {s.id: s.slug for s in session.exec(_current(System))}
        self.capability = {c.id: c.slug for c in session.exec(_current(Capability))}
        self.metric = {m.id: m.slug for m in session.exec(_current(Metric))}
        self.category = {c.id: c.slug for c in session.exec(select(CapabilityCategory))}
        self.vocabulary = {
            kind: {r.id: r.slug for r in session.exec(select(model))}
            for kind, (model, *_) in VOCABULARY_TABLES.items()
        }

    def cites_published(self, row: Any) -> bool:
        return row.source_id in self.source and not getattr(row, "withdrawn", False)


def _current(model: Any) -> Any:
    """Rows of `model` that are still in the seed (not withdrawn, not a team's own)."""
    statement = select(model).where(col(model.withdrawn).is_(False))
    if hasattr(model, "team"):
        statement = statement.where(col(model.team).is_(False))
    return statement


def _clean(values: dict[str, Any], schema: type[BaseModel] | None = None) -> dict[str, Any]:
    """Drop empty optional fields; order keys as the seed schema declares them."""
    order = list(schema.model_fields) if schema else list(values)
    return {
        k: values[k] for k in order if k in values and values[k] is not None and values[k] != []
    }


def _sources(session: Session, slugs: _Slugs) -> dict[str, Any]:
    caveats: dict[int, list[dict[str, str]]] = {}
    for c in session.exec(select(SourceCaveat).order_by(col(SourceCaveat.position))):
        caveats.setdefault(c.source_id, []).append({"kind": c.kind, "text": c.text})
    rows = session.exec(select(Source).order_by(col(Source.position)))
    return {
        s.slug: _clean({**s.model_dump(), "caveats": caveats.get(s.id, [])}, SourceEntry)  # type: ignore[arg-type]
        for s in rows
        if s.id in slugs.source
    }


def _capabilities(session: Session) -> dict[str, Any]:
    categories = session.exec(select(CapabilityCategory).order_by(col(CapabilityCategory.position)))
    caps = session.exec(_current(Capability).order_by(col(Capability.position)))
    category_slug = {}
    out_categories = {}
    for c in categories:
        category_slug[c.id] = c.slug
        out_categories[c.slug] = {"name": c.name, "kind": c.kind}
    out_caps = {
        c.slug: {
            "name": c.name,
            "category": category_slug[c.category_id],
            "description": c.description,
        }
        for c in caps
    }
    return {"categories": out_categories, "capabilities": out_caps}


def _metrics(session: Session) -> dict[str, Any]:
    rows = session.exec(_current(Metric).order_by(col(Metric.position)))
    return {m.slug: _clean(m.model_dump(), MetricEntry) for m in rows}


def _vocabulary(session: Session, kind: str, slugs: "_Slugs") -> dict[str, Any]:
    schema = VOCABULARY_FILES[kind][1]
    model, alias_model, parent = VOCABULARY_TABLES[kind]
    aliases: dict[int, list[str]] = defaultdict(list)
    team_aliases = col(alias_model.team).is_(False)
    for a in session.exec(
        select(alias_model).where(team_aliases).order_by(col(alias_model.position))
    ):
        aliases[getattr(a, parent)].append(a.alias)
    extras = model_extras(session, slugs) if kind == "model" else {}  # base and config
    out = {}
    for row in session.exec(_current(model).order_by(col(model.position))):
        values = {k: _whole(v) for k, v in row.model_dump().items()} | extras.get(row.id, {})
        # Flags are written only when set, as the seed files write them.
        flags = {k: values[k] or None for k in ("vague", "unified_memory") if k in values}
        out[row.slug] = _clean({**values, **flags, "aliases": aliases[row.id]}, schema)
    return out


def _whole(value: Any) -> Any:
    """80.0 as 80: the seed files write whole numbers without a decimal point."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _system(session: Session, system: System, slugs: _Slugs) -> dict[str, Any]:
    notes, facts = notes_and_facts(session, system.id)
    notes = [n for n in notes if slugs.cites_published(n)]
    facts = [f for f in facts if slugs.cites_published(f)]
    out = system.model_dump()
    for kind, key in (("best_for", "best_for"), ("weakness", "weaknesses")):
        out[key] = [
            {"text": n.text, "source": slugs.source[n.source_id]} for n in notes if n.kind == kind
        ]
    out["facts"] = [
        _clean(
            {
                "attribute": f.attribute,
                "value": f.value,
                "date": f.date,
                "source": slugs.source[f.source_id],
                "note": f.note,
            }
        )
        for f in facts
    ]
    return _clean(out, SystemFile)


def _claims(session: Session, slugs: _Slugs) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = defaultdict(dict)
    for claim in session.exec(select(Claim).order_by(col(Claim.position))):
        if not slugs.cites_published(claim):
            continue
        by_system = out[slugs.source[claim.source_id]].setdefault(slugs.system[claim.system_id], {})
        entry = _clean(claim.model_dump(include=set(ClaimEntry.model_fields)), ClaimEntry)
        capability = slugs.capability[claim.capability_id]
        if capability in by_system:  # a second reading of the same source: a list of claims
            earlier = by_system[capability]
            by_system[capability] = [*(earlier if isinstance(earlier, list) else [earlier]), entry]
        else:
            by_system[capability] = entry["level"] if list(entry) == ["level"] else entry
    return dict(out)


def _benchmarks(session: Session, slugs: _Slugs) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in session.exec(select(BenchmarkResult).order_by(col(BenchmarkResult.position))):
        if not slugs.cites_published(row):
            continue
        values = row.model_dump()
        values.update(
            id=row.slug, system=slugs.system[row.system_id], metric=slugs.metric[row.metric_id]
        )
        for kind, ids in slugs.vocabulary.items():
            values[kind] = ids.get(values[f"{kind}_id"])
        out[slugs.source[row.source_id]].append(values)
    return dict(out)


def _number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _csv(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(BENCHMARK_COLUMNS)
    for row in rows:
        writer.writerow([_number(row[c]) for c in BENCHMARK_COLUMNS])
    return buffer.getvalue()


def _rules(session: Session, slugs: _Slugs) -> dict[str, Any]:
    rows = session.exec(select(Rule).order_by(col(Rule.position)))
    return {
        r.slug: _clean(
            {
                "when": r.when or None,
                "systems": r.systems,
                "requires": r.requires,
                "effect": r.effect,
                "weight": r.weight,
                "reason": r.reason,
                "source": slugs.source[r.source_id],
                "advice": r.advice,
                "fallback": r.fallback or None,
                "rests_on": r.rests_on,
            }
        )
        for r in rows
    }

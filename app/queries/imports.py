"""Result-file imports as the import page lists them (app/writes/imports.py makes them)."""

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from app.accounts.models import UserAccount
from app.importers.runs import TOOLS
from app.models import ImportBatch, Source

RECENT = 20


@dataclass(frozen=True)
class RecentImport:
    """One saved import: the file, the tool that wrote it, what it held, who and when."""

    file: str
    tool: str
    runs: int
    results: int
    by: str
    at: dt.datetime
    source: str  # the slug of the team source its results were saved under


def recent_imports(session: Session, limit: int = RECENT) -> list[RecentImport]:
    """The newest saved imports, newest first."""
    rows = session.exec(
        select(ImportBatch, UserAccount.name, Source.slug)
        .join(UserAccount, col(UserAccount.id) == ImportBatch.user_id)
        .join(Source, col(Source.id) == ImportBatch.source_id)
        .where(ImportBatch.state == "saved")
        .order_by(col(ImportBatch.created_at).desc())
        .limit(limit)
    ).all()
    return [
        RecentImport(
            file=batch.file_name,
            tool=TOOLS.get(batch.format, batch.format).split(" (")[0],
            runs=len(batch.preview.get("runs", [])),
            results=len(batch.preview.get("results", [])),
            by=name,
            at=batch.created_at,
            source=source,
        )
        for batch, name, source in rows
    ]


@dataclass(frozen=True)
class SavedRun:
    """One run of a saved import as an llm-d report describes it (app/present/llmd_report.py):
    its setup and normalised metrics, and the ids and words the report carries."""

    setup: dict[str, Any]
    metrics: dict[str, Any]
    uid: str
    eid: str
    description: str
    load_tool: str


def result_run(session: Session, slug: str) -> SavedRun:
    """The run a team result was imported from. Raises LookupError for no such result, or one
    typed in rather than imported (it has no run to describe)."""
    from app.models import BenchmarkResult, ImportRun

    found = session.exec(
        select(ImportBatch.key, ImportRun.position)
        .join(ImportRun, col(ImportRun.batch_id) == col(ImportBatch.id))
        .join(BenchmarkResult, col(BenchmarkResult.import_run_id) == col(ImportRun.id))
        .where(col(BenchmarkResult.slug) == slug)
    ).first()
    if found is None:
        raise LookupError(
            f"no team result {slug!r} was imported from a result file; only imported results "
            "have a run to write as a report"
        )
    return saved_runs(session, found[0], found[1])[0]


def saved_runs(session: Session, key: str, position: int | None = None) -> list[SavedRun]:
    """A saved import's runs in file order; one run when `position` is given. Raises
    LookupError for no such saved import or run."""
    from app.models import ImportRun

    batch = session.exec(
        select(ImportBatch).where(col(ImportBatch.key) == key, col(ImportBatch.state) == "saved")
    ).first()
    if batch is None:
        raise LookupError(f"no saved import has the id {key!r}")
    query = select(ImportRun).where(col(ImportRun.batch_id) == batch.id)
    if position is not None:
        query = query.where(col(ImportRun.position) == position)
    rows = session.exec(query.order_by(col(ImportRun.position))).all()
    if not rows:
        raise LookupError(f"the import {key} has no run {position}")
    return [
        SavedRun(
            row.setup,
            row.metrics,
            uid=f"atlas-{key}-{row.position}",
            eid=f"atlas-{key}",
            description=f"{batch.file_name} {row.location}".strip(),
            load_tool=batch.format,
        )
        for row in rows
    ]


def run_places(session: Session, run_ids: set[int]) -> dict[int, tuple[int, str]]:
    """run id -> (its 0-based place in its file, where in the file: "line 3", "[2]")."""
    from app.models import ImportRun

    if not run_ids:
        return {}
    rows = session.exec(
        select(ImportRun.id, ImportRun.position, ImportRun.location).where(
            col(ImportRun.id).in_(run_ids)
        )
    ).all()
    return {run_id: (position, location) for run_id, position, location in rows if run_id}

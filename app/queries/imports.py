"""Result-file imports as the import page lists them (app/writes/imports.py makes them)."""

import datetime as dt
from dataclasses import dataclass

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

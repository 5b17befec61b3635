"""Import a benchmark tool's result file as team results: preview first, then confirm.

`preview_import` parses the file (app/importers), fills each run's context from what the
uploader gave and, where they left a field empty, from the file itself, and checks every
result it would save against the write API's own rules, saving nothing but the pending
preview. `confirm_import` saves all of a preview's results or none, under a source of their
own (the tool, the file, the date), each result linked to the run it came from with every
metric the file gave (normalised units) and the file's own numbers.

A preview is a database row rather than process memory: a team runs several app processes,
and the confirmation may reach another one than the upload did.
"""

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Final, cast
from urllib.parse import quote

from sqlalchemy import delete, insert
from sqlmodel import Session, col, select

from app.accounts.identity import SignedIn
from app.accounts.models import Role, UserAccount
from app.db import lock_writes
from app.importers import (
    ParsedFile,
    is_archive,
    parse_result_file,
    parse_result_set,
    unpack_archive,
)
from app.importers.runs import TOOLS
from app.models import ImportBatch, ImportRun, Source
from app.webhooks.events import IMPORT_CONFIRMED
from app.writes import outbox
from app.writes.common import TeamError
from app.writes.documents import ImportDoc
from app.writes.entries import add_entry

# The import's input and its preview, named from here by their callers (the routes, the CLI)
# beside the functions that take them.
from app.writes.import_preview import CONTEXT_FIELDS as CONTEXT_FIELDS
from app.writes.import_preview import PARSED, run_from_record
from app.writes.import_preview import ImportContext as ImportContext
from app.writes.import_preview import build_preview as build_preview
from app.writes.inputs import TeamResultIn
from app.writes.team import TEAM_KIND, add_results

PENDING_FOR = dt.timedelta(days=1)


class UnknownImportError(Exception):
    """No pending or saved import has this id (or it is someone else's)."""


@dataclass(frozen=True)
class Preview:
    """A pending import as the API and the pages show it."""

    document: ImportDoc

    @property
    def key(self) -> str:
        return str(self.document["id"])

    @property
    def ready(self) -> bool:
        return bool(self.document["ready"])


# Uploads one user may make in a rolling day: each is parsed (up to 50 MB) and its preview
# kept for a day, so an editor's token cannot fill the disk or keep the server parsing.
IMPORTS_PER_DAY: Final = 50
QUOTA_WINDOW: Final = dt.timedelta(days=1)


class ImportQuotaError(Exception):
    """`who` has used the day's uploads; `retry_after` is seconds until the oldest leaves."""

    def __init__(self, used: int, retry_after: int) -> None:
        self.retry_after = retry_after
        hours = max(1, round(retry_after / 3600))
        super().__init__(
            f"You have uploaded {used} result files in the last 24 hours, the most one account "
            f"may; the next one can be uploaded in about {hours} hour{'s' if hours > 1 else ''}."
        )


def check_import_quota(session: Session, who: SignedIn, now: dt.datetime | None = None) -> None:
    """Raise ImportQuotaError when `who` has made IMPORTS_PER_DAY uploads in the last day
    (saved or not: parsing is the cost)."""
    now = now or _now()
    since = now - QUOTA_WINDOW
    recent = session.exec(
        select(ImportBatch.created_at)
        .where(ImportBatch.user_id == who.user_id, col(ImportBatch.created_at) > since)
        .order_by(col(ImportBatch.created_at))
    ).all()
    if len(recent) >= IMPORTS_PER_DAY:
        oldest = recent[len(recent) - IMPORTS_PER_DAY]
        if oldest.tzinfo is None:
            oldest = oldest.replace(tzinfo=dt.UTC)
        wait = int((oldest + QUOTA_WINDOW - now).total_seconds()) + 1
        raise ImportQuotaError(len(recent), max(wait, 1))


def preview_import(
    session: Session,
    who: SignedIn,
    file_name: str,
    data: bytes,
    context: ImportContext,
    file_format: str | None = None,
) -> Preview:
    """Parse `data` and keep it as a pending import of `who`. Raises ResultFileError, and
    ImportQuotaError (before parsing) when `who` has used the day's uploads."""
    check_import_quota(session, who)
    parsed = parse_result_file(file_name, data, file_format)
    return preview_parsed(session, who, parsed, data, context)


def preview_upload(
    session: Session,
    who: SignedIn,
    files: list[tuple[str, bytes]],
    context: ImportContext,
    file_format: str | None = None,
) -> Preview:
    """One uploaded file as `preview_import`; several files, or one zip/tar archive, as one
    sweep of all their result files (app/importers/sets.py). Raises ResultFileError, and
    ImportQuotaError (before anything is unpacked or parsed)."""
    check_import_quota(session, who)
    if len(files) == 1 and not is_archive(files[0][1]):
        name, data = files[0]
        return preview_import(session, who, name, data, context, file_format)
    if len(files) == 1:
        name, data = files[0]
        parsed = parse_result_set(name, unpack_archive(name, data), file_format)
        return preview_parsed(session, who, parsed, data, context)
    name = f"{len(files)} files ({files[0][0]}, …)"
    parsed = parse_result_set(name, files, file_format)
    manifest = "".join(
        f"{entry}\t{hashlib.sha256(data).hexdigest()}\n" for entry, data in sorted(files)
    )
    return preview_parsed(session, who, parsed, manifest.encode(), context)


def preview_parsed(
    session: Session, who: SignedIn, parsed: ParsedFile, data: bytes, context: ImportContext
) -> Preview:
    """Keep the parsed file `parsed` (whose bytes are `data`) as a pending import of `who`."""
    file_name = parsed.name
    document = build_preview(session, parsed, context)
    now = _now()
    batch = ImportBatch(
        # Hex: the key is also part of the import's source slug, which allows no '_' or '--'.
        key=secrets.token_hex(8),
        user_id=who.user_id,
        created_at=now,
        file_name=file_name[:300],
        file_sha256=hashlib.sha256(data).hexdigest(),
        format=parsed.format,
        context=context.model_dump(exclude_none=True),
        preview=dict(document),
    )
    # Old previews nobody confirmed go, so uploads cannot pile up.
    session.execute(
        delete(ImportBatch).where(
            col(ImportBatch.state) == "pending",
            col(ImportBatch.created_at) < now - PENDING_FOR,
        )
    )
    session.add(batch)
    session.flush()
    return Preview(_describe(batch, who.name))


def update_context(session: Session, who: SignedIn, key: str, context: ImportContext) -> Preview:
    """Build a pending import's preview again with another context (the file is not kept)."""
    batch = _batch(session, who, key)
    if batch.state != "pending":
        raise TeamError({"id": f"the import {key} was already saved"})
    stored = batch.preview[PARSED]
    runs = tuple(run_from_record(r) for r in stored["runs"])
    parsed = ParsedFile(stored["name"], batch.format, runs, tuple(stored["notes"]))
    batch.preview = dict(build_preview(session, parsed, context))
    batch.context = context.model_dump(exclude_none=True)
    session.add(batch)
    session.flush()
    owner = session.get(UserAccount, batch.user_id)
    return Preview(_describe(batch, owner.name if owner else "?"))


def add_import_entry(
    session: Session, who: SignedIn, key: str, kind: str, fields: dict[str, Any], aliases: list[str]
) -> dict[str, Any]:
    """Add the entry a pending import's file names (the uploader's or an admin's import only),
    then preview the import again so its runs resolve to it."""
    batch = _batch(session, who, key)
    doc = add_entry(session, who, kind, fields, aliases)
    update_context(session, who, key, ImportContext.model_validate(batch.context))
    return doc


def confirm_import(session: Session, who: SignedIn, key: str, team_name: str) -> ImportDoc:
    """Save every result of the pending import `key`, or none. Returns the saved import."""
    lock_writes(session)
    batch = _batch(session, who, key)
    if batch.state != "pending":
        raise TeamError({"id": f"the import {key} was already saved"})
    preview = batch.preview
    if not preview["ready"]:
        raise TeamError(preview["problems"] or {"file": "nothing to save"})
    source = _import_source(session, batch, who)
    runs = [
        {
            "batch_id": batch.id,
            "position": run["index"],
            "location": run["where"][:100],
            "setup": run["setup"],
            "metrics": run["metrics"],
            "raw": run["raw"],
        }
        for run in preview["runs"]
    ]
    # One statement for every run (see add_results); the batch's runs are then read back by
    # their place in the file (RETURNING in order runs row by row on SQLite).
    session.execute(insert(ImportRun), runs)
    run_ids: dict[int, int] = dict(
        session.exec(
            select(ImportRun.position, col(ImportRun.id)).where(ImportRun.batch_id == batch.id)
        ).all()  # type: ignore[arg-type]  # a primary key read back is never None
    )
    results = [TeamResultIn.model_validate(r) for r in preview["results"]]
    saved = add_results(
        session,
        who,
        results,
        team_name,
        source=source,
        import_runs=[run_ids[i] for i in preview["result_runs"]],
    )
    batch.state, batch.source_id = "saved", source.id
    # Saved: the runs live on as ImportRun rows; the parsed copy is no longer needed.
    batch.preview = {k: v for k, v in preview.items() if k != PARSED}
    session.add(batch)
    document = _describe(batch, who.name)
    subject = {"import": key, "results": len(saved.items), "link": f"/imports/{quote(key)}"}
    outbox.name_event(session, IMPORT_CONFIRMED, subject)
    return document | {"saved": saved.items}


def pending_import(session: Session, who: SignedIn, key: str) -> Preview:
    return _preview_of(session, _batch(session, who, key))


def shown_import(session: Session, who: SignedIn | None, key: str) -> Preview:
    """An import as anyone may look at it: a saved one to every reader (its runs and how they
    resolved are the team's results, public on /benchmarks already; the file itself is never
    kept), a pending preview only to its uploader and admins (UnknownImportError otherwise,
    so a stranger learns nothing of it)."""
    batch = session.exec(select(ImportBatch).where(ImportBatch.key == key)).first()
    if batch is not None and batch.state == "saved":
        return _preview_of(session, batch)
    if who is None:
        raise UnknownImportError(f"no saved import has the id {key!r}")
    return pending_import(session, who, key)


def _preview_of(session: Session, batch: ImportBatch) -> Preview:
    owner = session.get(UserAccount, batch.user_id)
    return Preview(_describe(batch, owner.name if owner else "?"))


def _batch(session: Session, who: SignedIn, key: str) -> ImportBatch:
    batch = session.exec(select(ImportBatch).where(ImportBatch.key == key)).first()
    # Someone else's preview is not theirs to confirm (an admin may).
    if batch is None or (batch.user_id != who.user_id and not who.allows(Role.admin)):
        raise UnknownImportError(f"no import has the id {key!r}")
    return batch


def _import_source(session: Session, batch: ImportBatch, who: SignedIn) -> Source:
    today = _now().date().isoformat()
    source = Source(
        slug=f"import-{batch.key}",
        short=f"{batch.file_name[:60]}",
        title=f"{TOOLS[batch.format]}: {batch.file_name}, imported by {who.name} on {today}",
        date=today,
        kind=TEAM_KIND,
        note=f"A result file the team ran and imported (sha256 {batch.file_sha256[:12]}…).",
        position=1_000_001,
        published=False,
    )
    session.add(source)
    session.flush()
    return source


def _describe(batch: ImportBatch, by: str) -> ImportDoc:
    document = {
        "id": batch.key,
        "state": batch.state,
        "file": batch.file_name,
        "sha256": batch.file_sha256,
        "by": by,
        "created_at": batch.created_at.isoformat(timespec="seconds"),
        "context": batch.context,
    } | {k: v for k, v in batch.preview.items() if k != PARSED}
    # The preview is read back from its JSON column: a PreviewDoc, which mypy cannot know.
    return cast(ImportDoc, document)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)

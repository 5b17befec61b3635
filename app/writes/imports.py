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
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final, cast

from pydantic import Field, ValidationError
from sqlalchemy import delete, insert
from sqlmodel import Session, col, select

from app.accounts.identity import SignedIn
from app.accounts.models import Role, UserAccount
from app.db import lock_writes
from app.importers import (
    AtlasFigure,
    ParsedFile,
    ParsedRun,
    atlas_figures,
    is_archive,
    parse_result_file,
    parse_result_set,
    unpack_archive,
)
from app.importers.runs import TOOLS
from app.models import ImportBatch, ImportRun, Source
from app.queries.entries import vocabulary_names
from app.seeding.schema import OptionalText, Slug, Strict
from app.vocabulary.names import Names, api_listing, canonical_precision
from app.writes.common import TeamError
from app.writes.documents import ImportDoc, PreviewDoc, RunPreview, RunSetup
from app.writes.entries import add_entry
from app.writes.inputs import Concurrency, TeamResultIn
from app.writes.team import TEAM_KIND, add_results, result_problems

MAX_IMPORT_RUNS = 1000
"""Runs saved by one import (each gives up to about fifteen results, each with a revision)."""
PENDING_FOR = dt.timedelta(days=1)
# The system a file establishes by itself: llama-bench measures llama.cpp and nothing else.
ENGINE_SYSTEMS = {"llama-bench": "llama-cpp"}
RUN_ENGINES = {"sglang": "sglang", "vllm": "vllm", "llama.cpp": "llama-cpp"}
PARSED: Final = "parsed"  # the preview's key for the parsed runs, kept so the context can change


class ImportContext(Strict):
    """What the uploader says about the runs; a field left empty is taken from the file."""

    system: Slug | None = None
    hardware: OptionalText = Field(
        default=None, description="A hardware slug or alias (GET /api/v1/hardware)"
    )
    gpus: Concurrency = Field(default=None, description="GPUs the run used")
    precision: OptionalText = None
    system_version: OptionalText = None
    model: OptionalText = Field(
        default=None, description="A model slug or alias (GET /api/v1/models)"
    )
    workload: OptionalText = Field(
        default=None, description="A workload slug or alias (GET /api/v1/workloads)"
    )


CONTEXT_FIELDS = tuple(ImportContext.model_fields)


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


def build_preview(session: Session, parsed: ParsedFile, context: ImportContext) -> PreviewDoc:
    """The runs, the results they would give, and what is missing or wrong (by field)."""
    problems: dict[str, str] = {}
    if len(parsed.runs) > MAX_IMPORT_RUNS:
        problems["file"] = (
            f"{len(parsed.runs)} runs in one file; at most {MAX_IMPORT_RUNS} are imported at "
            "once: split the file"
        )
        runs: tuple[ParsedRun, ...] = ()
    else:
        runs = parsed.runs
    previews, results, owners = [], [], []
    unsaved: list[str] = []
    names = vocabulary_names(session)
    for run in runs:
        setup, missing = _setup(parsed, run, context, names)
        for name, message in missing.items():
            problems.setdefault(name, message)
        figures = atlas_figures(run)
        if not figures:
            # Shown, not saved; one such run (llama-bench's pp512+tg128) keeps no other back.
            unsaved.append(f"{run.source}: no metric the Atlas keeps was measured; not saved")
        previews.append(_run_preview(run, setup, figures))
        if missing:
            continue
        for figure in figures:
            try:
                result = TeamResultIn(
                    system=setup["system"],
                    metric=figure.metric,
                    value=round(figure.value, 6),
                    unit=figure.unit,
                    hardware=setup.get("hardware"),
                    gpus=setup.get("gpus"),
                    model=setup.get("model"),
                    precision=setup.get("precision"),
                    concurrency=setup.get("concurrency"),
                    workload=setup.get("workload"),
                    setup=setup.get("setup"),
                    system_version=setup.get("system_version"),
                    date=setup.get("date"),
                    note=_note(parsed, run, figure.derived),
                )
            except ValidationError as exc:
                for error in exc.errors():
                    field = ".".join(str(p) for p in error["loc"])
                    problems.setdefault(field, f"{run.source}: {error['msg']}")
                continue
            results.append(result)
            owners.append(run.index)
    if runs and not results and not problems:
        problems["file"] = "no run in the file measured a metric the Atlas keeps: nothing to save"
    if results and not problems:
        for name, message in result_problems(session, results).items():
            index, _, field = name.partition(".")
            which = owners[int(index.strip("[]"))] if field else owners[0]
            where = runs[which].source  # "" for a file of one run
            problems.setdefault(field or name, f"{where}: {message}" if where else message)
    return {
        # The runs as parsed, so the context can be changed without the file (never shown).
        PARSED: {
            "name": parsed.name,
            "notes": list(parsed.notes),
            "runs": [run_record(run) for run in runs],
        },
        "format": parsed.format,
        "format_title": TOOLS[parsed.format],
        "notes": [*parsed.notes, *unsaved],
        "runs": previews,
        "results": [r.model_dump(exclude_none=True) for r in results],
        "result_runs": owners,
        "problems": problems,
        "ready": bool(results) and not problems,
    }


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


def run_record(run: ParsedRun) -> dict[str, Any]:
    """A parsed run as JSON (what `run_from_record` reads back)."""
    record: dict[str, Any] = {}
    for item in fields(run):
        value = getattr(run, item.name)
        if isinstance(value, dt.datetime):
            value = value.isoformat()
        elif isinstance(value, Mapping):
            value = dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        record[item.name] = value
    return record


def run_from_record(record: dict[str, Any]) -> ParsedRun:
    values = dict(record)
    if values.get("measured_at"):
        values["measured_at"] = dt.datetime.fromisoformat(values["measured_at"])
    for name in ("derived", "notes"):
        values[name] = tuple(values.get(name) or ())
    return ParsedRun(**values)


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
        {"batch_id": batch.id, "position": run["index"], "location": run["where"][:100],
         "setup": run["setup"], "metrics": run["metrics"], "raw": run["raw"]}
        for run in preview["runs"]
    ]  # fmt: skip
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


def _setup(
    parsed: ParsedFile, run: ParsedRun, context: ImportContext, names: dict[str, Names]
) -> tuple[RunSetup, dict[str, str]]:
    """The run's context: the uploader's value, else the file's; and what is still missing
    or wrong. Hardware, model and workload are vocabulary slugs: a name the file gives is
    looked up among the entries' names and, when it is none of them, asked for, never guessed.
    """
    given = context.model_dump(exclude_none=True)
    engine_system = ENGINE_SYSTEMS.get(parsed.format) or RUN_ENGINES.get(run.engine or "")
    model = run.model.removeprefix("./") if run.model else None
    setup: dict[str, Any] = {
        "system": given.get("system") or engine_system,
        "gpus": given.get("gpus") or run.gpu_count or run.tensor_parallel,
        "precision": _precision(given.get("precision") or run.precision),
        "system_version": given.get("system_version") or run.engine_version,
        "concurrency": run.concurrency,
        "request_rate": run.request_rate,
        "request_rate_unlimited": run.request_rate_unlimited,
        "setup": _setup_line(parsed, run),
        "date": run.measured_at.date().isoformat() if run.measured_at else None,
        "input_tokens": run.configured_input_tokens or _rounded(run.mean_input_tokens),
        "output_tokens": run.configured_output_tokens or _rounded(run.mean_output_tokens),
    }
    problems: dict[str, str] = {}
    in_file = {"hardware": run.gpu_name, "model": model, "workload": None}
    for kind, from_file in in_file.items():
        slug, problem = _entry(names[kind], given.get(kind), from_file)
        setup[kind] = slug
        if from_file:
            setup[f"{kind}_in_file"] = from_file  # shown beside the entry, kept with the run
        if problem:
            problems[kind] = problem
    asks: dict[str, str] = {
        "system": "which inference server ran it? the file does not say",
        "hardware": "which hardware ran it? the file does not name the GPU",
        "precision": "which precision were the weights in? the file does not say",
    }
    for name, question in asks.items():
        if not setup[name] and name not in problems:
            problems[name] = question
    # Keys named in a loop (`hardware_in_file`): mypy cannot see that they make a RunSetup.
    return cast(RunSetup, {k: v for k, v in setup.items() if v not in (None, False)}), problems


def _entry(names: Names, given: str | None, from_file: str | None) -> tuple[str | None, str | None]:
    """(the slug, or what is wrong) for the name the uploader gave, else the file's."""
    listing = api_listing(names.kind)
    if given:
        slug = names.resolve(given)
        return (slug, None) if slug else (None, names.unknown(given, listing))
    if not from_file:
        return None, None
    # A Hugging Face id or a path names the model by its last part ("meta-llama/Llama-3.1-8B",
    # "models/llama-2-7b.Q4_0.gguf"); the whole name is tried first, as an alias may hold it.
    last = from_file.rsplit("/", 1)[-1]
    for candidate in (from_file, last, last.removesuffix(".gguf")):
        slug = names.resolve(candidate)
        if slug:
            return slug, None
    close = names.suggest(last, by_words=True)
    hint = f"did you mean {', '.join(close)}?" if close else f"choose {listing}"
    return None, (
        f"the file names the {names.kind} {from_file!r}, which is not an entry of the "
        f"Atlas's vocabulary: say which entry it is ({hint}; unlisted-{names.kind} if none is)"
    )


def _setup_line(parsed: ParsedFile, run: ParsedRun) -> str:
    """The run's setup in a few words, from the file's own settings."""
    parts = [run.test] if run.test else []
    if run.dataset:
        parts.append(f"{run.dataset} prompts")
    inputs = run.configured_input_tokens or _rounded(run.mean_input_tokens)
    outputs = run.configured_output_tokens or _rounded(run.mean_output_tokens)
    if inputs and outputs and not run.test:
        parts.append(f"~{inputs} in / {outputs} out tokens")
    if run.concurrency:
        parts.append(f"{run.concurrency} concurrent")
    elif run.request_rate:
        parts.append(f"{run.request_rate:g} req/s")
    elif run.request_rate_unlimited:
        parts.append("all requests at once")
    return f"{TOOLS[parsed.format].split(' (')[0]}: {', '.join(parts) or 'as run'}"


def _note(parsed: ParsedFile, run: ParsedRun, derived: bool) -> str:
    note = f"Imported from {parsed.name} ({run.source})"
    return note + "; derived as 1000 / mean TPOT" if derived else note


def _precision(text: str | None) -> str | None:
    """One spelling ("fp8" is FP8), so runs of one setup meet in one curve and context."""
    return canonical_precision(text) if text else None


def _rounded(value: float | None) -> int | None:
    return round(value) if value else None


def _run_preview(run: ParsedRun, setup: RunSetup, figures: list[AtlasFigure]) -> RunPreview:
    return {
        "index": run.index,
        "where": run.source,
        "setup": setup,
        "figures": [
            {"metric": f.metric, "value": f.value, "unit": f.unit, "derived": f.derived}
            for f in figures
        ],
        "metrics": dict(run.metrics),
        "raw": dict(run.raw),
        "notes": list(run.notes),
    }


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

"""The editors' import pages: upload a result file, look at the preview, give what the file
lacks, confirm. The same service as the import API (app/writes/imports.py), in forms."""

from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError
from sqlmodel import Session, col, select
from starlette.concurrency import run_in_threadpool

from app.accounts.models import UserAccount
from app.accounts.users import SignedIn
from app.accounts.web import EditorUser
from app.db import SessionDep
from app.forms.editing import done, page, posted
from app.importers import ResultFileError
from app.importers.runs import TOOLS
from app.models import ImportBatch, Source
from app.queries.entries import vocabulary_choices
from app.queries.matrix import system_name_map
from app.routes.api.imports import MAX_UPLOAD_BYTES, UploadRefused, read_upload
from app.writes import imports
from app.writes.team import TeamError
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

CONTEXT_POST = (*imports.CONTEXT_FIELDS, "next")
RECENT = 20


@dataclass
class ContextForm:
    """The upload form, or a preview's context form: values as typed, problems by field."""

    action: str
    values: dict[str, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    systems: list[tuple[str, str]] = field(default_factory=list)
    general: list[str] = field(default_factory=list)
    vocabulary: dict[str, list[tuple[str, str]]] = field(default_factory=dict)


@router.get("/imports")
async def imports_page(request: Request, session: SessionDep, who: EditorUser) -> Response:
    return await run_in_threadpool(_imports_page, request, session, ContextForm("/imports"), 200)


@router.post("/imports")
async def upload(request: Request, session: SessionDep, who: EditorUser) -> Response:
    received = await read_upload(request)
    return await run_in_threadpool(_upload, request, session, who, received)


def _upload(request: Request, session: Session, who: SignedIn, received: Any) -> Response:
    form = ContextForm("/imports")
    if isinstance(received, UploadRefused):
        form.problems = received.problems
        return _imports_page(request, session, form, received.status)
    form.values = {k: v for k, v in received.fields.items() if v}
    try:
        context = imports.ImportContext.model_validate(
            {k: v or None for k, v in received.fields.items()}
        )
        with write_transaction(session):
            preview = imports.preview_import(
                session, who, received.name, received.data, context, received.file_format
            )
    except ValidationError as exc:
        form.problems = _field_problems(exc)
        return _imports_page(request, session, form, 422)
    except ResultFileError as exc:
        form.problems = {"file": str(exc)}
        return _imports_page(request, session, form, 422)
    return done(request, f"/imports/{preview.key}", _read_message(preview.document))


@router.get("/imports/{key}")
async def preview_page(
    key: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    return await run_in_threadpool(_preview_page, request, session, who, key, None, 200)


@router.post("/imports/{key}/context")
async def change_context(
    key: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, CONTEXT_POST)
    return await run_in_threadpool(_change_context, request, session, who, key, values)


def _change_context(
    request: Request, session: Session, who: SignedIn, key: str, values: dict[str, str]
) -> Response:
    fields = {k: v or None for k, v in values.items() if k in imports.CONTEXT_FIELDS}
    form = ContextForm(f"/imports/{key}/context", values={k: v for k, v in values.items() if v})
    try:
        context = imports.ImportContext.model_validate(fields)
        with write_transaction(session):
            preview = imports.update_context(session, who, key, context)
    except ValidationError as exc:
        form.problems = _field_problems(exc)
        return _preview_page(request, session, who, key, form, 422)
    except imports.UnknownImportError as exc:
        return _gone(request, session, str(exc))
    except TeamError as exc:
        form.general = list(exc.problems.values())
        return _preview_page(request, session, who, key, form, 422)
    return done(request, f"/imports/{key}", _read_message(preview.document))


@router.post("/imports/{key}/confirm")
async def confirm(key: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    await posted(request, ("next",))
    return await run_in_threadpool(_confirm, request, session, who, key)


def _confirm(request: Request, session: Session, who: SignedIn, key: str) -> Response:
    team = request.app.state.settings.atlas_team_name
    try:
        with write_transaction(session):
            saved = imports.confirm_import(session, who, key, team)
    except imports.UnknownImportError as exc:
        return _gone(request, session, str(exc))
    except TeamError as exc:
        form = ContextForm(f"/imports/{key}/context", general=list(exc.problems.values()))
        return _preview_page(request, session, who, key, form, 422)
    source = saved["saved"][0]["source"] if saved["saved"] else ""
    message = f"Saved {len(saved['saved'])} team results from {saved['file']}."
    return done(request, f"/benchmarks?origin=team&source={source}", message)


# Pages ---------------------------------------------------------------------------------------


def _imports_page(request: Request, session: Session, form: ContextForm, status: int) -> Response:
    form.systems = _systems(session)
    form.vocabulary = vocabulary_choices(session)
    context = {
        "form": form,
        "recent": _recent(session),
        "formats": TOOLS,
        "limit_mb": MAX_UPLOAD_BYTES // (1024 * 1024),
    }
    return page(request, session, "pages/imports.html", context, status, {})


def _preview_page(
    request: Request,
    session: Session,
    who: SignedIn,
    key: str,
    form: ContextForm | None,
    status: int,
) -> Response:
    try:
        preview = imports.pending_import(session, who, key).document
    except imports.UnknownImportError as exc:
        return _gone(request, session, str(exc))
    if form is None:
        form = ContextForm(f"/imports/{key}/context", values=_context_values(preview))
    form.problems = {**preview["problems"], **form.problems}
    form.systems = _systems(session)
    form.vocabulary = vocabulary_choices(session)
    names = {kind: dict(entries) for kind, entries in form.vocabulary.items()}
    context = {"preview": preview, "form": form, "columns": COLUMNS, "entry_names": names}
    return page(request, session, "pages/import_preview.html", context, status, {})


def _gone(request: Request, session: Session, message: str) -> Response:
    from app.forms.editing import not_found

    return not_found(request, session, message)


# (heading, metric key, digits) of the preview table's figures.
COLUMNS = (
    ("Output tok/s", "output_throughput", 0),
    ("TTFT ms (mean)", "ttft_mean", 1),
    ("TTFT ms (p99)", "ttft_p99", 1),
    ("TPOT ms (mean)", "tpot_mean", 2),
    ("tok/s per user", "output_throughput_per_user", 1),
    ("Prompt tok/s", "prompt_tok_s", 0),
    ("Generation tok/s", "generation_tok_s", 1),
)


def _context_values(preview: dict[str, Any]) -> dict[str, str]:
    """The context form starts from what was given, else from what the first run says."""
    given = {k: str(v) for k, v in preview["context"].items()}
    first = preview["runs"][0]["setup"] if preview["runs"] else {}
    found = {k: str(first[k]) for k in imports.CONTEXT_FIELDS if k in first}
    return found | given


def _systems(session: Session) -> list[tuple[str, str]]:
    names = system_name_map(session)
    return sorted(names.items(), key=lambda item: item[1].lower())


def _recent(session: Session) -> list[dict[str, Any]]:
    rows = session.exec(
        select(ImportBatch, UserAccount.name, Source.slug)
        .join(UserAccount, col(UserAccount.id) == ImportBatch.user_id)
        .join(Source, col(Source.id) == ImportBatch.source_id)
        .where(ImportBatch.state == "saved")
        .order_by(col(ImportBatch.created_at).desc())
        .limit(RECENT)
    ).all()
    return [
        {
            "file": batch.file_name,
            "tool": TOOLS.get(batch.format, batch.format).split(" (")[0],
            "runs": len(batch.preview.get("runs", [])),
            "results": len(batch.preview.get("results", [])),
            "by": name,
            "at": batch.created_at,
            "source": source,
        }
        for batch, name, source in rows
    ]


def _read_message(document: dict[str, Any]) -> str:
    runs = len(document["runs"])
    said = f"Read {runs} run{'s' if runs != 1 else ''} from {document['file']}"
    if document["ready"]:
        return f"{said}: check them, then save."
    return f"{said}: {len(document['problems'])} thing(s) to give before saving."


def _field_problems(exc: ValidationError) -> dict[str, str]:
    problems: dict[str, str] = {}
    for error in exc.errors(include_url=False):
        name = ".".join(str(p) for p in error["loc"]) or "file"
        problems.setdefault(name, error["msg"])
    return problems

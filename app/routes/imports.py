"""The editors' import pages: upload a result file, look at the preview, give what the file
lacks, confirm. The same service as the import API (app/writes/imports.py), in forms."""

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import CurrentUser, EditorUser
from app.db import SessionDep
from app.forms.editing import form_page, not_found, posted, redirect_with_flash
from app.forms.imports import (
    PREVIEW_COLUMNS,
    ContextForm,
    context_values,
    field_problems,
    read_message,
)
from app.importers import ResultFileError
from app.importers.reading import MB
from app.importers.runs import TOOLS
from app.queries.imports import recent_imports
from app.routes.api.imports import MAX_UPLOAD_BYTES, Upload, UploadRefused, read_upload
from app.routes.import_entries import offers
from app.writes import imports
from app.writes.common import TeamError
from app.writes.transaction import write_transaction

router = APIRouter(include_in_schema=False)

CONTEXT_POST = (*imports.CONTEXT_FIELDS, "next")


@router.get("/imports")
async def imports_page(request: Request, session: SessionDep, who: EditorUser) -> Response:
    return await run_in_threadpool(_imports_page, request, session, ContextForm("/imports"), 200)


@router.post("/imports")
async def upload(request: Request, session: SessionDep, who: EditorUser) -> Response:
    received = await read_upload(request)
    return await run_in_threadpool(_upload, request, session, who, received)


def _upload(
    request: Request, session: SessionDep, who: SignedIn, received: Upload | UploadRefused
) -> Response:
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
            preview = imports.preview_upload(
                session, who, received.files, context, received.file_format
            )
    except ValidationError as exc:
        form.problems = field_problems(exc)
        return _imports_page(request, session, form, 422)
    except imports.ImportQuotaError as exc:
        form.problems = {"file": str(exc)}
        return _imports_page(request, session, form, 429)
    except ResultFileError as exc:
        form.problems = {"file": str(exc)}
        return _imports_page(request, session, form, 422)
    return redirect_with_flash(request, f"/imports/{preview.key}", read_message(preview.document))


@router.get("/imports/{key}")
async def preview_page(
    key: str, request: Request, session: SessionDep, who: CurrentUser
) -> Response:
    # Open to every reader once saved (the links on system pages and /benchmarks point here);
    # a pending preview stays its uploader's (and admins').
    return await run_in_threadpool(_preview_page, request, session, who, key, None, 200)


@router.post("/imports/{key}/context")
async def change_context(
    key: str, request: Request, session: SessionDep, who: EditorUser
) -> Response:
    values = await posted(request, CONTEXT_POST)
    return await run_in_threadpool(_change_context, request, session, who, key, values)


def _change_context(
    request: Request, session: SessionDep, who: SignedIn, key: str, values: dict[str, str]
) -> Response:
    fields = {k: v or None for k, v in values.items() if k in imports.CONTEXT_FIELDS}
    form = ContextForm(f"/imports/{key}/context", values={k: v for k, v in values.items() if v})
    try:
        context = imports.ImportContext.model_validate(fields)
        with write_transaction(session):
            preview = imports.update_context(session, who, key, context)
    except ValidationError as exc:
        form.problems = field_problems(exc)
        return _preview_page(request, session, who, key, form, 422)
    except imports.UnknownImportError as exc:
        return not_found(request, session, str(exc))
    except TeamError as exc:
        form.general = list(exc.problems.values())
        return _preview_page(request, session, who, key, form, 422)
    return redirect_with_flash(request, f"/imports/{key}", read_message(preview.document))


@router.post("/imports/{key}/confirm")
async def confirm(key: str, request: Request, session: SessionDep, who: EditorUser) -> Response:
    await posted(request, ("next",))
    return await run_in_threadpool(_confirm, request, session, who, key)


def _confirm(request: Request, session: SessionDep, who: SignedIn, key: str) -> Response:
    team = request.app.state.settings.atlas_team_name
    try:
        with write_transaction(session):
            saved = imports.confirm_import(session, who, key, team)
    except imports.UnknownImportError as exc:
        return not_found(request, session, str(exc))
    except TeamError as exc:
        form = ContextForm(f"/imports/{key}/context", general=list(exc.problems.values()))
        return _preview_page(request, session, who, key, form, 422)
    source = saved["saved"][0]["source"] if saved["saved"] else ""
    message = f"Saved {len(saved['saved'])} team results from {saved['file']}."
    return redirect_with_flash(request, f"/benchmarks?origin=team&source={source}", message)


# Pages ---------------------------------------------------------------------------------------


def _imports_page(
    request: Request, session: SessionDep, form: ContextForm, status: int
) -> Response:
    context = {
        "form": form.with_choices(session),
        "recent": recent_imports(session),
        "formats": TOOLS,
        "limit_mb": MAX_UPLOAD_BYTES // MB,  # decimal megabytes, as the README and the limit
        "active": "imports",
    }
    return form_page(request, session, "pages/imports.html", context, status, {})


def _preview_page(
    request: Request,
    session: SessionDep,
    who: SignedIn | None,
    key: str,
    form: ContextForm | None,
    status: int,
) -> Response:
    try:
        preview = imports.shown_import(session, who, key).document
    except imports.UnknownImportError as exc:
        return not_found(request, session, str(exc))
    if form is None:
        form = ContextForm(f"/imports/{key}/context", values=context_values(preview))
    form.problems = {**preview["problems"], **form.problems}
    form.with_choices(session)
    names = {kind: dict(entries) for kind, entries in form.vocabulary.items()}
    context = {
        "preview": preview,
        "form": form,
        "columns": PREVIEW_COLUMNS,
        "entry_names": names,
        "offers": offers(preview),
        "active": "imports",
    }
    return form_page(request, session, "pages/import_preview.html", context, status, {})

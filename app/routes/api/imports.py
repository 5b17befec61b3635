"""The import API: upload a benchmark tool's result file, look at the preview, confirm it.

`POST /api/v1/imports` (multipart: `file` plus the context fields) parses the file and keeps
a preview (201, with its id). Several `file` parts, or one zip / tar(.gz) archive, are read
as one sweep of all their result files (at most MAX_SET_FILES files, 50 MB in all). Nothing
is saved as results until
`POST /api/v1/imports/{id}/confirm`, which saves all of the preview's results or none.
A file that cannot be read is a 422 naming the problem and its line or field; a file over
the size limit is a 413 before it is read.
"""

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from app.accounts.identity import SignedIn
from app.accounts.web import CurrentUser, EditorUser
from app.db import SessionDep
from app.importers import DEFAULT_MAX_BYTES, MAX_SET_FILES, ResultFileError
from app.routes.api.team import WRITE_ERRORS, problems_reply, validation_problems
from app.writes import imports
from app.writes.common import TeamError, UnknownItemError
from app.writes.transaction import write_transaction

router = APIRouter(prefix="/api/v1", tags=["team writes"])

MAX_UPLOAD_BYTES = DEFAULT_MAX_BYTES
# The multipart envelope around the file (boundaries, the context fields) is small.
ENVELOPE_BYTES = 64 * 1024
CONTEXT_FIELDS = tuple(imports.ImportContext.model_fields)
# Besides the context: the file, a format that skips detection, and the page form's own.
FORM_EXTRAS = ("file", "format", "next")
UPLOAD_BODY = {
    "required": True,
    "content": {
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["file"],
                "properties": {
                    "file": {
                        "description": "a result file; repeat the part, or send a zip / "
                        "tar archive, to import several as one sweep",
                        "type": "array",
                        "items": {"type": "string", "format": "binary"},
                        "maxItems": MAX_SET_FILES,
                    },
                    "format": {"type": "string", "description": "skip detection"},
                    **{name: {"type": "string"} for name in CONTEXT_FIELDS},
                },
            }
        }
    },
}
IMPORT_ERRORS: dict[int | str, dict[str, Any]] = WRITE_ERRORS | {
    413: {"description": "The file is over the size limit"},
    429: {"description": "The account has used the day's uploads (see Retry-After)"},
}


@router.post(
    "/imports",
    status_code=201,
    responses=IMPORT_ERRORS,
    openapi_extra={"requestBody": UPLOAD_BODY},
)
async def post_import(request: Request, who: EditorUser, session: SessionDep) -> Response:
    """Upload a result file (or several, or an archive, as one sweep) with its context; the
    reply is the preview (nothing saved yet)."""
    upload = await read_upload(request)
    if isinstance(upload, UploadRefused):
        if upload.status == 413:
            return JSONResponse({"detail": upload.problems["file"]}, status_code=413)
        return problems_reply(upload.problems)
    try:
        context = imports.ImportContext.model_validate(
            {k: v or None for k, v in upload.fields.items()}
        )
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what="an import"))
    # Parsing a large file takes seconds: off the event loop, with the database work.
    return await run_in_threadpool(
        _preview, session, who, upload.files, context, upload.file_format
    )


@dataclass(frozen=True)
class Upload:
    files: list[tuple[str, bytes]]  # (file name, bytes), one or more
    fields: dict[str, str]  # the context fields, as typed
    file_format: str | None

    @property
    def name(self) -> str:
        return self.files[0][0]

    @property
    def data(self) -> bytes:
        return self.files[0][1]


@dataclass(frozen=True)
class UploadRefused:
    status: int  # 413 over the size limit, else 422
    problems: dict[str, str]


async def read_upload(request: Request) -> Upload | UploadRefused:
    """The uploaded file and context fields of a multipart request (the API's and the page's),
    refusing a file over the size limit before reading more of it than the limit."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_UPLOAD_BYTES + ENVELOPE_BYTES:
        return UploadRefused(413, {"file": _too_big(int(length))})
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        wanted = "send multipart/form-data with the file in the field 'file'"
        return UploadRefused(422, {"body": wanted})
    fields_allowed = len(CONTEXT_FIELDS) + 4
    async with request.form(max_files=MAX_SET_FILES, max_fields=fields_allowed) as form:
        uploads = [u for u in form.getlist("file") if isinstance(u, UploadFile) and u.filename]
        if not uploads:
            return UploadRefused(422, {"file": "no file: choose the result file to upload"})
        files: list[tuple[str, bytes]] = []
        total = 0
        for upload in uploads:
            data = await upload.read(MAX_UPLOAD_BYTES + 1 - total)
            total += len(data)
            if total > MAX_UPLOAD_BYTES:
                return UploadRefused(413, {"file": _too_big(total)})
            files.append((upload.filename or "file", data))
        fields = {k: v for k, v in form.items() if k in CONTEXT_FIELDS and isinstance(v, str)}
        unknown = sorted(k for k in form if k not in (*CONTEXT_FIELDS, *FORM_EXTRAS))
        chosen = form.get("format")
    if unknown:
        allowed = ", ".join(("file", "format", *CONTEXT_FIELDS))
        return UploadRefused(
            422, {k: f"not a field of an import; allowed: {allowed}" for k in unknown}
        )
    file_format = chosen if isinstance(chosen, str) and chosen else None
    return Upload(files, fields, file_format)


def _preview(
    session: SessionDep,
    who: SignedIn,
    files: list[tuple[str, bytes]],
    context: imports.ImportContext,
    file_format: str | None,
) -> Response:
    try:
        with write_transaction(session):
            preview = imports.preview_upload(session, who, files, context, file_format)
    except imports.ImportQuotaError as exc:
        headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse({"detail": str(exc)}, status_code=429, headers=headers)
    except ResultFileError as exc:
        return problems_reply({"file": str(exc)})
    headers = {"Location": f"/api/v1/imports/{preview.key}"}
    return JSONResponse(preview.document, status_code=201, headers=headers)


@router.get("/imports/{import_id}", responses=IMPORT_ERRORS)
def get_import(import_id: str, who: CurrentUser, session: SessionDep) -> Response:
    """A saved import, to any reader (its runs and how their names resolved; the file itself
    is not kept), or a pending preview of yours (an admin's: anyone's)."""
    try:
        return JSONResponse(imports.shown_import(session, who, import_id).document)
    except imports.UnknownImportError as exc:
        return JSONResponse({"detail": str(exc)}, status_code=404)


@router.patch("/imports/{import_id}", responses=IMPORT_ERRORS)
def patch_import(
    import_id: str,
    who: EditorUser,
    session: SessionDep,
    body: Annotated[dict[str, Any], Body()],
) -> Response:
    """Give a preview another context (the fields of the upload but the file): a new preview."""
    try:
        context = imports.ImportContext.model_validate(body)
    except ValidationError as exc:
        return problems_reply(validation_problems(exc, what="an import's context"))
    try:
        with write_transaction(session):
            preview = imports.update_context(session, who, import_id, context)
    except imports.UnknownImportError as exc:
        return JSONResponse({"detail": str(exc)}, status_code=404)
    except TeamError as exc:
        return problems_reply(exc.problems, exc.values)
    return JSONResponse(preview.document)


@router.post("/imports/{import_id}/confirm", status_code=201, responses=IMPORT_ERRORS)
def confirm_import(
    request: Request, import_id: str, who: EditorUser, session: SessionDep
) -> Response:
    """Save every result of the preview, or (on any problem) none."""
    team = request.app.state.settings.atlas_team_name
    try:
        with write_transaction(session):
            saved = imports.confirm_import(session, who, import_id, team)
    except imports.UnknownImportError as exc:
        return JSONResponse({"detail": str(exc)}, status_code=404)
    except TeamError as exc:
        return problems_reply(exc.problems, exc.values)
    except UnknownItemError as exc:
        return JSONResponse({"detail": str(exc)}, status_code=404)
    return JSONResponse(saved, status_code=201)


@router.get("/imports/{import_id}/llmd-report", responses=IMPORT_ERRORS)
def get_llmd_report(import_id: str, session: SessionDep, run: int | None = None) -> Response:
    """A saved import (a team sweep) as llm-d Benchmark Reports v0.2: a JSON list, one report
    per run in file order, or the one report of `run` (its 0-based place in the file). Any
    reader may fetch it, as the team's sweeps and results are shown to every reader."""
    from app.present.llmd_report import llmd_reports
    from app.queries.imports import saved_runs

    try:
        reports = llmd_reports(saved_runs(session, import_id, run))
    except LookupError as exc:
        return JSONResponse({"detail": str(exc)}, status_code=404)
    return JSONResponse(reports[0] if run is not None else reports)


@router.get("/benchmarks/{result_id}/llmd-report", responses=IMPORT_ERRORS)
def get_result_llmd_report(result_id: str, session: SessionDep) -> Response:
    """The llm-d Benchmark Report v0.2 of the run an imported team result came from."""
    from app.present.llmd_report import llmd_reports
    from app.queries.imports import result_run

    try:
        return JSONResponse(llmd_reports([result_run(session, result_id)])[0])
    except LookupError as exc:
        return JSONResponse({"detail": str(exc)}, status_code=404)


def _too_big(size: int) -> str:
    return f"the upload is {_size(size)}; the limit is {_size(MAX_UPLOAD_BYTES)} per file"


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n:,} bytes"

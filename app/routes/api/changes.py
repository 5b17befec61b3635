"""/api/v1/changes: the history of changes, a page at a time (the page and the Atom feed
are app/routes/changes.py; both read the query with app/queries/readings.py)."""

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from app.db import SessionDep
from app.params.changes import ChangesParams
from app.params.reader import ParamError
from app.queries.readings import read_changes
from app.schemas import RevisionView
from app.web.openapi import query_parameters
from app.web.render import serve

router = APIRouter(prefix="/api/v1", tags=["api"])


class ChangesResponse(BaseModel):
    revisions: list[RevisionView] = Field(description="newest first")
    next: str | None = Field(description="the next, older page; null on the last page")
    ignored_parameters: list[str] = []


def _changes(request: Request, session: SessionDep) -> Response:
    reading, page = read_changes(session, request.query_params)
    if reading.problems:
        raise ParamError(reading.problems)
    params = reading.params
    older = f"/api/v1/changes?{params.query_string(before=page.older)}" if page.older else None
    body = ChangesResponse(revisions=page.revisions, next=older, ignored_parameters=reading.ignored)
    return JSONResponse(body.model_dump(mode="json"))


@router.get(
    "/changes",
    response_model=ChangesResponse,
    responses={422: {"description": "A parameter value that is not allowed; the reply names it"}},
    openapi_extra=query_parameters(ChangesParams),
)
async def changes(request: Request, session: SessionDep) -> Response:
    """Every change (reseeds and team edits), newest first, a page at a time: who, when,
    which item, before and after. Follow `next` for older changes."""
    return await serve(request, session, lambda s: _changes(request, s))

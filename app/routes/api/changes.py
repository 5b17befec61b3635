"""/api/v1/changes: the history of changes, a page at a time (the page and the Atom feed
are app/routes/changes.py; both read the query with app/queries/readings.py)."""

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from app.params.changes import ChangesParams
from app.schemas import RevisionView
from app.web.deps import ChangesApiPage
from app.web.openapi import query_parameters
from app.web.pages import page

router = APIRouter(prefix="/api/v1", tags=["api"])


class ChangesResponse(BaseModel):
    revisions: list[RevisionView] = Field(description="newest first")
    next: str | None = Field(description="the next, older page; null on the last page")
    ignored_parameters: list[str] = []


@page(
    router,
    "/changes",
    response_model=ChangesResponse,
    responses={422: {"description": "A parameter value that is not allowed; the reply names it"}},
    openapi_extra=query_parameters(ChangesParams),
)
def changes(read: ChangesApiPage) -> Response:
    """Every change (reseeds and team edits), newest first, a page at a time: who, when,
    which item, before and after. Follow `next` for older changes."""
    reading, found = read
    params = reading.params
    older = f"/api/v1/changes?{params.query_string(before=found.older)}" if found.older else None
    body = ChangesResponse(
        revisions=found.revisions, next=older, ignored_parameters=reading.ignored
    )
    return JSONResponse(body.model_dump(mode="json"))

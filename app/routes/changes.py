"""The history of changes: /changes (HTML), /changes.atom and /api/v1/changes (JSON)."""

import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.db import SessionDep
from app.params.views import CHANGES_PAGE_SIZE, ChangesParams, ParamError, Reading, read_query
from app.present.atom import MEDIA_TYPE, TAG, FeedLinks, change_feed
from app.present.formatting import entity_label
from app.queries.catalogue import site_facts
from app.queries.matrix import system_name_map
from app.queries.revisions import field_changes, revision_page
from app.queries.vocabularies import change_vocabularies
from app.schemas import RevisionPage, RevisionView
from app.web.openapi import query_parameters
from app.web.render import render, serve, tidy_redirect

# One router for the three (one line in main.py); only the JSON route is in OpenAPI.
router = APIRouter()


def read_changes(session: Session, request: Request) -> tuple[Reading[ChangesParams], RevisionPage]:
    """Parse the filters against the history's own values, then read one page of it."""
    reading = read_query(ChangesParams, request.query_params, change_vocabularies(session))
    p = reading.params
    page = revision_page(session, user=p.user or None, system=p.system or None,
                         entity=p.kind or None, limit=p.limit, before_id=p.before)  # fmt: skip
    return reading, page


def _query(query: str) -> str:
    return f"?{query}" if query else ""


def _filters(params: ChangesParams) -> str:
    """The query string of the filters alone: the first page, at the default size."""
    return params.query_string(before=None, limit=CHANGES_PAGE_SIZE)


def _changes_page(request: Request, session: Session) -> Response:
    reading, page = read_changes(session, request)
    params, problems = reading.params, reading.problems
    canonical = f"/changes{_query(params.query_string())}"
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    names = system_name_map(session)
    context = {
        "params": params,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "changes": [(r, field_changes(r)) for r in page.revisions],
        "older_url": f"/changes?{params.query_string(before=page.older)}" if page.older else None,
        "newest_url": f"/changes{_query(params.query_string(before=None))}",
        "system_names": names,
        "default_limit": CHANGES_PAGE_SIZE,
        "options": _filter_options(change_vocabularies(session), names),
        "json_url": f"/api/v1/changes{_query(params.query_string())}",
        "atom_url": f"/changes.atom{_query(_filters(params))}",
        "active": "changes",
    }
    return render(request, "pages/changes.html", context, session=session,
                  fragments=("change_list",), canonical=canonical,
                  status_code=422 if problems else 200)  # fmt: skip


def _filter_options(
    vocabularies: dict[str, list[str]], names: dict[str, str]
) -> dict[str, list[tuple[str, str]]]:
    """Each filter's choices as (value, label), in the order of their labels."""
    labels = {
        "user": {},
        "system": names,
        "kind": {k: entity_label(k) for k in vocabularies["kind"]},
    }
    return {
        field: sorted(((v, labels[field].get(v, v)) for v in vocabularies[field]),
                      key=lambda option: option[1].lower())
        for field in ("user", "system", "kind")
    }  # fmt: skip


@router.get("/changes", include_in_schema=False)
async def changes_page(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _changes_page(request, s))


def _feed_title(params: ChangesParams, names: dict[str, str]) -> str:
    """ "Inference Atlas: claim changes on vLLM by ann"."""
    what = f"{entity_label(params.kind).lower()} changes" if params.kind else "changes"
    if params.system:
        what += f" on {names.get(params.system, params.system)}"
    if params.user:
        what += f" by {params.user}"
    return f"Inference Atlas: {what}"


def _changes_feed(request: Request, session: Session) -> Response:
    reading, page = read_changes(session, request)
    if reading.problems:
        text = "\n".join(p.message for p in reading.problems[:10]) + "\n"
        return Response(text, 422, media_type="text/plain")
    params, filters = reading.params, _filters(reading.params)
    older = params.query_string(before=page.older) if page.older else None
    links = FeedLinks(
        self=f"/changes.atom{_query(params.query_string())}",
        alternate=f"/changes{_query(params.query_string())}",
        next=f"/changes.atom?{older}" if older else None,
    )
    body = change_feed(
        page.revisions,
        title=_feed_title(params, system_name_map(session)),
        feed_id=f"{TAG}:changes{_query(filters)}",
        links=links,
        updated=_last_loaded(session),
    )
    return Response(body, media_type=f"{MEDIA_TYPE}; charset=utf-8")


def _last_loaded(session: Session) -> dt.datetime:
    """An empty feed still needs a time: when the data was last loaded, or else the epoch."""
    seeded_at = site_facts(session).seeded_at
    if seeded_at:
        return dt.datetime.fromisoformat(seeded_at)
    return dt.datetime.fromtimestamp(0, dt.UTC)


@router.get("/changes.atom", include_in_schema=False)
async def changes_feed(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _changes_feed(request, s))


class ChangesResponse(BaseModel):
    revisions: list[RevisionView] = Field(description="newest first")
    next: str | None = Field(description="the next, older page; null on the last page")
    ignored_parameters: list[str] = []


def _changes_json(request: Request, session: Session) -> Response:
    reading, page = read_changes(session, request)
    if reading.problems:
        raise ParamError(reading.problems)
    params = reading.params
    older = f"/api/v1/changes?{params.query_string(before=page.older)}" if page.older else None
    body = ChangesResponse(revisions=page.revisions, next=older, ignored_parameters=reading.ignored)
    return JSONResponse(body.model_dump(mode="json"))


@router.get(
    "/api/v1/changes",
    tags=["api"],
    response_model=ChangesResponse,
    responses={422: {"description": "A parameter value that is not allowed; the reply names it"}},
    openapi_extra=query_parameters(ChangesParams),
)
async def changes(request: Request, session: SessionDep) -> Response:
    """Every change (reseeds and team edits), newest first, a page at a time: who, when,
    which item, before and after. Follow `next` for older changes."""
    return await serve(request, session, lambda s: _changes_json(request, s))

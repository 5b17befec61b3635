"""GET /api/v1/benchmarks/{id} and GET /api/v1/systems/{slug}/claims/{capability}/{source}:
one figure and one source's claim on one cell, the JSON twins of their pages
(app/routes/items.py), from the same query (app/queries/items.py)."""

import datetime as dt
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.db import SessionDep
from app.params.reader import QueryModel, read_query
from app.queries.items import ClaimDetail, FigureDetail, claim_detail, figure_detail
from app.routes.api.catalogue import Ignoring
from app.routes.items import claim_or_404, figure_or_404
from app.web.render import serve

router = APIRouter(prefix="/api/v1", tags=["api"])


class FigureResponse(FigureDetail, Ignoring): ...


class ClaimResponse(ClaimDetail, Ignoring): ...


def _reply(request: Request, detail: FigureDetail | ClaimDetail) -> Response:
    ignored = read_query(QueryModel, request.query_params).ignored
    body: dict[str, Any] = detail.model_dump(mode="json")
    return JSONResponse({**body, "ignored_parameters": ignored})


def _figure(request: Request, session: SessionDep, figure_id: str) -> Response:
    detail = figure_detail(session, figure_id, dt.date.today())
    if detail is None:
        raise figure_or_404(session, figure_id)
    return _reply(request, detail)


# The same path parameter name as the team routes' PATCH/DELETE on this path, so OpenAPI
# (and its Allow check) sees one resource with three methods, not two resources.
@router.get(
    "/benchmarks/{result_id}",
    response_model=FigureResponse,
    responses={404: {"description": "No figure has this id; the reply suggests the closest"}},
)
async def figure(result_id: str, request: Request, session: SessionDep) -> Response:
    """One benchmark figure in full: value, unit, context, source (with its URL and caveats),
    age, team notes, and the other figures of its context."""
    return await serve(request, session, lambda s: _figure(request, s, result_id))


def _claim(
    request: Request, session: SessionDep, system: str, capability: str, source: str
) -> Response:
    detail = claim_detail(session, system, capability, source)
    if detail is None:
        raise claim_or_404(session, system, capability, source)
    return _reply(request, detail)


@router.get(
    "/systems/{slug}/claims/{capability}/{source}",
    response_model=ClaimResponse,
    responses={404: {"description": "An unknown system or capability, or a source that makes "
                                    "no claim on the cell; the reply says which"}},
)  # fmt: skip
async def claim(
    slug: str, capability: str, source: str, request: Request, session: SessionDep
) -> Response:
    """What one source says about one capability of one system (each reading it gives), with
    the cell it is part of and the other sources' claims on it."""
    return await serve(request, session, lambda s: _claim(request, s, slug, capability, source))

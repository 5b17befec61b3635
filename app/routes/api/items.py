"""GET /api/v1/benchmarks/{id} and GET /api/v1/systems/{slug}/claims/{capability}/{source}:
one figure and one source's claim on one cell, the JSON twins of their pages
(app/routes/items.py), from the same query (app/queries/items.py)."""

import datetime as dt

from fastapi import APIRouter
from fastapi.responses import Response

from app.db import SessionDep
from app.queries.items import ClaimDetail, FigureDetail, claim_detail, figure_detail
from app.routes.api.catalogue import Ignoring
from app.routes.items import claim_or_404, figure_or_404
from app.web.deps import Ignored
from app.web.pages import page
from app.web.render import render_json

router = APIRouter(prefix="/api/v1", tags=["api"])


class FigureResponse(FigureDetail, Ignoring): ...


class ClaimResponse(ClaimDetail, Ignoring): ...


# The same path parameter name as the team routes' PATCH/DELETE on this path, so OpenAPI
# (and its Allow check) sees one resource with three methods, not two resources.
@page(
    router,
    "/benchmarks/{result_id}",
    response_model=FigureResponse,
    responses={404: {"description": "No figure has this id; the reply suggests the closest"}},
)
def figure(result_id: str, session: SessionDep, ignored: Ignored) -> Response:
    """One benchmark figure in full: value, unit, context, source (with its URL and caveats),
    age, team notes, and the other figures of its context."""
    detail = figure_detail(session, result_id, dt.date.today())
    if detail is None:
        raise figure_or_404(session, result_id)
    return render_json(detail, ignored)


@page(
    router,
    "/systems/{slug}/claims/{capability}/{source}",
    response_model=ClaimResponse,
    responses={
        404: {
            "description": "An unknown system or capability, or a source that makes "
            "no claim on the cell; the reply says which"
        }
    },
)
def claim(
    slug: str, capability: str, source: str, session: SessionDep, ignored: Ignored
) -> Response:
    """What one source says about one capability of one system (each reading it gives), with
    the cell it is part of and the other sources' claims on it."""
    detail = claim_detail(session, slug, capability, source)
    if detail is None:
        raise claim_or_404(session, slug, capability, source)
    return render_json(detail, ignored)

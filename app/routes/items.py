"""/benchmarks/{id} (one figure) and /systems/{slug}/claims/{capability}/{source} (one source's
claim on one cell): a page per item. Their JSON twins are in routes/api/items.py."""

import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.db import SessionDep
from app.forms.editing import is_editor
from app.queries.items import (
    claim_detail,
    claim_miss,
    claim_path,
    figure_detail,
    figure_ids,
)
from app.web.deps import Ignored
from app.web.errors import NotFoundError
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)


def figure_or_404(session: SessionDep, figure_id: str) -> NotFoundError:
    """The 404 for an unknown figure id: suggestions from every id, not all listed."""
    return NotFoundError("figure", figure_id, figure_ids(session), listed=False)


def claim_or_404(session: SessionDep, system: str, capability: str, source: str) -> NotFoundError:
    """The 404 for a claim that is not there: the slug that names nothing, or the source that
    says nothing on the cell (then the sources that do are suggested, linked to their claims)."""
    field, value, allowed, names = claim_miss(session, system, capability, source)
    if field != "source":
        return NotFoundError(field, value, allowed, names)
    detail = f"The source {source!r} makes no claim on {system} / {capability}."
    if not allowed:
        detail = f"No source makes a claim on {system} / {capability}: unknown, not “no”."
    link = claim_path(system, capability, "")
    return NotFoundError("source", source, allowed, names, detail=detail, link=link)


@page(router, "/benchmarks/{figure_id}")
def figure_page(
    figure_id: str, request: Request, session: SessionDep, ignored: Ignored
) -> Response:
    detail = figure_detail(session, figure_id, dt.date.today())
    if detail is None:
        raise figure_or_404(session, figure_id)
    if redirect := tidy_redirect(request, detail.links.page, ignored):
        return redirect
    context = {
        "d": detail,
        "json_url": detail.links.json_url,
        "active": "benchmarks",
        "editor": is_editor(request),
        "ignored_parameters": ignored,
    }
    return render(request, "pages/figure.html", context, session=session)


@page(router, "/systems/{slug}/claims/{capability}/{source}")
def claim_page(
    slug: str, capability: str, source: str, request: Request, session: SessionDep, ignored: Ignored
) -> Response:
    detail = claim_detail(session, slug, capability, source)
    if detail is None:
        raise claim_or_404(session, slug, capability, source)
    if redirect := tidy_redirect(request, detail.links.page, ignored):
        return redirect
    context = {
        "d": detail,
        "json_url": detail.links.json_url,
        "active": "systems",  # a claim lives under its system's page
        "editor": is_editor(request),
        "ignored_parameters": ignored,
    }
    return render(request, "pages/claim.html", context, session=session)

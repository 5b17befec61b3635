"""HTML pages. Each handler: query, then render; no SQL here."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.db import SessionDep
from app.errors import NotFoundError
from app.queries.catalogue import list_sources
from app.queries.systems import compare_candidates, get_system, list_systems, system_slugs
from app.web import render

router = APIRouter()

SYSTEM_KIND_HEADINGS = (
    ("engine", "Inference engines"),
    ("wrapper", "Wrappers around an engine"),
    ("desktop-app", "Desktop apps"),
    ("library", "Libraries"),
    ("orchestration", "Orchestration layers"),
    ("proxy", "Proxies and gateways"),
)


@router.get("/", include_in_schema=False)
def overview(request: Request, session: SessionDep) -> Response:
    context = {"systems": list_systems(session), "kinds": SYSTEM_KIND_HEADINGS, "active": "systems"}
    return render(request, "pages/overview.html", context)


@router.get("/systems/{slug}", include_in_schema=False)
def system_page(slug: str, request: Request, session: SessionDep) -> Response:
    detail = get_system(session, slug)
    if detail is None:
        raise NotFoundError("system", slug, system_slugs(session))
    context = {
        "system": detail,
        "compare_with": compare_candidates(session, slug),
        "json_url": f"/api/v1/systems/{slug}",
    }
    return render(request, "pages/system.html", context)


@router.get("/sources", include_in_schema=False)
def sources_page(request: Request, session: SessionDep) -> Response:
    context = {
        "sources": list_sources(session),
        "json_url": "/api/v1/sources",
        "active": "sources",
    }
    return render(request, "pages/sources.html", context)

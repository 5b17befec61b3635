"""The JSON API (/api/v1): the same read models the HTML pages render."""

from fastapi import APIRouter

from app.db import SessionDep
from app.errors import NotFoundError
from app.queries.catalogue import list_capabilities, list_sources
from app.queries.systems import get_system, list_systems, system_slugs
from app.schemas import CapabilityView, SourceDetail, SystemDetail, SystemSummary

router = APIRouter(prefix="/api/v1", tags=["api"])


@router.get("/systems")
def systems(session: SessionDep) -> list[SystemSummary]:
    """Every system with its kind, licence and status."""
    return list_systems(session)


@router.get("/systems/{slug}", responses={404: {"description": "Unknown system slug"}})
def system(slug: str, session: SessionDep) -> SystemDetail:
    """One system: claims per capability, facts, benchmarks and sources."""
    detail = get_system(session, slug)
    if detail is None:
        raise NotFoundError("system", slug, system_slugs(session))
    return detail


@router.get("/capabilities")
def capabilities(session: SessionDep) -> list[CapabilityView]:
    """Every feature and hardware target, grouped by category."""
    return list_capabilities(session)


@router.get("/sources")
def sources(session: SessionDep) -> list[SourceDetail]:
    """Every source and what it contributed."""
    return list_sources(session)

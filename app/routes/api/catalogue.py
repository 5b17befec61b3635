"""The JSON API (/api/v1): the same read models the HTML pages render.

Every handler reads its parameters with the page's own query model (documented in OpenAPI
through `openapi_extra`), answers 422 naming any bad value, and lists the parameters it
ignored in `ignored_parameters` (objects) or an `X-Ignored-Parameters` header (lists).
"""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel
from sqlmodel import Session

from app.db import SessionDep
from app.decision.engine import Recommendation
from app.params.readings import read_benchmarks, read_matrix
from app.params.views import (
    AnswerParams,
    BenchmarkParams,
    CompareApiParams,
    DecideParams,
    MatrixApiParams,
    ParamError,
    ParamProblem,
    QueryModel,
    SweepParams,
    compare_problems,
    read_query,
)
from app.queries.benchmark_page import BenchmarkPage
from app.queries.catalogue import list_capabilities, list_sources
from app.queries.compare import Comparison, build_comparison
from app.queries.decide import recommendation
from app.queries.entries import EntryPage, vocabulary_entries
from app.queries.features import FeaturePage, capability_names, feature_page
from app.queries.matrix import MatrixResult, build_matrix, system_name_map
from app.queries.sweeps import SweepPage, shows_sweeps, team_sweeps
from app.queries.systems import get_system, list_systems, system_slugs
from app.queries.vocabularies import benchmark_vocabularies, system_vocabularies
from app.routes.entries import PATHS, find_entry
from app.schemas import (
    CapabilityView,
    HardwareEntryView,
    ModelEntryView,
    SourceDetail,
    SystemDetail,
    SystemSummary,
    WorkloadEntryView,
)
from app.web.errors import NotFoundError
from app.web.openapi import query_parameters
from app.web.render import serve

router = APIRouter(prefix="/api/v1", tags=["api"])
BAD_VALUE: dict[int | str, dict[str, Any]] = {
    422: {"description": "A parameter value that is not allowed; the reply names it"}
}


class Ignoring(BaseModel):
    ignored_parameters: list[str] = []


class MatrixResponse(MatrixResult, Ignoring): ...


class BenchmarksResponse(BenchmarkPage, Ignoring): ...


class CompareResponse(Comparison, Ignoring): ...


class RecommendResponse(Recommendation, Ignoring): ...


def _json(data: BaseModel | list[Any], ignored: list[str]) -> Response:
    if isinstance(data, BaseModel):
        return JSONResponse({**data.model_dump(mode="json"), "ignored_parameters": ignored})
    headers = {"X-Ignored-Parameters": ", ".join(ignored)} if ignored else None
    return JSONResponse([item.model_dump(mode="json") for item in data], headers=headers)


def _ignored(request: Request) -> list[str]:
    return read_query(QueryModel, request.query_params).ignored


def _checked(problems: list[ParamProblem]) -> None:
    if problems:
        raise ParamError(problems)


@router.get("/hardware", response_model=list[HardwareEntryView])
async def hardware(request: Request, session: SessionDep) -> Response:
    """Every hardware entry: slug, name, aliases, vague flag, how many figures use it."""
    return await serve(request, session, lambda s: _entries(request, s, "hardware"))


@router.get("/models", response_model=list[ModelEntryView])
async def models(request: Request, session: SessionDep) -> Response:
    """Every model entry: slug, name, family, size, aliases, vague flag, figures using it."""
    return await serve(request, session, lambda s: _entries(request, s, "model"))


@router.get("/workloads", response_model=list[WorkloadEntryView])
async def workloads(request: Request, session: SessionDep) -> Response:
    """Every workload entry: slug, name, description, lengths, aliases, figures using it."""
    return await serve(request, session, lambda s: _entries(request, s, "workload"))


def _entries(request: Request, session: Session, kind: str) -> Response:
    return _json(vocabulary_entries(session)[kind], _ignored(request))


def _entry(request: Request, session: Session, kind: str, slug: str) -> Response:
    found = find_entry(session, kind, slug)
    if isinstance(found, str):  # another name of an entry: answer at its slug
        return RedirectResponse(f"/api/v1/{PATHS[kind]}/{found}", status_code=308)
    return _json(found, _ignored(request))


class EntryResponse(EntryPage, Ignoring): ...


NO_ENTRY: dict[int | str, dict[str, Any]] = {
    404: {"description": "Unknown slug; the reply suggests the closest"}
}


@router.get("/hardware/{slug}", response_model=EntryResponse, responses=NO_ENTRY)
async def hardware_entry(slug: str, request: Request, session: SessionDep) -> Response:
    """One hardware entry and every figure measured on it (an alias redirects to the slug)."""
    return await serve(request, session, lambda s: _entry(request, s, "hardware", slug))


@router.get("/models/{slug}", response_model=EntryResponse, responses=NO_ENTRY)
async def model_entry(slug: str, request: Request, session: SessionDep) -> Response:
    """One model entry and every figure that ran it (an alias redirects to the slug)."""
    return await serve(request, session, lambda s: _entry(request, s, "model", slug))


@router.get("/workloads/{slug}", response_model=EntryResponse, responses=NO_ENTRY)
async def workload_entry(slug: str, request: Request, session: SessionDep) -> Response:
    """One workload entry and every figure measured under it."""
    return await serve(request, session, lambda s: _entry(request, s, "workload", slug))


@router.get("/systems", response_model=list[SystemSummary])
async def systems(request: Request, session: SessionDep) -> Response:
    """Every system with its kind, licence and status."""
    return await serve(request, session, lambda s: _json(list_systems(s), _ignored(request)))


def _system(request: Request, session: Session, slug: str) -> Response:
    detail = get_system(session, slug)
    if detail is None:
        raise NotFoundError("system", slug, system_slugs(session), system_name_map(session))
    return _json(detail, _ignored(request))


@router.get(
    "/systems/{slug}",
    response_model=SystemDetail,
    responses={404: {"description": "Unknown system slug; the reply lists the known ones"}},
)
async def system(slug: str, request: Request, session: SessionDep) -> Response:
    """One system: claims per capability, facts, benchmarks and sources."""
    return await serve(request, session, lambda s: _system(request, s, slug))


@router.get("/capabilities", response_model=list[CapabilityView])
async def capabilities(request: Request, session: SessionDep) -> Response:
    """Every feature and hardware target, grouped by category."""
    return await serve(request, session, lambda s: _json(list_capabilities(s), _ignored(request)))


def _capability(request: Request, session: Session, slug: str) -> Response:
    page = feature_page(session, slug)
    if page is None:
        names = capability_names(session)
        raise NotFoundError("capability", slug, list(names), names)
    return _json(page, _ignored(request))


class CapabilityResponse(FeaturePage, Ignoring): ...


@router.get(
    "/capabilities/{slug}",
    response_model=CapabilityResponse,
    responses={404: {"description": "Unknown capability slug; the reply suggests the closest"}},
)
async def capability(slug: str, request: Request, session: SessionDep) -> Response:
    """One feature or hardware target across every system, as /features/{slug} shows it."""
    return await serve(request, session, lambda s: _capability(request, s, slug))


@router.get("/sources", response_model=list[SourceDetail])
async def sources(request: Request, session: SessionDep) -> Response:
    """Every source and what it contributed."""
    return await serve(request, session, lambda s: _json(list_sources(s), _ignored(request)))


def _matrix(request: Request, session: Session) -> Response:
    reading = read_matrix(session, request.query_params, MatrixApiParams)
    _checked(reading.problems)
    return _json(build_matrix(session, reading.params.view, reading.params), reading.ignored)


@router.get(
    "/matrix",
    response_model=MatrixResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(MatrixApiParams),
)
async def matrix(request: Request, session: SessionDep) -> Response:
    """The matrix exactly as /matrix (view=features) or /hardware (view=hardware) shows it."""
    return await serve(request, session, lambda s: _matrix(request, s))


def _benchmarks(request: Request, session: Session) -> Response:
    reading, page = read_benchmarks(session, request.query_params)
    _checked(reading.problems)
    if reading.params.level() and shows_sweeps(reading.params):
        # At a service level, the team's sweeps within the filters, read at it.
        page.team_sweeps = team_sweeps(session, SweepParams.of(reading.params))
    return _json(page, reading.ignored)


@router.get(
    "/benchmarks",
    response_model=BenchmarksResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(BenchmarkParams),
)
async def benchmarks(request: Request, session: SessionDep) -> Response:
    """Every result with its context as /benchmarks shows it, grouped into comparable contexts."""
    return await serve(request, session, lambda s: _benchmarks(request, s))


class SweepsResponse(SweepPage, Ignoring): ...


def _sweeps(request: Request, session: Session) -> Response:
    reading = read_query(SweepParams, request.query_params, benchmark_vocabularies(session))
    _checked(reading.problems)
    return _json(team_sweeps(session, reading.params), reading.ignored)


@router.get(
    "/sweeps",
    response_model=SweepsResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(SweepParams),
)
async def sweeps(request: Request, session: SessionDep) -> Response:
    """The team's sweeps as /benchmarks draws them: per setup, each imported run's per-user
    and per-GPU throughput and whether it is on the setup's Pareto frontier."""
    return await serve(request, session, lambda s: _sweeps(request, s))


def _compare(request: Request, session: Session) -> Response:
    reading = read_query(CompareApiParams, request.query_params, system_vocabularies(session))
    _checked(reading.problems + compare_problems(request.query_params))
    p = reading.params
    comparison = build_comparison(session, list(p.s), p.diff, level=p.level() or None)
    return _json(comparison, reading.ignored)


@router.get(
    "/compare",
    response_model=CompareResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(CompareApiParams),
)
async def compare(request: Request, session: SessionDep) -> Response:
    """The same comparison /compare shows: overview, features, hardware, shared benchmarks."""
    return await serve(request, session, lambda s: _compare(request, s))


def _recommend(request: Request, session: Session) -> Response:
    reading = read_query(AnswerParams, request.query_params)
    _checked(reading.problems)
    params = DecideParams.of(reading.params)
    result = recommendation(session, params.as_dict(), level=params.service_level())
    return _json(result, reading.ignored)


@router.get(
    "/recommend",
    response_model=RecommendResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(AnswerParams),
)
async def recommend(request: Request, session: SessionDep) -> Response:
    """Ranked systems with sourced reasons, and the systems ruled out, for these answers."""
    return await serve(request, session, lambda s: _recommend(request, s))

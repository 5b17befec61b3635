"""The JSON API (/api/v1): the same read models the HTML pages render."""

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.db import SessionDep
from app.decision.engine import Recommendation
from app.errors import NotFoundError
from app.params import ParamError, ParamProblem
from app.queries.benchmark_page import BenchmarkPage
from app.queries.catalogue import list_capabilities, list_sources
from app.queries.compare import Comparison, build_comparison
from app.queries.decide import recommendation
from app.queries.matrix import MatrixResult, build_matrix
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


MultiQuery = Annotated[list[str], Query()]


@router.get("/matrix", responses={422: {"description": "An unknown filter value"}})
def matrix(
    request: Request,
    session: SessionDep,
    view: str = "features",
    need: Annotated[list[str], Query(description="capability or capability:any|partial|yes")] = [],  # noqa: B006
    hw: Annotated[list[str], Query(description="hardware targets all rows support")] = [],  # noqa: B006
    licence: Annotated[list[str], Query(description="permissive, copyleft, proprietary")] = [],  # noqa: B006
    kind: MultiQuery = [],  # noqa: B006
    status: MultiQuery = [],  # noqa: B006
    q: str = "",
    sort: str = "name",
    diff: str = "",
    group: Annotated[list[str], Query(description="capability categories to show")] = [],  # noqa: B006
) -> MatrixResult:
    """The matrix exactly as /matrix (view=features) or /hardware (view=hardware) shows it."""
    from app.routes.matrix import read_params

    if view not in ("features", "hardware"):
        raise ParamError([ParamProblem("view", view, ("features", "hardware"))])
    params, problems = read_params(session, request, view, extra_names=("view",))
    if problems:
        raise ParamError(problems)
    return build_matrix(session, view, params)


@router.get("/benchmarks", responses={422: {"description": "An unknown filter value"}})
def benchmarks(
    request: Request,
    session: SessionDep,
    system: MultiQuery = [],  # noqa: B006
    metric: MultiQuery = [],  # noqa: B006
    hardware: MultiQuery = [],  # noqa: B006
    model: MultiQuery = [],  # noqa: B006
    precision: MultiQuery = [],  # noqa: B006
    source: MultiQuery = [],  # noqa: B006
    origin: Annotated[str, Query(description="published or team")] = "",
    cmin: Annotated[str, Query(description="lowest concurrency")] = "",
    cmax: Annotated[str, Query(description="highest concurrency")] = "",
    sort: Annotated[str, Query(description="a column, '-' in front for descending")] = "",
) -> BenchmarkPage:
    """Every result with its context as /benchmarks shows it, grouped into comparable contexts."""
    from app.routes.benchmarks import read_benchmark_params

    _, problems, page = read_benchmark_params(session, request)
    if problems:
        raise ParamError(problems)
    return page


@router.get(
    "/compare", responses={422: {"description": "Unknown, duplicate or too few/many systems"}}
)
def compare(
    request: Request,
    session: SessionDep,
    s: Annotated[list[str], Query(description="two to four system slugs, in display order")] = [],  # noqa: B006
    diff: str = "",
) -> Comparison:
    """The same comparison /compare shows: overview, features, hardware, shared benchmarks."""
    from app.routes.compare import read_compare

    params, problems, _ = read_compare(session, request)
    if problems:
        raise ParamError(problems)
    return build_comparison(session, list(params.s), params.diff)


@router.get("/recommend", responses={422: {"description": "An unknown question or option"}})
def recommend(
    request: Request,
    session: SessionDep,
    hardware: str = "",
    scale: str = "",
    workload: str = "",
    quantization: str = "",
    priority: str = "",
    interface: str = "",
    needs: MultiQuery = [],  # noqa: B006
) -> Recommendation:
    """Ranked systems with sourced reasons, and the systems ruled out, for these answers."""
    from app.params import parse_decide_params

    params, problems = parse_decide_params(request.query_params)
    if problems:
        raise ParamError(problems)
    return recommendation(session, params.as_dict())

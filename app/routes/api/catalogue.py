"""The JSON API (/api/v1): the same read models the HTML pages render.

Every handler reads its parameters with the page's own query model (documented in OpenAPI
through `openapi_extra`), answers 422 naming any bad value, and lists the parameters it
ignored in `ignored_parameters` (objects) or an `X-Ignored-Parameters` header (lists).
"""

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel

from app.db import SessionDep
from app.decision.engine import Recommendation
from app.params.benchmarks import BenchmarkApiParams, SweepParams
from app.params.compare import CompareApiParams, compare_problems
from app.params.decide import AnswerParams, DecideParams
from app.params.lists import ListParams
from app.params.matrix import MatrixApiParams
from app.params.reader import ParamError, ParamProblem, QueryModel, read_query
from app.queries.benchmark_page import BenchmarkPage
from app.queries.catalogue import list_capabilities, list_sources
from app.queries.compare import Comparison, build_comparison
from app.queries.decide import recommendation
from app.queries.entries import vocabulary_entries
from app.queries.entry_page import EntryPage
from app.queries.features import FeaturePage, capability_names, feature_page
from app.queries.matrix import MatrixResult, build_matrix
from app.queries.matrix_data import system_name_map
from app.queries.readings import read_benchmarks, read_matrix, system_names, with_slugs
from app.queries.sweep_models import SweepPage
from app.queries.sweeps import shows_sweeps, team_sweeps
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


class Paged(BaseModel):
    page: int = 1
    per_page: int = 0
    pages: int = 1
    next: str | None = None  # the next page's URL (path and query); null on the last page


class BenchmarksResponse(BenchmarkPage, Paged, Ignoring): ...


class CompareResponse(Comparison, Ignoring): ...


class RecommendResponse(Recommendation, Ignoring): ...


def _json(data: BaseModel | list[Any], ignored: list[str]) -> Response:
    if isinstance(data, BaseModel):
        return JSONResponse({**data.model_dump(mode="json"), "ignored_parameters": ignored})
    # A header carries Latin-1 only: a name outside printable ASCII goes percent-encoded.
    shown = [n if n.isascii() and n.isprintable() else quote(n, safe="") for n in ignored]
    headers = {"X-Ignored-Parameters": ", ".join(shown)} if ignored else None
    return JSONResponse([item.model_dump(mode="json") for item in data], headers=headers)


def _ignored(request: Request) -> list[str]:
    return read_query(QueryModel, request.query_params).ignored


def next_page(request: Request, page: int) -> str:
    """The URL of page `page` of this request's list: its path and query, `page` replaced
    (relative, so no Host header is echoed)."""
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "page"]
    return f"{request.url.path}?{urlencode([*pairs, ('page', str(page))])}"


def _json_page(request: Request, items: Sequence[BaseModel]) -> Response:
    """One page of a catalogue list, still a JSON array (as before paging): the total in
    X-Total-Count and, while there is more, the next page in `Link: <…>; rel="next"`."""
    reading = read_query(ListParams, request.query_params)
    _checked(reading.problems)
    page, size = reading.params.page, reading.params.per_page
    start = (page - 1) * size
    response = _json(list(items[start : start + size]), reading.ignored)
    response.headers["x-total-count"] = str(len(items))
    if start + size < len(items):
        response.headers["link"] = f'<{next_page(request, page + 1)}>; rel="next"'
    return response


# What every paged catalogue list documents besides its body.
LIST_PAGING: dict[str, Any] = query_parameters(ListParams)
LIST_RESPONSES: dict[int | str, dict[str, Any]] = BAD_VALUE | {
    200: {
        "description": "One page of the list (the first unless `page` says)",
        "headers": {
            "X-Total-Count": {"description": "items on every page", "schema": {"type": "integer"}},
            "Link": {"description": 'the next page, `<URL>; rel="next"`, while there is one',
                     "schema": {"type": "string"}},
        },
    }
}  # fmt: skip


def _checked(problems: list[ParamProblem]) -> None:
    if problems:
        raise ParamError(problems)


@router.get(
    "/hardware",
    response_model=list[HardwareEntryView],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
async def hardware(request: Request, session: SessionDep) -> Response:
    """Every hardware entry: slug, name, aliases, vague flag, how many figures use it."""
    return await serve(request, session, lambda s: _entries(request, s, "hardware"))


@router.get(
    "/models",
    response_model=list[ModelEntryView],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
async def models(request: Request, session: SessionDep) -> Response:
    """Every model entry: slug, name, family, size, aliases, vague flag, figures using it."""
    return await serve(request, session, lambda s: _entries(request, s, "model"))


@router.get(
    "/workloads",
    response_model=list[WorkloadEntryView],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
async def workloads(request: Request, session: SessionDep) -> Response:
    """Every workload entry: slug, name, description, lengths, aliases, figures using it."""
    return await serve(request, session, lambda s: _entries(request, s, "workload"))


def _entries(request: Request, session: SessionDep, kind: str) -> Response:
    return _json_page(request, vocabulary_entries(session)[kind])


def _entry(request: Request, session: SessionDep, kind: str, slug: str) -> Response:
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


@router.get("/models/{slug:path}", response_model=EntryResponse, responses=NO_ENTRY)
async def model_entry(slug: str, request: Request, session: SessionDep) -> Response:
    """One model entry and every figure that ran it (an alias redirects to the slug)."""
    return await serve(request, session, lambda s: _entry(request, s, "model", slug))


@router.get("/workloads/{slug}", response_model=EntryResponse, responses=NO_ENTRY)
async def workload_entry(slug: str, request: Request, session: SessionDep) -> Response:
    """One workload entry and every figure measured under it."""
    return await serve(request, session, lambda s: _entry(request, s, "workload", slug))


@router.get(
    "/systems",
    response_model=list[SystemSummary],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
async def systems(request: Request, session: SessionDep) -> Response:
    """Every system with its kind, licence and status."""
    return await serve(request, session, lambda s: _json_page(request, list_systems(s)))


def _system(request: Request, session: SessionDep, slug: str) -> Response:
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


@router.get(
    "/capabilities",
    response_model=list[CapabilityView],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
async def capabilities(request: Request, session: SessionDep) -> Response:
    """Every feature and hardware target, grouped by category."""
    return await serve(request, session, lambda s: _json_page(request, list_capabilities(s)))


def _capability(request: Request, session: SessionDep, slug: str) -> Response:
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


@router.get(
    "/sources",
    response_model=list[SourceDetail],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
async def sources(request: Request, session: SessionDep) -> Response:
    """Every source and what it contributed."""
    return await serve(request, session, lambda s: _json_page(request, list_sources(s)))


def _matrix(request: Request, session: SessionDep) -> Response:
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


def _benchmarks(request: Request, session: SessionDep) -> Response:
    # The page and size first, so that only that page's results are grouped and sent.
    paging = read_query(BenchmarkApiParams, request.query_params, {}).params
    size = paging.per_page
    window = slice((paging.page - 1) * size, paging.page * size)
    reading, page = read_benchmarks(
        session, request.query_params, model=BenchmarkApiParams, window=window
    )
    _checked(reading.problems)
    if reading.params.level() and shows_sweeps(reading.params):
        # At a service level, the team's sweeps within the filters, read at it.
        page.team_sweeps = team_sweeps(session, SweepParams.of(reading.params))
    pages = max(1, -(-page.matched // size))
    more = paging.page < pages
    paged = Paged(page=paging.page, per_page=size, pages=pages,
                  next=next_page(request, paging.page + 1) if more else None)  # fmt: skip
    body = page.model_dump(mode="json") | paged.model_dump()
    return JSONResponse(body | {"ignored_parameters": reading.ignored})


@router.get(
    "/benchmarks",
    response_model=BenchmarksResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(BenchmarkApiParams),
)
async def benchmarks(request: Request, session: SessionDep) -> Response:
    """The results with their contexts as /benchmarks shows them, grouped into comparable
    contexts, a page at a time: `per_page` results (1000 unless it says, at most 5000) and
    their contexts; `matched` counts the results on every page, `next` is the next page's URL
    (null on the last)."""
    return await serve(request, session, lambda s: _benchmarks(request, s))


class SweepsResponse(SweepPage, Ignoring): ...


def _sweeps(request: Request, session: SessionDep) -> Response:
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


def _compare(request: Request, session: SessionDep) -> Response:
    query = with_slugs(request.query_params, {"s": system_names(session)})
    reading = read_query(CompareApiParams, query, system_vocabularies(session))
    _checked(reading.problems + compare_problems(query))
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


def _recommend(request: Request, session: SessionDep) -> Response:
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

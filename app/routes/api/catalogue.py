"""The JSON API (/api/v1): the same read models the HTML pages render.

Every handler reads its parameters with the page's own query model (documented in OpenAPI
through `openapi_extra`), answers 422 naming any bad value, and lists the parameters it
ignored in `ignored_parameters` (objects) or an `X-Ignored-Parameters` header (lists).
"""

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel

from app.db import SessionDep
from app.decision.engine import Recommendation
from app.params.benchmarks import BenchmarkApiParams, SweepParams
from app.params.compare import CompareApiParams
from app.params.decide import AnswerParams, DecideParams
from app.params.lists import ListParams
from app.params.matrix import MatrixApiParams
from app.params.models import ModelListParams, ModelMatrixParams
from app.params.reader import Reading, read_query
from app.queries.benchmark_page import BenchmarkPage
from app.queries.catalogue import list_capabilities, list_sources
from app.queries.compare import Comparison, build_comparison
from app.queries.decide import model_first, recommendation
from app.queries.entries import vocabulary_entries
from app.queries.entry_page import EntryPage
from app.queries.features import FeaturePage, capability_names, feature_page
from app.queries.matrix import MatrixResult, build_matrix
from app.queries.matrix_data import system_name_map
from app.queries.model_list import model_list
from app.queries.readings import read_benchmarks
from app.queries.sweep_models import SweepPage
from app.queries.sweeps import shows_sweeps, team_sweeps
from app.queries.systems import get_system, list_systems, system_slugs
from app.routes.api.models import ModelMatrixResponse, model_matrix_json
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
from app.web.deps import (
    AnswerReading,
    CompareApiReading,
    Ignored,
    ListReading,
    MatrixApiReading,
    ModelListApiReading,
    ModelMatrixApiReading,
    SweepsReading,
    checked,
)
from app.web.errors import NotFoundError
from app.web.openapi import query_parameters
from app.web.pages import page
from app.web.render import render_json

router = APIRouter(prefix="/api/v1", tags=["api"])
BAD_VALUE: dict[int | str, dict[str, Any]] = {
    422: {"description": "A parameter value that is not allowed; the reply names it"}
}


class Ignoring(BaseModel):
    ignored_parameters: list[str] = []


class MatrixResponse(MatrixResult, Ignoring): ...


def _matrix_parameters() -> dict[str, Any]:
    """Both views' parameters: the features views' and the models view's own filters."""
    features = query_parameters(MatrixApiParams)["parameters"]
    named = {p["name"] for p in features}
    models = query_parameters(ModelMatrixParams)["parameters"]
    return {"parameters": features + [p for p in models if p["name"] not in named]}


class Paged(BaseModel):
    page: int = 1
    per_page: int = 0
    pages: int = 1
    next: str | None = None  # the next page's URL (path and query); null on the last page


class BenchmarksResponse(BenchmarkPage, Paged, Ignoring): ...


class CompareResponse(Comparison, Ignoring): ...


class RecommendResponse(Recommendation, Ignoring): ...


def next_page(request: Request, page: int) -> str:
    """The URL of page `page` of this request's list: its path and query, `page` replaced
    (relative, so no Host header is echoed)."""
    pairs = [(k, v) for k, v in request.query_params.multi_items() if k != "page"]
    return f"{request.url.path}?{urlencode([*pairs, ('page', str(page))])}"


def _json_page(
    request: Request, reading: Reading[ListParams], items: Sequence[BaseModel]
) -> Response:
    """One page of a catalogue list, still a JSON array (as before paging): the total in
    X-Total-Count and, while there is more, the next page in `Link: <…>; rel="next"`."""
    page, size = reading.params.page, reading.params.per_page
    start = (page - 1) * size
    response = render_json(list(items[start : start + size]), reading.ignored)
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
            "Link": {
                "description": 'the next page, `<URL>; rel="next"`, while there is one',
                "schema": {"type": "string"},
            },
        },
    }
}


@page(
    router,
    "/hardware",
    response_model=list[HardwareEntryView],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
def hardware(request: Request, session: SessionDep, listing: ListReading) -> Response:
    """Every hardware entry: slug, name, aliases, vague flag, how many figures use it."""
    return _json_page(request, listing, vocabulary_entries(session)["hardware"])


@page(
    router,
    "/models",
    response_model=list[ModelEntryView],
    responses=LIST_RESPONSES,
    openapi_extra={
        "parameters": LIST_PAGING["parameters"] + query_parameters(ModelListParams)["parameters"]
    },
)
def models(
    request: Request, session: SessionDep, listing: ListReading, filters: ModelListApiReading
) -> Response:
    """The model entries /models shows (current ones, narrowed by its filters): slug, name,
    family, size, architecture class, config facts, aliases, figures using it."""
    # Each reading names the other's parameters as unknown: only names both ignore are.
    ignored = [name for name in listing.ignored if name in filters.ignored]
    paging = Reading(listing.params, listing.problems, ignored)
    return _json_page(request, paging, model_list(session, filters.params).models)


@page(
    router,
    "/workloads",
    response_model=list[WorkloadEntryView],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
def workloads(request: Request, session: SessionDep, listing: ListReading) -> Response:
    """Every workload entry: slug, name, description, lengths, aliases, figures using it."""
    return _json_page(request, listing, vocabulary_entries(session)["workload"])


def _entry(session: SessionDep, ignored: list[str], kind: str, slug: str) -> Response:
    found = find_entry(session, kind, slug)
    if isinstance(found, str):  # another name of an entry: answer at its slug
        return RedirectResponse(f"/api/v1/{PATHS[kind]}/{found}", status_code=308)
    return render_json(found, ignored)


class EntryResponse(EntryPage, Ignoring): ...


NO_ENTRY: dict[int | str, dict[str, Any]] = {
    404: {"description": "Unknown slug; the reply suggests the closest"}
}


@page(router, "/hardware/{slug}", response_model=EntryResponse, responses=NO_ENTRY)
def hardware_entry(slug: str, session: SessionDep, ignored: Ignored) -> Response:
    """One hardware entry and every figure measured on it (an alias redirects to the slug)."""
    return _entry(session, ignored, "hardware", slug)


@page(router, "/models/{slug:path}", response_model=EntryResponse, responses=NO_ENTRY)
def model_entry(slug: str, session: SessionDep, ignored: Ignored) -> Response:
    """One model entry and every figure that ran it (an alias redirects to the slug)."""
    return _entry(session, ignored, "model", slug)


@page(router, "/workloads/{slug}", response_model=EntryResponse, responses=NO_ENTRY)
def workload_entry(slug: str, session: SessionDep, ignored: Ignored) -> Response:
    """One workload entry and every figure measured under it."""
    return _entry(session, ignored, "workload", slug)


@page(
    router,
    "/systems",
    response_model=list[SystemSummary],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
def systems(request: Request, session: SessionDep, listing: ListReading) -> Response:
    """Every system with its kind, licence and status."""
    return _json_page(request, listing, list_systems(session))


@page(
    router,
    "/systems/{slug}",
    response_model=SystemDetail,
    responses={404: {"description": "Unknown system slug; the reply lists the known ones"}},
)
def system(slug: str, session: SessionDep, ignored: Ignored) -> Response:
    """One system: claims per capability, facts, benchmarks and sources."""
    detail = get_system(session, slug)
    if detail is None:
        raise NotFoundError("system", slug, system_slugs(session), system_name_map(session))
    return render_json(detail, ignored)


@page(
    router,
    "/capabilities",
    response_model=list[CapabilityView],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
def capabilities(request: Request, session: SessionDep, listing: ListReading) -> Response:
    """Every feature and hardware target, grouped by category."""
    return _json_page(request, listing, list_capabilities(session))


class CapabilityResponse(FeaturePage, Ignoring): ...


@page(
    router,
    "/capabilities/{slug}",
    response_model=CapabilityResponse,
    responses={404: {"description": "Unknown capability slug; the reply suggests the closest"}},
)
def capability(slug: str, session: SessionDep, ignored: Ignored) -> Response:
    """One feature or hardware target across every system, as /features/{slug} shows it."""
    found = feature_page(session, slug)
    if found is None:
        names = capability_names(session)
        raise NotFoundError("capability", slug, list(names), names)
    return render_json(found, ignored)


@page(
    router,
    "/sources",
    response_model=list[SourceDetail],
    responses=LIST_RESPONSES,
    openapi_extra=LIST_PAGING,
)
def sources(request: Request, session: SessionDep, listing: ListReading) -> Response:
    """Every source and what it contributed."""
    return _json_page(request, listing, list_sources(session))


@page(
    router,
    "/matrix",
    response_model=MatrixResponse | ModelMatrixResponse,
    responses=BAD_VALUE,
    openapi_extra=_matrix_parameters(),
)
def matrix(
    session: SessionDep, reading: MatrixApiReading, models: ModelMatrixApiReading
) -> Response:
    """The matrix exactly as /matrix (view=features), /hardware (view=hardware) or
    /matrix?view=models (architectures x systems, with its own filters) shows it."""
    if reading.params.view == "models":
        return model_matrix_json(session, models)
    return render_json(build_matrix(session, reading.params.view, reading.params), reading.ignored)


@page(
    router,
    "/benchmarks",
    response_model=BenchmarksResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(BenchmarkApiParams),
)
def benchmarks(request: Request, session: SessionDep) -> Response:
    """The results with their contexts as /benchmarks shows them, grouped into comparable
    contexts, a page at a time: `per_page` results (1000 unless it says, at most 5000) and
    their contexts; `matched` counts the results on every page, `next` is the next page's URL
    (null on the last)."""
    # The page and size first, so that only that page's results are grouped and sent.
    paging = read_query(BenchmarkApiParams, request.query_params, {}).params
    size = paging.per_page
    window = slice((paging.page - 1) * size, paging.page * size)
    reading, found = read_benchmarks(
        session, request.query_params, model=BenchmarkApiParams, window=window
    )
    checked(reading)
    if reading.params.level() and shows_sweeps(reading.params):
        # At a service level, the team's sweeps within the filters, read at it.
        found.team_sweeps = team_sweeps(session, SweepParams.of(reading.params))
    pages = max(1, -(-found.matched // size))
    more = paging.page < pages
    paged = Paged(
        page=paging.page,
        per_page=size,
        pages=pages,
        next=next_page(request, paging.page + 1) if more else None,
    )
    body = found.model_dump(mode="json") | paged.model_dump()
    return JSONResponse(body | {"ignored_parameters": reading.ignored})


class SweepsResponse(SweepPage, Ignoring): ...


@page(
    router,
    "/sweeps",
    response_model=SweepsResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(SweepParams),
)
def sweeps(session: SessionDep, reading: SweepsReading) -> Response:
    """The team's sweeps as /benchmarks draws them: per setup, each imported run's per-user
    and per-GPU throughput and whether it is on the setup's Pareto frontier."""
    return render_json(team_sweeps(session, reading.params), reading.ignored)


@page(
    router,
    "/compare",
    response_model=CompareResponse,
    responses=BAD_VALUE,
    openapi_extra=query_parameters(CompareApiParams),
)
def compare(session: SessionDep, reading: CompareApiReading) -> Response:
    """The same comparison /compare shows: overview, features, hardware, shared benchmarks."""
    p = reading.params
    comparison = build_comparison(session, list(p.s), p.diff, level=p.level() or None)
    return render_json(comparison, reading.ignored)


@page(
    router,
    "/recommend",
    response_model=RecommendResponse,
    responses=BAD_VALUE
    | {404: {"description": "model= or hardware= names nothing; the reply suggests the closest"}},
    openapi_extra=query_parameters(AnswerParams),
)
def recommend(session: SessionDep, reading: AnswerReading) -> Response:
    """Ranked systems with sourced reasons, and the systems ruled out, for these answers."""
    params = DecideParams.of(reading.params)
    subject, rulings = model_first(session, params)
    if reading.problems:  # a query that breaks its schema: every problem at once
        checked(reading, subject.problems)
    for problem in subject.problems:  # a name that names nothing is not found, as elsewhere
        if problem.field in ("model", "hardware"):
            raise NotFoundError(
                problem.field,
                problem.value,
                list(problem.allowed),
                detail=problem.message,
                listed=False,
                suggested=list(problem.allowed)[:8],
            )
    checked(reading, subject.problems)  # a context too long for the model
    result = recommendation(session, subject.answers, level=params.service_level(), rulings=rulings)
    return render_json(result, reading.ignored)

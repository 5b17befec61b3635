"""GET /api/v1/fit: will a model fit on N of a GPU, and with what to spare (issue 36)."""

from typing import Annotated

from fastapi import APIRouter
from fastapi.responses import Response
from sqlmodel import Session
from starlette.datastructures import QueryParams

from app.db import SessionDep
from app.params.fit import FitParams
from app.params.reader import ParamError, ParamProblem, Reading, read_query
from app.queries.fit import FitInputError, fit_for, fit_view
from app.routes.api.catalogue import BAD_VALUE, NO_ENTRY, Ignoring
from app.schemas import FitView
from app.web.deps import checked, reading
from app.web.errors import NotFoundError
from app.web.openapi import query_parameters
from app.web.pages import page
from app.web.render import render_json

router = APIRouter(prefix="/api/v1", tags=["api"])


def _checked_fit(_session: Session, query: QueryParams) -> Reading[FitParams]:
    found = read_query(FitParams, query)
    more = [] if found.params.model.strip() else [ParamProblem("model", "", (), "is required")]
    checked(found, more)
    return found


class FitResponse(FitView, Ignoring): ...


FitReading = Annotated[Reading[FitParams], reading(_checked_fit)]


def refused(problem: FitInputError, value: str) -> Exception:
    """The API's error for a fit input: 404 for a name that names nothing, else 422."""
    if problem.status == 404:
        return NotFoundError(problem.field, value, problem.allowed, detail=str(problem))
    return ParamError(
        [ParamProblem(problem.field, value[:100], tuple(problem.allowed), str(problem))]
    )


@page(
    router,
    "/fit",
    response_model=FitResponse,
    responses=BAD_VALUE | NO_ENTRY,
    openapi_extra=query_parameters(FitParams),
)
def fit(session: SessionDep, found: FitReading) -> Response:
    """The memory a model needs on `gpus` of a GPU at a context and concurrency, whether it
    fits, the fewest GPUs that hold it and how far it stretches; decimal GB (10^9 bytes)."""
    p = found.params
    try:
        answer = fit_for(
            session,
            model=p.model,
            hardware=p.hardware,
            gpus=p.gpus,
            context=p.context,
            concurrency=p.concurrency,
            precision=p.precision,
            kv_cache_dtype=p.kv_cache_dtype,
            memory_utilization=p.memory_utilization,
            system=p.system,
        )
    except FitInputError as problem:
        raise refused(problem, str(getattr(p, problem.field, "") or "")) from None
    return render_json(fit_view(answer), found.ignored)

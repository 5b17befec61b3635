"""GET /api/v1/fit: will a model fit on N of a GPU, and with what to spare (issue 36)."""

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from app.db import SessionDep
from app.params.fit import FitApiParams
from app.params.reader import ParamError, ParamProblem
from app.queries.fit import FitInputError, fit_asked, fit_view
from app.routes.api.catalogue import BAD_VALUE, NO_ENTRY, Ignoring
from app.schemas import FitView
from app.web.deps import FitApiReading
from app.web.errors import NotFoundError
from app.web.openapi import query_parameters
from app.web.pages import page
from app.web.render import render_json

router = APIRouter(prefix="/api/v1", tags=["api"])


class FitResponse(FitView, Ignoring): ...


def refused(problem: FitInputError, value: str) -> Exception:
    """The API's error for a fit input: 404 for a name that names nothing, else 422."""
    if problem.status == 404:
        return NotFoundError(problem.field, value, problem.allowed, detail=str(problem))
    return ParamError(
        [ParamProblem(problem.field, value[:100], tuple(problem.allowed), str(problem))]
    )


def _model_required(extra: dict[str, Any]) -> dict[str, Any]:
    """The schema says what the route checks: no answer without a model."""
    for parameter in extra.get("parameters", []):
        if parameter.get("name") == "model":
            parameter["required"] = True
            parameter.pop("allowEmptyValue", None)
            parameter.get("schema", {}).pop("default", None)
    return extra


@page(
    router,
    "/fit",
    response_model=FitResponse,
    responses=BAD_VALUE | NO_ENTRY,
    openapi_extra=_model_required(query_parameters(FitApiParams)),
)
def fit(session: SessionDep, found: FitApiReading) -> Response:
    """The memory a model needs on `gpus` of a GPU at a context and concurrency, whether it
    fits, the fewest GPUs that hold it and how far it stretches; decimal GB (10^9 bytes)."""
    p = found.params
    try:
        answer = fit_asked(session, p)
    except FitInputError as problem:
        raise refused(problem, str(getattr(p, problem.field, "") or "")) from None
    return render_json(fit_view(answer), found.ignored)

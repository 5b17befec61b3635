"""GET /api/v1/support and the models view of GET /api/v1/matrix (issue 35): the same read
models the models matrix and the model pages draw."""

from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel

from app.db import SessionDep
from app.params.models import ModelMatrixParams, SupportParams
from app.params.reader import Reading
from app.queries.model_matrix import ModelMatrixResult, build_model_matrix
from app.queries.support_answer import (
    SupportAnswer,
    Unknown,
    support_for_architecture,
    support_for_model,
)
from app.web.deps import SupportReading
from app.web.errors import NotFoundError
from app.web.openapi import query_parameters
from app.web.pages import page
from app.web.render import render_json

router = APIRouter(prefix="/api/v1", tags=["api"])


class Ignoring(BaseModel):
    ignored_parameters: list[str] = []


class SupportResponse(SupportAnswer, Ignoring): ...


class ModelMatrixResponse(ModelMatrixResult, Ignoring): ...


SUPPORT_ERRORS: dict[int | str, dict[str, Any]] = {
    307: {"description": "Neither model= nor architecture=: to the whole models matrix"},
    404: {"description": "The model or class names nothing; the reply suggests the closest"},
    422: {"description": "A value too long"},
}


@page(
    router,
    "/support",
    response_model=SupportResponse,
    responses=SUPPORT_ERRORS,
    openapi_extra=query_parameters(SupportParams),
)
def support(session: SessionDep, reading: SupportReading) -> Response:
    """Which systems serve a model as typed (`model=`: slug, Hugging Face id, Ollama tag, GGUF
    file name, cache folder) or a Hugging Face class (`architecture=`): one cell per system
    (level, disputed, reason, claims with since, until, scope and page; level `no-claim`
    where no source says: unknown, never no), and for a name that implies a weight format,
    that format and each system's level on loading it (`format_level`)."""
    params = reading.params
    if not params.model and not params.architecture:
        # No question: every class for every system is the models matrix.
        return RedirectResponse("/api/v1/matrix?view=models", status_code=307)
    if params.model:
        found = support_for_model(session, params.model)
    else:
        found = support_for_architecture(session, params.architecture)
    if isinstance(found, Unknown):
        raise NotFoundError(
            found.field, found.value, found.allowed, listed=False, suggested=found.suggested
        )
    if params.model and params.architecture and not _same_class(found, params.architecture):
        # The model answers; the class given beside it is said to be another, not refused.
        said = f"architecture={params.architecture} was not used: {params.model} is a"
        said += f" {found.architecture}."
        found = found.model_copy(update={"note": " ".join(filter(None, [found.note, said]))})
    return render_json(found, reading.ignored)


def _same_class(found: SupportAnswer, architecture: str) -> bool:
    return (found.architecture or "").lower() == architecture.lower()


def model_matrix_json(session: SessionDep, reading: Reading[ModelMatrixParams]) -> Response:
    """/api/v1/matrix?view=models: the rows and columns /matrix?view=models shows."""
    return render_json(build_model_matrix(session, reading.params), reading.ignored)

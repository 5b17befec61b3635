"""A view's query string as a route parameter: `reading: MatrixReading` instead of a call to
read_matrix(session, request.query_params, MatrixParams) in every handler.

Each alias is an `Annotated` dependency (as `SessionDep` and `EditorUser` are). Its value is
read in the build, not before it: app/web/pages.py resolves a `Deferred` inside serve()'s
read transaction, so a reading checked against the data's vocabularies sees the same
snapshot as the page, and a page answered from the cache reads nothing. The readers are the
lenient ones of params/reader.py and queries/readings.py, unchanged: an unknown parameter is
ignored and named, a bad value dropped and named. The API's readings (`MatrixApiReading` ...)
refuse a bad value instead (ParamError: a 422 naming the field and what is allowed).

They live in web/, not params/: a reading checks values against the data (queries/), and
params/ sits below queries/ in the layers (pyproject.toml's import-linter contracts).

A dependency takes only the request, so OpenAPI learns nothing from it: the API routes
still describe their parameters with `openapi_extra=query_parameters(Model)`.
"""

from collections.abc import Callable
from typing import Annotated, Any, Generic, TypeVar

from fastapi import Depends, Request
from sqlmodel import Session
from starlette.datastructures import QueryParams

from app.params.benchmarks import SweepParams
from app.params.changes import ChangesParams
from app.params.compare import CompareApiParams, CompareParams, compare_problems
from app.params.decide import AnswerParams, FlowParams
from app.params.fit import FitApiParams, FitParams
from app.params.lists import ListParams, NotesParams
from app.params.matrix import MatrixApiParams, MatrixParams
from app.params.models import ModelListParams, ModelMatrixParams, SupportParams
from app.params.reader import ParamError, ParamProblem, QueryModel, Reading, read_query
from app.queries.import_groups import ImportChange
from app.queries.model_list import model_list_vocabularies
from app.queries.model_matrix import model_vocabularies
from app.queries.readings import (
    read_change_entries,
    read_changes,
    read_compare,
    read_matrix,
    system_names,
    with_slugs,
)
from app.queries.vocabularies import (
    benchmark_vocabularies,
    note_vocabularies,
    system_vocabularies,
)
from app.schemas import RevisionPage, RevisionView

T = TypeVar("T")
ChangeEntriesPage = tuple[Reading[ChangesParams], list[RevisionView | ImportChange], int | None]


class Deferred(Generic[T]):
    """A reading waiting for the build's session (app/web/pages.py reads it there)."""

    def __init__(self, read: Callable[[Session], T]) -> None:
        self._read = read

    def read(self, session: Session) -> T:
        """The value, read against `session`'s snapshot."""
        return self._read(session)


def reading(read: Callable[[Session, QueryParams], Any]) -> Any:
    """The dependency for `read(session, query)`: a Deferred of the request's query."""

    async def dependency(request: Request) -> Deferred[Any]:
        query = request.query_params
        return Deferred(lambda session: read(session, query))

    return Depends(dependency)


def checked(found: Reading[Any], more: list[ParamProblem] | None = None) -> None:
    """Refuse a reading with problems (the API's 422); pages show them instead."""
    problems = found.problems + (more or [])
    if problems:
        raise ParamError(problems)


# The pages' readings ---------------------------------------------------------------------


def _ignored(_session: Session, query: QueryParams) -> list[str]:
    return read_query(QueryModel, query).ignored


def _flow(session: Session, query: QueryParams) -> Reading[FlowParams]:
    return read_query(FlowParams, query, system_vocabularies(session))


def _fit(_session: Session, query: QueryParams) -> Reading[FitParams]:
    return read_query(FitParams, query)


def _models_view(query: QueryParams) -> bool:
    return query.get("view") == "models"


def _model_matrix(session: Session, query: QueryParams) -> Reading[ModelMatrixParams]:
    # /matrix serves the features view unless asked: its readers need not load the support data.
    if not _models_view(query):
        return Reading(ModelMatrixParams(view="features"), [], [])
    return read_query(ModelMatrixParams, query, model_vocabularies(session))


def _checked_model_matrix(session: Session, query: QueryParams) -> Reading[ModelMatrixParams]:
    found = _model_matrix(session, query)
    checked(found)
    if not _models_view(query) and any(name in MODELS_ONLY for name in query):
        # The schema lists the models view's own filters for every view: a wrong value is a
        # wrong value there too, though the features view does not use it.
        models = read_query(ModelMatrixParams, query, model_vocabularies(session))
        checked(Reading(found.params, [p for p in models.problems if p.field in MODELS_ONLY], []))
    return found


MODELS_ONLY = frozenset(ModelMatrixParams.model_fields) - frozenset(MatrixApiParams.model_fields)


def _model_list(session: Session, query: QueryParams) -> Reading[ModelListParams]:
    return read_query(ModelListParams, query, model_list_vocabularies(session))


def _checked_model_list(session: Session, query: QueryParams) -> Reading[ModelListParams]:
    found = _model_list(session, query)
    checked(found)
    return found


def _checked_support(_session: Session, query: QueryParams) -> Reading[SupportParams]:
    # Which of model= and architecture= was given is the route's business: with neither it
    # points to the whole models matrix, with both the model must be of that class.
    found = read_query(SupportParams, query)
    checked(found)
    return found


Ignored = Annotated[list[str], reading(_ignored)]
"""The parameters of a page that takes none: what is not a tracking one is named as ignored."""
MatrixReading = Annotated[
    Reading[MatrixParams], reading(lambda s, q: read_matrix(s, q, MatrixParams))
]
ModelMatrixReading = Annotated[Reading[ModelMatrixParams], reading(_model_matrix)]
"""The models x systems matrix's parameters, read only when the query says view=models."""
CompareReading = Annotated[Reading[CompareParams], reading(read_compare)]
FlowReading = Annotated[Reading[FlowParams], reading(_flow)]
FitReading = Annotated[Reading[FitParams], reading(_fit)]
ChangeEntries = Annotated[ChangeEntriesPage, reading(read_change_entries)]
"""/changes and its feed: the filters and one page of the history as people read it."""


# The JSON API's readings: a bad value is a 422 --------------------------------------------


def _checked_matrix(session: Session, query: QueryParams) -> Reading[MatrixApiParams]:
    if _models_view(query):  # the models view's own reading checks its parameters
        return Reading(MatrixApiParams(view="models"), [], [])
    found = read_matrix(session, query, MatrixApiParams)
    checked(found)
    return found


def _checked_compare(session: Session, query: QueryParams) -> Reading[CompareApiParams]:
    query = with_slugs(query, {"s": system_names(session)})
    found = read_query(CompareApiParams, query, system_vocabularies(session))
    checked(found, compare_problems(query))
    return found


def _checked_sweeps(session: Session, query: QueryParams) -> Reading[SweepParams]:
    found = read_query(SweepParams, query, benchmark_vocabularies(session))
    checked(found)
    return found


def _checked_notes(session: Session, query: QueryParams) -> Reading[NotesParams]:
    found = read_query(NotesParams, query, note_vocabularies(session))
    checked(found)
    return found


def _checked_list(_session: Session, query: QueryParams) -> Reading[ListParams]:
    found = read_query(ListParams, query)
    checked(found)
    return found


def _answers(_session: Session, query: QueryParams) -> Reading[AnswerParams]:
    # Checked by the route (`checked`), once a typed model or accelerator is resolved too,
    # so one 422 names every problem.
    return read_query(AnswerParams, query)


def _checked_fit(_session: Session, query: QueryParams) -> Reading[FitApiParams]:
    found = read_query(FitApiParams, query)
    more = [] if found.params.model.strip() else [ParamProblem("model", "", (), "is required")]
    checked(found, more)
    return found


def _checked_changes(
    session: Session, query: QueryParams
) -> tuple[Reading[ChangesParams], RevisionPage]:
    found, page = read_changes(session, query)
    checked(found)
    return found, page


MatrixApiReading = Annotated[Reading[MatrixApiParams], reading(_checked_matrix)]
ModelMatrixApiReading = Annotated[Reading[ModelMatrixParams], reading(_checked_model_matrix)]
ModelListReading = Annotated[Reading[ModelListParams], reading(_model_list)]
ModelListApiReading = Annotated[Reading[ModelListParams], reading(_checked_model_list)]
SupportReading = Annotated[Reading[SupportParams], reading(_checked_support)]
CompareApiReading = Annotated[Reading[CompareApiParams], reading(_checked_compare)]
SweepsReading = Annotated[Reading[SweepParams], reading(_checked_sweeps)]
NotesReading = Annotated[Reading[NotesParams], reading(_checked_notes)]
ListReading = Annotated[Reading[ListParams], reading(_checked_list)]
AnswerReading = Annotated[Reading[AnswerParams], reading(_answers)]
FitApiReading = Annotated[Reading[FitApiParams], reading(_checked_fit)]
ChangesApiPage = Annotated[tuple[Reading[ChangesParams], RevisionPage], reading(_checked_changes)]
"""/api/v1/changes: the filters and one page of every revision."""

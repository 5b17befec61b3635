"""A view's query string, read against the data's own values: the step a page and its JSON
twin share, so both check the same parameters and get the same read model."""

import datetime as dt
from typing import TypeVar

from sqlmodel import Session
from starlette.datastructures import QueryParams

from app.params.views import (
    BenchmarkParams,
    ChangesParams,
    CompareParams,
    ParamProblem,
    QueryModel,
    Reading,
    compare_problems,
    read_query,
)
from app.queries.benchmark_page import BenchmarkPage, all_results, build_benchmark_page
from app.queries.entries import vocabulary_names
from app.queries.revisions import revision_page
from app.queries.vocabularies import (
    benchmark_vocabularies,
    change_vocabularies,
    matrix_vocabularies,
    system_vocabularies,
)
from app.schemas import BenchmarkView, RevisionPage
from app.vocabulary.names import Names

M = TypeVar("M", bound=QueryModel)


def read_matrix(session: Session, query: QueryParams, model: type[M]) -> Reading[M]:
    """The matrix parameters (MatrixParams, or the API's MatrixApiParams), checked against
    the current vocabulary."""
    return read_query(model, query, matrix_vocabularies(session))


def read_benchmarks(
    session: Session, query: QueryParams, results: list[BenchmarkView] | None = None
) -> tuple[Reading[BenchmarkParams], BenchmarkPage]:
    """Parse the filters against the data's own values and build the page's data."""
    if results is None:
        results = all_results(session, dt.date.today())
    named = with_slugs(query, vocabulary_names(session))
    reading = read_query(BenchmarkParams, named, benchmark_vocabularies(session))
    return reading, build_benchmark_page(session, reading.params, results)


def with_slugs(query: QueryParams, names: dict[str, Names]) -> QueryParams:
    """Hardware, model and workload values given by name or alias, as their slugs.

    Links made before the vocabulary ("hardware=NVIDIA H100 SXM5 80GB") keep working: the
    page answers them with a redirect to the slug form."""
    return QueryParams(
        [(k, names[k].resolve(v) or v if k in names else v) for k, v in query.multi_items()]
    )


def read_changes(
    session: Session, query: QueryParams
) -> tuple[Reading[ChangesParams], RevisionPage]:
    """Parse the filters against the history's own values, then read one page of it."""
    reading = read_query(ChangesParams, query, change_vocabularies(session))
    p = reading.params
    page = revision_page(session, user=p.user or None, system=p.system or None,
                         entity=p.kind or None, limit=p.limit, before_id=p.before)  # fmt: skip
    return reading, page


TOO_FEW = ("choose at least two systems to compare", "no systems chosen")
"""The problems of a comparison still being built (the Find button may add to it)."""


def read_compare(session: Session, query: QueryParams) -> Reading[CompareParams]:
    """The systems to compare, in the user's order, with every problem named."""
    reading = read_query(CompareParams, query, system_vocabularies(session))
    params, problems = reading.params, reading.problems
    problems += compare_problems(query)
    if len(params.s) > 4:
        reason = f"{len(params.s)} systems given; compare at most four at a time"
        problems.append(ParamProblem("s", ",".join(params.s), (), reason))
        reading = Reading(params.replace(s=params.s[:4]), problems, reading.ignored)
    elif len(params.s) < 2 and not problems and (params.s or not params.q):
        reason = TOO_FEW[0] if params.s else TOO_FEW[1]
        problems.append(ParamProblem("s", ",".join(params.s), (), reason))
    return reading

"""A view's query string, read against the data's own values: the step a page and its JSON
twin share, so both check the same parameters and get the same read model.

It lives on the read side, not in params/: it asks the database for the allowed values and
builds the page's read model, so params/ (the query models) stays pure and the dependency
runs one way, queries -> params."""

import datetime as dt
from typing import TypeVar

from sqlmodel import Session, col, select

from app.data_version.version import per_version
from app.decision.hardware import HARDWARE_CAPABILITIES
from app.decision.measured import hardware_answers
from app.models import Hardware, System
from app.params.benchmarks import BENCHMARK_FILTERS, BenchmarkParams
from app.params.changes import ChangesParams
from app.params.compare import CompareParams, compare_problems
from app.params.reader import ParamProblem, Query, QueryModel, Reading, query_from, read_query
from app.queries.benchmark_page import (
    NO_RESULTS,
    BenchmarkPage,
    ResultIndex,
    build_benchmark_page,
    result_index,
)
from app.queries.entries import vocabulary_names
from app.queries.import_groups import ImportChange
from app.queries.revisions import collapsed_page, revision_page
from app.queries.vocabularies import (
    Vocabularies,
    benchmark_display_names,
    benchmark_vocabularies,
    change_vocabularies,
    matrix_vocabularies,
    system_vocabularies,
)
from app.schemas import RevisionPage, RevisionView
from app.vocabulary.names import Names

M = TypeVar("M", bound=QueryModel)


def read_matrix(session: Session, query: Query, model: type[M]) -> Reading[M]:
    """The matrix parameters (MatrixParams, or the API's MatrixApiParams), checked against
    the current vocabulary."""
    return read_query(model, query, matrix_vocabularies(session))


def read_benchmarks(
    session: Session,
    query: Query,
    index: ResultIndex | None = None,
    model: type[BenchmarkParams] = BenchmarkParams,
    window: slice | None = None,
) -> tuple[Reading[BenchmarkParams], BenchmarkPage]:
    """Parse the filters against the data's own values and build the page's data (only the
    results in `window` of those the filters keep, when given)."""
    if index is None:
        index = result_index(session, dt.date.today())
    named = with_slugs(query, {**vocabulary_names(session), "system": system_names(session)})
    named, vocabularies = _platforms_as_accelerators(session, named)
    reading = read_query(model, named, vocabularies)
    refused = [p for p in reading.problems if p.field in BENCHMARK_FILTERS and p.allowed]
    if refused:
        # A value nobody knows: name what is allowed as the pages name it, and show nothing
        # rather than every result as if that filter had not been asked for.
        names = benchmark_display_names(session)
        problems = [
            _named(p, names.get(p.field, {})) if p in refused else p for p in reading.problems
        ]
        reading = Reading(reading.params, problems, reading.ignored)
        return reading, build_benchmark_page(session, reading.params, NO_RESULTS, window)
    return reading, build_benchmark_page(session, reading.params, index, window)


def _platforms_as_accelerators(session: Session, query: Query) -> tuple[Query, Vocabularies]:
    """`hardware=` naming a platform (a /decide answer such as google-tpu or nvidia-datacenter,
    or a hardware column of the matrix such as amd-rocm) read as the accelerators under it,
    which the page then redirects to; a platform no accelerator falls under is a known value
    that filters to nothing, never a 422. Figures name accelerators, /decide and the matrix
    name platforms: a person typing either means the same hardware."""
    vocabularies = benchmark_vocabularies(session)
    platforms = hardware_platforms(session)
    accelerators = set(vocabularies.get("hardware", ()))
    pairs: list[tuple[str, str]] = []
    for key, value in query.multi_items():
        if key == "hardware" and value not in accelerators and value in platforms:
            pairs += [(key, slug) for slug in platforms[value]] or [(key, value)]
        else:
            pairs.append((key, value))
    empty = [p for p, slugs in platforms.items() if not slugs and p not in accelerators]
    return query_from(pairs), {**vocabularies, "hardware": [*accelerators, *empty]}


@per_version(max_entries=1)
def hardware_platforms(session: Session) -> dict[str, tuple[str, ...]]:
    """Each platform's slug (a /decide hardware answer, or a matrix hardware target) -> the
    hardware entries (accelerators) under it, in the entries' order."""
    rows = session.exec(
        select(Hardware.slug, Hardware.vendor, Hardware.name)
        .where(~col(Hardware.withdrawn))
        .order_by(col(Hardware.position), col(Hardware.slug))
    ).all()
    under: dict[str, list[str]] = {answer: [] for answer in HARDWARE_CAPABILITIES}
    for slug, vendor, name in rows:
        for answer in hardware_answers(vendor, name):
            under.setdefault(answer, []).append(slug)
    for answer, targets in HARDWARE_CAPABILITIES.items():
        for target in targets:
            under.setdefault(target, []).extend(under[answer])
    return {p: tuple(dict.fromkeys(slugs)) for p, slugs in under.items()}


def _named(problem: ParamProblem, names: dict[str, str]) -> ParamProblem:
    """The problem with its allowed values as 'Name (slug)' (or the name alone when equal)."""
    allowed = tuple(f"{names[v]} ({v})" if names.get(v, v) != v else v for v in problem.allowed)
    return ParamProblem(problem.field, problem.value, allowed, problem.reason)


def with_slugs(query: Query, names: dict[str, Names]) -> Query:
    """Values of the parameters in `names` (hardware, model, workload, systems) given by name
    or alias, as their slugs; a comma-separated list is read item by item when every item
    resolves. Anything else is left for the reading to report.

    Links made before the vocabulary ("hardware=NVIDIA H100 SXM5 80GB") and links typed by
    hand ("/compare?s=llama.cpp&s=vLLM") keep working: the page answers them with a redirect
    to the slug form."""

    def slug(param: str, value: str) -> str:
        if param not in names:
            return value
        found = names[param].resolve(value)
        if found or "," not in value:
            return found or value
        parts = [names[param].resolve(part) for part in value.split(",") if part.strip()]
        return ",".join(p for p in parts if p) if all(parts) else value

    return query_from([(k, slug(k, v)) for k, v in query.multi_items()])


@per_version(max_entries=1)
def system_names(session: Session) -> Names:
    """Every system's slug and display name ("llama.cpp", "TensorRT-LLM"), for resolving."""
    systems = session.exec(select(System.slug, System.name)).all()
    return Names.of("system", ((slug, [name]) for slug, name in systems))


def read_changes(session: Session, query: Query) -> tuple[Reading[ChangesParams], RevisionPage]:
    """Parse the filters against the history's own values, then read one page of it."""
    reading = read_query(ChangesParams, query, change_vocabularies(session))
    p = reading.params
    page = revision_page(
        session,
        user=p.user or None,
        system=p.system or None,
        entity=p.kind or None,
        limit=p.limit,
        before_id=p.before,
    )
    return reading, page


def read_change_entries(
    session: Session, query: Query
) -> tuple[Reading[ChangesParams], list[RevisionView | ImportChange], int | None]:
    """As read_changes, for people: an import's figures are one entry (the page and the
    feed; the JSON API keeps every revision). Also the `before` of the older page."""
    reading = read_query(ChangesParams, query, change_vocabularies(session))
    p = reading.params
    entries, older = collapsed_page(
        session,
        user=p.user or None,
        system=p.system or None,
        entity=p.kind or None,
        limit=p.limit,
        before_id=p.before,
    )
    return reading, entries, older


TOO_FEW = ("choose at least two systems to compare", "no systems chosen")
"""The problems of a comparison still being built (the Find button may add to it)."""


def read_compare(session: Session, query: Query) -> Reading[CompareParams]:
    """The systems to compare, in the user's order, with every problem named."""
    query = with_slugs(query, {"s": system_names(session)})
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

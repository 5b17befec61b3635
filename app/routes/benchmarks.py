"""/benchmarks (HTML and CSV); /api/v1/benchmarks lives in api.py."""

import csv
import datetime as dt
import io

from fastapi import APIRouter, Request
from fastapi.responses import Response
from markupsafe import Markup
from sqlmodel import Session
from starlette.datastructures import QueryParams

from app.data_version.version import data_version
from app.db import SessionDep
from app.forms.editing import benchmarks_editing
from app.params.views import RESULTS_PAGE_SIZE, BenchmarkParams, Reading, SweepParams, read_query
from app.queries.benchmark_page import (
    BenchmarkPage,
    all_results,
    build_benchmark_page,
    facet_counts,
    vocabulary,
)
from app.queries.contexts import context_chart, describe_ratio, throughput_vs_ttft
from app.queries.entries import vocabulary_names
from app.queries.paging import paginate
from app.queries.sweeps import shows_sweeps, sweep_drawings, team_sweeps
from app.queries.vocabularies import benchmark_vocabularies
from app.schemas import BenchmarkView
from app.vocabulary.names import Names
from app.web.fragment_cache import FragmentCache
from app.web.render import render, serve, templates, tidy_redirect

router = APIRouter(include_in_schema=False)


def read_benchmarks(
    session: Session, request: Request, results: list[BenchmarkView] | None = None
) -> tuple[Reading[BenchmarkParams], BenchmarkPage]:
    """Parse the filters against the data's own values and build the page's data."""
    if results is None:
        results = all_results(session, dt.date.today())
    query = with_slugs(request.query_params, vocabulary_names(session))
    reading = read_query(BenchmarkParams, query, benchmark_vocabularies(session))
    return reading, build_benchmark_page(session, reading.params, results)


def with_slugs(query: QueryParams, names: dict[str, Names]) -> QueryParams:
    """Hardware, model and workload values given by name or alias, as their slugs.

    Links made before the vocabulary ("hardware=NVIDIA H100 SXM5 80GB") keep working: the
    page answers them with a redirect to the slug form."""
    return QueryParams(
        [(k, names[k].resolve(v) or v if k in names else v) for k, v in query.multi_items()]
    )


CARDS = FragmentCache(max_bytes=8 * 1024 * 1024)


def _cards(session: Session, page: BenchmarkPage) -> list[Markup]:
    """Each ranked context's chart card, rendered once per data version, day and set of figures."""
    version, today = data_version(session), dt.date.today()
    cards_ui = templates.env.globals["charts_ui"]
    out = []
    for position, c in enumerate(page.ranked, start=1):
        anchor = f"ctx-{position}"
        key = (version, today, c.key, tuple(r.result.id for r in c.results), anchor)
        out.append(CARDS.get(key, lambda c=c, anchor=anchor: cards_ui.context_card(
            c, context_chart(c), anchor, describe_ratio)))  # fmt: skip
    return out


def _benchmarks_page(request: Request, session: Session) -> Response:
    results = all_results(session, dt.date.today())
    reading, page = read_benchmarks(session, request, results)
    params, problems = reading.params, reading.problems
    query = f"?{page.query}" if page.query else ""
    canonical = f"/benchmarks{query}"
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    exports = params.query_string(with_page=False)
    exports = f"?{exports}" if exports else ""
    rows, paging = paginate(page.results, params.page, RESULTS_PAGE_SIZE)
    context = {
        "rows": rows,
        "paging": paging,
        "page_queries": [params.replace(page=n).query_string() for n in range(1, paging.pages + 1)],
        "params": params,
        "page": page,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "options": labelled_options(results),
        "facets": facet_counts(results, params),
        "filter_groups": FILTER_GROUPS,
        "cards": _cards(session, page),
        "scatters": throughput_vs_ttft(page.contexts),
        "describe_ratio": describe_ratio,
        "placement": placement(page),
        "json_url": f"/api/v1/benchmarks{exports}",
        "csv_url": f"/benchmarks.csv{exports}",
        "active": "benchmarks",
        "team": benchmarks_editing(request, session, canonical),
        **_sweeps(session, params),
    }
    return render(request, "pages/benchmarks.html", context, session=session,
                  fragments=("benchmark_results", "team_sweeps"), canonical=canonical,
                  status_code=422 if problems else 200)  # fmt: skip


def _sweeps(session: Session, params: BenchmarkParams) -> dict[str, object]:
    """The team's sweeps within the page's filters (none when the filters leave no room)."""
    if not shows_sweeps(params):
        return {"sweeps": None}
    sweeps = team_sweeps(session, SweepParams.of(params))
    query = f"?{sweeps.query}" if sweeps.query else ""
    return {"sweeps": sweeps, "sweep_drawings": sweep_drawings(sweeps.charts),
            "sweeps_json_url": f"/api/v1/sweeps{query}"}  # fmt: skip


@router.get("/benchmarks")
async def benchmarks_page(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _benchmarks_page(request, s))


FILTER_GROUPS = (
    ("system", "System", False), ("metric", "Metric", True), ("hardware", "Hardware", False),
    ("model", "Model", False), ("precision", "Precision", False),
    ("workload", "Workload", False), ("source", "Source", False),
)  # fmt: skip
"""The filter lists as the page shows them: (parameter, heading, open when none is ticked)."""


def labelled_options(results: list[BenchmarkView]) -> dict[str, list[tuple[str, str]]]:
    """Filter choices as (value, label) in label order: names for what has a name."""
    names: dict[str, dict[str | None, str | None]] = {
        "system": {r.system: r.system_name for r in results},
        "metric": {r.metric: r.metric_name for r in results},
        "hardware": {r.hardware: r.hardware_name for r in results if r.hardware},
        "model": {r.model: r.model_name for r in results if r.model},
        "workload": {r.workload: r.workload_name for r in results if r.workload},
        "source": {r.source.slug: r.source.short for r in results},
    }
    return {
        field: sorted(
            ((v, names.get(field, {}).get(v) or v) for v in values), key=lambda o: o[1].lower()
        )
        for field, values in vocabulary(results).items()
    }


def placement(page: BenchmarkPage) -> dict[str, dict[str, object]]:
    """For each result: the ranked context it belongs to, or why it stands alone."""
    out: dict[str, dict[str, object]] = {}
    ranked_index = {c.key: i for i, c in enumerate(page.ranked, start=1)}
    for context in page.contexts:
        for r in context.results:
            if context.ranked:
                others = len(context.results) - 1
                label = f"{others} other result{'s' if others != 1 else ''}"
                anchor = f"ctx-{ranked_index[context.key]}"
                out[r.result.id] = {"ranked": True, "label": label, "anchor": anchor}
            else:
                out[r.result.id] = {"ranked": False, "label": context.why_not_ranked}
    return out


CSV_COLUMNS = ("id", "system", "metric", "value", "low", "high", "qualifier", "unit", "hardware",
               "gpus", "model", "precision", "concurrency", "workload", "setup", "system_version",
               "baseline", "run_by", "date", "age_days", "stale", "source")  # fmt: skip


def _benchmarks_csv(request: Request, session: Session) -> Response:
    reading, page = read_benchmarks(session, request)
    if reading.problems:
        text = "\n".join(p.message for p in reading.problems[:10]) + "\n"
        return Response(text, 422, media_type="text/plain")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in page.results:
        row = r.model_dump()
        row["source"] = r.source.slug
        writer.writerow(["" if row[c] is None else row[c] for c in CSV_COLUMNS])
    return Response(
        buffer.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="inference-atlas-benchmarks.csv"'},
    )


@router.get("/benchmarks.csv")
async def benchmarks_csv(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _benchmarks_csv(request, s))

"""/benchmarks (HTML and CSV); /api/v1/benchmarks lives in api.py."""

import csv
import datetime as dt
import io

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from sqlmodel import Session

from app.db import SessionDep
from app.params import BenchmarkParams, ParamProblem, is_untidy, parse_benchmark_params
from app.queries.benchmark_page import BenchmarkPage, all_results, build_benchmark_page, vocabulary
from app.queries.contexts import context_chart, describe_ratio, throughput_vs_ttft
from app.schemas import BenchmarkView
from app.web import render

router = APIRouter(include_in_schema=False)


def read_benchmark_params(
    session: Session,
    request: Request,
    extra_names: tuple[str, ...] = (),
    results: list[BenchmarkView] | None = None,
) -> tuple[BenchmarkParams, list[ParamProblem], BenchmarkPage]:
    """Parse the filters against the data's own values and build the page's data."""
    if results is None:
        results = all_results(session, dt.date.today())
    params, problems = parse_benchmark_params(
        request.query_params, vocabulary(results), extra_names
    )
    return params, problems, build_benchmark_page(session, params, results)


@router.get("/benchmarks")
def benchmarks_page(request: Request, session: SessionDep) -> Response:
    results = all_results(session, dt.date.today())
    params, problems, page = read_benchmark_params(session, request, results=results)
    is_htmx = request.headers.get("HX-Request") == "true"
    if not problems and not is_htmx and is_untidy(request.url.query, page.query):
        return RedirectResponse(f"/benchmarks?{page.query}" if page.query else "/benchmarks", 303)
    query = f"?{page.query}" if page.query else ""
    context = {
        "params": params,
        "page": page,
        "problems": problems,
        "options": labelled_options(results),
        "charts": {c.key: context_chart(c) for c in page.ranked},
        "scatters": throughput_vs_ttft(page.contexts),
        "describe_ratio": describe_ratio,
        "placement": placement(page),
        "json_url": f"/api/v1/benchmarks{query}",
        "csv_url": f"/benchmarks.csv{query}",
        "active": "benchmarks",
    }
    response = render(request, "pages/benchmarks.html", context, fragments=("benchmark_results",),
                      status_code=422 if problems else 200)  # fmt: skip
    if is_htmx and not problems:
        response.headers["HX-Push-Url"] = f"/benchmarks{query}"
    return response


def labelled_options(results: list[BenchmarkView]) -> dict[str, list[tuple[str, str]]]:
    """Filter choices as (value, label): names for systems, metrics and sources."""
    names = {
        "system": {r.system: r.system_name for r in results},
        "metric": {r.metric: r.metric_name for r in results},
        "source": {r.source.slug: r.source.short for r in results},
    }
    return {
        field: [(v, names.get(field, {}).get(v, v)) for v in values]
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
               "model", "precision", "concurrency", "workload", "system_version", "baseline",
               "run_by", "date", "age_days", "stale", "source")  # fmt: skip


@router.get("/benchmarks.csv")
def benchmarks_csv(request: Request, session: SessionDep) -> Response:
    _, problems, page = read_benchmark_params(session, request)
    if problems:
        return Response("\n".join(p.message for p in problems) + "\n", 422, media_type="text/plain")
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

"""/benchmarks (HTML and CSV); /api/v1/benchmarks is in app/routes/api/catalogue.py."""

import datetime as dt
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from markupsafe import Markup

from app.data_version.memo import PerDatabase, VersionedCache
from app.data_version.version import data_version
from app.db import SessionDep
from app.forms.editing import benchmarks_editing
from app.params.benchmarks import RESULTS_PAGE_SIZE, BenchmarkParams, SweepParams
from app.present.context_charts import context_chart, describe_ratio, throughput_vs_ttft
from app.present.exports import benchmarks_csv
from app.present.sweep_drawing import sweep_drawings
from app.queries.benchmark_page import (
    BenchmarkPage,
    page_view,
    result_index,
    unmeasured_systems,
)
from app.queries.import_groups import split_imports, split_runs
from app.queries.imports import run_places
from app.queries.nearest_filters import nearest_filters
from app.queries.readings import read_benchmarks
from app.queries.sweeps import shows_sweeps, team_sweeps
from app.queries.vocabularies import benchmark_display_names
from app.web.pages import page
from app.web.render import render, templates, tidy_redirect

router = APIRouter(include_in_schema=False)

# Rendered chart cards, shared by every URL that shows the same context's figures.
CARDS: PerDatabase[Markup] = PerDatabase(
    lambda: VersionedCache(max_size=8 * 1024 * 1024, size_of=len)
)


def _cards(session: SessionDep, page: BenchmarkPage, charted: set[str]) -> list[Markup]:
    """The chart card of each ranked context in `charted`, numbered as on every page (the rows
    link to them by number), rendered once per data version, day and set of figures.

    A card is kept without its number (a placeholder stands in for its id), so every URL
    that shows the same context's figures shares it, whatever the filters before it: a
    source, a model or a hardware filter each put the same card at another position."""
    version, today = data_version(session), dt.date.today()
    cards_ui: Any = templates.env.globals["charts_ui"]  # a Jinja macro module
    cards = CARDS.of(session)
    out = []
    for position, c in enumerate(page.ranked, start=1):
        if c.key not in charted:
            continue
        key = (today, c.key, tuple(r.result.id for r in c.results))
        # mypy cannot type a lambda's default arguments (here binding the loop's values).
        card = cards.get_or_build(
            version,
            key,
            lambda c=c: Markup(
                cards_ui.context_card(  # type: ignore[misc]
                    c, context_chart(c), CARD_ID, describe_ratio
                )
            ),
        )
        out.append(Markup(card.replace(CARD_ID, f"ctx-{position}")))
    return out


# Stands for a card's id in a kept card: letters and digits, which escaping leaves as they
# are, drawn at random per process so that no name or label in the data can match it.
CARD_ID = f"card{secrets.token_hex(8)}"


@page(router, "/benchmarks")
def benchmarks_page(request: Request, session: SessionDep) -> Response:
    index = result_index(session, dt.date.today())
    reading, found = read_benchmarks(session, request.query_params, index)
    params, problems = reading.params, reading.problems
    query = f"?{found.query}" if found.query else ""
    canonical = f"/benchmarks{query}"
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    exports = params.query_string(with_page=False)
    exports = f"?{exports}" if exports else ""
    # An imported file is one group; ticking its source in the filter lists its every row.
    listed, import_groups = split_imports(found.results, frozenset(params.source))
    # ...and folds those rows under their runs: one entry per run, not a row per metric.
    run_ids = {r.import_run_id for r in listed if r.import_run_id is not None}
    listed, run_groups = split_runs(listed, run_places(session, run_ids))
    view = page_view(found, params, index, RESULTS_PAGE_SIZE, listed)
    context = {
        # rows, paging, page_queries, options, facets, placement, charted, not_charted,
        # editorial
        **vars(view),
        "scatters": throughput_vs_ttft(found.contexts, view.charted),
        "import_groups": import_groups,
        "run_groups": run_groups,
        "unmeasured": unmeasured_systems(session, params.system, index.results),
        # A service level or a price reads team sweeps only: published figures carry no
        # per-user or latency data, so the page counts those it could not apply to.
        "level_unused": sum(1 for r in found.results if r.source.kind != "team-measurement")
        if params.level() or params.price is not None
        else 0,
        # An empty result says which filter emptied it and where the data is.
        "nearer": []
        if found.results or problems
        else nearest_filters(
            params,
            view.facets,
            lambda name: index.count_without(params, name),
            benchmark_display_names(session),
        ),
        "params": params,
        "page": found,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "filter_groups": FILTER_GROUPS,
        "cards": _cards(session, found, view.charted),
        "describe_ratio": describe_ratio,
        "json_url": f"/api/v1/benchmarks{exports}",
        "csv_url": f"/benchmarks.csv{exports}",
        "active": "benchmarks",
        "team": benchmarks_editing(request, session, canonical),
        **({"sweeps": None} if problems else _sweeps(session, params)),
    }
    return render(
        request,
        "pages/benchmarks.html",
        context,
        session=session,
        fragments=("benchmark_results", "team_sweeps"),
        canonical=canonical,
        status_code=422 if problems else 200,
    )


def _sweeps(session: SessionDep, params: BenchmarkParams) -> dict[str, object]:
    """The team's sweeps within the page's filters (none when the filters leave no room)."""
    if not shows_sweeps(params):
        return {"sweeps": None}
    sweeps = team_sweeps(session, SweepParams.of(params))
    query = f"?{sweeps.query}" if sweeps.query else ""
    return {
        "sweeps": sweeps,
        "sweep_drawings": sweep_drawings(sweeps.charts, sweeps.level),
        "sweeps_json_url": f"/api/v1/sweeps{query}",
    }


FILTER_GROUPS = (
    ("system", "System", False),
    ("metric", "Metric", True),
    ("hardware", "Accelerator", False),
    ("model", "Model", False),
    ("precision", "Precision", False),
    ("workload", "Workload", False),
    ("source", "Source", False),
)
"""The filter lists as the page shows them: (parameter, heading, open when none is ticked)."""


@page(router, "/benchmarks.csv")
def benchmarks_csv_export(request: Request, session: SessionDep) -> Response:
    reading, found = read_benchmarks(session, request.query_params)
    if reading.problems:
        text = "\n".join(p.message for p in reading.problems[:10]) + "\n"
        return Response(text, 422, media_type="text/plain")
    return Response(
        benchmarks_csv(found.results),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="inference-atlas-benchmarks.csv"'},
    )

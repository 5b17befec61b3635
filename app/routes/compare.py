"""/compare: two to four systems side by side; /api/v1/compare is in app/routes/api/catalogue.py."""

from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.db import SessionDep
from app.params.benchmarks import BenchmarkParams
from app.present.context_charts import context_chart, describe_ratio
from app.present.sweep_drawing import sweep_drawings
from app.queries.benchmark_page import MAX_CHARTS, context_query
from app.queries.compare import Comparison, build_comparison, clear_pick, suggestions
from app.queries.decide import rules_favouring
from app.queries.readings import TOO_FEW
from app.queries.systems import list_systems
from app.web.deps import CompareReading
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)
FRAGMENTS = ("suggestions",)


@page(router, "/compare")
def compare_page(request: Request, session: SessionDep, reading: CompareReading) -> Response:
    params, problems = reading.params, reading.problems
    canonical = f"/compare?{params.query_string()}"
    if params.find and all(p.reason in TOO_FEW for p in problems) and len(params.s) < 4:
        # "ollama" then Find: one click adds it, rather than a list with one entry to click.
        pick = clear_pick(list_systems(session), params)
        if pick:
            return RedirectResponse(
                f"/compare?{params.query_string(s=(*params.s, pick), q='')}", 303
            )
        return RedirectResponse(canonical, 303)
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    systems = list_systems(session)
    comparison: Comparison | None = None
    if len(params.s) >= 2:
        comparison = build_comparison(
            session, list(params.s), params.diff, level=params.level() or None
        )
    base = request.app.state.settings.public_base()
    share_url = f"{base}/compare?{params.query_string(q='')}"
    preview_url = f"{base}/compare/preview.png?{params.query_string(q='', diff=False)}"
    context = {
        "params": params,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "comparison": comparison,
        "names": {s.slug: s.name for s in systems},
        "suggestions": suggestions(systems, params),
        # The cards drawn (at most MAX_CHARTS, as on /benchmarks) and, for the rest, where
        # /benchmarks charts each of them for these systems.
        "charted": comparison.shared_contexts[:MAX_CHARTS] if comparison else [],
        "charts": {c.key: context_chart(c) for c in comparison.shared_contexts[:MAX_CHARTS]}
        if comparison
        else {},
        "more_contexts": [
            (c, f"/benchmarks?{context_query(c, BenchmarkParams(system=params.s))}")
            for c in comparison.shared_contexts[MAX_CHARTS:]
        ]
        if comparison
        else [],
        "describe_ratio": describe_ratio,
        "favouring": rules_favouring(session, list(params.s)) if comparison else {},
        "share_url": share_url,
        "preview_url": preview_url,
        "json_url": f"/api/v1/compare?{params.query_string(q='')}",
        "active": "compare",
        "sweep_drawings": sweep_drawings(
            comparison.team_sweeps.charts, comparison.team_sweeps.level
        )
        if comparison and comparison.team_sweeps
        else [],
    }
    status = 422 if problems and params.s else 200
    return render(
        request,
        "pages/compare.html",
        context,
        session=session,
        fragments=FRAGMENTS,
        canonical=canonical,
        status_code=status,
    )


@page(router, "/compare/preview.png")
def compare_preview(request: Request, session: SessionDep, reading: CompareReading) -> Response:
    """The picture a shared comparison link unfurls with, cached like every page."""
    if reading.problems:
        # Only link unfurlers ask for this; they need a status, not a page.
        reasons = "; ".join(p.message for p in reading.problems)
        return Response(f"No preview: {reasons}", 422, media_type="text/plain")
    # Pillow (5 MB) is loaded the first time a link is unfurled, not by every process.
    from app.present.share_image import preview_png

    comparison = build_comparison(session, list(reading.params.s), diff=False)
    names = [s.name for s in comparison.systems]
    png = preview_png(comparison, names, urlsplit(request.app.state.settings.public_url).netloc)
    return Response(png, media_type="image/png")

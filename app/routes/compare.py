"""/compare: two to four systems side by side; /api/v1/compare lives in api.py."""

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from sqlmodel import Session

from app.db import SessionDep
from app.params import CompareParams, ParamProblem, is_untidy, parse_compare_params
from app.queries.compare import Comparison, build_comparison
from app.queries.contexts import context_chart, describe_ratio
from app.queries.decide import rules_favouring
from app.queries.systems import list_systems
from app.schemas import SystemSummary
from app.web import render

router = APIRouter(include_in_schema=False)
FRAGMENTS = ("suggestions",)


def read_compare(
    session: Session, request: Request, extra_names: tuple[str, ...] = ()
) -> tuple[CompareParams, list[ParamProblem], list[SystemSummary]]:
    systems = list_systems(session)
    params, problems = parse_compare_params(
        request.query_params, [s.slug for s in systems], extra_names
    )
    if len(params.s) < 2 and not problems and (params.s or not params.q):
        reason = "choose at least two systems to compare" if params.s else "no systems chosen"
        problems.append(ParamProblem("s", ",".join(params.s), (), reason))
    return params, problems, systems


def suggestions(systems: list[SystemSummary], params: CompareParams) -> list[SystemSummary]:
    """Systems matching the search box that are not in the comparison yet."""
    words = params.q.lower().split()
    if not words:
        return []
    pool = [s for s in systems if s.slug not in params.s]

    def matches(s: SystemSummary, text: str) -> bool:
        return all(w in text.lower() for w in words)

    # Name matches first: "llama" should offer llama.cpp before systems that mention it.
    by_name = [s for s in pool if matches(s, f"{s.name} {s.slug}")]
    by_summary = [s for s in pool if s not in by_name and matches(s, s.summary)]
    return (by_name + by_summary)[:8]


@router.get("/compare")
def compare_page(request: Request, session: SessionDep) -> Response:
    params, problems, systems = read_compare(session, request)
    canonical = params.query_string()
    is_htmx = request.headers.get("HX-Request") == "true"
    if not problems and not is_htmx and is_untidy(request.url.query, canonical):
        return RedirectResponse(f"/compare?{canonical}", 303)
    comparison: Comparison | None = None
    if len(params.s) >= 2:
        comparison = build_comparison(session, list(params.s), params.diff)
    names = {s.slug: s.name for s in systems}
    share_url = f"{str(request.base_url).rstrip('/')}/compare?{params.query_string(q='')}"
    context = {
        "params": params,
        "problems": problems,
        "comparison": comparison,
        "names": names,
        "suggestions": suggestions(systems, params),
        "charts": {c.key: context_chart(c) for c in comparison.shared_contexts}
        if comparison
        else {},
        "describe_ratio": describe_ratio,
        "favouring": rules_favouring(session, list(params.s)) if comparison else {},
        "share_url": share_url,
        "json_url": f"/api/v1/compare?{params.query_string(q='')}",
        "active": "compare",
    }
    status = 422 if problems and params.s else 200
    return render(request, "pages/compare.html", context, fragments=FRAGMENTS, status_code=status)

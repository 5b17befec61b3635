"""/decide: the guided flow, one question at a time; /api/v1/recommend lives in api.py."""

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.db import SessionDep
from app.decision.questions import QUESTIONS, QUESTIONS_BY_ID, Question
from app.params import DecideParams, is_untidy, parse_decide_params
from app.queries.decide import recommendation
from app.web import render

router = APIRouter(include_in_schema=False)


def current_question(params: DecideParams) -> Question | None:
    """The question being changed, else the first one neither answered nor skipped."""
    if params.step:
        return QUESTIONS_BY_ID[params.step]
    done = set(params.as_dict()) | set(params.skip)
    return next((q for q in QUESTIONS if q.id not in done), None)


@router.get("/decide")
def decide_page(request: Request, session: SessionDep) -> Response:
    params, problems = parse_decide_params(request.query_params)
    canonical = params.query_string()
    is_htmx = request.headers.get("HX-Request") == "true"
    if not problems and not is_htmx and is_untidy(request.url.query, canonical):
        return RedirectResponse(f"/decide?{canonical}" if canonical else "/decide", 303)
    answers = params.as_dict()
    result = recommendation(session, answers) if answers else None
    top = [p.slug for p in result.ranked[:3]] if result else []
    context = {
        "params": params,
        "problems": problems,
        "question": current_question(params),
        "questions": QUESTIONS,
        "answers": answers,
        "result": result,
        "compare_url": "/compare?" + "&".join(f"s={s}" for s in top) if len(top) >= 2 else "",
        "json_url": f"/api/v1/recommend?{canonical}",
        "active": "decide",
    }
    response = render(request, "pages/decide.html", context, fragments=("decide_flow",),
                      status_code=422 if problems else 200)  # fmt: skip
    if is_htmx and not problems:
        response.headers["HX-Push-Url"] = f"/decide?{canonical}" if canonical else "/decide"
    return response

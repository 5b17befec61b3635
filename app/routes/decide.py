"""/decide: the guided flow, one question at a time; /api/v1/recommend is in
routes/api/catalogue.py."""

from dataclasses import replace

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.db import SessionDep
from app.decision.questions import QUESTIONS, QUESTIONS_BY_ID, Question
from app.params.decide import DecideParams
from app.queries.common import source_refs
from app.queries.decide import explain_why_not, model_first, recommendation
from app.web.deps import FlowReading
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)


def current_question(params: DecideParams) -> Question | None:
    """The question being changed, else the first one neither answered nor skipped."""
    if params.step:
        return QUESTIONS_BY_ID[params.step]
    done = set(params.as_dict()) | set(params.skip)
    return next((q for q in QUESTIONS if q.id not in done), None)


@page(router, "/decide")
def decide_page(request: Request, session: SessionDep, reading: FlowReading) -> Response:
    params, problems = DecideParams.of(reading.params), reading.problems
    why = getattr(reading.params, "why", None)  # "why not X?": page state, not an answer
    query = "&".join(filter(None, (params.query_string(), f"why={why}" if why else "")))
    canonical = f"/decide?{query}" if query else "/decide"
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    subject, rulings = model_first(session, params)
    problems = [*problems, *subject.problems]
    answers = subject.answers  # a named model and accelerator read as the options they fill
    level = params.service_level()
    # Before any answer too: the page shows the sources' default order.
    result = recommendation(session, answers, level=level, rulings=rulings)
    top = [p.slug for p in result.ranked[:3]] if answers else []
    context = {
        "params": params,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "question": current_question(params),
        "questions": QUESTIONS,
        "answers": answers,
        "result": result,
        # Reasons name their source by slug; the page marks the ones with caveats.
        "sources_by_slug": {r.slug: r for r in source_refs(session).values()},
        "why": explain_why_not(result, why),
        "compare_url": "/compare?" + "&".join(f"s={s}" for s in top) if len(top) >= 2 else "",
        "json_url": "/api/v1/recommend?" + replace(params, skip=(), step="").query_string(),
        "subject": result.subject,
        "level": level,
        "active": "decide",
    }
    return render(
        request,
        "pages/decide.html",
        context,
        session=session,
        fragments=("decide_flow",),
        canonical=canonical,
        status_code=422 if problems else 200,
    )

"""/fit ("Will it fit?"), /fit/panel (the tables model and hardware pages load) and POST
/fit/log (a pasted startup log read beside the prediction). The JSON twin is
routes/api/fit.py."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import QueryParams

from app.db import SessionDep
from app.decision.fit_logs import MAX_CHARS, LogReading, read_log
from app.decision.fit_systems import SYSTEMS
from app.params.fit import FitParams
from app.params.reader import Reading, read_query
from app.queries.fit import FitAnswer, FitInputError, fit_asked, fit_hardware, fit_models
from app.queries.fit_panel import CONTEXTS, hardware_panel, model_panel
from app.vocabulary.formats import PRECISION_BPW
from app.web.deps import FitReading
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)
FRAGMENTS = ("fit_result", "log_reading")
PRECISION_CHOICES = (*PRECISION_BPW, "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q3_K_M", "IQ4_XS")
Answered = tuple[FitAnswer | None, FitInputError | None]


def _answer(session: SessionDep, p: FitParams) -> Answered:
    if not p.model.strip():
        return None, None
    try:
        answer = fit_asked(session, p)
    except FitInputError as problem:
        return None, problem
    return answer, None


def _context(
    session: SessionDep, found: Reading[FitParams], log: LogReading | None = None
) -> dict[str, Any]:
    p = found.params
    answer, problem = _answer(session, p)
    return {
        "params": p,
        "problems": found.problems,
        "ignored_parameters": found.ignored,
        "answer": answer,
        "problem": problem,
        "models": fit_models(session),
        "hardware": [h for h in fit_hardware(session) if h.form_factor != "cpu"],
        "systems": SYSTEMS,
        "precisions": PRECISION_CHOICES,
        "log": log,
        "max_log_chars": MAX_CHARS,
        "json_url": f"/api/v1/fit?{p.query_string()}" if p.model else "/api/v1/fit",
        "active": "fit",
    }


@page(router, "/fit")
def fit_page(request: Request, session: SessionDep, found: FitReading) -> Response:
    canonical = f"/fit?{found.params.query_string()}".rstrip("?")
    if not found.problems and (redirect := tidy_redirect(request, canonical, found.ignored)):
        return redirect
    context = _context(session, found)
    return render(
        request,
        "pages/fit.html",
        context,
        session=session,
        fragments=FRAGMENTS,
        canonical=canonical,
    )


@page(router, "/fit/panel")
def fit_panel(
    request: Request,
    session: SessionDep,
    model: str = "",
    hardware: str = "",
    context: int = 8192,
) -> Response:
    """A table for a model page (`model=`) or a hardware page (`hardware=`), loaded by HTMX."""
    chosen = context if context in CONTEXTS else 8192
    if model:
        panel = model_panel(session, model[:300], chosen)
    else:
        panel = hardware_panel(session, hardware[:200], chosen)
    return render(request, "pages/fit_panel.html", {"panel": panel}, session=session)


@router.post("/fit/log")
async def fit_log(request: Request, session: SessionDep) -> Response:
    """A pasted startup log, read beside the prediction of the fit asked on the page."""
    form = await request.form()
    text = str(form.get("log") or "")
    query = QueryParams([(k, str(v)) for k, v in form.multi_items() if k != "log"])
    return await run_in_threadpool(_log_page, request, session, text, query)


def _log_page(request: Request, session: SessionDep, text: str, query: QueryParams) -> Response:
    found = read_query(FitParams, query)
    context = _context(session, found, read_log(text))
    context["pasted"] = text[:MAX_CHARS]
    return render(request, "pages/fit.html", context, session=session, fragments=FRAGMENTS)

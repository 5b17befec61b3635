"""/features, /models, /workloads and /accelerators (the index pages), and /search (the header's
search box). Their JSON twins are in routes/api/finder.py and routes/api/catalogue.py."""

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.db import SessionDep
from app.forms.editing import is_editor
from app.params.models import ARCHITECTURE_KINDS, CONTEXT_CHOICES, SIZE_LABELS
from app.queries.entries import vocabulary_entries
from app.queries.finder import ENTRY_PATHS, feature_index, search
from app.queries.model_list import model_list
from app.web.deps import Ignored, ModelListReading
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)

INDEXES = {  # path -> (vocabulary kind, heading, JSON twin)
    "/workloads": ("workload", "Workloads", "/api/v1/workloads"),
    "/accelerators": ("hardware", "Accelerators measured", "/api/v1/hardware"),
}


@page(router, "/features")
def features_page(request: Request, session: SessionDep, ignored: Ignored) -> Response:
    if redirect := tidy_redirect(request, "/features", ignored):
        return redirect
    context = {
        "index": feature_index(session),
        "json_url": "/api/v1/features",
        "active": "feature-index",
        "ignored_parameters": ignored,
    }
    return render(request, "pages/features.html", context, session=session)


def _entries_page(request: Request, session: SessionDep, ignored: list[str], path: str) -> Response:
    if redirect := tidy_redirect(request, path, ignored):
        return redirect
    kind, heading, json_url = INDEXES[path]
    context = {
        "kind": kind,
        "heading": heading,
        "entries": vocabulary_entries(session)[kind],
        "entry_path": ENTRY_PATHS[kind],
        "json_url": json_url,
        "active": "benchmarks",
        "ignored_parameters": ignored,
        "can_add": is_editor(request),
    }
    return render(request, "pages/entries.html", context, session=session)


@page(router, "/models")
def models_page(request: Request, session: SessionDep, reading: ModelListReading) -> Response:
    params, problems = reading.params, reading.problems
    canonical = f"/models?{params.query_string()}".rstrip("?")
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    found = model_list(session, params)
    context = {
        "result": found,
        "params": params,
        "problems": problems,
        "sizes": SIZE_LABELS,
        "kinds": ARCHITECTURE_KINDS,
        "contexts": CONTEXT_CHOICES,
        "json_url": f"/api/v1/models?{found.query}".rstrip("?"),
        "active": "model-index",
        "ignored_parameters": reading.ignored,
        "can_add": is_editor(request),
    }
    return render(
        request,
        "pages/models.html",
        context,
        session=session,
        fragments=("model_results",),
        canonical=canonical,
        status_code=422 if problems else 200,
    )


@page(router, "/workloads")
def workloads_page(request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entries_page(request, session, ignored, "/workloads")


@page(router, "/accelerators")
def accelerators_page(request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entries_page(request, session, ignored, "/accelerators")


@page(router, "/search")
def search_page(request: Request, session: SessionDep, ignored: Ignored, q: str = "") -> Response:
    result = search(session, q[:200])
    if result.go_to:  # one page is named exactly: go there, as a caniuse reader expects
        return RedirectResponse(result.go_to, status_code=303)
    context = {
        "result": result,
        "q": result.q,
        "json_url": f"/api/v1/search?{urlencode({'q': result.q})}",
        "ignored_parameters": [p for p in ignored if p != "q"],
    }
    return render(request, "pages/search.html", context, session=session)

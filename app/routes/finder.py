"""/features, /models, /workloads and /accelerators (the index pages), and /search (the header's
search box). Their JSON twins are in routes/api/finder.py and routes/api/catalogue.py."""

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.db import SessionDep
from app.forms.editing import is_editor
from app.params.reader import QueryModel, read_query
from app.queries.entries import vocabulary_entries
from app.queries.finder import ENTRY_PATHS, feature_index, search
from app.web.render import render, serve, tidy_redirect

router = APIRouter(include_in_schema=False)

INDEXES = {  # path -> (vocabulary kind, heading, JSON twin)
    "/models": ("model", "Models", "/api/v1/models"),
    "/workloads": ("workload", "Workloads", "/api/v1/workloads"),
    "/accelerators": ("hardware", "Hardware measured", "/api/v1/hardware"),
}


def _ignored(request: Request) -> list[str]:
    return read_query(QueryModel, request.query_params).ignored


def _features_page(request: Request, session: SessionDep) -> Response:
    ignored = _ignored(request)
    if redirect := tidy_redirect(request, "/features", ignored):
        return redirect
    context = {"index": feature_index(session), "json_url": "/api/v1/features",
               "active": "feature-index", "ignored_parameters": ignored}  # fmt: skip
    return render(request, "pages/features.html", context, session=session)


@router.get("/features")
async def features_page(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _features_page(request, s))


def _entries_page(request: Request, session: SessionDep, path: str) -> Response:
    ignored = _ignored(request)
    if redirect := tidy_redirect(request, path, ignored):
        return redirect
    kind, heading, json_url = INDEXES[path]
    context = {"kind": kind, "heading": heading, "entries": vocabulary_entries(session)[kind],
               "entry_path": ENTRY_PATHS[kind], "json_url": json_url, "active": "benchmarks",
               "ignored_parameters": ignored, "can_add": is_editor(request)}  # fmt: skip
    return render(request, "pages/entries.html", context, session=session)


@router.get("/models")
async def models_page(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _entries_page(request, s, "/models"))


@router.get("/workloads")
async def workloads_page(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _entries_page(request, s, "/workloads"))


@router.get("/accelerators")
async def accelerators_page(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _entries_page(request, s, "/accelerators"))


def _search_page(request: Request, session: SessionDep, q: str) -> Response:
    result = search(session, q[:200])
    if result.go_to:  # one page is named exactly: go there, as a caniuse reader expects
        return RedirectResponse(result.go_to, status_code=303)
    context = {"result": result, "q": result.q,
               "json_url": f"/api/v1/search?{urlencode({'q': result.q})}",
               "ignored_parameters": [p for p in _ignored(request) if p != "q"]}  # fmt: skip
    return render(request, "pages/search.html", context, session=session)


@router.get("/search")
async def search_page(request: Request, session: SessionDep, q: str = "") -> Response:
    return await serve(request, session, lambda s: _search_page(request, s, q))

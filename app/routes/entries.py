"""/hardware/{slug}, /models/{slug} and /workloads/{slug}: one vocabulary entry and the figures
that use it. Their JSON twins (and the lists) are in routes/api/catalogue.py."""

import datetime as dt

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.db import SessionDep
from app.forms.editing import is_editor
from app.queries.entries import entry_names, vocabulary_names
from app.queries.entry_page import EntryPage, entry_page
from app.web.deps import Ignored
from app.web.errors import NotFoundError
from app.web.pages import page
from app.web.render import render, tidy_redirect

router = APIRouter(include_in_schema=False)

PATHS = {"hardware": "hardware", "model": "models", "workload": "workloads"}
"""kind -> the path its pages (and API lists) live under."""


def find_entry(session: SessionDep, kind: str, slug: str) -> EntryPage | str:
    """The entry's page data, or the canonical slug when `slug` is one of its other names.

    Raises NotFoundError (404 with the closest slugs) when it names nothing."""
    page = entry_page(session, kind, slug, dt.date.today())
    if page is not None:
        return page
    other = vocabulary_names(session)[kind].resolve(slug)
    if other is not None:
        return other
    names = entry_names(session, kind)
    raise NotFoundError(kind, slug, list(names), names)


def _entry_page(
    request: Request, session: SessionDep, ignored: list[str], kind: str, slug: str
) -> Response:
    found = find_entry(session, kind, slug)
    path = f"/{PATHS[kind]}"
    if isinstance(found, str):  # an alias: "/hardware/H100 SXM" is the SXM5 entry's page
        return RedirectResponse(f"{path}/{found}", status_code=308)
    if redirect := tidy_redirect(request, f"{path}/{slug}", ignored):
        return redirect
    context = {
        "page": found,
        "entry": found.entry,
        "json_url": f"/api/v1/{PATHS[kind]}/{slug}",
        "benchmarks_url": f"/benchmarks?{kind}={slug}",
        "ignored_parameters": ignored,
        "active": "benchmarks",
        "can_add": is_editor(request),  # the catalogue's add forms (app/routes/catalogue.py)
    }
    return render(request, "pages/vocabulary_entry.html", context, session=session)


@page(router, "/hardware/{slug}")
def hardware_page(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entry_page(request, session, ignored, "hardware", slug)


@page(router, "/models/{slug:path}")  # a Hugging Face id holds a slash
def model_page(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entry_page(request, session, ignored, "model", slug)


@page(router, "/workloads/{slug}")
def workload_page(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    return _entry_page(request, session, ignored, "workload", slug)

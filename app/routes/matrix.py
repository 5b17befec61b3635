"""/matrix and /hardware (HTML and CSV) and the cell popover; /api/v1/matrix is in
app/routes/api/catalogue.py."""

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.db import SessionDep
from app.forms.editing import cell_editing, is_editor
from app.params.matrix import MatrixParams
from app.params.reader import ParamProblem, Reading
from app.present.exports import matrix_csv
from app.queries.features import capability_names, feature_page
from app.queries.matrix import build_matrix
from app.queries.matrix_data import matrix_base
from app.queries.matrix_page import CellView, columns, find_cell, matrix_page_view, named_cell
from app.routes.model_views import models_matrix_csv, models_matrix_page, support_cell_page
from app.web.deps import Ignored, MatrixReading, ModelMatrixReading
from app.web.errors import NotFoundError
from app.web.pages import page
from app.web.render import is_htmx, render, tidy_redirect

router = APIRouter(include_in_schema=False)

PAGES = {"features": "/matrix", "hardware": "/hardware"}
FRAGMENTS = ("matrix_results", "cell_detail")


def page_url(view: str, query: str) -> str:
    return f"{PAGES[view]}?{query}" if query else PAGES[view]


def _open_cell(
    request: Request, session: SessionDep, view: str, params: MatrixParams, found: CellView
) -> dict[str, object]:
    """The cell named by `cell=system:capability`, to show beside the matrix."""
    here = page_url(view, params.query_string(with_cell=True))
    return {
        "system": found.system,
        "capability": found.capability,
        "cell": found.cell,
        "close_url": page_url(view, params.query_string()),
        "editor": cell_editing(request, session, *found.names, here),
    }


def _matrix_page(
    request: Request, session: SessionDep, reading: Reading[MatrixParams], view: str
) -> Response:
    params, problems = reading.params, reading.problems
    found = named_cell(session, params.cell) if params.cell else None
    if params.cell and found is None:
        problems = [
            *problems,
            ParamProblem("cell", params.cell, (), "names no system and capability"),
        ]
    canonical = page_url(view, params.query_string(with_cell=found is not None))
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    page = matrix_page_view(session, view, params)
    # The other view and the CSV start from the first page (the CSV holds every page).
    unpaged = params.query_string(page=1)
    query = f"?{unpaged}" if unpaged else ""
    result_query = f"&{page.result.query}" if page.result.query else ""
    context = {
        **vars(page),  # result, all_groups, feature_groups, hardware_groups
        "view": view,
        "params": params,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "page_url": PAGES[view],
        "query": query,
        "json_url": f"/api/v1/matrix?view={view}{result_query}",
        "csv_url": f"{PAGES[view]}.csv{query}",
        "active": view,
        "open_cell": _open_cell(request, session, view, params, found) if found else None,
        # Editors may open a cell no source covers, to give the team's claim on it.
        "can_edit": is_editor(request),
    }
    return render(
        request,
        "pages/matrix.html",
        context,
        session=session,
        fragments=FRAGMENTS,
        canonical=canonical,
        status_code=422 if problems else 200,
    )


@page(router, "/matrix")
def feature_matrix(
    request: Request, session: SessionDep, reading: MatrixReading, models: ModelMatrixReading
) -> Response:
    if models.params.view == "models":
        return models_matrix_page(request, session, models)
    return _matrix_page(request, session, reading, "features")


@page(router, "/hardware")
def hardware_matrix(request: Request, session: SessionDep, reading: MatrixReading) -> Response:
    return _matrix_page(request, session, reading, "hardware")


def _csv_export(session: SessionDep, reading: Reading[MatrixParams], view: str) -> Response:
    if reading.problems:
        text = "\n".join(p.message for p in reading.problems[:10]) + "\n"
        return Response(text, 422, media_type="text/plain")
    result = build_matrix(session, view, reading.params, paged=False)
    return Response(
        matrix_csv(result),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="inference-atlas-{view}.csv"'},
    )


@page(router, "/matrix.csv")
def feature_matrix_csv(
    session: SessionDep, reading: MatrixReading, models: ModelMatrixReading
) -> Response:
    if models.params.view == "models":
        return models_matrix_csv(session, models)
    return _csv_export(session, reading, "features")


@page(router, "/hardware.csv")
def hardware_matrix_csv(session: SessionDep, reading: MatrixReading) -> Response:
    return _csv_export(session, reading, "hardware")


@page(router, "/matrix/cell")
def cell_page(
    request: Request,
    session: SessionDep,
    system: str = "",
    capability: str = "",
    architecture: str = "",
) -> Response:
    if architecture:  # a cell of the models matrix
        return support_cell_page(request, session, system, architecture)
    found = find_cell(session, system, capability)
    if found is None:
        raise _no_cell(session, system, capability)
    as_panel = is_htmx(request)
    # In a panel the page around it is the matrix, as filtered: the form goes back there.
    here = "" if as_panel else f"/matrix/cell?system={system}&capability={capability}"
    editor = cell_editing(request, session, *found.names, here)
    context = {
        "system": found.system,
        "capability": found.capability,
        "cell": found.cell,
        "as_panel": as_panel,
        "editor": editor,
    }
    return render(request, "pages/cell.html", context, session=session, fragments=("cell_detail",))


def _no_cell(session: SessionDep, system: str, capability: str) -> NotFoundError:
    """What is unknown: the system if it is, else the capability."""
    base = matrix_base(session)
    names = {s.slug: s.name for s in base.systems}
    if system not in names:
        return NotFoundError("system", system, list(names), names)
    names = {slug: c.name for slug, c in columns(base).items()}
    return NotFoundError("capability", capability, list(names), names)


@page(router, "/features/{slug}")
def feature(slug: str, request: Request, session: SessionDep, ignored: Ignored) -> Response:
    if redirect := tidy_redirect(request, request.url.path, ignored):
        return redirect
    found = feature_page(session, slug)
    if found is None:
        names = capability_names(session)
        raise NotFoundError("capability", slug, list(names), names)
    view = "features" if found.capability.kind == "feature" else "hardware"
    context = {
        "page": found,
        "json_url": f"/api/v1/capabilities/{slug}",
        "matrix_url": f"{PAGES[view]}?need={slug}",
        # The Features index lists hardware targets too; Matrix is for the matrix itself.
        "active": "feature-index",
        "ignored_parameters": ignored,
    }
    return render(request, "pages/feature.html", context, session=session)

"""/matrix and /hardware (HTML and CSV) and the cell popover; /api/v1/matrix lives in api.py."""

import csv
import io
from typing import TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlmodel import Session

from app.db import SessionDep
from app.forms.editing import cell_editing, is_editor
from app.params.views import MatrixParams, ParamProblem, QueryModel, Reading, read_query
from app.queries.features import capability_names, feature_page
from app.queries.matrix import NO_CLAIM, MatrixResult, build_matrix, cell_claims, matrix_base
from app.queries.vocabularies import matrix_vocabularies
from app.web.errors import NotFoundError
from app.web.render import is_htmx, render, serve, tidy_redirect

router = APIRouter(include_in_schema=False)

PAGES = {"features": "/matrix", "hardware": "/hardware"}
FRAGMENTS = ("matrix_results", "cell_detail")


M = TypeVar("M", bound=QueryModel)


def read_matrix(
    session: Session,
    request: Request,
    view: str,
    model: type[M] = MatrixParams,  # type: ignore[assignment]
) -> Reading[M]:
    """The matrix parameters for `view`, checked against the current vocabulary."""
    return read_query(model, request.query_params, matrix_vocabularies(session))


def page_url(view: str, query: str) -> str:
    return f"{PAGES[view]}?{query}" if query else PAGES[view]


def _open_cell(
    request: Request, session: Session, view: str, params: MatrixParams
) -> dict[str, object] | None:
    """The cell named by `cell=system:capability`, to show beside the matrix; None if none."""
    if not params.cell:
        return None
    base = matrix_base(session)
    system_slug, _, capability_slug = params.cell.partition(":")
    system = next((s for s in base.systems if s.slug == system_slug), None)
    columns = {c.slug: c for groups in base.groups.values() for g in groups for c in g.columns}
    if system is None or capability_slug not in columns:
        return None
    capability = columns[capability_slug]
    here = page_url(view, params.query_string(with_cell=True))
    return {
        "system": system,
        "capability": capability,
        "cell": cell_claims(session, system_slug, capability_slug),
        "close_url": page_url(view, params.query_string()),
        "editor": cell_editing(
            request, session, (system.slug, system.name), (capability.slug, capability.name), here
        ),
    }


def _matrix_page(request: Request, session: Session, view: str) -> Response:
    reading = read_matrix(session, request, view)
    params, problems = reading.params, reading.problems
    open_cell = _open_cell(request, session, view, params)
    if params.cell and open_cell is None:
        problems = [
            *problems,
            ParamProblem("cell", params.cell, (), "names no system and capability"),
        ]
    canonical = page_url(view, params.query_string(with_cell=open_cell is not None))
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    result = build_matrix(session, view, params)
    base = matrix_base(session)
    # The other view and the CSV start from the first page (the CSV holds every page).
    unpaged = params.query_string(page=1)
    query = f"?{unpaged}" if unpaged else ""
    context = {
        "view": view,
        "params": params,
        "result": result,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "all_groups": base.groups[view],
        "feature_groups": base.groups["features"],
        "hardware_groups": base.groups["hardware"],
        "needs": {n.capability: n.level for n in params.needs},
        "page_url": PAGES[view],
        "query": query,
        "json_url": f"/api/v1/matrix?view={view}{'&' + result.query if result.query else ''}",
        "csv_url": f"{PAGES[view]}.csv{query}",
        "active": view,
        "open_cell": open_cell,
        # Editors may open a cell no source covers, to give the team's claim on it.
        "can_edit": is_editor(request),
    }
    return render(request, "pages/matrix.html", context, session=session, fragments=FRAGMENTS,
                  canonical=canonical, status_code=422 if problems else 200)  # fmt: skip


@router.get("/matrix")
async def feature_matrix(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _matrix_page(request, s, "features"))


@router.get("/hardware")
async def hardware_matrix(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _matrix_page(request, s, "hardware"))


def _csv_export(request: Request, session: Session, view: str) -> Response:
    reading = read_matrix(session, request, view)
    if reading.problems:
        text = "\n".join(p.message for p in reading.problems[:10]) + "\n"
        return Response(text, 422, media_type="text/plain")
    result = build_matrix(session, view, reading.params, paged=False)
    return Response(
        matrix_csv(result),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="inference-atlas-{view}.csv"'},
    )


def matrix_csv(result: MatrixResult) -> str:
    """The matrix as CSV: one row per system, a level column and a sources column per capability."""
    columns = [c for g in result.groups for c in g.columns]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["system", "name"]
    for column in columns:
        header += [column.slug, f"{column.slug} sources"]
    writer.writerow(header)
    for row in result.rows:
        line = [row.system.slug, row.system.name]
        for cell in row.cells:
            level = "no claim" if cell.level == NO_CLAIM else cell.level
            level = f"{level} (disputed)" if cell.disputed else level
            line += [level, " ".join(cell.sources)]
        writer.writerow(line)
    return buffer.getvalue()


@router.get("/matrix.csv")
async def feature_matrix_csv(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _csv_export(request, s, "features"))


@router.get("/hardware.csv")
async def hardware_matrix_csv(request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _csv_export(request, s, "hardware"))


def _cell_page(request: Request, session: Session, system: str, capability: str) -> Response:
    base = matrix_base(session)
    summary = next((s for s in base.systems if s.slug == system), None)
    if summary is None:
        names = {s.slug: s.name for s in base.systems}
        raise NotFoundError("system", system, list(names), names)
    columns = {c.slug: c for groups in base.groups.values() for g in groups for c in g.columns}
    if capability not in columns:
        names = {slug: c.name for slug, c in columns.items()}
        raise NotFoundError("capability", capability, list(names), names)
    cell = cell_claims(session, system, capability)
    as_panel = is_htmx(request)
    # In a panel the page around it is the matrix, as filtered: the form goes back there.
    here = "" if as_panel else f"/matrix/cell?system={system}&capability={capability}"
    cell_names = (system, summary.name), (capability, columns[capability].name)
    editor = cell_editing(request, session, *cell_names, here)
    context = {"system": summary, "capability": columns[capability], "cell": cell,
               "as_panel": as_panel, "editor": editor}  # fmt: skip
    return render(request, "pages/cell.html", context, session=session, fragments=("cell_detail",))


def _feature_page(request: Request, session: Session, slug: str) -> Response:
    ignored = read_query(QueryModel, request.query_params).ignored
    if redirect := tidy_redirect(request, request.url.path, ignored):
        return redirect
    page = feature_page(session, slug)
    if page is None:
        names = capability_names(session)
        raise NotFoundError("capability", slug, list(names), names)
    view = "features" if page.capability.kind == "feature" else "hardware"
    context = {
        "page": page,
        "json_url": f"/api/v1/capabilities/{slug}",
        "matrix_url": f"{PAGES[view]}?need={slug}",
        "active": view,
        "ignored_parameters": ignored,
    }
    return render(request, "pages/feature.html", context, session=session)


@router.get("/features/{slug}")
async def feature(slug: str, request: Request, session: SessionDep) -> Response:
    return await serve(request, session, lambda s: _feature_page(request, s, slug))


@router.get("/matrix/cell")
async def cell_page(
    request: Request, session: SessionDep, system: str = "", capability: str = ""
) -> Response:
    return await serve(request, session, lambda s: _cell_page(request, s, system, capability))

"""/matrix and /hardware (HTML and CSV) and the cell popover; /api/v1/matrix lives in api.py."""

import csv
import io

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.cache import CachedPage, etag_for
from app.db import SessionDep
from app.errors import NotFoundError
from app.params import MatrixParams, ParamProblem, is_untidy, parse_matrix_params
from app.queries.matrix import (
    MatrixBase,
    MatrixResult,
    base_for_version,
    build_matrix,
    cell_claims,
    matrix_base,
)
from app.web import fragment_target, render

router = APIRouter(include_in_schema=False)

PAGES = {"features": "/matrix", "hardware": "/hardware"}
FRAGMENTS = ("matrix_results", "cell_detail")


def read_params(
    session: Session, request: Request, view: str, extra_names: tuple[str, ...] = ()
) -> tuple[MatrixParams, list[ParamProblem]]:
    """The matrix parameters for `view`, checked against the current vocabulary."""
    return parse_with_base(matrix_base(session), request, view, extra_names)


def parse_with_base(
    base: MatrixBase, request: Request, view: str, extra_names: tuple[str, ...] = ()
) -> tuple[MatrixParams, list[ParamProblem]]:
    all_caps = [c.slug for groups in base.groups.values() for g in groups for c in g.columns]
    hardware = [c.slug for g in base.groups["hardware"] for c in g.columns]
    groups = [g.slug for g in base.groups[view]]
    return parse_matrix_params(request.query_params, all_caps, hardware, groups, extra_names)


async def _matrix_page(request: Request, view: str) -> Response:
    """Serve from the render cache when this (data version, view, query, fragment) was seen."""
    version = request.app.state.data_version.current()
    target = fragment_target(request, FRAGMENTS)
    is_htmx = request.headers.get("HX-Request") == "true"
    cache = request.app.state.render_cache
    # The exact query string seen before: skip parsing altogether.
    raw_key = ("raw", version, view, is_htmx, target, request.url.query)
    page = cache.get(raw_key)
    if page is None:
        base = base_for_version(request.app.state.engine, version)
        params, problems = parse_with_base(base, request, view)
        canonical = params.query_string()
        if not problems and not is_htmx and is_untidy(request.url.query, canonical):
            # Plain form submissions carry every empty select; send them to the tidy URL.
            return RedirectResponse(_page_url(view, canonical), 303)
        key = (version, view, canonical, target, tuple(p.message for p in problems))
        page = cache.get(key)
        if page is None:
            headers = _headers(view, canonical, key, push=is_htmx and not problems)
            page = await run_in_threadpool(_render_page, request, view, params, problems, headers)
            cache.put(key, page)
        cache.put(raw_key, page)
    return page.respond(request.headers)


def _headers(view: str, canonical: str, key: tuple[object, ...], push: bool) -> dict[str, str]:
    headers = {
        "ETag": etag_for(key),
        "Cache-Control": "no-cache",
        "Vary": "HX-Request, HX-Target, Accept-Encoding",
    }
    if push:
        headers["HX-Push-Url"] = _page_url(view, canonical)
    return headers


def _page_url(view: str, canonical: str) -> str:
    return f"{PAGES[view]}?{canonical}" if canonical else PAGES[view]


def _render_page(
    request: Request,
    view: str,
    params: MatrixParams,
    problems: list[ParamProblem],
    headers: dict[str, str],
) -> CachedPage:
    with Session(request.app.state.engine) as session:
        result = build_matrix(session, view, params)
        context = _context(session, view, params, result, problems)
        response = render(request, "pages/matrix.html", context, fragments=FRAGMENTS,
                          status_code=422 if problems else 200)  # fmt: skip
    return CachedPage.of(bytes(response.body), response.status_code, "text/html", headers)


def _context(
    session: Session,
    view: str,
    params: MatrixParams,
    result: MatrixResult,
    problems: list[ParamProblem],
) -> dict[str, object]:
    base = matrix_base(session)
    query = f"?{result.query}" if result.query else ""
    return {
        "view": view,
        "params": params,
        "result": result,
        "problems": problems,
        "all_groups": base.groups[view],
        "feature_groups": base.groups["features"],
        "hardware_groups": base.groups["hardware"],
        "needs": {n.capability: n.level for n in params.need},
        "page_url": PAGES[view],
        "query": query,
        "json_url": f"/api/v1/matrix?view={view}{'&' + result.query if result.query else ''}",
        "csv_url": f"{PAGES[view]}.csv{query}",
        "active": view,
    }


@router.get("/matrix")
async def feature_matrix(request: Request) -> Response:
    return await _matrix_page(request, "features")


@router.get("/hardware")
async def hardware_matrix(request: Request) -> Response:
    return await _matrix_page(request, "hardware")


def _csv_export(request: Request, session: Session, view: str) -> Response:
    params, problems = read_params(session, request, view)
    if problems:
        return Response("\n".join(p.message for p in problems) + "\n", 422, media_type="text/plain")
    result = build_matrix(session, view, params)
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
            level = f"{cell.level} (disputed)" if cell.disputed else cell.level
            line += [level, " ".join(cell.sources)]
        writer.writerow(line)
    return buffer.getvalue()


@router.get("/matrix.csv")
def feature_matrix_csv(request: Request, session: SessionDep) -> Response:
    return _csv_export(request, session, "features")


@router.get("/hardware.csv")
def hardware_matrix_csv(request: Request, session: SessionDep) -> Response:
    return _csv_export(request, session, "hardware")


@router.get("/matrix/cell")
def cell_page(
    request: Request, session: SessionDep, system: str = "", capability: str = ""
) -> Response:
    base = matrix_base(session)
    summary = next((s for s in base.systems if s.slug == system), None)
    if summary is None:
        raise NotFoundError("system", system, [s.slug for s in base.systems])
    columns = {c.slug: c for groups in base.groups.values() for g in groups for c in g.columns}
    if capability not in columns:
        raise NotFoundError("capability", capability, list(columns))
    cell = cell_claims(session, system, capability)
    context = {"system": summary, "capability": columns[capability], "cell": cell}
    return render(request, "pages/cell.html", context, fragments=("cell_detail",))

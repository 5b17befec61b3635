"""The models x systems matrix: /matrix?view=models (routes/matrix.py hands it here), its CSV
and the support cell's panel; the JSON twins are in routes/api/models.py."""

from fastapi import Request
from fastapi.responses import Response

from app.db import SessionDep
from app.params.models import ARCHITECTURE_KINDS, ModelMatrixParams
from app.params.reader import ParamProblem, Reading
from app.present.exports import table_csv
from app.queries.model_matrix import build_model_matrix, model_matrix_csv_rows
from app.queries.support import SupportBase, support_base
from app.web.errors import NotFoundError
from app.web.render import is_htmx, render, tidy_redirect

FRAGMENTS = ("matrix_results", "cell_detail")


def models_url(query: str) -> str:
    return f"/matrix?{query}"


def support_cell_url(system: str, architecture: str) -> str:
    return f"/matrix/cell?system={system}&architecture={architecture}"


def _open_cell(base: SupportBase, params: ModelMatrixParams) -> dict[str, object] | None:
    system, _, architecture = params.cell.partition(":")
    names = {s.slug: s for s in base.systems}
    found = base.architecture(architecture)
    if system not in names or found is None:
        return None
    return {
        "system": names[system],
        "architecture": found,
        "cell": base.cells.get((system, found.name)),
        "close_url": models_url(params.query_string()),
    }


def models_matrix_page(
    request: Request, session: SessionDep, reading: Reading[ModelMatrixParams]
) -> Response:
    """/matrix?view=models: architectures as rows, the systems as columns."""
    params, problems = reading.params, reading.problems
    base = support_base(session)
    open_cell = _open_cell(base, params) if params.cell else None
    if params.cell and open_cell is None:
        reason = "names no system and architecture"
        problems = [*problems, ParamProblem("cell", params.cell, (), reason)]
    canonical = models_url(params.query_string(with_cell=open_cell is not None))
    if not problems and (redirect := tidy_redirect(request, canonical, reading.ignored)):
        return redirect
    result = build_model_matrix(session, params)
    unpaged = params.query_string(page=1)
    context = {
        "result": result,
        "params": params,
        "problems": problems,
        "ignored_parameters": reading.ignored,
        "view": "models",
        "families": base.families(),
        "all_systems": base.systems,
        "kinds": ARCHITECTURE_KINDS,
        "query": f"?{unpaged}",
        "json_url": f"/api/v1/matrix?{result.query}",
        "csv_url": f"/matrix.csv?{unpaged}",
        "active": "models",
        "open_cell": open_cell,
    }
    return render(
        request,
        "pages/model_matrix.html",
        context,
        session=session,
        fragments=FRAGMENTS,
        canonical=canonical,
        status_code=422 if problems else 200,
    )


def models_matrix_csv(session: SessionDep, reading: Reading[ModelMatrixParams]) -> Response:
    """Every row of the models matrix as filtered, as CSV."""
    if reading.problems:
        text = "\n".join(p.message for p in reading.problems[:10]) + "\n"
        return Response(text, 422, media_type="text/plain")
    result = build_model_matrix(session, reading.params, paged=False)
    return Response(
        table_csv(model_matrix_csv_rows(result)),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="inference-atlas-models.csv"'},
    )


def support_cell_page(
    request: Request, session: SessionDep, system: str, architecture: str
) -> Response:
    """/matrix/cell?system=…&architecture=…: what each registry says, alone or as a panel."""
    base = support_base(session)
    names = {s.slug: s for s in base.systems}
    if system not in names:
        labels = {s.slug: s.name for s in base.systems}
        raise NotFoundError("system", system, list(labels), labels)
    found = base.architecture(architecture)
    if found is None:
        listed = [a.name for a in base.architectures]
        raise NotFoundError("architecture", architecture, listed, {n: n for n in listed})
    context = {
        "system": names[system],
        "architecture": found,
        "cell": base.cells.get((system, found.name)),
        "as_panel": is_htmx(request),
        "close_url": f"/matrix?view=models&system={system}",
    }
    return render(
        request, "pages/support_cell.html", context, session=session, fragments=("cell_detail",)
    )

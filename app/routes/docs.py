"""/openapi.json with the current allowed values, and /docs from pinned local assets."""

import copy
from typing import Any

from fastapi import APIRouter, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel

from app.db import SessionDep
from app.queries.model_list import model_list_vocabularies
from app.queries.model_matrix import model_vocabularies
from app.queries.vocabularies import (
    benchmark_vocabularies,
    change_vocabularies,
    matrix_vocabularies,
    note_vocabularies,
    system_vocabularies,
)
from app.web.openapi import add_common_answers, fill_vocabularies
from app.web.pages import page
from app.writes.inputs import TeamNoteIn, TeamNotePatch, TeamResultIn

router = APIRouter(include_in_schema=False)

BODY_SCHEMAS: tuple[type[BaseModel], ...] = (TeamResultIn, TeamNoteIn, TeamNotePatch)


def _base_schema(request: Request) -> dict[str, Any]:
    app = request.app
    if app.openapi_schema is None:
        schema = get_openapi(
            title=app.title, version=app.version, summary=app.summary, routes=app.routes
        )
        # Routes that read their body themselves (POST /api/v1/benchmarks takes one result or
        # a list; the notes routes word their own 422s) name its schema in the operation;
        # the schemas are defined here.
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for model in BODY_SCHEMAS:
            body = model.model_json_schema(ref_template="#/components/schemas/{model}")
            components.update({**body.pop("$defs", {}), model.__name__: body})
        add_common_answers(schema)
        app.openapi_schema = schema
    return copy.deepcopy(app.openapi_schema)


@page(router, "/openapi.json")
def openapi(request: Request, session: SessionDep) -> Response:
    schema = _base_schema(request)
    fill_vocabularies(
        schema,
        {
            "/api/v1/matrix": {**matrix_vocabularies(session), **model_vocabularies(session)},
            "/api/v1/models": model_list_vocabularies(session),
            "/api/v1/benchmarks": benchmark_vocabularies(session),
            "/api/v1/sweeps": benchmark_vocabularies(session),
            "/api/v1/compare": system_vocabularies(session),
            "/api/v1/changes": change_vocabularies(session),
            "/api/v1/notes": note_vocabularies(session),
        },
    )
    return JSONResponse(schema)


DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Inference Atlas API</title>
<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">
<link rel="stylesheet" href="/static/css/docs.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js" defer></script>
<script src="/static/js/swagger-init.js" defer></script>
</head>
<body>
<header class="docs-bar">
<nav aria-label="Main">
<a href="/" class="docs-home"><span aria-hidden="true">&#9709;</span> Inference Atlas</a>
<a href="/">Back to the Atlas</a>
<a href="/openapi.json">openapi.json</a>
</nav>
</header>
<main id="swagger-ui"></main>
</body>
</html>
"""


@router.get("/docs")
async def docs() -> HTMLResponse:
    """Swagger UI from the pinned package; started by a static script (no inline code)."""
    return HTMLResponse(DOCS_PAGE)

"""Every /api/v1 route: the JSON API, in OpenAPI at /openapi.json."""

from fastapi import APIRouter

from app.routes.api import (
    account,
    catalogue,
    changes,
    entries,
    finder,
    fit,
    imports,
    items,
    models,
    notes,
    team,
    webhooks,
)

# In this order in /openapi.json.
API_ROUTERS: tuple[APIRouter, ...] = (
    catalogue.router,
    models.router,
    finder.router,
    fit.router,
    items.router,
    team.router,
    imports.router,
    notes.router,
    entries.router,
    changes.router,
    account.router,
    webhooks.router,
)

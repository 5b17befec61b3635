"""Every /api/v1 route: the JSON API, in OpenAPI at /openapi.json."""

from fastapi import APIRouter

from app.routes.api import catalogue, imports, notes, team

API_ROUTERS: tuple[APIRouter, ...] = (catalogue.router, team.router, imports.router, notes.router)

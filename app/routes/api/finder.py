"""/api/v1/features (every feature and hardware target with its coverage) and /api/v1/search:
the JSON twins of /features and /search."""

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from app.db import SessionDep
from app.queries.finder import FeatureIndex, SearchResult, feature_index, search
from app.web.pages import page

router = APIRouter(prefix="/api/v1", tags=["api"])


@page(router, "/features", response_model=FeatureIndex)
def features(session: SessionDep) -> Response:
    """Every feature and hardware target, grouped, with how many systems support it."""
    return JSONResponse(feature_index(session).model_dump(mode="json"))


@page(router, "/search", response_model=SearchResult)
def find(session: SessionDep, q: str = "") -> Response:
    """Systems, features, hardware, models, workloads and sources named like `q`."""
    return JSONResponse(search(session, q[:200]).model_dump(mode="json"))

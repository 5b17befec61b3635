"""/api/v1/features (every feature and hardware target with its coverage) and /api/v1/search:
the JSON twins of /features and /search."""

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app.db import SessionDep
from app.queries.finder import FeatureIndex, SearchResult, feature_index, search
from app.web.render import serve

router = APIRouter(prefix="/api/v1", tags=["api"])


@router.get("/features", response_model=FeatureIndex)
async def features(request: Request, session: SessionDep) -> Response:
    """Every feature and hardware target, grouped, with how many systems support it."""
    return await serve(
        request, session, lambda s: JSONResponse(feature_index(s).model_dump(mode="json"))
    )


@router.get("/search", response_model=SearchResult)
async def find(request: Request, session: SessionDep, q: str = "") -> Response:
    """Systems, features, hardware, models, workloads and sources named like `q`."""
    return await serve(
        request, session, lambda s: JSONResponse(search(s, q[:200]).model_dump(mode="json"))
    )

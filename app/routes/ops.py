"""/metrics for Prometheus (/healthz is a layer of the edge: app/web/edge/health.py).

/metrics is a plain Starlette route, outside the app-wide `identify` dependency: a scraper's
Bearer token is the metrics token, not a user's API token.
"""

import hmac

from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse, Response
from prometheus_client.exposition import choose_encoder
from starlette.concurrency import run_in_threadpool

NO_STORE = {"Cache-Control": "no-store"}


async def metrics(request: Request) -> Response:
    """This process's metrics in the format the scraper asks for (Prometheus text by default)."""
    refusal = _metrics_refusal(request)
    if refusal is not None:
        return refusal
    encoder, content_type = choose_encoder(request.headers.get("accept", ""))
    # Collecting reads /proc and takes the metrics' locks: not on the event loop.
    body = await run_in_threadpool(encoder, request.app.state.metrics.registry)
    return Response(body, headers={"Content-Type": content_type, **NO_STORE})


def _metrics_refusal(request: Request) -> Response | None:
    """None when the request may read /metrics; otherwise the answer that says why not.

    With ATLAS_METRICS_TOKEN set, only `Authorization: Bearer <that token>` reads. Without
    it, /metrics is as open as the rest: anyone when ATLAS_PUBLIC_READ is true, nobody when
    it is false (a private instance tells nothing to anonymous callers)."""
    settings = request.app.state.settings
    token = settings.atlas_metrics_token
    if not token:
        if settings.atlas_public_read:
            return None
        detail = "Set ATLAS_METRICS_TOKEN to read /metrics when ATLAS_PUBLIC_READ is false."
        return PlainTextResponse(detail, status_code=403, headers=NO_STORE)
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
        return None
    challenge = {"WWW-Authenticate": 'Bearer realm="metrics"', **NO_STORE}
    detail = "/metrics needs Authorization: Bearer with the ATLAS_METRICS_TOKEN."
    return PlainTextResponse(detail, status_code=401, headers=challenge)


def add_routes(app: FastAPI) -> None:
    """/metrics on the app itself, as a plain Starlette route."""
    app.add_route("/metrics", metrics, methods=["GET"], include_in_schema=False)

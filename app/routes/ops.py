"""What operators and their tools read: /healthz for load balancers, /metrics for Prometheus.

/metrics is a plain Starlette route, outside the app-wide `identify` dependency: a scraper's
Bearer token is the metrics token, not a user's API token. /healthz is answered by
app.web.front before any route (`health`): probes come often, by address, and need nothing
of the request.
"""

import hmac
import json
import time
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse, Response
from prometheus_client.exposition import choose_encoder
from starlette.concurrency import run_in_threadpool
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from app.data_version.watcher import VersionWatcher

# The version watcher reads the database every second (by default); this long without one
# success (or three poll intervals, if longer), the process cannot reach its database (or is
# too overloaded to), and says so.
HEALTHY_READ_AGE = 15.0
NO_STORE = {"Cache-Control": "no-store"}
HEALTHY = json.dumps({"status": "ok", "database": "ok"}).encode()


def health(state: Any) -> tuple[int, bytes]:
    """/healthz's status and JSON body: 200 while the database answers the background reads,
    503 when it has stopped (or before the app has started)."""
    versions: VersionWatcher | None = getattr(state, "versions", None)
    if versions is None:
        return 503, json.dumps({"status": "starting", "database": "not yet read"}).encode()
    age = time.monotonic() - versions.read_at
    if age <= max(HEALTHY_READ_AGE, 3 * versions.interval):
        return 200, HEALTHY
    problem = f"no successful read for {age:.0f} s"
    return 503, json.dumps({"status": "unavailable", "database": problem}).encode()


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


class HostCheck:
    """Starlette's TrustedHostMiddleware for every path but /healthz (which app.web.front
    answers before this; the exception stays for a HEAD or an odd method on it).

    Health checkers reach a replica by its own address (127.0.0.1 from Docker's
    HEALTHCHECK, app1:8000 from the proxy), not by the instance's name. The check protects
    links and redirects built from the Host header (and pages read through DNS rebinding);
    /healthz builds none and tells nothing. /metrics stays checked: a scraper that reaches a
    replica by its address needs that name in TRUSTED_HOSTS.
    """

    def __init__(self, app: ASGIApp, allowed_hosts: list[str]) -> None:
        self.app = app
        self.checked = TrustedHostMiddleware(app, allowed_hosts=allowed_hosts, www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/healthz":
            await self.app(scope, receive, send)
        else:
            await self.checked(scope, receive, send)

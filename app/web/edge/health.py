"""/healthz, answered before the host check and the routes: load balancers poll it by the
replica's own address, and it reads nothing of the request.

Healthy means the database answered a read of the data version just now (the same shared
read that every cached answer waits for, app/data_version/fresh.py), within `timeout`."""

import asyncio
import json
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from app.ops.observe import OBSERVED

HEALTH_PATH = "/healthz"
HEALTHY = json.dumps({"status": "ok", "database": "ok"}).encode()

# Returns the data version, or raises when the database cannot be read; None before start-up.
ReadVersion = Callable[[], Awaitable[str] | None]


class HealthCheck:
    def __init__(self, app: ASGIApp, *, read_version: ReadVersion, timeout: float = 5.0) -> None:
        self.app = app
        self.read_version = read_version
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != HEALTH_PATH:
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        allow: list[tuple[bytes, bytes]] = []
        if method in ("GET", "HEAD"):
            status, body = await self.health()
        else:
            status, body = 405, b'{"detail":"Method Not Allowed"}'
            allow = [(b"allow", b"GET, HEAD")]
        headers = [
            (b"content-type", b"application/json"),
            (b"cache-control", b"no-store"),
            *allow,
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})
        scope_route(scope)

    async def health(self) -> tuple[int, bytes]:
        """200 while the database answers, 503 (saying why) when it does not."""
        reading = self.read_version()
        if reading is None:
            return 503, json.dumps({"status": "starting", "database": "not yet read"}).encode()
        try:
            await asyncio.wait_for(reading, self.timeout)
        except TimeoutError:
            problem = f"no answer within {self.timeout:g} s"
        except Exception as exc:  # the database's own words, for the operator
            problem = f"cannot read the data version: {exc}"
        else:
            return 200, HEALTHY
        return 503, json.dumps({"status": "unavailable", "database": problem}).encode()


def scope_route(scope: Scope) -> None:
    """Name the route in the request's log line and metrics."""
    observed = scope.get(OBSERVED)
    if observed is not None:
        observed.route = HEALTH_PATH

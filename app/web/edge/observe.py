"""Every request's id, metrics and access log line, and a 500 for an error
that escapes everything inside (then re-raised for the server to log)."""

import time

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.ops.logs import REQUEST_ID
from app.ops.metrics import Metrics
from app.ops.observe import ABORTED_STATUS, OBSERVED, Observed, log_request, request_id_of
from app.web.http_basics import ABORTED
from app.web.security_headers import SERVER_ERROR


class Observe:
    def __init__(self, app: ASGIApp, *, metrics: Metrics, access_log: bool = True) -> None:
        self.app = app
        self.metrics = metrics
        self.log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = request_id_of(scope)
        # Not reset afterwards: uvicorn runs each request in a task of its own, and its log
        # of an unhandled error, written after we return, should carry the id too.
        REQUEST_ID.set(request_id)
        observed = scope[OBSERVED] = Observed()
        scope.setdefault("state", {})  # shared with every copy; identify() keeps the user here
        self.metrics.in_progress.inc()
        try:
            await self._answer(scope, receive, send, request_id, observed)
        finally:
            self.metrics.in_progress.dec()
            seconds = time.perf_counter() - started
            if scope.get(ABORTED) and observed.status == 500:
                observed.status = ABORTED_STATUS  # the client left mid-body: nothing of ours failed
            self.metrics.observe(observed.route, scope["method"], observed.status, seconds)
            if self.log:
                log_request(scope, observed.route, observed.status, seconds, request_id)

    async def _answer(
        self, scope: Scope, receive: Receive, send: Send, request_id: str, observed: Observed
    ) -> None:
        id_header = (b"x-request-id", request_id.encode())
        started = False

        async def send_noted(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                observed.status = message["status"]
                # A new list: a response may send the same header list more than once.
                message["headers"] = [*message.get("headers", ()), id_header]
            await send(message)

        try:
            await self.app(scope, receive, send_noted)
        except Exception:
            if not started:
                headers = MutableHeaders(
                    {
                        "content-type": "text/plain; charset=utf-8",
                        "content-length": str(len(SERVER_ERROR)),
                    }
                )
                start = {"type": "http.response.start", "status": 500, "headers": headers.raw}
                await send_noted(start)
                await send({"type": "http.response.body", "body": SERVER_ERROR})
            raise

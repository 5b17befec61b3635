"""The outermost layer (pure ASGI): every request observed, security headers on every answer,
and the crowd's requests answered from the render cache without the framework.

Per request, everything the app does in front of a route costs more than a bare FastAPI
route's whole answer: route matching, the app-wide `identify` dependency, the request's
session, one ASGI layer per concern. Most requests a crowd sends are anonymous GETs of a
page already in the render cache (a shared link, a dashboard left open, a script polling
the API), and for those none of it changes the answer. So this layer looks the request up
in the render cache under the key `serve()` stores it by (`page_key`), and on a hit sends
the frozen page itself: 304 on a matching ETag, gzip when accepted, HEAD without the body,
the same headers the full path would add. Everything else (a miss, a signed-in user, a
write, a host not listed exactly, a private instance) goes down the full stack unchanged,
and only pages whose route sends them as they are (`CachedPage.route` set) are answered
here. /healthz is answered here too: load balancers poll it, and it reads no request data.

For every request, answered here or not: its id (`X-Request-Id`), its metrics, its access
log line (method, route template, path, status, duration), and the security headers
(app/web/security_headers.py). An error escaping the app is answered as a 500 with those
headers, then re-raised for the server to log.
"""

import time
from collections.abc import Callable
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.ops.logs import REQUEST_ID
from app.ops.metrics import Metrics
from app.ops.observe import (
    ABORTED_STATUS,
    OBSERVED,
    Observed,
    log_request,
    request_id_of,
)
from app.web.cache import CachedPage, RenderCache, accepts_gzip, etag_matches, page_key
from app.web.http_basics import ABORTED
from app.web.security_headers import SECURITY_HEADERS, SERVER_ERROR

HEALTH_PATH = "/healthz"
# The request headers a cache hit depends on, read in one pass over the scope's list.
_WANTED = frozenset(
    {
        b"host",
        b"cookie",
        b"authorization",
        b"if-none-match",
        b"accept-encoding",
        b"hx-request",
        b"hx-target",
        b"hx-boosted",
        b"hx-history-restore-request",
    }
)
_SECURITY = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS]

Health = Callable[[], tuple[int, bytes]]


class Front:
    """See the module docstring. `state` is the app's state: the render cache and the version
    watcher appear there once the lifespan has made them."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        state: Any,
        metrics: Metrics,
        health: Health,
        access_log: bool = True,
        allowed_hosts: list[str] | tuple[str, ...] = ("*",),
        cookie_names: tuple[str, ...] = (),
        public_read: bool = True,
    ) -> None:
        self.app = app
        self.state = state
        self.metrics = metrics
        self.health = health
        self.log = access_log
        # Only exact names are checked here; a wildcard pattern sends the request down the
        # full stack, where Starlette's TrustedHostMiddleware judges it.
        self.any_host = "*" in allowed_hosts
        self.hosts = frozenset(h.lower() for h in allowed_hosts if "*" not in h)
        self.cookie_names = tuple(name.encode() + b"=" for name in cookie_names)
        # On a private instance every anonymous page asks for a sign-in first.
        self.public_read = public_read

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = request_id_of(scope)
        # Not reset afterwards: uvicorn runs each request in a task of its own, and its log
        # of an unhandled error, written after we return, should carry the id too.
        REQUEST_ID.set(request_id)
        self.metrics.in_progress.inc()
        observed = Observed()
        try:
            answer = self._answer_here(scope)
            if answer is not None:
                observed.route, observed.status = await answer(send, request_id)
            else:
                await self._through(scope, receive, send, request_id, observed)
        finally:
            self.metrics.in_progress.dec()
            seconds = time.perf_counter() - started
            route, status = observed.route, observed.status
            self.metrics.observe(route, scope["method"], status, seconds)
            if self.log:
                log_request(scope, route, status, seconds, request_id)

    def _answer_here(self, scope: Scope) -> Callable[[Send, str], Any] | None:
        """The coroutine function that answers this request here, or None (the full stack)."""
        method = scope["method"]
        if scope["path"] == HEALTH_PATH:
            return lambda send, rid: self._send_health(send, rid, method)
        if method != "GET" and method != "HEAD":
            return None
        if not self.public_read:
            return None
        headers: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name in _WANTED and name not in headers:
                headers[name] = value
        if not self.any_host:
            host = headers.get(b"host", b"").split(b":", 1)[0].decode("latin-1").lower()
            if host not in self.hosts:
                return None
        # A credential (a session cookie, a Bearer token) may make the page someone's own.
        authorization = headers.get(b"authorization", b"")
        if authorization[:7].lower() == b"bearer ":
            return None
        cookie = headers.get(b"cookie")
        if cookie and any(name in cookie for name in self.cookie_names):
            return None
        cache: RenderCache | None = getattr(self.state, "render_cache", None)
        versions = getattr(self.state, "versions", None)
        if cache is None or versions is None:
            return None
        key = (versions.value, *page_key(scope, lambda name: _text(headers.get(name.encode()))))
        page = cache.get(key, count_miss=False)
        if page is None or page.route is None:
            return None
        return lambda send, rid: _send_page(send, rid, page, headers, method == "HEAD")

    async def _send_health(self, send: Send, request_id: str, method: str) -> tuple[str, int]:
        if method in ("GET", "HEAD"):
            status, body = self.health()
            allow = []
        else:
            status, body = 405, b'{"detail":"Method Not Allowed"}'
            allow = [(b"allow", b"GET, HEAD")]
        headers = [
            (b"content-type", b"application/json"),
            (b"cache-control", b"no-store"),
            *allow,
            (b"content-length", str(len(body)).encode()),
            *_SECURITY,
            (b"x-request-id", request_id.encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})
        return HEALTH_PATH, status

    async def _through(
        self, scope: Scope, receive: Receive, send: Send, request_id: str, observed: Observed
    ) -> None:
        """The full stack, with the request id and the security headers added to its answer;
        NoteRoute fills in `observed.route`, the answer's start its status."""
        scope[OBSERVED] = observed
        scope.setdefault("state", {})  # shared with every copy; identify() keeps the user here
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                observed.status = message["status"]
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    if name not in headers:
                        headers.append(name, value)
                headers.append("x-request-id", request_id)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if not started:
                plain = [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(SERVER_ERROR)).encode()),
                ]
                await send_with_headers(
                    {"type": "http.response.start", "status": 500, "headers": plain}
                )
                await send({"type": "http.response.body", "body": SERVER_ERROR})
            raise
        finally:
            if scope.get(ABORTED) and observed.status == 500:
                observed.status = ABORTED_STATUS  # the client left mid-body: nothing of ours failed


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode("latin-1")


async def _send_page(
    send: Send, request_id: str, page: CachedPage, headers: dict[bytes, bytes], head: bool
) -> tuple[str | None, int]:
    """`page` as `CachedPage.respond` would answer it, as ASGI messages."""
    rid = (b"x-request-id", request_id.encode())
    etag = page.headers["etag"]
    if etag_matches(_text(headers.get(b"if-none-match")) or "", etag):
        await send({"type": "http.response.start", "status": 304,
                    "headers": [*page.wire_not_modified, rid]})  # fmt: skip
        await send({"type": "http.response.body", "body": b""})
        return page.route, 304
    if page.gzipped is not None and accepts_gzip(_text(headers.get(b"accept-encoding")) or ""):
        body, wire = page.gzipped, page.wire_gzipped
    else:
        body, wire = page.body, page.wire_plain
    length = (b"content-length", str(len(body)).encode())
    await send({"type": "http.response.start", "status": page.status_code,
                "headers": [*wire, length, rid]})  # fmt: skip
    await send({"type": "http.response.body", "body": b"" if head else body})
    return page.route, page.status_code

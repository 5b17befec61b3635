"""HTTP as clients expect it, for every route at once (a pure ASGI middleware).

- HEAD is answered as GET without the body (uptime checkers and link previews use it).
- A query string past the limit gets a 414 that says so, before any work is done.
- `/path/` redirects to `/path` with a relative Location, so the Host header is never echoed.
- Static files are gzipped when the client accepts it.
"""

import gzip
import json
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.cache import accepts_gzip


class HttpBasics:
    def __init__(self, app: ASGIApp, max_query_bytes: int) -> None:
        self.app = app
        self.max_query_bytes = max_query_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query: bytes = scope.get("query_string", b"")
        if len(query) > self.max_query_bytes:
            await _too_long(scope, send, len(query), self.max_query_bytes)
            return
        path: str = scope["path"]
        if path != "/" and path.endswith("/") and not path.startswith("/static/"):
            await _redirect_without_slash(send, path, query)
            return
        if scope["method"] == "HEAD":
            await self.app({**scope, "method": "GET"}, receive, _without_body(send))
            return
        await self.app(scope, receive, send)


def _without_body(send: Send) -> Send:
    async def send_headers_only(message: Message) -> None:
        if message["type"] != "http.response.body":
            await send(message)
        elif not message.get("more_body", False):
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    return send_headers_only


async def _too_long(scope: Scope, send: Send, length: int, limit: int) -> None:
    detail = (
        f"The query string is {length} bytes long; this server reads at most {limit}. "
        "Remove some filters or values and try again."
    )
    await send_plain(scope, send, 414, detail)


async def send_plain(
    scope: Scope,
    send: Send,
    status: int,
    detail: str,
    headers: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    """An error answered before any route runs: JSON under /api, plain text elsewhere."""
    if scope["path"].startswith("/api/"):
        body, media = json.dumps({"detail": detail}).encode(), b"application/json"
    else:
        body, media = detail.encode(), b"text/plain; charset=utf-8"
    await _send(send, status, body, [(b"content-type", media), *headers])


async def _redirect_without_slash(send: Send, path: str, query: bytes) -> None:
    # Collapsing the leading slashes keeps `//host/` from becoming a protocol-relative URL.
    target = "/" + path.strip("/")
    location = target.encode() + (b"?" + query if query else b"")
    await _send(send, 308, b"", [(b"location", location)])


async def _send(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


class CompressedStaticFiles(StaticFiles):
    """Static files with negotiated gzip; each file is compressed once, in a worker thread."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self._gzipped: dict[tuple[str, float], bytes] = {}

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        accept = Headers(scope=scope).get("accept-encoding", "")
        if not isinstance(response, FileResponse) or not accepts_gzip(accept):
            return response
        if not (response.media_type or "").startswith(COMPRESSIBLE):
            return response
        mtime = response.stat_result.st_mtime if response.stat_result else 0.0
        body = await run_in_threadpool(self._compressed, str(response.path), mtime)
        headers = {k: v for k, v in response.headers.items() if k != "content-length"}
        headers |= {"content-encoding": "gzip", "vary": "Accept-Encoding"}
        return Response(body, response.status_code, headers)

    def _compressed(self, path: str, mtime: float) -> bytes:
        key = (path, mtime)
        body = self._gzipped.get(key)
        if body is None:
            body = self._gzipped[key] = gzip.compress(Path(path).read_bytes(), compresslevel=9)
        return body

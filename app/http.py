"""HTTP as clients expect it, for every route at once (a pure ASGI middleware).

- HEAD is answered as GET without the body (uptime checkers and link previews use it).
- A query string past the limit gets a 414 that says so, before any work is done.
- `/path/` redirects to `/path` with a relative Location, so the Host header is never echoed.
"""

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


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
    if scope["path"].startswith("/api/"):
        body, media = json.dumps({"detail": detail}).encode(), b"application/json"
    else:
        body, media = detail.encode(), b"text/plain; charset=utf-8"
    await _send(send, 414, body, [(b"content-type", media)])


async def _redirect_without_slash(send: Send, path: str, query: bytes) -> None:
    # Collapsing the leading slashes keeps `//host/` from becoming a protocol-relative URL.
    target = "/" + path.strip("/")
    location = target.encode() + (b"?" + query if query else b"")
    await _send(send, 308, b"", [(b"location", location)])


async def _send(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})

"""If-None-Match for every answer that carries an ETag: 304 Not Modified when the client
already has it (RFC 9110 section 13.1.2), the body never sent.

Pages get their ETag from their bytes when they are built (app/web/cache.py), so a page that
changed since the client's copy has another ETag and is sent in full, whether it came from
the page cache or a route.
"""

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.cache import NOT_MODIFIED_HEADERS, etag_matches


class Conditional:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        if_none_match = Headers(scope=scope).get("if-none-match")
        if not if_none_match:
            await self.app(scope, receive, send)
            return
        not_modified = False

        async def send_conditional(message: Message) -> None:
            nonlocal not_modified
            if message["type"] == "http.response.start":
                etag = _etag(message) if message["status"] == 200 else None
                if etag is not None and etag_matches(if_none_match, etag):
                    not_modified = True
                    kept = [
                        (n, v)
                        for n, v in message.get("headers", ())
                        if n.lower().decode("latin-1") in NOT_MODIFIED_HEADERS
                    ]
                    await send({"type": "http.response.start", "status": 304, "headers": kept})
                    return
            elif not_modified:
                if not message.get("more_body", False):
                    await send({"type": "http.response.body", "body": b""})
                return
            await send(message)

        await self.app(scope, receive, send_conditional)


def _etag(start: Message) -> str | None:
    for name, value in start.get("headers", ()):
        if name.lower() == b"etag":
            return str(value.decode("latin-1"))
    return None

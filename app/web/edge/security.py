"""Security headers on every answer (app/web/security_headers.py says which and why); a
response that sets one itself keeps its own."""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.security_headers import SECURITY_HEADERS

_WIRE = [(name.encode(), value.encode()) for name, value in SECURITY_HEADERS]
_NAMES = frozenset(name for name, _ in _WIRE)


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", ())
                own = {name.lower() for name, _ in headers if name.lower() in _NAMES}
                # A new list: a response may send the same header list more than once.
                message["headers"] = [*headers, *(pair for pair in _WIRE if pair[0] not in own)]
            await send(message)

        await self.app(scope, receive, send_secured)

"""Security headers on every response: pages, API, static files, redirects and errors.

The Content-Security-Policy allows only our own files: no inline script, no inline style
(neither <style> nor style="…"), no framing. Templates, static JS and server-drawn SVG
therefore never write a style attribute (SVG presentation attributes such as fill= are
not styles and are allowed), and HTMX is told not to inject its indicator <style>
(`includeIndicatorStyles: false` in layout.html; the rules live in app.css).

A route that needs a different policy sets its own Content-Security-Policy header; this
middleware adds only the headers a response does not already have.
"""

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'none'",
    )
)

SECURITY_HEADERS = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    # Shared links carry filters in the query string; other sites get the origin only.
    ("referrer-policy", "strict-origin-when-cross-origin"),
    # For browsers that predate frame-ancestors.
    ("x-frame-options", "DENY"),
    ("cross-origin-opener-policy", "same-origin"),
)

SERVER_ERROR = b"Internal Server Error"


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP response, including the 500 for an unhandled error.

    Starlette answers an unhandled exception outside every middleware we add, so an error
    escaping the app is answered here (with the headers), then re-raised for the server to
    log; the outer handler sees the response already started and sends nothing more.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    if name not in headers:
                        headers.append(name, value)
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if not started:
                headers = [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(SERVER_ERROR)).encode()),
                ]
                await send_with_headers(
                    {"type": "http.response.start", "status": 500, "headers": headers}
                )
                await send({"type": "http.response.body", "body": SERVER_ERROR})
            raise

"""The trusted proxies, the outermost layer: marks whether the connection comes from one
(for proxy sign-in, app/accounts/proxy.py), then applies X-Forwarded-For and
X-Forwarded-Proto from those proxies only, with uvicorn's own middleware.

This is done here rather than by uvicorn (`serve` turns uvicorn's off) because only here is
the connection's own address still known: once X-Forwarded-For has been applied, the client
address is the person's, and a request from the proxy can no longer be told from one sent
straight to the app. One list, ATLAS_TRUSTED_PROXIES, decides both.
"""

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.accounts.proxy import FROM_PROXY, is_trusted, trusted_networks


class TrustedProxies:
    def __init__(self, app: ASGIApp, *, trusted: str) -> None:
        self.networks = trusted_networks(trusted)
        hosts = ["*"] if self.networks is None else [str(n) for n in self.networks]
        self.forwarded = ProxyHeadersMiddleware(app, trusted_hosts=hosts)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            scope[FROM_PROXY] = is_trusted(self.networks, client[0] if client else None)
        await self.forwarded(scope, receive, send)  # type: ignore[arg-type]

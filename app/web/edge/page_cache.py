"""Anonymous GETs answered from the render cache before routing.

Per request, everything the app does in front of a route costs more than a bare FastAPI
route's whole answer (route matching, the app-wide `identify` dependency, the request's
session). Most requests a crowd sends are anonymous GETs of a page already built (a shared
link, a dashboard left open, a script polling the API), and for those none of it changes the
answer. So this layer looks the page up under the data version read after the request
arrived (app/data_version/fresh.py) and the key `serve()` stores it by, and sends it; the
outer layers add what every answer gets (headers, encoding, 304, log line, metrics).

A request carrying any credential (our session cookie, `Authorization: Bearer`, the trusted
proxy's user header) goes down the full stack: its page may be someone's own. The proxy's
header counts here from anyone: a request naming a person is never served a shared page, and
one the app then treats as anonymous (the header came from elsewhere) costs only a build.
So does every miss, and a private instance.
The version read here is left in the scope for `serve()`, which builds under it on a miss.
"""

import datetime as dt
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from app.ops.observe import OBSERVED
from app.web.cache import RenderCache, page_key

# Where the version this request was checked against is left for serve().
FRESH_VERSION = "atlas.fresh_version"
_WANTED = frozenset(
    {
        b"cookie",
        b"authorization",
        b"hx-request",
        b"hx-target",
        b"hx-boosted",
        b"hx-history-restore-request",
    }
)


class PageCache:
    """`state` is the app's state: the render cache and the version reader appear there once
    the lifespan has made them."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        state: Any,
        cookie_names: tuple[str, ...],
        public_read: bool,
        credential_headers: tuple[str, ...] = (),
    ) -> None:
        self.app = app
        self.state = state
        self.cookie_names = tuple(name.encode() + b"=" for name in cookie_names)
        # Headers whose mere presence names a person (the trusted proxy's user header).
        self.credential_headers = frozenset(h.lower().encode() for h in credential_headers)
        # On a private instance every anonymous page asks for a sign-in first.
        self.public_read = public_read

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or not self.public_read:
            await self.app(scope, receive, send)
            return
        headers = self._headers(scope)
        cache: RenderCache | None = getattr(self.state, "render_cache", None)
        if cache is None or self._signed_in(headers):
            await self.app(scope, receive, send)
            return
        version = await self.state.fresh_version.current()
        scope[FRESH_VERSION] = version
        key = page_key(scope, lambda name: _text(headers.get(name.encode())), dt.date.today())
        page = cache.get(version, key, count_miss=False)
        if page is None or page.route is None:
            await self.app(scope, receive, send)
            return
        observed = scope.get(OBSERVED)
        if observed is not None:
            observed.route = page.route
        await page.send(send)

    def _headers(self, scope: Scope) -> dict[bytes, bytes]:
        found: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name in self.credential_headers and value.strip():
                found[_CREDENTIAL] = b"1"
            if name in _WANTED and name not in found:
                found[name] = value
        return found

    def _signed_in(self, headers: dict[bytes, bytes]) -> bool:
        """Whether the request carries a credential (it may then be someone's own page)."""
        if _CREDENTIAL in headers:
            return True
        if headers.get(b"authorization", b"")[:7].lower() == b"bearer ":
            return True
        cookie = headers.get(b"cookie")
        return bool(cookie) and any(name in cookie for name in self.cookie_names)  # type: ignore[operator]


# Not a header name (those are lowercase tokens): marks a request naming a person.
_CREDENTIAL = b" credential"


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode("latin-1")

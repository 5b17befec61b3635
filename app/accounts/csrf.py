"""Cross-site request forgery protection from the request's own headers (no tokens).

The check Datasette adopted in 1.0a27 and Go 1.25 ships as http.CrossOriginProtection
(Filippo Valsorda, "CSRF", words.filippo.io/csrf): browsers say where a request comes
from in headers a page cannot forge, so a state-changing request is refused when

1. `Sec-Fetch-Site` is present and is neither `same-origin` nor `none` (typed or
   bookmarked by the user); otherwise
2. `Origin` is present and its scheme or host differs from this request's (the scheme
   uvicorn reports, https behind a proxy it trusts, and the `Host` header): older browsers
   that send Origin but not Sec-Fetch-Site; `http://host` posting to `https://host` is
   another origin (a network attacker can serve the http one); otherwise
3. neither header is present but the request carries our session cookie. Go and Datasette
   let such requests through as non-browser clients; we refuse them, because the cookie
   is the one thing a forged request would ride on, every browser this site supports sends
   Origin on POST, and scripts have API tokens (docs/security.md says more).

A request authorised by `Authorization: Bearer` alone (no Cookie header) is exempt, as in
Datasette: a page on another site cannot make a browser attach that header.

No tokens means nothing to thread through forms and HTMX requests, and nothing breaks when
a cached anonymous page (which could not carry a per-user token) posts a form.
"""

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.http_basics import send_plain

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def cross_origin_problem(
    headers: Headers, cookie_name: str | tuple[str, ...], scheme: str = "http"
) -> str | None:
    """Why a state-changing request with these headers, made over `scheme`, looks forged, or
    None. `cookie_name`: our session cookie's name(s)."""
    authorization = headers.get("authorization", "")
    if authorization.split(" ", 1)[0].lower() == "bearer" and "cookie" not in headers:
        return None
    site = headers.get("sec-fetch-site")
    if site is not None:
        if site in ("same-origin", "none"):
            return None
        return f"it came from another site (Sec-Fetch-Site: {site})"
    origin = headers.get("origin")
    if origin is not None:
        host = headers.get("host", "").lower()
        parts = urlsplit(origin)
        if origin != "null" and parts.netloc.lower() == host and parts.scheme.lower() == scheme:
            return None
        here = f"{scheme}://{host}" if host else "unknown"
        return f"it came from another site (Origin: {origin}, this site: {here})"
    if _has_cookie(headers, cookie_name):
        return (
            "it carries a sign-in cookie but neither an Origin nor a Sec-Fetch-Site header, "
            "so it cannot be told apart from a forged one (scripts should use an API token)"
        )
    return None


def _has_cookie(headers: Headers, name: str | tuple[str, ...]) -> bool:
    names = (name,) if isinstance(name, str) else name
    for header in headers.getlist("cookie"):
        for part in header.split(";"):
            if part.strip().partition("=")[0] in names:
                return True
    return False


class CrossOriginGuard:
    """Refuses state-changing requests that look cross-site with a 403 that says why."""

    def __init__(self, app: ASGIApp, cookie_name: str | tuple[str, ...]) -> None:
        self.app = app
        self.cookie_name = cookie_name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        scheme = str(scope.get("scheme", "http"))
        problem = cross_origin_problem(Headers(scope=scope), self.cookie_name, scheme)
        if problem is None:
            await self.app(scope, receive, send)
            return
        detail = (
            f"This {scope['method']} request was refused because {problem}. Changes are only "
            "accepted from this site's own pages, to protect against cross-site request forgery."
        )
        await send_plain(scope, send, 403, detail)

"""Every request once: its id and its log line, and the matched route's template.

`app.web.edge.observe.Observe`, near the outside of the edge, calls these for every request,
so it sees the final status of everything, including the 400 of an untrusted Host, a 414 and
the 500 of an unhandled error. Nothing here reads or buffers a body.

The route template is known only once the router has matched, deep inside; `NoteRoute`
(the innermost middleware) copies it to the front through an object both can reach,
because HttpBasics hands HEAD requests on in a copy of the scope.

What a log line holds: method, route, path, query (values of keys that look like secrets
are replaced), status, duration, request id, client address as uvicorn reports it (the
proxy's X-Forwarded-For only from ATLAS_TRUSTED_PROXIES), and the signed-in user's name.
Never a header: no cookie, no Authorization, no token.
"""

import itertools
import logging
import re
import uuid
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

OBSERVED = "atlas.observed"
# A request id from a proxy or client is kept only if it is short and plain.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")
# Query keys whose values are never written to a log.
SECRET_KEY = re.compile(r"pass|secret|token|key|auth|session|signature|credential|code", re.I)
MAX_LOGGED_QUERY = 1024
# nginx's code for "the client closed the request": logged for an upload cut off midway.
ABORTED_STATUS = 499

access_log = logging.getLogger("inference_atlas.access")


@dataclass(slots=True)
class Observed:
    route: str | None = None
    status: int = 500  # what the client gets if nothing is sent (the server answers 500)


class NoteRoute:
    """Innermost: hands the matched route's template ("/systems/{slug}") to the observer.

    FastAPI's router puts the route it chose in scope["route"] for its own API routes only;
    the app's plain Starlette routes and mounts (/metrics, /static) are matched
    again here, against their short list, when nothing else was."""

    def __init__(self, app: ASGIApp, routes: list[BaseRoute]) -> None:
        self.app = app
        self._routes = routes  # the app's own list, read at the first request (all are in)
        self._starlette_routes: list[BaseRoute] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # A mount rewrites root_path on its way down: match again against the scope as it came.
        asked = {k: scope.get(k, "") for k in ("type", "method", "path", "root_path")}
        try:
            await self.app(scope, receive, send)
        finally:
            observed = scope.get(OBSERVED)
            if observed is not None:
                observed.route = self._template(scope, asked)

    def _template(self, scope: Scope, asked: Scope) -> str | None:
        route = scope.get("route")
        if route is not None:
            return getattr(route, "path", None)
        if self._starlette_routes is None:
            self._starlette_routes = [r for r in self._routes if _is_starlette_route(r)]
        for candidate in self._starlette_routes:
            if candidate.matches(asked)[0] is not Match.NONE:
                return getattr(candidate, "path", None)
        return None


def _is_starlette_route(route: BaseRoute) -> bool:
    """A plain Starlette route or mount (/metrics, /static), not one of FastAPI's own."""
    return isinstance(route, Route | Mount) and not isinstance(route, APIRoute)


def request_id_of(scope: Scope) -> str:
    for name, value in scope["headers"]:
        if name == b"x-request-id":
            text: str = value.decode("latin-1")
            if SANE_REQUEST_ID.fullmatch(text):
                return text
            break
    # Random per process, a counter per request: unique without a system call each time
    # (uuid4 read the kernel's random source for every request).
    return f"{_ID_PREFIX}{next(_ID_COUNTER):016x}"


_ID_PREFIX = uuid.uuid4().hex[:16]
_ID_COUNTER = itertools.count(1)


def log_request(
    scope: Scope, route: str | None, status: int, seconds: float, request_id: str
) -> None:
    """The request's access log line (when INFO is on for the access logger)."""
    if not access_log.isEnabledFor(logging.INFO):
        return
    method = scope["method"]
    # As sent (percent-encoded): a decoded path could hold line breaks.
    path = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
    query = loggable_query(scope.get("query_string", b"").decode("latin-1"))
    client = scope.get("client")
    user = scope.get("state", {}).get("user")
    fields = {
        "method": method,
        "route": route,
        "path": path,
        "query": query or None,
        "status": status,
        "duration_ms": round(seconds * 1000, 2),
        "request_id": request_id,
        "client": client[0] if client else None,
        "user": getattr(user, "name", None),
    }
    target = f"{path}?{query}" if query else path
    level = logging.ERROR if status >= 500 else logging.INFO
    who = f" user={fields['user']}" if fields["user"] else ""
    access_log.log(
        level,
        '%s "%s %s" %d %.1f ms route=%s id=%s%s',
        fields["client"] or "-",
        method,
        target,
        status,
        seconds * 1000,
        route or "-",
        request_id,
        who,
        extra={"fields": fields},
    )


def loggable_query(query: str) -> str:
    """The query string with the values of secret-looking keys replaced, cut to 1 KB."""
    query = query[:MAX_LOGGED_QUERY]
    if not query or not SECRET_KEY.search(query):
        return query
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(k, "[redacted]" if SECRET_KEY.search(k) else v) for k, v in pairs])

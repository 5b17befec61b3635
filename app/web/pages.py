"""@page: a GET route stated as its build, the one way a route is served.

Served by hand, a route is two functions: a sync build (it reads the database, so it runs in
a worker thread) and an async wrapper that only hands it to serve(). `@page(router, path)`
writes the wrapper: it registers an async route whose parameters are the build's own, with
three kinds told apart by their annotation:

- `session: SessionDep` is the request's session; the build gets it inside serve()'s one
  read transaction, in a worker thread (a plain `Session` annotation is read the same way);
- a reading alias from app/web/deps.py (`MatrixReading`, `Ignored` ...) is read there too,
  so a reading that needs the data reads the page's own snapshot, and a cache hit reads none;
- anything else (`request: Request`, a path or query parameter, `EditorUser`) is resolved by
  FastAPI as in any route, before serve() is called.

The route keeps the build's name (its OpenAPI operation id) and docstring (its description).
"""

import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, get_args, get_origin, get_type_hints

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlmodel import Session

from app.db import SessionDep
from app.web.deps import Deferred
from app.web.render import serve

B = TypeVar("B", bound=Callable[..., Response])

# Names for the request and session when the build does not take them itself.
_REQUEST = "_page_request"
_SESSION = "_page_session"


def page(router: APIRouter, path: str, **route: Any) -> Callable[[B], B]:
    """Register `build` as `GET path` (with `route` as router.get's arguments), served by
    serve(); the build itself is returned unchanged."""

    def register(build: B) -> B:
        router.get(path, **route)(endpoint_of(build))
        return build

    return register


def endpoint_of(build: Callable[..., Response]) -> Callable[..., Any]:
    """The async route for `build`: its signature with the session as `SessionDep`."""
    signature = inspect.signature(build)
    hints = get_type_hints(build, include_extras=True)
    params, session_name, request_name = [], _SESSION, _REQUEST
    for p in signature.parameters.values():
        hint = hints.get(p.name, p.annotation)
        if _is_session(hint):
            session_name, hint = p.name, SessionDep
        elif hint is Request:
            request_name = p.name
        # Keyword-only: FastAPI passes every value by name, and the order stays the build's.
        params.append(p.replace(annotation=hint, kind=inspect.Parameter.KEYWORD_ONLY))
    names = {p.name for p in params}
    if session_name not in names:
        params.append(_keyword(_SESSION, SessionDep))
    if request_name not in names:
        params.append(_keyword(_REQUEST, Request))
    takes_session = session_name != _SESSION

    async def endpoint(**values: Any) -> Response:
        request, session = values.pop(request_name), values.pop(session_name)
        if request_name != _REQUEST:
            values[request_name] = request

        def built(s: Session) -> Response:
            given = {k: v.read(s) if isinstance(v, Deferred) else v for k, v in values.items()}
            return build(**given, **({session_name: s} if takes_session else {}))

        return await serve(request, session, built)

    endpoint.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=params, return_annotation=Response
    )
    for attribute in ("__name__", "__qualname__", "__doc__", "__module__"):
        setattr(endpoint, attribute, getattr(build, attribute))
    return endpoint


def _is_session(hint: Any) -> bool:
    if get_origin(hint) is Annotated:
        hint = get_args(hint)[0]
    return hint is Session


def _keyword(name: str, annotation: Any) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation)

"""Errors that name the wrong value and what is allowed: JSON under /api, a page elsewhere."""

import difflib
from collections.abc import Iterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match

from app.params.reader import ParamError, ParamProblem
from app.web.render import render

KIND_WORDS = {
    "capability": "feature or hardware target",
    "hardware": "hardware entry",
    "figure": "benchmark figure",
}


class NotFoundError(Exception):
    """A slug that names nothing; carries the value and what would have been valid.

    `names` (slug -> name) lets the reply suggest by name as well as by slug, and show
    people names rather than slugs.

    `detail` replaces the sentence, `link` the path a suggestion links under (PAGES by
    default), and `listed=False` keeps a long list of allowed values (every figure's id) out
    of the reply: it only feeds the suggestions.
    """

    def __init__(
        self,
        kind: str,
        value: str,
        allowed: list[str],
        names: dict[str, str] | None = None,
        *,
        detail: str | None = None,
        link: str | None = None,
        listed: bool = True,
        suggested: list[str] | None = None,
    ) -> None:
        self.kind, self.value, self.allowed = kind, value, allowed
        # The closest names when the caller knows better than difflib (Names.suggest knows
        # Ollama tags and file names, and never offers another size).
        self.suggested = suggested
        self.names = names or {}
        self.link, self.listed = link, listed
        super().__init__(detail or f"There is no {KIND_WORDS.get(kind, kind)} called {value!r}.")


# Where a suggestion links, per kind of slug.
PAGES = {
    "system": "/systems/",
    "capability": "/features/",
    "hardware": "/hardware/",
    "model": "/models/",
    "workload": "/workloads/",
    "figure": "/benchmarks/",
}


class RefusedError(Exception):
    """A reply that refuses the request, raised where the refusal is found (a bad If-Match, a
    write refused after its transaction rolled back); the handler sends it unchanged."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


def suggestions(value: str, allowed: list[str], names: dict[str, str], n: int = 3) -> list[str]:
    """The slugs closest to `value`, compared with each slug and each name (difflib)."""
    keys = {slug: slug for slug in allowed} | {
        names[slug].lower(): slug for slug in allowed if slug in names
    }
    wanted = value.lower().replace("_", "-").strip()
    close = difflib.get_close_matches(wanted, list(keys), n=n * 2, cutoff=0.6)
    contained = [k for k in keys if len(wanted) >= 3 and (wanted in k or k in wanted)]
    return list(dict.fromkeys(keys[k] for k in [*close, *contained]))[:n]


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def _not_found(request: Request, exc: NotFoundError) -> Response:
    close = exc.suggested
    if close is None:
        close = suggestions(exc.value, exc.allowed, exc.names)
    body = {
        "detail": str(exc),
        "field": exc.kind,
        "value": exc.value,
        "allowed": exc.allowed if exc.listed else [],
        "suggestions": close,
    }
    if _wants_json(request):
        return JSONResponse(body, status_code=404)
    context = {"error": body, "names": exc.names, "link": exc.link or PAGES.get(exc.kind)}
    return render(request, "errors/404.html", context, status_code=404)


async def _refused(request: Request, exc: RefusedError) -> Response:
    return exc.response


def allowed_methods(request: Request) -> str:
    """Every method some route answers at this path (the router's own 405 names only the
    first matching route's), HEAD wherever GET is, as an Allow header."""
    methods: set[str] = set()
    scope = {"type": "http", "path": request.url.path, "method": "", "root_path": ""}
    for route in _flat(request.app.router.routes):
        route_methods = getattr(route, "methods", None)
        if route_methods and route.matches(scope)[0] is not Match.NONE:
            methods |= set(route_methods)
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


def _flat(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route, those of included routers too (FastAPI keeps an included router whole;
    its routes carry their full paths)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _flat(inner.routes)
        else:
            yield route


async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
    # 405s carry Allow, 401s WWW-Authenticate: keep whatever headers the error brought.
    headers = getattr(exc, "headers", None)
    if exc.status_code == 405:
        headers = {**(headers or {}), "Allow": allowed_methods(request)}
    if _wants_json(request) or exc.status_code != 404:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=headers)
    body = {"detail": f"There is no page at {request.url.path}.", "allowed": []}
    return render(request, "errors/404.html", {"error": body}, status_code=404)


MAX_PROBLEMS_LISTED = 10


def problem_details(problems: list[ParamProblem]) -> dict[str, object]:
    """The first few problems; each field's allowed values once, however many values were bad."""
    detail, listed = [], set()
    for p in problems[:MAX_PROBLEMS_LISTED]:
        allowed = [] if p.field in listed else list(p.allowed)
        if allowed:
            listed.add(p.field)
        message = p.message if allowed or not p.allowed else f"{p.field}={p.value!r} is not allowed"
        detail.append({"field": p.field, "value": p.value, "allowed": allowed, "message": message})
    body: dict[str, object] = {"detail": detail}
    if len(problems) > MAX_PROBLEMS_LISTED:
        body["more_problems"] = len(problems) - MAX_PROBLEMS_LISTED
    return body


async def _bad_params(request: Request, exc: ParamError) -> Response:
    return JSONResponse(problem_details(exc.problems), status_code=422)


async def _invalid_request(request: Request, exc: RequestValidationError) -> Response:
    problems = [
        ParamProblem(str(e["loc"][-1]), str(e.get("input", ""))[:100], (), e["msg"])
        for e in exc.errors()
    ]
    return JSONResponse(problem_details(problems), status_code=422)


# How long a client is asked to wait after a write found the database locked.
LOCKED_RETRY_SECONDS = 5


async def _database_error(request: Request, exc: OperationalError) -> Response:
    """SQLite's write lock held by another writer past the busy timeout: a 503 that says so and
    when to try again (a sign-in, a note or a confirm behind a long import), not a traceback.
    Any other operational error is the server's own: it goes on to the 500 handler."""
    if "locked" not in str(exc.orig):
        raise exc
    detail = (
        "The database is busy with another change (a large import, perhaps) and this one "
        f"could not wait longer. Nothing was saved; try again in {LOCKED_RETRY_SECONDS} seconds."
    )
    headers = {"Retry-After": str(LOCKED_RETRY_SECONDS)}
    if _wants_json(request):
        return JSONResponse({"detail": detail}, status_code=503, headers=headers)
    return PlainTextResponse(detail, status_code=503, headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(OperationalError, _database_error)  # type: ignore[arg-type]
    app.add_exception_handler(ParamError, _bad_params)  # type: ignore[arg-type]
    app.add_exception_handler(NotFoundError, _not_found)  # type: ignore[arg-type]
    app.add_exception_handler(RefusedError, _refused)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]

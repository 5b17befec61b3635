"""Errors that name the wrong value and what is allowed: JSON under /api, a page elsewhere."""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.params import ParamError, ParamProblem
from app.web import render


class NotFoundError(Exception):
    """A slug that names nothing; carries the value and what would have been valid."""

    def __init__(self, kind: str, value: str, allowed: list[str]) -> None:
        self.kind, self.value, self.allowed = kind, value, allowed
        super().__init__(f"Unknown {kind} {value!r}.")


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def _not_found(request: Request, exc: NotFoundError) -> Response:
    body = {"detail": str(exc), "field": exc.kind, "value": exc.value, "allowed": exc.allowed}
    if _wants_json(request):
        return JSONResponse(body, status_code=404)
    return render(request, "errors/404.html", {"error": body}, status_code=404)


async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
    # 405s carry Allow, 401s WWW-Authenticate: keep whatever headers the error brought.
    headers = getattr(exc, "headers", None)
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


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ParamError, _bad_params)  # type: ignore[arg-type]
    app.add_exception_handler(NotFoundError, _not_found)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]

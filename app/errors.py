"""Errors that name the wrong value and what is allowed: JSON under /api, a page elsewhere."""

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.params import ParamError
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
    if _wants_json(request) or exc.status_code != 404:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
    body = {"detail": f"There is no page at {request.url.path}.", "allowed": []}
    return render(request, "errors/404.html", {"error": body}, status_code=404)


async def _bad_params(request: Request, exc: ParamError) -> Response:
    detail = [
        {"field": p.field, "value": p.value, "allowed": list(p.allowed), "message": p.message}
        for p in exc.problems
    ]
    return JSONResponse({"detail": detail}, status_code=422)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ParamError, _bad_params)  # type: ignore[arg-type]
    app.add_exception_handler(NotFoundError, _not_found)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]

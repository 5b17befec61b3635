"""Answers for requests that need a signed-in user, or a higher role, than they have."""

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from app.accounts.web import (
    NotAdmittedError,
    NotAllowedError,
    SignInRequiredError,
    here,
    login_url,
    wants_json,
)
from app.web.render import hx_redirect, is_htmx, render


async def _sign_in_required(request: Request, exc: SignInRequiredError) -> Response:
    if wants_json(request):
        detail = (
            "Sign in first: send Authorization: Bearer TOKEN "
            "(an admin makes one with: inference-atlas token add --user NAME)."
        )
        return JSONResponse({"detail": detail}, 401, headers={"WWW-Authenticate": "Bearer"})
    back = here(request) if request.method == "GET" else None
    target = login_url(back)
    if is_htmx(request):
        return hx_redirect(target, 401)
    return RedirectResponse(target, 303)


async def _not_allowed(request: Request, exc: NotAllowedError) -> Response:
    if wants_json(request):
        return JSONResponse({"detail": str(exc)}, 403)
    return render(request, "errors/403.html", {"message": str(exc)}, status_code=403)


async def _not_admitted(request: Request, exc: NotAdmittedError) -> Response:
    if wants_json(request):
        return JSONResponse({"detail": exc.message}, 403)
    return render(request, "errors/403.html", {"message": exc.message}, status_code=403)


def install_account_handlers(app: FastAPI) -> None:
    app.add_exception_handler(SignInRequiredError, _sign_in_required)  # type: ignore[arg-type]
    app.add_exception_handler(NotAllowedError, _not_allowed)  # type: ignore[arg-type]
    app.add_exception_handler(NotAdmittedError, _not_admitted)  # type: ignore[arg-type]

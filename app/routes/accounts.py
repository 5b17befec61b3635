"""Browser sign-in and sign-out: /login and /logout; changing one's own password at
/account/password.

A successful sign-in stores a session row and sets a signed, HttpOnly, SameSite=Lax cookie
holding the session's random token; signing out deletes the row, so the cookie is dead
even if someone kept a copy.
"""

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from app.accounts.identity import SignedIn
from app.accounts.web import (
    CurrentUser,
    SignedInUser,
    clear_session_cookie,
    cookie_token,
    safe_next,
    session_lifetime,
    set_session_cookie,
)
from app.db import SessionDep
from app.web.render import flash, render
from app.writes.accounts import PasswordChange, change_own_password
from app.writes.sessions import end_session, sign_in
from app.writes.transaction import write_transaction

ROLE_WORDS = {
    "admin": "an admin: you can edit the data and manage users",
    "editor": "an editor: you can add results, claims and notes",
    "viewer": "a viewer: you can read the team's instance",
}

router = APIRouter(include_in_schema=False)

# Our forms are a few short fields: parsing stops at more fields or longer values than these
# (Starlette answers 400 naming the limit), so a huge body costs nothing.
MAX_FIELDS = 10
MAX_FIELD_BYTES = 8 * 1024


async def read_form(request: Request) -> FormData:
    return await request.form(max_files=0, max_fields=MAX_FIELDS, max_part_size=MAX_FIELD_BYTES)


def client_address(request: Request) -> str:
    # The proxy's X-Forwarded-For lands here only from ATLAS_TRUSTED_PROXIES (edge/proxies.py).
    return request.client.host if request.client else "unknown"


def login_page(
    request: Request,
    next_path: str,
    *,
    name: str = "",
    problems: dict[str, str] | None = None,
    message: str | None = None,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    settings = request.app.state.settings
    context = {
        "next": next_path,
        "name": name,
        "problems": problems or {},
        "message": message,
        "active": "login",
        "public_read": settings.atlas_public_read,
        "password_login": settings.atlas_password_login,
        "oidc_label": settings.oidc_label() if settings.oidc_enabled() else None,
    }
    response = render(request, "pages/login.html", context, status_code=status_code)
    response.headers["Cache-Control"] = "no-store"
    response.headers.update(headers or {})
    return response


@router.get("/login")
async def login_form(request: Request, who: CurrentUser) -> Response:
    return login_page(request, safe_next(request.query_params.get("next")))


@router.post("/login")
async def login(request: Request, session: SessionDep) -> Response:
    form = await read_form(request)
    name = str(form.get("name") or "")
    password = str(form.get("password") or "")
    next_path = safe_next(str(form.get("next") or ""))
    if not request.app.state.settings.atlas_password_login:
        message = "This instance signs people in through its identity provider only."
        return login_page(request, next_path, message=message, status_code=403)
    problems = {}
    if not name.strip():
        problems["name"] = "Enter your user name."
    if not password:
        problems["password"] = "Enter your password."
    if problems:
        return login_page(request, next_path, name=name, problems=problems, status_code=422)
    lifetime = session_lifetime(request)
    result = await run_in_threadpool(
        sign_in, session, name, password, client_address(request), lifetime
    )
    if result.blocked is not None:
        return login_page(
            request,
            next_path,
            name=name,
            message=result.blocked.message,
            status_code=429,
            headers={"Retry-After": str(result.blocked.retry_after)},
        )
    if result.user is None:
        return login_page(request, next_path, name=name, message=result.problem, status_code=422)
    return await signed_in_answer(request, session, result.user, result.token, next_path)


async def signed_in_answer(
    request: Request, session: SessionDep, who: SignedIn, token: str, next_path: str
) -> Response:
    """Where a sign-in (password or provider) ends: the browser's previous session ended,
    the new one's cookie set, and a word on who they now are."""
    previous = cookie_token(request)
    if previous is not None:
        await run_in_threadpool(_end, session, previous)
    response = RedirectResponse(next_path, 303)
    set_session_cookie(request, response, token)
    # Say what changed: the next page is built for them alone, and shows this once.
    role = ROLE_WORDS.get(str(who.role), str(who.role))
    flash(request, response, f"Signed in as {who.name}, {role}.")
    return response


def _end(session: SessionDep, token: str) -> None:
    with write_transaction(session):
        end_session(session, token)


@router.get("/logout")
async def logout_form(request: Request, who: CurrentUser) -> Response:
    """Signing out changes state, so it takes a POST; this page offers the button, and once
    signed out says so (a signed-out page may come from the shared cache: no flash there)."""
    back = safe_next(request.query_params.get("next", ""))
    # Once signed out, the header offers "Sign in" again (the login page itself does not).
    active = "login" if who else "logout"
    return render(request, "pages/logout.html", {"active": active, "back": back})


@router.post("/logout")
async def logout(request: Request, session: SessionDep) -> Response:
    token = cookie_token(request)
    if token is not None:
        await run_in_threadpool(_end, session, token)
    back = safe_next(str((await read_form(request)).get("next") or ""))
    response = RedirectResponse(f"/logout?{urlencode({'next': back})}", 303)
    clear_session_cookie(request, response)
    return response


def _password_page(
    request: Request,
    *,
    problems: dict[str, str] | None = None,
    done: bool = False,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    context = {"problems": problems or {}, "done": done, "active": "account"}
    response = render(request, "pages/password.html", context, status_code=status_code)
    response.headers["Cache-Control"] = "no-store"
    response.headers.update(headers or {})
    return response


@router.get("/account/password")
async def password_form(request: Request, who: SignedInUser) -> Response:
    return _password_page(request, done=request.query_params.get("done") == "1")


@router.post("/account/password")
async def change_password(request: Request, session: SessionDep, who: SignedInUser) -> Response:
    form = await read_form(request)
    fields = {k: str(form.get(k) or "") for k in ("current_password", "new_password", "repeat")}
    result = await change_password_for(request, session, who, fields, fields["repeat"])
    if result.blocked is not None:
        headers = {"Retry-After": str(result.blocked.retry_after)}
        return _password_page(request, problems=result.problems, status_code=429, headers=headers)
    if result.problems:
        return _password_page(request, problems=result.problems, status_code=422)
    response = RedirectResponse("/account/password?done=1", 303)
    if result.token:
        set_session_cookie(request, response, result.token)
    return response


async def change_password_for(
    request: Request, session: SessionDep, who: SignedIn, fields: dict[str, str], repeat: str | None
) -> PasswordChange:
    """The page's and the API's change of the caller's own password (app/accounts/users.py)."""
    return await run_in_threadpool(
        change_own_password,
        session,
        who,
        fields["current_password"],
        fields["new_password"],
        repeat,
        client_address(request),
        session_lifetime(request),
    )

"""/admin/users: admins list, add, re-role, disable and enable users.

Every change is a POST followed by a redirect back to the list (so reloading never posts
twice); a change that cannot be made re-shows the list with what was wrong, status 422.
"""

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import AccountError, name_taken, normalise_name
from app.accounts.models import Role
from app.accounts.users import list_users
from app.accounts.web import AdminUser
from app.db import SessionDep
from app.routes.accounts import read_form
from app.web.render import render
from app.writes.accounts import add_user_from_form, disable_user, enable_user, set_role
from app.writes.transaction import end_read, write_transaction

router = APIRouter(prefix="/admin", include_in_schema=False)

USERS = "/admin/users"
# What a redirect back to the list says was done; `user` must name an existing user.
DONE = {
    "added": "Added {name} as {role}.",
    "role": "{name} is now {role}.",
    "disabled": "Disabled {name}: their browser sessions ended and their API tokens were revoked.",
    "enabled": "{name} can sign in again.",
}


def _page(
    request: Request,
    session: SessionDep,
    *,
    form: dict[str, str] | None = None,
    problems: dict[str, str] | None = None,
    error: str | None = None,
    status_code: int = 200,
) -> Response:
    users = list_users(session)
    end_read(session)
    done = None
    action, who = request.query_params.get("done"), request.query_params.get("user")
    if action in DONE and status_code == 200:
        row = next((u for u in users if u.name == who), None)
        if row is not None:
            done = DONE[action].format(name=row.name, role=row.role)
    context: dict[str, Any] = {
        "users": users,
        "roles": [r.value for r in Role],
        "form": form or {"role": Role.viewer.value},
        "problems": problems or {},
        "error": error,
        "done": done,
        "active": "users",
    }
    response = render(request, "pages/admin_users.html", context, status_code=status_code)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/users")
async def users_page(request: Request, session: SessionDep, admin: AdminUser) -> Response:
    return await run_in_threadpool(_page, request, session)


def _add(request: Request, session: SessionDep, form: dict[str, str]) -> Response:
    try:
        with write_transaction(session):
            user = add_user_from_form(
                session, form["name"], form["role"], form["password"], form["repeat"]
            )
    except AccountError as exc:
        kept = {"name": form["name"], "role": form["role"]}
        status = 409 if name_taken(exc.problems) else 422
        return _page(request, session, form=kept, problems=exc.problems, status_code=status)
    return RedirectResponse(f"{USERS}?{urlencode({'done': 'added', 'user': user.name})}", 303)


@router.post("/users")
async def add(request: Request, session: SessionDep, admin: AdminUser) -> Response:
    posted = await read_form(request)
    form = {k: str(posted.get(k) or "") for k in ("name", "role", "password", "repeat")}
    return await run_in_threadpool(_add, request, session, form)


def _change(
    request: Request, session: SessionDep, name: str, action: str, change: Callable[[], object]
) -> Response:
    try:
        with write_transaction(session):
            change()
    except AccountError as exc:
        return _page(request, session, error=str(exc), status_code=422)
    query = urlencode({"done": action, "user": normalise_name(name)})
    return RedirectResponse(f"{USERS}?{query}", 303)


@router.post("/users/{name}/role")
async def change_role(
    name: str, request: Request, session: SessionDep, admin: AdminUser
) -> Response:
    role = str((await read_form(request)).get("role") or "")
    return await run_in_threadpool(
        _change, request, session, name, "role", lambda: set_role(session, name, role, admin.name)
    )


@router.post("/users/{name}/disable")
async def disable(name: str, request: Request, session: SessionDep, admin: AdminUser) -> Response:
    return await run_in_threadpool(
        _change, request, session, name, "disabled", lambda: disable_user(session, name)
    )


@router.post("/users/{name}/enable")
async def enable(name: str, request: Request, session: SessionDep, admin: AdminUser) -> Response:
    return await run_in_threadpool(
        _change, request, session, name, "enabled", lambda: enable_user(session, name)
    )

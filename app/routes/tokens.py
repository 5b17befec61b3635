"""/account/tokens: API tokens made and revoked in the browser.

Every signed-in user manages their own tokens; an admin also sees everyone's, may make one
for any enabled user (a container deployment then needs no shell) and may revoke any. A new
token is shown once, in the answer to the POST that made it: only its hash is kept, so the
page is never cached and never redirected to (a URL would leak it into history and logs).
"""

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import AccountError, SignedIn, normalise_name
from app.accounts.models import ApiToken, Role, utcnow
from app.accounts.users import list_tokens, list_users
from app.accounts.web import SignedInUser
from app.db import SessionDep
from app.routes.accounts import read_form
from app.web.render import render
from app.writes.accounts import add_token, revoke_token
from app.writes.transaction import end_read, write_transaction

router = APIRouter(prefix="/account", include_in_schema=False)

TOKENS = "/account/tokens"
LABEL_MAX = 100
# A token that never expires is allowed (scripts on a schedule), but the form suggests a year.
EXPIRES_MAX_DAYS = 3650


def _page(
    request: Request,
    session: SessionDep,
    who: SignedIn,
    *,
    made: tuple[ApiToken, str, str] | None = None,
    form: dict[str, str] | None = None,
    problems: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    is_admin = who.allows(Role.admin)
    tokens = list_tokens(session, None if is_admin else who.name)
    users = [u.name for u in list_users(session) if not u.disabled] if is_admin else []
    end_read(session)
    now = utcnow()
    done = None
    if request.query_params.get("done") == "revoked" and status_code == 200:
        done = f"Token {request.query_params.get('id', '')} was revoked: it no longer works."
    context: dict[str, Any] = {
        "mine": [t for t in tokens if t.user == who.name],
        "others": [t for t in tokens if t.user != who.name],
        "now": now,
        "users": users,
        "is_admin": is_admin,
        "made": made,
        "form": form or {"user": who.name, "expires": "365"},
        "problems": problems or {},
        "done": done,
        "expires_max": EXPIRES_MAX_DAYS,
        "active": "tokens",
    }
    response = render(request, "pages/tokens.html", context, status_code=status_code)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/tokens")
async def tokens_page(request: Request, session: SessionDep, who: SignedInUser) -> Response:
    return await run_in_threadpool(_page, request, session, who)


def token_form_problems(form: dict[str, str], who: SignedIn) -> tuple[dict[str, str], int | None]:
    """What is wrong with a new-token form, and its expiry in days (None: never expires)."""
    problems: dict[str, str] = {}
    if len(form["label"]) > LABEL_MAX:
        problems["label"] = f"At most {LABEL_MAX} characters (this one has {len(form['label'])})."
    days: int | None = None
    expires = form["expires"].strip().replace(",", "")
    if expires and expires != "never":
        if not expires.isdigit() or not 1 <= int(expires) <= EXPIRES_MAX_DAYS:
            problems["expires"] = (
                f"A whole number of days from 1 to {EXPIRES_MAX_DAYS:,}, or empty for never "
                f"(got {form['expires']!r})."
            )
        else:
            days = int(expires)
    if normalise_name(form["user"]) != who.name and not who.allows(Role.admin):
        problems["user"] = "Only an admin may make a token for someone else."
    return problems, days


def _add(request: Request, session: SessionDep, who: SignedIn, form: dict[str, str]) -> Response:
    problems, days = token_form_problems(form, who)
    if problems:
        return _page(request, session, who, form=form, problems=problems, status_code=422)
    try:
        with write_transaction(session):
            token, raw = add_token(session, form["user"] or who.name, days, form["label"])
            session.expunge(token)
    except AccountError as exc:
        return _page(request, session, who, form=form, problems=exc.problems, status_code=422)
    made_for = normalise_name(form["user"] or who.name)
    return _page(request, session, who, made=(token, raw, made_for), status_code=201)


@router.post("/tokens")
async def add(request: Request, session: SessionDep, who: SignedInUser) -> Response:
    posted = await read_form(request)
    form = {k: str(posted.get(k) or "").strip() for k in ("label", "expires", "user")}
    form["user"] = form["user"] or who.name
    return await run_in_threadpool(_add, request, session, who, form)


def _revoke(request: Request, session: SessionDep, who: SignedIn, token_id: int) -> Response:
    owner = next((t.user for t in list_tokens(session) if t.id == token_id), None)
    # Someone else's token answers as if it did not exist: ids are not a way to learn users.
    if owner is None or (owner != who.name and not who.allows(Role.admin)):
        problem = {"id": f"You have no token with id {token_id}."}
        return _page(request, session, who, problems=problem, status_code=404)
    with write_transaction(session):
        revoke_token(session, token_id)
    return RedirectResponse(f"{TOKENS}?{urlencode({'done': 'revoked', 'id': token_id})}", 303)


@router.post("/tokens/{token_id}/revoke")
async def revoke(
    token_id: int, request: Request, session: SessionDep, who: SignedInUser
) -> Response:
    return await run_in_threadpool(_revoke, request, session, who, token_id)

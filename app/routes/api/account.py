"""The caller's own account: `GET /api/v1/me` says who is asking; `POST
/api/v1/account/password` changes their password.

The current password is needed as well as the credential (a session cookie or an API token),
so a stolen token alone cannot lock its owner out; a wrong one counts as a failed sign-in,
under the same per-name and per-address limits. Every browser session of the user ends; API
tokens keep working (revoke them with `inference-atlas token revoke`).
"""

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from app.accounts.web import SignedInUser, set_session_cookie
from app.db import SessionDep
from app.routes.accounts import change_password_for
from app.routes.api.team import problems_reply

router = APIRouter(prefix="/api/v1", tags=["account"])


class Me(BaseModel):
    name: str
    role: Literal["viewer", "editor", "admin"]
    via: Literal["password", "oidc", "proxy", "token"] = Field(
        description="How this request proved who it is: a browser session begun with a "
        "password or through the identity provider, the trusted proxy, or an API token"
    )


ME_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in (no valid session cookie, proxy header or API token)"},
}


@router.get("/me", responses=ME_ERRORS)
async def me(who: SignedInUser, response: Response) -> Me:
    """Who is asking: name, role, and how they signed in."""
    response.headers["Cache-Control"] = "private, no-store"
    return Me(name=who.name, role=who.role.value, via=who.how())  # type: ignore[arg-type]


class PasswordChangeIn(BaseModel):
    current_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


CHANGE_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in (no valid session cookie or API token)"},
    422: {"description": "The current password is wrong, or the new one is not allowed"},
    429: {"description": "Too many wrong passwords for this account or address (Retry-After)"},
}


@router.post("/account/password", status_code=204, responses=CHANGE_ERRORS)
async def change_own_password(
    body: PasswordChangeIn, request: Request, session: SessionDep, who: SignedInUser
) -> Response:
    """Change your own password (at least 12 characters, not your name, not a common one)."""
    fields = body.model_dump()
    result = await change_password_for(request, session, who, fields, None)
    if result.blocked is not None:
        headers = {"Retry-After": str(result.blocked.retry_after)}
        detail = result.blocked.message
        return JSONResponse({"detail": detail}, status_code=429, headers=headers)
    if result.problems:
        return problems_reply(result.problems)
    response = Response(status_code=204)
    if result.token:
        set_session_cookie(request, response, result.token)
    return response

"""Who is asking: the session cookie or an API token, looked up on the request's session.

`identify` runs for every route (an app-wide dependency). A request without credentials
costs nothing here: no database work, so a render-cache hit stays a memory lookup. With a
cookie or a token, the lookup runs on the request's own database session (the one the page
then renders with: FastAPI gives both dependencies the same one), in a worker thread.

Routes that change things depend on `require_editor` or `require_admin`: anonymous
requests get 401 (`WWW-Authenticate: Bearer`) on the API and the sign-in page elsewhere;
a signed-in user whose role is too low gets 403.
"""

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Annotated
from urllib.parse import urlencode, urlsplit

from fastapi import Depends, HTTPException, Request
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy.exc import OperationalError
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.accounts.models import Role
from app.accounts.proxy import FROM_PROXY, ProxySignIn
from app.accounts.users import (
    SignedIn,
    session_identity,
    token_identity,
    touch_session,
)
from app.db import SessionDep
from app.writes.external import proxy_person
from app.writes.transaction import end_read, write_transaction

COOKIE = "atlas_session"
# Over HTTPS the cookie is `__Host-atlas_session`: browsers then accept it only with Secure,
# Path=/ and no Domain, so neither a sibling subdomain nor a plain-http response (a network
# attacker's) can set or overwrite it.
SECURE_COOKIE = "__Host-" + COOKIE
# Namespaces the signature: a value signed for anything else never passes as a session.
COOKIE_SALT = "inference-atlas.session"
# Reachable without signing in when ATLAS_PUBLIC_READ=false (static files are a mount of
# their own and never see this dependency).
OPEN_PATHS = frozenset({"/login", "/logout", "/healthz", "/login/oidc", "/login/oidc/callback"})

log = logging.getLogger("inference_atlas")


def session_lifetime(request: Request) -> timedelta:
    return timedelta(days=request.app.state.settings.atlas_session_days)


def cookie_signer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=COOKIE_SALT)


def session_cookie_name(request: Request) -> str:
    return SECURE_COOKIE if request.url.scheme == "https" else COOKIE


def cookie_token(request: Request) -> str | None:
    """The session token in the request's cookie, if the signature holds and is recent."""
    value = request.cookies.get(session_cookie_name(request))
    if not value:
        return None
    signer: URLSafeTimedSerializer = request.app.state.cookie_signer
    max_age = int(session_lifetime(request).total_seconds())
    try:
        token = signer.loads(value, max_age=max_age)
    except BadData:  # forged, garbled, signed with another secret, or too old
        return None
    return token if isinstance(token, str) else None


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    signer: URLSafeTimedSerializer = request.app.state.cookie_signer
    response.set_cookie(
        session_cookie_name(request),
        signer.dumps(token),
        max_age=int(session_lifetime(request).total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        # The scheme is https when the client used it, or when a proxy that uvicorn trusts
        # (ATLAS_TRUSTED_PROXIES) says so; X-Forwarded-* from anyone else is ignored there.
        secure=request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        session_cookie_name(request),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


class SignInRequiredError(Exception):
    """The request needs a signed-in user and has none."""


class NotAllowedError(Exception):
    def __init__(self, who: SignedIn, needed: Role) -> None:
        self.who, self.needed = who, needed
        allowed = " or ".join(r.value for r in Role if r.rank >= needed.rank)
        super().__init__(f"You are signed in as {who.name} ({who.role}); this needs {allowed}.")


INVALID_TOKEN = "The API token is not valid: it is unknown, expired or revoked."


async def identify(request: Request, session: SessionDep) -> SignedIn | None:
    """The signed-in user or None; also kept as request.state.user for render() and serve()."""
    who = await _credentials(request, session)
    request.state.user = who
    settings = request.app.state.settings
    if who is None and not settings.atlas_public_read and request.url.path not in OPEN_PATHS:
        raise SignInRequiredError()
    return who


async def _credentials(request: Request, session: Session) -> SignedIn | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    # Other schemes are left alone: a proxy's Basic auth in front of the app passes its
    # Authorization header through, and it is not ours to judge.
    if scheme.lower() == "bearer":
        who = await run_in_threadpool(_token_user, session, value.strip())
        if who is None:
            challenge = 'Bearer error="invalid_token"'
            raise HTTPException(401, INVALID_TOKEN, headers={"WWW-Authenticate": challenge})
        return who
    proxy: ProxySignIn | None = request.app.state.proxy_sign_in
    if proxy is not None and request.scope.get(FROM_PROXY):
        named = request.headers.get(proxy.user_header, "").strip()
        if named:
            return await _proxy_user(request, session, proxy, named)
    token = cookie_token(request)
    if token is None:
        return None
    return await run_in_threadpool(_session_user, session, token)


class NotAdmittedError(Exception):
    """The trusted proxy named someone this instance does not let in."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


async def _proxy_user(
    request: Request, session: Session, proxy: ProxySignIn, named: str
) -> SignedIn:
    """The person the trusted proxy names; their account is made or their role brought to
    their groups' on the way (a write only then)."""
    groups = request.headers.get(proxy.groups_header, "") if proxy.groups_header else ""
    person = proxy.person(named, groups)
    if person is None:
        raise NotAdmittedError(
            f"{named} is in none of the groups this instance admits. Ask one of its admins."
        )
    who = await run_in_threadpool(proxy_person, session, person)
    if who is None:
        raise NotAdmittedError(f"The account of {named} on this instance is disabled.")
    return who


def _token_user(session: Session, token: str) -> SignedIn | None:
    try:
        return token_identity(session, token) if token else None
    finally:
        end_read(session)


def _session_user(session: Session, token: str) -> SignedIn | None:
    found = session_identity(session, token)
    end_read(session)
    if found is None:
        return None
    who, stale = found
    if stale:
        try:
            with write_transaction(session):
                touch_session(session, str(who.credential))
        except OperationalError as exc:
            # last_seen_at only informs the users page; a busy database must not fail reads.
            log.warning("could not record a session's last visit: %s", exc.orig)
    return who


CurrentUser = Annotated[SignedIn | None, Depends(identify)]


# Declares `Authorization: Bearer` in OpenAPI for the routes that need a role (Swagger UI then
# offers "Authorize"); identify() does the checking, so this never refuses anything itself.
bearer_scheme = HTTPBearer(
    auto_error=False,
    description="An API token: inference-atlas token add --user NAME",
)
BearerDoc = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)]


def _require(role: Role) -> Callable[..., Awaitable[SignedIn]]:  # a dependency factory
    async def dependency(who: CurrentUser, _documented: BearerDoc) -> SignedIn:
        if who is None:
            raise SignInRequiredError()
        if not who.allows(role):
            raise NotAllowedError(who, role)
        return who

    dependency.__name__ = f"require_{role.value}"
    return dependency


require_signed_in = _require(Role.viewer)
require_editor = _require(Role.editor)
require_admin = _require(Role.admin)
SignedInUser = Annotated[SignedIn, Depends(require_signed_in)]
EditorUser = Annotated[SignedIn, Depends(require_editor)]
AdminUser = Annotated[SignedIn, Depends(require_admin)]


def wants_json(request: Request) -> bool:
    path = request.url.path
    return path.startswith("/api/") or path == "/openapi.json"


def here(request: Request) -> str:
    """This request's path and query, for coming back after signing in."""
    query = request.url.query
    return request.url.path + (f"?{query}" if query else "")


def login_url(next_path: str | None = None) -> str:
    if not next_path or next_path in ("/", "/login"):
        return "/login"
    return "/login?" + urlencode({"next": next_path})


def safe_next(value: str | None) -> str:
    """A place on this site to go back to after signing in; "/" for anything else.

    Only a relative path passes: no scheme, no host, no `//host` or `/\\host` (which
    browsers read as another host), no control characters."""
    if not value or not value.startswith("/") or value.startswith(("//", "/\\")):
        return "/"
    if any(ord(c) < 0x20 or c == "\x7f" for c in value):
        return "/"
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or parts.path.startswith(("/login", "/logout")):
        return "/"
    return value

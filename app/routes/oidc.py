"""Sign-in through the team's OpenID Connect provider: /login/oidc sends the browser there,
/login/oidc/callback takes it back (app/accounts/oidc.py does the protocol).

Any failure — the provider down, consent declined, a forged or stale state, a replayed
code, an ID token that does not verify or has expired, someone in no admitted group — is
the sign-in page with a message saying what happened, and no session.
"""

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.accounts.oidc import FLOW_COOKIE, FLOW_PATH, FLOW_SECONDS, Provider, SignInFailedError
from app.accounts.web import safe_next, session_lifetime
from app.db import SessionDep
from app.routes.accounts import client_address, login_page, signed_in_answer
from app.writes.external import sign_in_external

router = APIRouter(include_in_schema=False)


def _provider(request: Request) -> Provider:
    provider: Provider | None = getattr(request.app.state, "oidc", None)
    if provider is None:
        raise HTTPException(404, "This instance has no identity provider (ATLAS_OIDC_ISSUER).")
    return provider


@router.get("/login/oidc")
async def begin(request: Request) -> Response:
    provider = _provider(request)
    next_path = safe_next(request.query_params.get("next"))
    try:
        url, flow = await provider.begin(next_path)
    except SignInFailedError as failure:
        return _failed(request, failure, next_path)
    response = RedirectResponse(url, 303)
    response.headers["Cache-Control"] = "no-store"
    response.set_cookie(
        FLOW_COOKIE,
        flow,
        max_age=FLOW_SECONDS,
        path=FLOW_PATH,
        httponly=True,
        # Lax: the browser sends it on the provider's top-level redirect back to us.
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


@router.get("/login/oidc/callback")
async def callback(request: Request, session: SessionDep) -> Response:
    provider = _provider(request)
    next_path = "/"
    try:
        flow = provider.flow(request.cookies.get(FLOW_COOKIE))
        next_path = flow.next_path
        person = await provider.finish(flow, dict(request.query_params))
    except SignInFailedError as failure:
        return _failed(request, failure, next_path)
    lifetime = session_lifetime(request)
    address = client_address(request)
    result = await run_in_threadpool(sign_in_external, session, person, address, lifetime)
    if result.user is None:
        return _failed(request, SignInFailedError(result.problem or "", 403), next_path)
    response = await signed_in_answer(request, session, result.user, result.token, next_path)
    _forget_flow(request, response)
    return response


def _failed(request: Request, failure: SignInFailedError, next_path: str) -> Response:
    response = login_page(request, next_path, message=failure.message, status_code=failure.status)
    _forget_flow(request, response)
    return response


def _forget_flow(request: Request, response: Response) -> None:
    # One flow, one callback: a replay of this callback then finds no flow.
    response.delete_cookie(
        FLOW_COOKIE,
        path=FLOW_PATH,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )

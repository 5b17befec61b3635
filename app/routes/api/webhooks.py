"""/api/v1/webhooks: admins register receivers of the change events (docs/webhooks.md).

Receivers are settings, not published data: they move no data version, so these answers are
never cached (`no-store`) and the GETs are plain routes rather than `@page` builds, whose
caches key on the data version.
"""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from app.accounts.web import AdminUser
from app.db import SessionDep
from app.queries.webhooks import (
    DeliveryView,
    UnknownWebhookError,
    WebhookView,
    get_webhook,
    list_deliveries,
    list_webhooks,
)
from app.routes.api.team import problems_reply
from app.writes.common import TeamError
from app.writes.transaction import end_read, write_transaction
from app.writes.webhooks import (
    WebhookChange,
    WebhookIn,
    add_webhook,
    change_webhook,
    queue_test,
    remove_webhook,
)

router = APIRouter(prefix="/api/v1/webhooks", tags=["webhooks"])
NO_STORE = {"Cache-Control": "no-store"}
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"description": "Not signed in (no valid session cookie or API token)"},
    403: {"description": "Signed in, but not an admin"},
    404: {"description": "No webhook has this id"},
    422: {"description": "A URL, event or field that is not allowed; the reply names it"},
}


class WebhookMade(WebhookView):
    """A receiver just registered or changed; `secret` only when the server made one (shown
    this once: it is never answered again)."""

    secret: str | None = None


def _reply(content: object, status_code: int = 200) -> JSONResponse:
    return JSONResponse(content, status_code=status_code, headers=NO_STORE)


def _not_found(exc: UnknownWebhookError) -> JSONResponse:
    return _reply({"detail": str(exc)}, 404)


@router.get("", response_model=list[WebhookView], responses=ERRORS)
async def webhooks(session: SessionDep, admin: AdminUser) -> Response:
    """Every receiver, with its deliveries counted by status (never a secret)."""
    views = await run_in_threadpool(list_webhooks, session)
    return _reply([v.model_dump(mode="json") for v in views])


@router.post("", status_code=201, response_model=WebhookMade, responses=ERRORS)
async def add(body: WebhookIn, request: Request, session: SessionDep, admin: AdminUser) -> Response:
    """Register a receiver: `url`, `events` (`["*"]` or event names), and a `secret`; without
    one the server makes one and answers it this once."""
    allow = request.app.state.settings.atlas_webhooks_allow_private

    def work() -> Response:
        try:
            with write_transaction(session):
                hook, made = add_webhook(session, admin, body, allow)
                hook_id = hook.id or 0
        except TeamError as exc:
            return problems_reply(exc.problems, exc.values)
        return _made(session, hook_id, made, 201)

    return await run_in_threadpool(work)


def _made(session: SessionDep, hook_id: int, secret: str | None, status: int) -> Response:
    view = get_webhook(session, hook_id)
    end_read(session)
    return _reply(WebhookMade(**view.model_dump(), secret=secret).model_dump(mode="json"), status)


@router.get("/{hook_id}", response_model=WebhookView, responses=ERRORS)
async def one(hook_id: int, session: SessionDep, admin: AdminUser) -> Response:
    """One receiver."""
    try:
        view = await run_in_threadpool(get_webhook, session, hook_id)
    except UnknownWebhookError as exc:
        return _not_found(exc)
    return _reply(view.model_dump(mode="json"))


@router.patch("/{hook_id}", response_model=WebhookMade, responses=ERRORS)
async def change(
    hook_id: int, body: WebhookChange, request: Request, session: SessionDep, admin: AdminUser
) -> Response:
    """Change a receiver's fields; `rotate_secret: true` makes a new secret, answered once."""
    allow = request.app.state.settings.atlas_webhooks_allow_private

    def work() -> Response:
        try:
            with write_transaction(session):
                _, made = change_webhook(session, hook_id, body, allow)
        except UnknownWebhookError as exc:
            return _not_found(exc)
        except TeamError as exc:
            return problems_reply(exc.problems, exc.values)
        return _made(session, hook_id, made, 200)

    return await run_in_threadpool(work)


@router.delete("/{hook_id}", status_code=204, responses=ERRORS)
async def remove(hook_id: int, session: SessionDep, admin: AdminUser) -> Response:
    """Remove a receiver and its delivery log; what was still pending is never sent."""

    def work() -> Response:
        try:
            with write_transaction(session):
                remove_webhook(session, hook_id)
        except UnknownWebhookError as exc:
            return _not_found(exc)
        return Response(status_code=204, headers=NO_STORE)

    return await run_in_threadpool(work)


@router.post("/{hook_id}/test", status_code=202, responses=ERRORS)
async def test(hook_id: int, session: SessionDep, admin: AdminUser) -> Response:
    """Queue a `ping` delivery to this receiver; its id is answered, its outcome is in the
    deliveries."""

    def work() -> Response:
        try:
            with write_transaction(session):
                key = queue_test(session, admin, hook_id)
        except UnknownWebhookError as exc:
            return _not_found(exc)
        return _reply({"delivery": key, "event": "ping"}, 202)

    return await run_in_threadpool(work)


@router.get("/{hook_id}/deliveries", response_model=list[DeliveryView], responses=ERRORS)
async def deliveries(hook_id: int, session: SessionDep, admin: AdminUser) -> Response:
    """The receiver's last 50 deliveries, newest first, each with its attempts."""
    try:
        views = await run_in_threadpool(list_deliveries, session, hook_id)
    except UnknownWebhookError as exc:
        return _not_found(exc)
    return _reply([v.model_dump(mode="json") for v in views])

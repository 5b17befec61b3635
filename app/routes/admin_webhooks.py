"""/admin/webhooks: admins register, test, pause and remove webhook receivers, and read each
one's delivery log (the API twin is /api/v1/webhooks; docs/webhooks.md).

A change is a POST followed by a redirect back (reloading never posts twice), except adding a
receiver whose secret the server made: that answer shows the secret, once, so it is never
redirected to or cached (a URL would leak it into history and logs).
"""

from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.accounts.identity import SignedIn
from app.accounts.web import AdminUser
from app.db import SessionDep
from app.queries.webhooks import UnknownWebhookError, list_deliveries, list_webhooks
from app.routes.accounts import read_form
from app.web.render import render
from app.writes.common import TeamError
from app.writes.transaction import end_read, write_transaction
from app.writes.webhooks import (
    EVENTS,
    WebhookChange,
    WebhookIn,
    add_webhook,
    change_webhook,
    queue_test,
    remove_webhook,
)

router = APIRouter(prefix="/admin/webhooks", include_in_schema=False)

HOOKS = "/admin/webhooks"
DONE = {
    "tested": "A test delivery (ping) to receiver {id} is on its way; its outcome shows below.",
    "paused": "Receiver {id} is paused: new changes are not sent to it.",
    "resumed": "Receiver {id} is sent new changes again.",
    "removed": "Receiver {id} and its delivery log were removed.",
}
LOG_SHOWN = 10


def _page(
    request: Request,
    session: SessionDep,
    *,
    made: tuple[int, str] | None = None,
    form: dict[str, str] | None = None,
    problems: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    hooks = list_webhooks(session)
    logs = {h.id: list_deliveries(session, h.id, LOG_SHOWN) for h in hooks}
    end_read(session)
    action, hook_id = request.query_params.get("done"), request.query_params.get("id", "")
    done = DONE[action].format(id=hook_id) if action in DONE and hook_id.isdigit() else None
    context: dict[str, Any] = {
        "hooks": hooks,
        "logs": logs,
        "events": EVENTS,
        "made": made,
        "form": form or {"events": "*"},
        "problems": problems or {},
        "done": done,
        "allow_private": request.app.state.settings.atlas_webhooks_allow_private,
        "active": "users",
    }
    response = render(request, "pages/admin_webhooks.html", context, status_code=status_code)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("")
async def webhooks_page(request: Request, session: SessionDep, admin: AdminUser) -> Response:
    return await run_in_threadpool(_page, request, session)


def _add(request: Request, session: SessionDep, who: SignedIn, form: dict[str, str]) -> Response:
    events = [e for e in form["events"].replace(",", " ").split() if e]
    given = {"url": form["url"], "events": events, "description": form["description"]}
    allow = request.app.state.settings.atlas_webhooks_allow_private
    try:
        body = WebhookIn.model_validate(
            given | ({"secret": form["secret"]} if form["secret"] else {})
        )
        with write_transaction(session):
            hook, made = add_webhook(session, who, body, allow)
            hook_id = hook.id or 0
    except TeamError as exc:
        return _page(request, session, form=form, problems=exc.problems, status_code=422)
    except ValueError as exc:  # pydantic's: a secret too short, a field too long
        problems = {str(e["loc"][0]): e["msg"] for e in getattr(exc, "errors", lambda: [])()}
        return _page(request, session, form=form, problems=problems, status_code=422)
    if made:
        return _page(request, session, made=(hook_id, made), status_code=201)
    return RedirectResponse(f"{HOOKS}#webhook-{hook_id}", 303)


@router.post("")
async def add(request: Request, session: SessionDep, admin: AdminUser) -> Response:
    posted = await read_form(request)
    fields = ("url", "events", "secret", "description")
    form = {k: str(posted.get(k) or "").strip() for k in fields}
    return await run_in_threadpool(_add, request, session, admin, form)


def _act(
    request: Request, session: SessionDep, who: SignedIn, hook_id: int, action: str
) -> Response:
    allow = request.app.state.settings.atlas_webhooks_allow_private
    try:
        with write_transaction(session):
            if action == "tested":
                queue_test(session, who, hook_id)
            elif action == "removed":
                remove_webhook(session, hook_id)
            else:
                change_webhook(session, hook_id, WebhookChange(active=action == "resumed"), allow)
    except UnknownWebhookError:
        return _page(
            request, session, problems={"id": f"No receiver has id {hook_id}."}, status_code=404
        )
    except TeamError as exc:
        return _page(request, session, problems=exc.problems, status_code=422)
    return RedirectResponse(f"{HOOKS}?{urlencode({'done': action, 'id': hook_id})}", 303)


@router.post("/{hook_id}/{action}")
async def act(
    hook_id: int, action: str, request: Request, session: SessionDep, admin: AdminUser
) -> Response:
    actions = {"test": "tested", "pause": "paused", "resume": "resumed", "remove": "removed"}
    if action not in actions:
        return Response(f"Unknown action {action!r}; allowed: {', '.join(actions)}", 404)
    return await run_in_threadpool(_act, request, session, admin, hook_id, actions[action])

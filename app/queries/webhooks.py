"""Webhook receivers and their delivery logs, as the admin page and the API show them: never
with a secret."""

from datetime import datetime
from typing import Any

from pydantic import BaseModel
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.webhooks.models import Webhook, WebhookDelivery, WebhookEvent, aware

DELIVERIES_SHOWN = 50


class WebhookView(BaseModel):
    """A receiver: its address, what it is sent, and how its deliveries stand."""

    id: int
    url: str
    events: list[str]
    description: str
    active: bool
    created_by: str
    created_at: datetime
    pending: int
    delivered: int
    failed: int


class DeliveryView(BaseModel):
    """One delivery and its attempts: the delivery log."""

    id: str
    event: str
    event_id: str
    status: str
    attempts: int
    last_code: int | None
    last_error: str | None
    next_attempt_at: datetime | None
    created_at: datetime
    finished_at: datetime | None
    log: list[dict[str, Any]]


class UnknownWebhookError(LookupError):
    """No receiver with that id."""


def list_webhooks(session: Session) -> list[WebhookView]:
    """Every receiver, oldest first, with its deliveries counted by status."""
    counts: dict[tuple[int, str], int] = {
        (hook, status): n
        for hook, status, n in session.exec(
            select(WebhookDelivery.webhook_id, WebhookDelivery.status, func.count()).group_by(
                col(WebhookDelivery.webhook_id), col(WebhookDelivery.status)
            )
        ).all()
    }
    hooks = session.exec(select(Webhook).order_by(col(Webhook.id))).all()
    return [_view(h, counts) for h in hooks]


def get_webhook(session: Session, hook_id: int) -> WebhookView:
    """One receiver (UnknownWebhookError if there is none)."""
    found = [h for h in list_webhooks(session) if h.id == hook_id]
    if not found:
        raise UnknownWebhookError(f"no webhook with id {hook_id}")
    return found[0]


def _view(hook: Webhook, counts: dict[tuple[int, str], int]) -> WebhookView:
    hook_id = hook.id or 0
    return WebhookView(
        id=hook_id,
        url=hook.url,
        events=hook.events,
        description=hook.description,
        active=hook.active,
        created_by=hook.created_by,
        created_at=aware(hook.created_at),
        pending=counts.get((hook_id, "pending"), 0),
        delivered=counts.get((hook_id, "delivered"), 0),
        failed=counts.get((hook_id, "failed"), 0),
    )


def list_deliveries(
    session: Session, hook_id: int, limit: int = DELIVERIES_SHOWN
) -> list[DeliveryView]:
    """A receiver's deliveries, newest first."""
    if session.get(Webhook, hook_id) is None:
        raise UnknownWebhookError(f"no webhook with id {hook_id}")
    rows = session.exec(
        select(WebhookDelivery, WebhookEvent.event, WebhookEvent.key)
        .join(WebhookEvent, col(WebhookEvent.id) == WebhookDelivery.event_id)
        .where(WebhookDelivery.webhook_id == hook_id)
        .order_by(col(WebhookDelivery.id).desc())
        .limit(limit)
    ).all()
    return [
        DeliveryView(
            id=d.key,
            event=event,
            event_id=event_key,
            status=d.status,
            attempts=d.attempts,
            last_code=d.last_code,
            last_error=d.last_error,
            next_attempt_at=aware(d.next_attempt_at) if d.status == "pending" else None,
            created_at=aware(d.created_at),
            finished_at=aware(d.finished_at) if d.finished_at else None,
            log=d.log,
        )
        for d, event, event_key in rows
    ]


def anything_due(session: Session, now: datetime) -> bool:
    """Whether some pending delivery is due: read before a sender takes the write lock to
    claim, so an idle poll never holds up the instance's writers."""
    due = select(WebhookDelivery.id).where(
        WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= now
    )
    return session.exec(due.limit(1)).first() is not None

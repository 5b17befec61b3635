"""The webhook outbox: every transaction that records revisions files one event for the
receivers that want it, in that same transaction, so an event is sent exactly when its
change was committed (docs/webhooks.md).

`revisions.record` and `record_many` note what they record on the session (`note`); a
`before_commit` listener on every session turns the notes into a `webhook_event` row and
one `webhook_delivery` row per receiver; a rollback forgets them. After the commit the
senders of this process are woken, so a delivery leaves at once rather than at the next poll.
"""

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import event, insert, select
from sqlalchemy.orm import Session
from sqlmodel import col

from app.webhooks.events import build_payload, wants
from app.webhooks.models import Webhook, WebhookDelivery, WebhookEvent, utcnow

NOTED = "atlas_webhook_revisions"
NAMED = "atlas_webhook_event"
ENQUEUED = "atlas_webhook_enqueued"
SEED_ACTOR = "seed"  # app/writes/revisions.py SEED_ACTOR (which imports this module)

_wakers: list[Callable[[], None]] = []


def note(session: Session, revisions: list[dict[str, Any]]) -> None:
    """Remember revisions recorded in `session`'s transaction, for its event."""
    session.info.setdefault(NOTED, []).extend(revisions)


def name_event(session: Session, name: str, subject: Mapping[str, Any]) -> None:
    """Name the transaction's event (`import.confirmed`) and what it is about."""
    session.info[NAMED] = (name, dict(subject))


def on_enqueue(waker: Callable[[], None]) -> Callable[[], None]:
    """Call `waker` after each commit that filed deliveries; returns its remover."""
    _wakers.append(waker)
    return lambda: _wakers.remove(waker)


def enqueue(
    session: Session,
    revisions: list[dict[str, Any]],
    named: tuple[str, Mapping[str, Any]] | None = None,
    only: int | None = None,
) -> int:
    """File the event of `revisions` for every active receiver that wants it (or receiver
    `only`); returns the number of deliveries filed."""
    query = select(col(Webhook.id), col(Webhook.events)).where(col(Webhook.active).is_(True))
    receivers = session.execute(query).all()
    if not receivers:
        return 0
    key = str(uuid.uuid4())
    payload = build_payload(key, revisions, named, SEED_ACTOR)
    return file_event(
        session, payload, [i for i, wanted in receivers if i and wants(wanted, payload["events"])]
    )


def file_event(session: Session, payload: dict[str, Any], receivers: list[int]) -> int:
    """Write one event row and a pending delivery of it for each of `receivers`."""
    if not receivers:
        return 0
    now = utcnow()
    row = {"key": payload["id"], "event": payload["event"], "at": now, "payload": payload}
    event_id = session.execute(
        insert(WebhookEvent).values(row).returning(col(WebhookEvent.id))
    ).scalar_one()
    deliveries: list[dict[str, Any]] = [
        {
            "key": str(uuid.uuid4()),
            "webhook_id": w,
            "event_id": event_id,
            "status": "pending",
            "attempts": 0,
            "next_attempt_at": now,
            "log": [],
            "created_at": now,
        }
        for w in receivers
    ]
    session.execute(insert(WebhookDelivery), deliveries)
    session.info[ENQUEUED] = True
    return len(deliveries)


@event.listens_for(Session, "before_commit")
def _file_noted(session: Session) -> None:
    noted = session.info.pop(NOTED, None)
    named = session.info.pop(NAMED, None)
    if noted:
        enqueue(session, noted, named)


@event.listens_for(Session, "after_commit")
def _wake(session: Session) -> None:
    if session.info.pop(ENQUEUED, None):
        for waker in list(_wakers):
            waker()


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    for key in (NOTED, NAMED, ENQUEUED):
        session.info.pop(key, None)

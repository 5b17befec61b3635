"""Webhook receivers and their deliveries: register, change, remove, queue a test, and the
sender's claim and result (docs/webhooks.md).

Receivers and deliveries are settings and a log, not published data: no revision and no new
data version, like the account changes. The events themselves are filed by writes/outbox.py.
"""

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, Field
from sqlalchemy import delete, or_, update
from sqlmodel import Session, col, select

from app.accounts.identity import SignedIn
from app.queries.webhooks import UnknownWebhookError
from app.webhooks.addresses import RefusedAddressError, check_addresses, resolve, url_problem
from app.webhooks.events import EVERYTHING, known_events, ping_payload, retry_at
from app.webhooks.models import Webhook, WebhookDelivery, WebhookEvent, utcnow
from app.writes.common import TeamError
from app.writes.outbox import file_event
from app.writes.revisions import ENTITIES, TEAM_ENTITIES

EVENTS = known_events(ENTITIES + TEAM_ENTITIES)
"""Every event name a receiver may ask for (or `*`)."""
MAX_RECEIVERS = 50
LOG_KEPT = 20


class WebhookIn(BaseModel):
    """A receiver as registered: where, which events, and (optionally) its secret."""

    url: str = Field(max_length=2000)
    events: list[str] = Field(default_factory=lambda: [EVERYTHING], max_length=100)
    secret: str | None = Field(default=None, min_length=16, max_length=200)
    description: str = Field(default="", max_length=200)
    active: bool = True


class WebhookChange(BaseModel):
    """A PATCH: the fields given change; `rotate_secret` makes a new secret, shown once."""

    url: str | None = Field(default=None, max_length=2000)
    events: list[str] | None = Field(default=None, max_length=100)
    secret: str | None = Field(default=None, min_length=16, max_length=200)
    rotate_secret: bool = False
    description: str | None = Field(default=None, max_length=200)
    active: bool | None = None


def check_receiver(url: str, events: list[str], allow_private: bool) -> dict[str, str]:
    """What is wrong with a receiver's URL and events, by field (empty when nothing)."""
    problems: dict[str, str] = {}
    problem = url_problem(url)
    if problem:
        problems["url"] = f"The URL {problem}."
    elif not allow_private:
        problem = _private(url)
        if problem:
            problems["url"] = problem
    unknown = [e for e in events if e != EVERYTHING and e not in EVENTS]
    if unknown:
        problems["events"] = (
            f"Unknown event {', '.join(map(repr, unknown))}; allowed: {EVERYTHING} or "
            + ", ".join(EVENTS)
        )
    elif not events:
        problems["events"] = f"Name at least one event, or {EVERYTHING} for every event."
    return problems


def _private(url: str) -> str | None:
    """Why the URL's host is refused now (a name that does not resolve yet is checked again
    at every send)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        check_addresses(host, resolve(host, parts.port or 443))
    except RefusedAddressError as exc:
        return str(exc)
    return None


def add_webhook(
    session: Session, who: SignedIn, given: WebhookIn, allow_private: bool
) -> tuple[Webhook, str | None]:
    """Register a receiver; returns it and the secret made for it (None if one was given)."""
    problems = check_receiver(given.url, given.events, allow_private)
    count = len(session.exec(select(Webhook.id)).all())
    if count >= MAX_RECEIVERS:
        problems["url"] = f"At most {MAX_RECEIVERS} receivers; remove one first."
    if problems:
        raise TeamError(problems, {"url": given.url})
    made = None if given.secret else secrets.token_urlsafe(32)
    hook = Webhook(
        url=given.url,
        events=sorted(set(given.events)),
        secret=given.secret or made or "",
        description=given.description,
        active=given.active,
        created_by=who.name,
    )
    session.add(hook)
    session.flush()
    return hook, made


def change_webhook(
    session: Session, hook_id: int, change: WebhookChange, allow_private: bool
) -> tuple[Webhook, str | None]:
    """Apply a PATCH; returns the receiver and its new secret if one was made."""
    hook = _hook(session, hook_id)
    url = change.url if change.url is not None else hook.url
    events = change.events if change.events is not None else hook.events
    problems = check_receiver(url, events, allow_private)
    if change.secret and change.rotate_secret:
        problems["secret"] = "Give a secret or ask for a new one (rotate_secret), not both."
    if problems:
        raise TeamError(problems, {"url": url})
    made = secrets.token_urlsafe(32) if change.rotate_secret else None
    hook.url, hook.events = url, sorted(set(events))
    hook.secret = change.secret or made or hook.secret
    if change.description is not None:
        hook.description = change.description
    if change.active is not None:
        hook.active = change.active
    hook.updated_at = utcnow()
    session.add(hook)
    session.flush()
    return hook, made


def remove_webhook(session: Session, hook_id: int) -> None:
    """Remove a receiver and its delivery log (pending deliveries are never sent)."""
    _hook(session, hook_id)
    session.execute(delete(WebhookDelivery).where(col(WebhookDelivery.webhook_id) == hook_id))
    session.execute(delete(Webhook).where(col(Webhook.id) == hook_id))


def queue_test(session: Session, who: SignedIn, hook_id: int) -> str:
    """Queue a `ping` for one receiver (active or not); returns the delivery's key."""
    _hook(session, hook_id)
    payload = ping_payload(str(uuid.uuid4()), utcnow(), who.name)
    file_event(session, payload, [hook_id])
    return session.exec(
        select(WebhookDelivery.key)
        .join(WebhookEvent, col(WebhookEvent.id) == WebhookDelivery.event_id)
        .where(WebhookEvent.key == payload["id"])
    ).one()


def _hook(session: Session, hook_id: int) -> Webhook:
    hook = session.get(Webhook, hook_id)
    if hook is None:
        raise UnknownWebhookError(f"no webhook with id {hook_id}")
    return hook


@dataclass(frozen=True)
class Claimed:
    """A delivery a sender holds the lease on, with what it needs to send it."""

    id: int
    key: str
    url: str
    secret: str
    event: str
    payload: dict[str, Any]
    attempts: int


def claim_due(
    session: Session, sender: str, now: datetime, limit: int, lease: timedelta
) -> list[Claimed]:
    """Lease up to `limit` due deliveries to `sender` until `now + lease`.

    Each row is taken by an UPDATE whose WHERE repeats the test (still pending, lease free or
    expired): of two senders after one row, the second finds it taken (SQLite runs writers
    one at a time; PostgreSQL at READ COMMITTED re-reads the row after the first commits),
    so its UPDATE changes nothing and it moves on."""
    free = or_(col(WebhookDelivery.lease_until).is_(None), col(WebhookDelivery.lease_until) < now)
    due = (
        select(WebhookDelivery.id)
        .where(WebhookDelivery.status == "pending", WebhookDelivery.next_attempt_at <= now, free)
        .order_by(col(WebhookDelivery.next_attempt_at), col(WebhookDelivery.id))
        .limit(limit)
    )
    taken: list[int] = []
    for delivery_id in [i for i in session.exec(due).all() if i is not None]:
        result = session.execute(
            update(WebhookDelivery)
            .where(
                col(WebhookDelivery.id) == delivery_id,
                col(WebhookDelivery.status) == "pending",
                free,
            )
            .values(lease_until=now + lease, leased_by=sender)
        )
        if result.rowcount == 1:  # type: ignore[attr-defined]
            taken.append(delivery_id)
    return _claimed(session, taken)


def _claimed(session: Session, ids: list[int]) -> list[Claimed]:
    if not ids:
        return []
    rows = session.exec(
        select(WebhookDelivery, Webhook, WebhookEvent)
        .join(Webhook, col(Webhook.id) == WebhookDelivery.webhook_id)
        .join(WebhookEvent, col(WebhookEvent.id) == WebhookDelivery.event_id)
        .where(col(WebhookDelivery.id).in_(ids))
        .order_by(col(WebhookDelivery.id))
    ).all()
    return [
        Claimed(d.id or 0, d.key, h.url, h.secret, e.event, e.payload, d.attempts)
        for d, h, e in rows
    ]


@dataclass(frozen=True)
class Attempt:
    """How one try went: the receiver's status code (None if it never answered), what went
    wrong, how long it took."""

    at: datetime
    code: int | None
    error: str | None
    ms: int

    @property
    def ok(self) -> bool:
        return self.code is not None and 200 <= self.code < 300


def finish_attempt(session: Session, claimed: Claimed, sender: str, attempt: Attempt) -> str:
    """Record an attempt and release the lease: delivered, pending again at its retry time,
    or failed for good. Returns the new status. Nothing changes if the lease was lost."""
    row = session.get(WebhookDelivery, claimed.id)
    if row is None or row.leased_by != sender or row.status != "pending":
        return row.status if row else "gone"
    row.attempts += 1
    entry = {"at": attempt.at.isoformat(), "code": attempt.code, "error": attempt.error}
    row.log = [*row.log, entry | {"ms": attempt.ms}][-LOG_KEPT:]
    row.last_code, row.last_error = attempt.code, attempt.error
    row.lease_until, row.leased_by = None, None
    again = None if attempt.ok else retry_at(row.attempts, attempt.at)
    if attempt.ok or again is None:
        row.status, row.finished_at = ("delivered" if attempt.ok else "failed"), attempt.at
    else:
        row.next_attempt_at = again
    session.add(row)
    return row.status

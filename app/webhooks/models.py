"""The webhook tables (migration 0015 makes them).

The outbox is two tables: one `webhook_event` per write transaction that some receiver
wanted (its payload stored once, however many receivers), and one `webhook_delivery` per
receiver, which is both the queue the sender claims from and the delivery log. Times are
aware UTC datetimes, as in the account tables.
"""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """`moment` in UTC: SQLite hands back the naive UTC time it was given."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Webhook(SQLModel, table=True):
    """A receiver: where to send, which events, and the secret that signs the bodies.

    The secret is kept as it is (an HMAC needs it); no page or API answer shows it after the
    one that made it."""

    __tablename__ = "webhook"

    id: int | None = Field(default=None, primary_key=True)
    url: str = Field(max_length=2000)
    events: list[str] = Field(sa_column=Column(JSON, nullable=False))
    secret: str = Field(max_length=200)
    description: str = Field(default="", max_length=200)
    active: bool = True
    created_by: str = Field(max_length=100)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class WebhookEvent(SQLModel, table=True):
    """What one write transaction changed, as every receiver of it is sent it."""

    __tablename__ = "webhook_event"

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, max_length=36)
    event: str = Field(max_length=60)
    at: datetime = Field(default_factory=utcnow)
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class WebhookDelivery(SQLModel, table=True):
    """One event for one receiver: pending until sent, retried, then delivered or failed.

    A sender claims a due row by setting `lease_until` and `leased_by` in one conditional
    UPDATE (app/writes/webhooks.py claim_due), so two servers never send it twice."""

    __tablename__ = "webhook_delivery"
    __table_args__ = (Index("ix_webhook_delivery_due", "status", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(unique=True, max_length=36)
    webhook_id: int = Field(foreign_key="webhook.id", index=True)
    event_id: int = Field(foreign_key="webhook_event.id", index=True)
    status: str = Field(default="pending", max_length=12)  # pending, delivered, failed
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow)
    lease_until: datetime | None = None
    leased_by: str | None = Field(default=None, max_length=64)
    last_code: int | None = None
    last_error: str | None = Field(default=None, max_length=300)
    # Each attempt: {"at", "code", "error", "ms"}, the newest last (the last 20 kept).
    log: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None

"""Webhooks: receivers, and the outbox of events and deliveries (issue 38).

`webhook` holds the receivers an admin registers; `webhook_event` one row per write
transaction a receiver wanted; `webhook_delivery` one per receiver and event, the queue the
senders claim from with a lease and the delivery log (app/webhooks/models.py).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06 03:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "webhook",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("secret", sa.String(length=200), nullable=False),
        sa.Column("description", sa.String(length=200), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook")),
    )
    op.create_table(
        "webhook_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=36), nullable=False),
        sa.Column("event", sa.String(length=60), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_event")),
        sa.UniqueConstraint("key", name=op.f("uq_webhook_event_key")),
    )
    op.create_table(
        "webhook_delivery",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=36), nullable=False),
        sa.Column("webhook_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("leased_by", sa.String(length=64), nullable=True),
        sa.Column("last_code", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.String(length=300), nullable=True),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["webhook_id"], ["webhook.id"], name=op.f("fk_webhook_delivery_webhook_id_webhook")
        ),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["webhook_event.id"],
            name=op.f("fk_webhook_delivery_event_id_webhook_event"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_delivery")),
        sa.UniqueConstraint("key", name=op.f("uq_webhook_delivery_key")),
    )
    with op.batch_alter_table("webhook_delivery", schema=None) as batch_op:
        batch_op.create_index("ix_webhook_delivery_due", ["status", "next_attempt_at"])
        batch_op.create_index(batch_op.f("ix_webhook_delivery_webhook_id"), ["webhook_id"])
        batch_op.create_index(batch_op.f("ix_webhook_delivery_event_id"), ["event_id"])


def downgrade() -> None:
    op.drop_table("webhook_delivery")
    op.drop_table("webhook_event")
    op.drop_table("webhook")

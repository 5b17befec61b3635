"""Hardware prices: what one GPU of a hardware entry costs an hour, set by the team's editors.

One new table and nothing else changed, so this migration stands on its own: it can be
chained after any other revision by changing `down_revision` alone.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 17:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "hardware_price",
        sa.Column("hardware", sa.String(length=100), nullable=False),
        sa.Column("usd_per_gpu_hour", sa.Float(), nullable=False),
        sa.Column("basis", sa.String(length=300), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_hardware_price_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("hardware", name=op.f("pk_hardware_price")),
    )


def downgrade() -> None:
    op.drop_table("hardware_price")

"""Team rows: a claim or benchmark result saved by a user has an author, a version and a time.

A team's claims and results are rows of the same tables as the published ones, citing the
team's own source (kind team-measurement, not published). `version` counts saves, so a save
based on an older version is refused rather than lost.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 10:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TEAM_TABLES = ("claim", "benchmarkresult")


def upgrade() -> None:
    for table in TEAM_TABLES:
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(sa.Column("user_id", sa.Integer(), nullable=True))
            batch_op.add_column(
                sa.Column("version", sa.Integer(), server_default="1", nullable=False)
            )
            batch_op.add_column(sa.Column("updated_at", sa.DateTime(timezone=True)))
            batch_op.create_index(batch_op.f(f"ix_{table}_user_id"), ["user_id"])
            batch_op.create_foreign_key(
                batch_op.f(f"fk_{table}_user_id_user_account"), "user_account", ["user_id"], ["id"]
            )


def downgrade() -> None:
    for table in reversed(TEAM_TABLES):
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_constraint(
                batch_op.f(f"fk_{table}_user_id_user_account"), type_="foreignkey"
            )
            batch_op.drop_index(batch_op.f(f"ix_{table}_user_id"))
            batch_op.drop_column("updated_at")
            batch_op.drop_column("version")
            batch_op.drop_column("user_id")

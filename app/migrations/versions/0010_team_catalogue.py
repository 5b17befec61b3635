"""The team's own catalogue: hardware, models, workloads and systems a team adds itself.

Each vocabulary table and `system` gains `team` (added on this instance, never in the seed
files), an author, a version and a time, as team claims and results have; each alias table
gains `team` and an author (a team's alias may sit on a published entry). Models gain their
active parameters (a mixture of experts), workloads their shape (chat, rag, agentic, batch).
Only columns are added, so this revision can be chained after any other by `down_revision`.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 17:30:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENTRY_TABLES = ("hardware", "languagemodel", "workload", "system")
ALIAS_TABLES = ("hardwarealias", "languagemodelalias", "workloadalias")


def _author(batch_op: Any, table: str) -> None:
    batch_op.add_column(sa.Column("user_id", sa.Integer(), nullable=True))
    batch_op.create_index(batch_op.f(f"ix_{table}_user_id"), ["user_id"])
    batch_op.create_foreign_key(
        batch_op.f(f"fk_{table}_user_id_user_account"), "user_account", ["user_id"], ["id"]
    )


def upgrade() -> None:
    for table in ENTRY_TABLES:
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(
                sa.Column("team", sa.Boolean(), server_default=sa.false(), nullable=False)
            )
            _author(batch_op, table)
            batch_op.add_column(
                sa.Column("version", sa.Integer(), server_default="1", nullable=False)
            )
            batch_op.add_column(sa.Column("updated_at", sa.DateTime(timezone=True)))
            if table == "languagemodel":
                batch_op.add_column(sa.Column("active_parameters_b", sa.Float(), nullable=True))
            if table == "workload":
                batch_op.add_column(sa.Column("shape", sa.String(length=20), nullable=True))
    for table in ALIAS_TABLES:
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(
                sa.Column("team", sa.Boolean(), server_default=sa.false(), nullable=False)
            )
            _author(batch_op, table)


def downgrade() -> None:
    for table in (*ALIAS_TABLES, *ENTRY_TABLES):
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_constraint(
                batch_op.f(f"fk_{table}_user_id_user_account"), type_="foreignkey"
            )
            batch_op.drop_index(batch_op.f(f"ix_{table}_user_id"))
            if table == "workload":
                batch_op.drop_column("shape")
            if table == "languagemodel":
                batch_op.drop_column("active_parameters_b")
            if table in ENTRY_TABLES:
                batch_op.drop_column("updated_at")
                batch_op.drop_column("version")
            batch_op.drop_column("user_id")
            batch_op.drop_column("team")

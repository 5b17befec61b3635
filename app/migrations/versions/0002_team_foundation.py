"""Team foundation: revisions, published sources, withdrawn rows.

- `revision`: one row per change, written in the same transaction as the change.
- `source.published`: the seed owns published sources and every row citing one; a team's
  own sources are not published. Every source before this revision came from seed/.
- `withdrawn` on the rows team data will point at: reseeding keeps such a row when it leaves
  seed/ but is still referred to, and marks it withdrawn.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 14:58:12.037165
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WITHDRAWABLE = ("source", "capability", "metric", "system", "claim", "benchmarkresult")


def upgrade() -> None:
    op.create_table(
        "revision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("entity", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.Column("system_slug", sa.String(length=100), nullable=True),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("message", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_revision")),
    )
    op.create_index("ix_revision_actor", "revision", ["actor"], unique=False)
    op.create_index("ix_revision_entity_key", "revision", ["entity", "key"], unique=False)
    op.create_index("ix_revision_system_slug", "revision", ["system_slug"], unique=False)
    op.create_index(op.f("ix_revision_user_id"), "revision", ["user_id"], unique=False)

    for table in WITHDRAWABLE:
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(
                sa.Column("withdrawn", sa.Boolean(), server_default=sa.false(), nullable=False)
            )
    with op.batch_alter_table("source") as batch_op:
        batch_op.add_column(
            sa.Column("published", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    # There was no team data before this revision: every source came from seed/.
    source = sa.table("source", sa.column("published", sa.Boolean()))
    op.execute(source.update().values(published=True))


def downgrade() -> None:
    with op.batch_alter_table("source") as batch_op:
        batch_op.drop_column("published")
    for table in reversed(WITHDRAWABLE):
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_column("withdrawn")
    op.drop_table("revision")

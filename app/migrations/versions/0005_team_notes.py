"""Team notes: a team annotates a published claim, benchmark figure or system.

One new table and nothing else changed, so this migration stands on its own: it can be
chained after any other 0005 by changing `down_revision` alone.

Revision ID: 0005n
Revises: 0004
Create Date: 2026-11-24 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005n"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXED = ("slug", "system_id", "claim_id", "result_id", "user_id")


def upgrade() -> None:
    op.create_table(
        "team_note",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=40), nullable=False),
        sa.Column("system_id", sa.Integer(), nullable=False),
        sa.Column("claim_id", sa.Integer(), nullable=True),
        sa.Column("result_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("link", sa.String(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "claim_id IS NULL OR result_id IS NULL", name=op.f("ck_team_note_one_item")
        ),
        sa.ForeignKeyConstraint(
            ["system_id"], ["system.id"], name=op.f("fk_team_note_system_id_system")
        ),
        sa.ForeignKeyConstraint(
            ["claim_id"], ["claim.id"], name=op.f("fk_team_note_claim_id_claim")
        ),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["benchmarkresult.id"],
            name=op.f("fk_team_note_result_id_benchmarkresult"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_team_note_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_team_note")),
    )
    for column in INDEXED:
        op.create_index(
            op.f(f"ix_team_note_{column}"), "team_note", [column], unique=column == "slug"
        )


def downgrade() -> None:
    for column in reversed(INDEXED):
        op.drop_index(op.f(f"ix_team_note_{column}"), table_name="team_note")
    op.drop_table("team_note")

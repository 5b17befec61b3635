"""Imported result files: the upload (preview, then confirmed), its runs, and the link from
each saved result to the run it came from.

Revision ID: 0006
Revises: 0005n
Create Date: 2026-11-23 16:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005n"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "importbatch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("file_name", sa.String(length=300), nullable=False),
        sa.Column("file_sha256", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=30), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("preview", sa.JSON(), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["source_id"], ["source.id"], name=op.f("fk_importbatch_source_id_source")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_importbatch_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_importbatch")),
    )
    op.create_index(op.f("ix_importbatch_key"), "importbatch", ["key"], unique=True)
    op.create_index(op.f("ix_importbatch_source_id"), "importbatch", ["source_id"])
    op.create_index(op.f("ix_importbatch_user_id"), "importbatch", ["user_id"])
    op.create_table(
        "importrun",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("location", sa.String(length=100), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("metrics", sa.JSON(), nullable=False),
        sa.Column("raw", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["batch_id"], ["importbatch.id"], name=op.f("fk_importrun_batch_id_importbatch")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_importrun")),
    )
    op.create_index(op.f("ix_importrun_batch_id"), "importrun", ["batch_id"])
    with op.batch_alter_table("benchmarkresult") as batch_op:
        batch_op.add_column(sa.Column("import_run_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_benchmarkresult_import_run_id"), ["import_run_id"])
        batch_op.create_foreign_key(
            batch_op.f("fk_benchmarkresult_import_run_id_importrun"),
            "importrun",
            ["import_run_id"],
            ["id"],
        )


def downgrade() -> None:
    with op.batch_alter_table("benchmarkresult") as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_benchmarkresult_import_run_id_importrun"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_benchmarkresult_import_run_id"))
        batch_op.drop_column("import_run_id")
    op.drop_index(op.f("ix_importrun_batch_id"), table_name="importrun")
    op.drop_table("importrun")
    op.drop_index(op.f("ix_importbatch_user_id"), table_name="importbatch")
    op.drop_index(op.f("ix_importbatch_source_id"), table_name="importbatch")
    op.drop_index(op.f("ix_importbatch_key"), table_name="importbatch")
    op.drop_table("importbatch")

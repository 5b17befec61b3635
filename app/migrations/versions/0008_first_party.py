"""First-party sources: what a project's own documentation says, and which version of it.

- `source` gains `version` and `commit` (the docs version and/or repository commit read) and
  `read` (the day it was read); seed/README.md says when each is required.
- `claim` gains `since` (the version a feature arrived in), `how` (the flag, option or build
  switch that turns it on) and `page` (the page that says so).
- The source kind `vendor-docs` becomes `project-docs`, beside the new `release-notes` and
  `official-blog`. Going down, the three first-party kinds all become `vendor-docs` again
  (the only first-party kind before this revision).

New columns only, all nullable: older code still reads these tables, so app servers may keep
running through this upgrade.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 16:50:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FIRST_PARTY_KINDS = ("project-docs", "release-notes", "official-blog")


def _source_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("version", sa.String(length=40), nullable=True),
        sa.Column("commit", sa.String(length=40), nullable=True),
        sa.Column("read", sa.String(length=10), nullable=True),
    ]


def _claim_columns() -> list[sa.Column[Any]]:
    return [
        sa.Column("since", sa.String(length=40), nullable=True),
        sa.Column("how", sa.String(length=200), nullable=True),
        sa.Column("page", sa.String(), nullable=True),
    ]


def upgrade() -> None:
    with op.batch_alter_table("source") as batch_op:
        for column in _source_columns():
            batch_op.add_column(column)
    with op.batch_alter_table("claim") as batch_op:
        for column in _claim_columns():
            batch_op.add_column(column)
    source = sa.table("source", sa.column("kind", sa.String()))
    op.execute(source.update().where(source.c.kind == "vendor-docs").values(kind="project-docs"))


def downgrade() -> None:
    source = sa.table("source", sa.column("kind", sa.String()))
    op.execute(
        source.update().where(source.c.kind.in_(FIRST_PARTY_KINDS)).values(kind="vendor-docs")
    )
    with op.batch_alter_table("claim") as batch_op:
        for column in reversed(_claim_columns()):
            batch_op.drop_column(column.name)
    with op.batch_alter_table("source") as batch_op:
        for column in reversed(_source_columns()):
            batch_op.drop_column(column.name)

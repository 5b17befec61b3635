"""A chained claim names the engine's page too (issue 37).

`claim.engine_page`: for a claim that a system supports something through another project
("via vLLM", a Triton backend), the page of that engine's own docs that names the feature,
beside `page` (the wrapper's page that says it hands the work to the engine). Nullable, a new
column only: older code still reads the table, so app servers may keep running through this
upgrade.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06 03:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("claim") as batch_op:
        batch_op.add_column(sa.Column("engine_page", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("claim") as batch_op:
        batch_op.drop_column("engine_page")

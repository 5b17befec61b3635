"""Hardware as it reports itself: the memory nvidia-smi, rocm-smi or the runtime shows, and for
unified memory the share the GPU may use, each with its source (issue 35, part 3).

New nullable columns on `hardware` and nothing else, so this migration stands on its own: it
can be chained after any other revision by changing `down_revision` alone. The seed fills
them on the next sync.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06 03:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("hardware", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reported_memory_gb", sa.Float(), nullable=True))
        batch_op.add_column(
            sa.Column("reported_memory_source", sa.String(length=100), nullable=True)
        )
        batch_op.add_column(
            sa.Column("unified_memory", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(sa.Column("gpu_share", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("gpu_share_source", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hardware", schema=None) as batch_op:
        for column in (
            "gpu_share_source",
            "gpu_share",
            "unified_memory",
            "reported_memory_source",
            "reported_memory_gb",
        ):
            batch_op.drop_column(column)

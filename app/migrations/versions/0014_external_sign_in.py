"""People who sign in elsewhere (issue 38): an OpenID Connect provider or a trusted proxy.

- `user_account.issuer` and `subject`: who vouches for the person (the provider's issuer URL,
  or "proxy") and their id there, unique together; both null for local accounts, which
  stay apart from a provider's person of the same name.
- `login_session.method`: how a browser session began ("password" or "oidc"), for
  GET /api/v1/me; existing sessions began with a password.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06 03:25:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("user_account") as batch_op:
        batch_op.add_column(sa.Column("issuer", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("subject", sa.String(length=255), nullable=True))
        batch_op.create_unique_constraint(
            batch_op.f("uq_user_account_issuer_subject"), ["issuer", "subject"]
        )
    with op.batch_alter_table("login_session") as batch_op:
        batch_op.add_column(
            sa.Column("method", sa.String(length=10), server_default="password", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("login_session") as batch_op:
        batch_op.drop_column("method")
    with op.batch_alter_table("user_account") as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_user_account_issuer_subject"), type_="unique")
        batch_op.drop_column("subject")
        batch_op.drop_column("issuer")

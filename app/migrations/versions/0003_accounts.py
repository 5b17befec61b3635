"""Accounts: users, browser sessions, API tokens, failed sign-ins; a revision names its user.

Account tables made by `create_all` before migrations existed are kept, not made again: a
pre-migration database is rebuilt from seed/ except for them (app/migrations/migrate.py checks that
their columns are the ones below before it keeps them).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 09:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "user_account" not in present:
        op.create_table(
            "user_account",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("name", sa.String(length=40), nullable=False),
            sa.Column("role", sa.String(length=10), nullable=False),
            sa.Column("password_hash", sa.String(length=255), nullable=False),
            sa.Column("disabled", sa.Boolean(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.CheckConstraint(
                "role IN ('viewer', 'editor', 'admin')", name=op.f("ck_user_account_role")
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_user_account")),
        )
        op.create_index(op.f("ix_user_account_name"), "user_account", ["name"], unique=True)
    if "login_session" not in present:
        op.create_table(
            "login_session",
            sa.Column("id", sa.String(length=64), nullable=False),
            sa.Column("user_id", sa.Integer(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("address", sa.String(length=64), nullable=True),
            sa.ForeignKeyConstraint(
                ["user_id"],
                ["user_account.id"],
                name=op.f("fk_login_session_user_id_user_account"),
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_login_session")),
        )
        op.create_index(op.f("ix_login_session_expires_at"), "login_session", ["expires_at"])
        op.create_index(op.f("ix_login_session_user_id"), "login_session", ["user_id"])
    if "api_token" not in present:
        op.create_table(
            "api_token",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("token_hash", sa.String(length=64), nullable=False),
            sa.Column("prefix", sa.String(length=16), nullable=False),
            sa.Column("user_id", sa.Integer(), nullable=False),
            sa.Column("label", sa.String(length=100), nullable=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
            sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
            sa.ForeignKeyConstraint(
                ["user_id"], ["user_account.id"], name=op.f("fk_api_token_user_id_user_account")
            ),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_api_token")),
        )
        op.create_index(op.f("ix_api_token_token_hash"), "api_token", ["token_hash"], unique=True)
        op.create_index(op.f("ix_api_token_user_id"), "api_token", ["user_id"])
    if "sign_in_failure" not in present:
        op.create_table(
            "sign_in_failure",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("name", sa.String(length=100), nullable=False),
            sa.Column("address", sa.String(length=64), nullable=False),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_failure")),
        )
        op.create_index(op.f("ix_sign_in_failure_address"), "sign_in_failure", ["address"])
        op.create_index(op.f("ix_sign_in_failure_at"), "sign_in_failure", ["at"])
        op.create_index(op.f("ix_sign_in_failure_name"), "sign_in_failure", ["name"])
    with op.batch_alter_table("revision") as batch_op:
        batch_op.create_foreign_key(
            batch_op.f("fk_revision_user_id_user_account"), "user_account", ["user_id"], ["id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("revision") as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_revision_user_id_user_account"), type_="foreignkey")
    op.drop_table("sign_in_failure")
    op.drop_table("api_token")
    op.drop_table("login_session")
    op.drop_table("user_account")

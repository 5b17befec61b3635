"""The account tables (migration 0003 makes them).

Times are aware UTC datetimes: SQLModel stores them as UTC and hands them back in UTC on
SQLite (which keeps no time zone) and PostgreSQL alike.

The user table is `user_account`, not `user`: USER is a reserved word in PostgreSQL, and
every hand-written query would have to quote it.
"""

from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, UniqueConstraint
from sqlmodel import Field, SQLModel


class Role(StrEnum):
    """What a user may do; each role can do everything the ones before it can."""

    viewer = "viewer"
    editor = "editor"
    admin = "admin"

    @property
    def rank(self) -> int:
        return list(Role).index(self)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UserAccount(SQLModel, table=True):
    __tablename__ = "user_account"
    __table_args__ = (
        CheckConstraint("role IN ('viewer', 'editor', 'admin')", name="role"),
        UniqueConstraint("issuer", "subject"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True, max_length=40)
    role: str = Field(max_length=10)
    # Empty for people who sign in elsewhere (no password matches it).
    password_hash: str = Field(max_length=255)
    disabled: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    # Who vouches for a person who signs in elsewhere: an OpenID Connect issuer URL, or
    # "proxy" for the trusted proxy, and their id there. Both None for a local account.
    # Their role comes from their groups at each sign-in.
    issuer: str | None = Field(default=None, max_length=255)
    subject: str | None = Field(default=None, max_length=255)


class LoginSession(SQLModel, table=True):
    """One browser sign-in. The cookie holds a random token (signed); this row is keyed by
    the token's SHA-256, so a copy of the database cannot be turned into working cookies.
    Deleting the row signs the browser out, whatever the cookie says."""

    __tablename__ = "login_session"

    id: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(foreign_key="user_account.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime = Field(index=True)
    last_seen_at: datetime = Field(default_factory=utcnow)
    address: str | None = Field(default=None, max_length=64)
    # How the browser signed in: "password" or "oidc" (GET /api/v1/me says it).
    method: str = Field(default="password", max_length=10)


class ApiToken(SQLModel, table=True):
    """A token for scripts (`Authorization: Bearer …`), stored as its SHA-256 only."""

    __tablename__ = "api_token"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(unique=True, index=True, max_length=64)
    # The token's first characters, so a person can tell their tokens apart in a list.
    prefix: str = Field(max_length=16)
    user_id: int = Field(foreign_key="user_account.id", index=True)
    label: str | None = Field(default=None, max_length=100)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime | None = None
    revoked_at: datetime | None = None


class SignInFailure(SQLModel, table=True):
    """A failed sign-in, counted per account name and per address for the limits. Kept in
    the database, so several app processes share one count."""

    __tablename__ = "sign_in_failure"

    id: int | None = Field(default=None, primary_key=True)
    # The name as typed (normalised), whether or not an account has it.
    name: str = Field(index=True, max_length=100)
    address: str = Field(index=True, max_length=64)
    at: datetime = Field(index=True, default_factory=utcnow)

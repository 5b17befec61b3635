"""Users, browser sessions and API tokens as the CLI and the web layer use them: the
lists (reads) here, every rule about names and roles in identity.py, and every change in
app/writes/ (accounts.py: users and tokens; sessions.py: signing in and out, sign-in limits).

The names from those modules are gathered here so that the CLI, accounts/web.py and the
tests keep one module to call. Functions take the caller's session and never commit, except
sign_in and change_own_password, which open their own write transactions.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.accounts.identity import (
    NAME_PATTERN,
    NAME_RULE,
    NAME_TAKEN,
    TOUCH_EVERY,
    AccountError,
    SignedIn,
    digest,
    get_user,
    name_taken,
    new_user_problems,
    normalise_name,
    parse_role,
    session_identity,
    token_identity,
)
from app.accounts.models import ApiToken, LoginSession, UserAccount, utcnow
from app.writes.accounts import (
    TOKEN_PREFIX,
    PasswordChange,
    add_token,
    add_user,
    change_own_password,
    disable_user,
    enable_user,
    revoke_token,
    set_password,
    set_role,
)
from app.writes.sessions import (
    WRONG,
    SignInResult,
    end_session,
    sign_in,
    start_session,
    touch_session,
)

__all__ = [
    "NAME_PATTERN",
    "NAME_RULE",
    "NAME_TAKEN",
    "TOKEN_PREFIX",
    "TOUCH_EVERY",
    "WRONG",
    "AccountError",
    "PasswordChange",
    "SignInResult",
    "SignedIn",
    "TokenRow",
    "UserRow",
    "add_token",
    "add_user",
    "change_own_password",
    "digest",
    "disable_user",
    "enable_user",
    "end_session",
    "get_user",
    "list_tokens",
    "list_users",
    "name_taken",
    "new_user_problems",
    "normalise_name",
    "parse_role",
    "revoke_token",
    "session_identity",
    "set_password",
    "set_role",
    "sign_in",
    "start_session",
    "token_identity",
    "touch_session",
]


@dataclass(frozen=True)
class UserRow:
    name: str
    role: str
    disabled: bool
    created_at: datetime
    sessions: int
    last_seen_at: datetime | None
    tokens: int
    # Who vouches for them when they sign in elsewhere (an issuer URL, or "proxy").
    issuer: str | None = None


def list_users(session: Session, now: datetime | None = None) -> list[UserRow]:
    """Every user with their live sessions and tokens, by name."""
    now = now or utcnow()
    live_sessions = (
        select(
            LoginSession.user_id,
            func.count().label("n"),
            func.max(LoginSession.last_seen_at).label("seen"),
        )
        .where(LoginSession.expires_at > now)
        .group_by(col(LoginSession.user_id))
        .subquery()
    )
    live_tokens = (
        select(ApiToken.user_id, func.count().label("n"))
        .where(col(ApiToken.revoked_at).is_(None))
        .where(col(ApiToken.expires_at).is_(None) | (col(ApiToken.expires_at) > now))
        .group_by(col(ApiToken.user_id))
        .subquery()
    )
    rows = session.exec(
        select(UserAccount, live_sessions.c.n, live_sessions.c.seen, live_tokens.c.n)
        .outerjoin(live_sessions, live_sessions.c.user_id == UserAccount.id)
        .outerjoin(live_tokens, live_tokens.c.user_id == UserAccount.id)
        .order_by(UserAccount.name)
    ).all()
    return [
        UserRow(u.name, u.role, u.disabled, u.created_at, n or 0, seen, t or 0, u.issuer)
        for u, n, seen, t in rows
    ]


@dataclass(frozen=True)
class TokenRow:
    id: int
    user: str
    label: str | None
    prefix: str
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None

    def status(self, now: datetime) -> str:
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"


def list_tokens(session: Session, user_name: str | None = None) -> list[TokenRow]:
    query = select(ApiToken, UserAccount.name).join(
        UserAccount, col(UserAccount.id) == ApiToken.user_id
    )
    if user_name is not None:
        query = query.where(UserAccount.name == normalise_name(user_name))
    rows = session.exec(query.order_by(col(ApiToken.id))).all()
    return [
        TokenRow(t.id or 0, name, t.label, t.prefix, t.created_at, t.expires_at, t.revoked_at)
        for t, name in rows
    ]

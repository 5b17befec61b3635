"""Users, browser sessions and API tokens: every rule about them, none of the HTTP.

Functions take the caller's session and never commit: the CLI and the routes decide where
a transaction begins and ends (see app/writes/transaction.py for the routes' side).
"""

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, update
from sqlmodel import Session, col, select

from app.accounts import limits
from app.accounts.limits import Blocked
from app.accounts.models import ApiToken, LoginSession, Role, UserAccount, utcnow
from app.accounts.passwords import hash_password, password_problem, verify_password
from app.db import lock_writes
from app.writes.transaction import end_read, write_transaction

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]{1,39}")
NAME_RULE = "2 to 40 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit"
TOKEN_PREFIX = "atl_"
# A session's last_seen_at is written at most this often: a write per page view would
# serialise every signed-in reader behind the database's one writer.
TOUCH_EVERY = timedelta(minutes=5)


class AccountError(ValueError):
    """A request about accounts that cannot be done; `problems` maps a field to a message."""

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        super().__init__(" ".join(problems.values()))


@dataclass(frozen=True)
class SignedIn:
    """Who made a request, copied out of the database (no lazy loads after the session ends).

    `via` says how they proved it: a browser session or an API token (`credential` is the
    session's hashed id or the token's id).
    """

    user_id: int
    name: str
    role: Role
    via: str
    credential: str | int

    def allows(self, role: Role) -> bool:
        return self.role.rank >= role.rank


def normalise_name(name: str) -> str:
    return name.strip().lower()


def digest(token: str) -> str:
    """SHA-256 of a session or API token. A fast hash is enough here, unlike for passwords:
    the tokens are 256 random bits, so there is no dictionary to try against a leaked hash,
    and a slow hash would cost every API request its 0.15 s."""
    return hashlib.sha256(token.encode()).hexdigest()


def parse_role(value: str) -> Role:
    try:
        return Role(value.strip().lower())
    except ValueError:
        allowed = ", ".join(r.value for r in Role)
        raise AccountError({"role": f"There is no role {value!r}; use one of {allowed}."}) from None


NAME_TAKEN = "There is already a user called {name!r}."


def name_taken(problems: dict[str, str]) -> bool:
    """Whether the problem with a new account is that its name is in use (a 409, not a 422)."""
    return problems.get("name", "").startswith(NAME_TAKEN.split("{", 1)[0])


def get_user(session: Session, name: str) -> UserAccount | None:
    return session.exec(select(UserAccount).where(UserAccount.name == normalise_name(name))).first()


def _require_user(session: Session, name: str) -> UserAccount:
    user = get_user(session, name)
    if user is None:
        raise AccountError({"name": f"There is no user called {normalise_name(name)!r}."})
    return user


def new_user_problems(session: Session, name: str, role: str, password: str) -> dict[str, str]:
    """Everything wrong with a new account, by field (empty when it can be added)."""
    problems: dict[str, str] = {}
    clean = normalise_name(name)
    if not NAME_PATTERN.fullmatch(clean):
        problems["name"] = f"The name {name!r} is not allowed: use {NAME_RULE}."
    elif get_user(session, clean) is not None:
        problems["name"] = NAME_TAKEN.format(name=clean)
    try:
        parse_role(role)
    except AccountError as exc:
        problems |= exc.problems
    if message := password_problem(password, clean):
        problems["password"] = message
    return problems


def add_user(
    session: Session, name: str, role: str, password: str, now: datetime | None = None
) -> UserAccount:
    # One account change at a time, on PostgreSQL too: two admins demoting each other at
    # once would otherwise both count two admins and leave none (SQLite: BEGIN IMMEDIATE).
    lock_writes(session)
    if problems := new_user_problems(session, name, role, password):
        raise AccountError(problems)
    user = UserAccount(
        name=normalise_name(name),
        role=parse_role(role).value,
        password_hash=hash_password(password),
        created_at=now or utcnow(),
    )
    session.add(user)
    session.flush()
    return user


def _active_admins(session: Session) -> int:
    return session.exec(
        select(func.count()).where(UserAccount.role == Role.admin.value, ~col(UserAccount.disabled))
    ).one()


def _keep_an_admin(session: Session, user: UserAccount, doing: str) -> None:
    # Without an active admin nobody can manage users in the browser any more.
    if user.role == Role.admin.value and not user.disabled and _active_admins(session) <= 1:
        raise AccountError({"name": f"{user.name} is the only active admin; {doing}."})


def set_role(session: Session, name: str, role: str) -> UserAccount:
    lock_writes(session)
    user = _require_user(session, name)
    new_role = parse_role(role)
    if new_role != Role.admin:
        _keep_an_admin(session, user, "make another user an admin first")
    user.role = new_role.value
    session.add(user)
    return user


def disable_user(session: Session, name: str, now: datetime | None = None) -> tuple[int, int]:
    """Disable the account, end its browser sessions and revoke its API tokens.

    Returns how many sessions ended and how many tokens were revoked."""
    lock_writes(session)
    user = _require_user(session, name)
    _keep_an_admin(session, user, "make another user an admin before disabling this one")
    user.disabled = True
    session.add(user)
    ended = _end_sessions(session, user.id)
    revoked = session.exec(
        update(ApiToken)
        .where(col(ApiToken.user_id) == user.id, col(ApiToken.revoked_at).is_(None))
        .values(revoked_at=now or utcnow())
    ).rowcount
    return ended, revoked


def enable_user(session: Session, name: str) -> UserAccount:
    """Let a disabled user sign in again (their old sessions and tokens stay ended)."""
    lock_writes(session)
    user = _require_user(session, name)
    user.disabled = False
    session.add(user)
    return user


def set_password(session: Session, name: str, password: str) -> int:
    """Change the password and end the user's browser sessions; returns how many ended."""
    lock_writes(session)
    user = _require_user(session, name)
    if message := password_problem(password, user.name):
        raise AccountError({"password": message})
    user.password_hash = hash_password(password)
    session.add(user)
    return _end_sessions(session, user.id)


def _end_sessions(session: Session, user_id: int | None) -> int:
    return session.exec(delete(LoginSession).where(col(LoginSession.user_id) == user_id)).rowcount


@dataclass(frozen=True)
class UserRow:
    name: str
    role: str
    disabled: bool
    created_at: datetime
    sessions: int
    last_seen_at: datetime | None
    tokens: int


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
        UserRow(u.name, u.role, u.disabled, u.created_at, n or 0, seen, t or 0)
        for u, n, seen, t in rows
    ]


# Browser sign-in -------------------------------------------------------------------------


@dataclass(frozen=True)
class SignInResult:
    user: SignedIn | None = None
    problem: str | None = None
    blocked: Blocked | None = None
    # The new browser session: the raw token for the cookie, and when it expires.
    token: str = ""
    expires_at: datetime | None = None


WRONG = "Wrong name or password (or the account is disabled)."


def sign_in(
    session: Session, name: str, password: str, address: str, lifetime: timedelta
) -> SignInResult:
    """Check a sign-in against the limits and the password; record a failure, or start a
    browser session lasting `lifetime` in the same transaction as the success.

    The password is checked outside any transaction (Argon2 takes ~0.15 s, and a write
    lock held meanwhile would stall every other writer); the limits are read just before,
    so parallel attempts can overshoot a limit by the few that were in flight at once.
    """
    name = normalise_name(name)[:100]
    now = utcnow()
    if (stop := limits.blocked(session, name, address, now)) is not None:
        end_read(session)
        return SignInResult(problem=stop.message, blocked=stop)
    user = get_user(session, name) if name else None
    usable = user is not None and not user.disabled
    stored = user.password_hash if user is not None and usable else None
    user_id = user.id if user is not None else None
    end_read(session)
    matches, new_hash = verify_password(password, stored)
    with write_transaction(session):
        if not matches:
            limits.record_failure(session, name, address, now)
            return SignInResult(problem=WRONG)
        fresh = session.get(UserAccount, user_id)
        if fresh is None or fresh.disabled or fresh.password_hash != stored:
            # Disabled, or the password changed, while we were hashing: the check is stale.
            return SignInResult(problem=WRONG)
        if new_hash is not None:
            fresh.password_hash = new_hash  # parameters changed since it was hashed
            session.add(fresh)
        limits.forget_account(session, name)
        token, expires = start_session(session, fresh.id or 0, address, lifetime)
        who = SignedIn(fresh.id or 0, fresh.name, Role(fresh.role), "session", digest(token))
        return SignInResult(user=who, token=token, expires_at=expires)


def start_session(
    session: Session, user_id: int, address: str | None, lifetime: timedelta
) -> tuple[str, datetime]:
    """A new session row; returns the raw token (for the cookie, never stored) and expiry."""
    now = utcnow()
    session.exec(delete(LoginSession).where(col(LoginSession.expires_at) <= now))
    token = secrets.token_urlsafe(32)
    expires = now + lifetime
    session.add(
        LoginSession(
            id=digest(token),
            user_id=user_id,
            created_at=now,
            expires_at=expires,
            last_seen_at=now,
            address=(address or "")[:64] or None,
        )
    )
    return token, expires


def end_session(session: Session, token: str) -> bool:
    """Delete the session behind `token`; whether there was one."""
    result = session.exec(delete(LoginSession).where(col(LoginSession.id) == digest(token)))
    return result.rowcount > 0


def session_identity(
    session: Session, token: str, now: datetime | None = None
) -> tuple[SignedIn, bool] | None:
    """Who holds the browser session `token`, and whether its last_seen_at is due a write."""
    now = now or utcnow()
    row = session.exec(
        select(LoginSession.id, LoginSession.last_seen_at, UserAccount)
        .join(UserAccount, col(UserAccount.id) == LoginSession.user_id)
        .where(LoginSession.id == digest(token), LoginSession.expires_at > now)
        .where(~col(UserAccount.disabled))
    ).first()
    if row is None:
        return None
    session_id, seen, user = row
    who = SignedIn(user.id or 0, user.name, Role(user.role), "session", session_id)
    return who, now - seen >= TOUCH_EVERY


def touch_session(session: Session, session_id: str, now: datetime | None = None) -> None:
    session.exec(
        update(LoginSession)
        .where(col(LoginSession.id) == session_id)
        .values(last_seen_at=now or utcnow())
    )


# API tokens ------------------------------------------------------------------------------


def add_token(
    session: Session,
    user_name: str,
    days: int | None = None,
    label: str | None = None,
    now: datetime | None = None,
) -> tuple[ApiToken, str]:
    """A new token for the user; returns its row and the token itself (shown once)."""
    user = _require_user(session, user_name)
    if user.disabled:
        raise AccountError({"user": f"{user.name} is disabled; enable the account first."})
    if days is not None and days < 1:
        raise AccountError({"expires": f"--expires must be at least 1 day (got {days})."})
    now = now or utcnow()
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken(
        token_hash=digest(raw),
        prefix=raw[:10],
        user_id=user.id or 0,
        label=(label or "").strip()[:100] or None,
        created_at=now,
        expires_at=now + timedelta(days=days) if days else None,
    )
    session.add(token)
    session.flush()
    return token, raw


def token_identity(session: Session, raw: str, now: datetime | None = None) -> SignedIn | None:
    """Who a live (unrevoked, unexpired) token belongs to, if its user is enabled."""
    now = now or utcnow()
    row = session.exec(
        select(ApiToken.id, UserAccount)
        .join(UserAccount, col(UserAccount.id) == ApiToken.user_id)
        .where(ApiToken.token_hash == digest(raw), col(ApiToken.revoked_at).is_(None))
        .where(col(ApiToken.expires_at).is_(None) | (col(ApiToken.expires_at) > now))
        .where(~col(UserAccount.disabled))
    ).first()
    if row is None:
        return None
    token_id, user = row
    return SignedIn(user.id or 0, user.name, Role(user.role), "token", token_id or 0)


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


def revoke_token(session: Session, token_id: int, now: datetime | None = None) -> ApiToken:
    token = session.get(ApiToken, token_id)
    if token is None:
        raise AccountError({"id": f"There is no token with id {token_id}."})
    if token.revoked_at is None:
        token.revoked_at = now or utcnow()
        session.add(token)
    return token


# Changing one's own password ----------------------------------------------------------------


@dataclass(frozen=True)
class PasswordChange:
    problems: dict[str, str]
    blocked: Blocked | None = None
    # A fresh browser session (its raw token), when the change came from one: every old
    # session ends, the browser that made the change stays signed in.
    token: str = ""


def change_own_password(
    session: Session,
    who: SignedIn,
    current: str,
    new: str,
    repeat: str | None,
    address: str,
    lifetime: timedelta,
) -> PasswordChange:
    """Check `current` (counted as a sign-in failure when wrong, under the same limits) and
    the new password; then store it and end every browser session of the user.

    As in sign_in, Argon2 runs outside any transaction, and the row is re-read before the
    change, so a password changed meanwhile by someone else is not overwritten blindly."""
    now = utcnow()
    if (stop := limits.blocked(session, who.name, address, now)) is not None:
        end_read(session)
        return PasswordChange({"current_password": stop.message}, blocked=stop)
    problems: dict[str, str] = {}
    if message := password_problem(new, who.name):
        problems["new_password"] = message
    elif new == current:
        problems["new_password"] = "The new password is the same as the current one."
    if repeat is not None and repeat != new:
        problems["repeat"] = "The two new passwords differ."
    user = session.get(UserAccount, who.user_id)
    stored = user.password_hash if user is not None and not user.disabled else None
    end_read(session)
    matches, _ = verify_password(current, stored)
    if not matches:
        with write_transaction(session):
            limits.record_failure(session, who.name, address, now)
        return PasswordChange(problems | {"current_password": "The current password is wrong."})
    if problems:
        return PasswordChange(problems)
    new_hash = hash_password(new)
    with write_transaction(session):
        lock_writes(session)
        fresh = session.get(UserAccount, who.user_id)
        if fresh is None or fresh.disabled or fresh.password_hash != stored:
            return PasswordChange({"current_password": "The password was changed meanwhile."})
        fresh.password_hash = new_hash
        session.add(fresh)
        _end_sessions(session, fresh.id)
        token = ""
        if who.via == "session":
            token, _ = start_session(session, fresh.id or 0, address, lifetime)
        return PasswordChange({}, token=token)

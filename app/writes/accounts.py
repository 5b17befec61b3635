"""Changes to users and API tokens: add, change a role, disable, enable, set or change a
password, issue and revoke tokens.

Accounts are not published data: no page or cache shows them, so these leave the data
version alone and record no revision, but for a change of role (entity `user_account`, kept
out of the public history). Each change that could race another (two admins demoting
each other) takes the writers' lock. The functions take the caller's session and never
commit: the CLI and the routes decide where the transaction begins and ends (the routes with
app/writes/transaction.py), except change_own_password, which like sign_in hashes outside
any transaction and opens its own.
"""

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.accounts import limits
from app.accounts.identity import (
    NAME_TAKEN,
    AccountError,
    SignedIn,
    digest,
    new_user_problems,
    normalise_name,
    parse_role,
    require_user,
)
from app.accounts.limits import Blocked
from app.accounts.models import ApiToken, Role, UserAccount, utcnow
from app.accounts.passwords import hash_password, password_problem, verify_password
from app.db import lock_writes
from app.writes.revisions import ACCOUNT_ENTITY, record
from app.writes.sessions import end_sessions, record_failure, start_session
from app.writes.transaction import end_read, write_transaction

TOKEN_PREFIX = "atl_"


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


def set_role(session: Session, name: str, role: str, actor: str = "command line") -> UserAccount:
    """Change a user's role by hand; a revision records it (for someone who signs in through
    a provider or proxy, the next sign-in sets the role from their groups again)."""
    lock_writes(session)
    user = require_user(session, name)
    new_role = parse_role(role)
    if new_role != Role.admin:
        _keep_an_admin(session, user, "make another user an admin first")
    if user.role != new_role.value:
        before, user.role = user.role, new_role.value
        session.add(user)
        record(
            session,
            actor=actor,
            entity=ACCOUNT_ENTITY,
            key=user.name,
            action="update",
            before={"role": before},
            after={"role": user.role},
            message="role set by hand",
        )
    return user


def disable_user(session: Session, name: str, now: datetime | None = None) -> tuple[int, int]:
    """Disable the account, end its browser sessions and revoke its API tokens.

    Returns how many sessions ended and how many tokens were revoked."""
    lock_writes(session)
    user = require_user(session, name)
    _keep_an_admin(session, user, "make another user an admin before disabling this one")
    user.disabled = True
    session.add(user)
    ended = end_sessions(session, user.id)
    revoked = session.exec(
        update(ApiToken)
        .where(col(ApiToken.user_id) == user.id, col(ApiToken.revoked_at).is_(None))
        .values(revoked_at=now or utcnow())
    ).rowcount
    return ended, revoked


def enable_user(session: Session, name: str) -> UserAccount:
    """Let a disabled user sign in again (their old sessions and tokens stay ended)."""
    lock_writes(session)
    user = require_user(session, name)
    user.disabled = False
    session.add(user)
    return user


def set_password(session: Session, name: str, password: str) -> int:
    """Change the password and end the user's browser sessions; returns how many ended."""
    lock_writes(session)
    user = require_user(session, name)
    if message := password_problem(password, user.name):
        raise AccountError({"password": message})
    user.password_hash = hash_password(password)
    session.add(user)
    return end_sessions(session, user.id)


def add_user_from_form(
    session: Session, name: str, role: str, password: str, repeat: str
) -> UserAccount:
    """The admin page's new account: every problem with it at once (the two passwords
    included), and a name another process took between the check and the insert (the
    unique index) refused as taken, like one taken before."""
    lock_writes(session)  # the name is checked and taken in one step (PostgreSQL too)
    problems = new_user_problems(session, name, role, password)
    if password != repeat:
        problems["repeat"] = "The two passwords differ."
    if problems:
        raise AccountError(problems)
    try:
        return add_user(session, name, role, password)
    except IntegrityError:
        raise AccountError({"name": NAME_TAKEN.format(name=normalise_name(name))}) from None


# API tokens ------------------------------------------------------------------------------


def add_token(
    session: Session,
    user_name: str,
    days: int | None = None,
    label: str | None = None,
    now: datetime | None = None,
) -> tuple[ApiToken, str]:
    """A new token for the user; returns its row and the token itself (shown once)."""
    user = require_user(session, user_name)
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
            record_failure(session, who.name, address, now)
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
        end_sessions(session, fresh.id)
        token = ""
        if who.via == "session":
            token, _ = start_session(session, fresh.id or 0, address, lifetime)
        return PasswordChange({}, token=token)

"""Changes to browser sessions and to the sign-in limits' record of failures: signing in and
out, and a session's last-seen time.

Neither is published data: no page or cache shows them, so these record no revision and
leave the data version alone; nor do they take the writers' lock: each touches only rows of
its own (a session, a failure), and no rule reads across them. sign_in opens its own
transactions (the password is hashed outside any); the others run in the caller's.
"""

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlmodel import Session, col

from app.accounts import limits
from app.accounts.identity import SignedIn, digest, get_user, normalise_name
from app.accounts.limits import WINDOW, Blocked
from app.accounts.models import LoginSession, Role, SignInFailure, UserAccount, utcnow
from app.accounts.passwords import verify_password
from app.writes.transaction import end_read, write_transaction


def record_failure(session: Session, name: str, address: str, now: datetime) -> None:
    """Count a failed sign-in for the limits (accounts/limits.py), pruning those that have
    left the window."""
    session.exec(delete(SignInFailure).where(col(SignInFailure.at) <= now - WINDOW))
    session.add(SignInFailure(name=name[:100], address=address[:64], at=now))


def forget_account(session: Session, name: str) -> None:
    """After a successful sign-in the account's earlier typos stop counting against it
    (the address's failures still do)."""
    session.exec(delete(SignInFailure).where(col(SignInFailure.name) == name))


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
    # People who sign in through a provider or proxy have no password here.
    usable = user is not None and not user.disabled and user.issuer is None
    stored = user.password_hash if user is not None and usable else None
    user_id = user.id if user is not None else None
    end_read(session)
    matches, new_hash = verify_password(password, stored)
    with write_transaction(session):
        if not matches:
            record_failure(session, name, address, now)
            return SignInResult(problem=WRONG)
        fresh = session.get(UserAccount, user_id)
        if fresh is None or fresh.disabled or fresh.password_hash != stored:
            # Disabled, or the password changed, while we were hashing: the check is stale.
            return SignInResult(problem=WRONG)
        if new_hash is not None:
            fresh.password_hash = new_hash  # parameters changed since it was hashed
            session.add(fresh)
        forget_account(session, name)
        token, expires = start_session(session, fresh.id or 0, address, lifetime)
        who = SignedIn(fresh.id or 0, fresh.name, Role(fresh.role), "session", digest(token))
        return SignInResult(user=who, token=token, expires_at=expires)


def start_session(
    session: Session,
    user_id: int,
    address: str | None,
    lifetime: timedelta,
    method: str = "password",
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
            method=method,
        )
    )
    return token, expires


def end_session(session: Session, token: str) -> bool:
    """Delete the session behind `token`; whether there was one."""
    result = session.exec(delete(LoginSession).where(col(LoginSession.id) == digest(token)))
    return result.rowcount > 0


def touch_session(session: Session, session_id: str, now: datetime | None = None) -> None:
    session.exec(
        update(LoginSession)
        .where(col(LoginSession.id) == session_id)
        .values(last_seen_at=now or utcnow())
    )


def end_sessions(session: Session, user_id: int | None) -> int:
    """End every browser session of the user; how many there were."""
    return session.exec(delete(LoginSession).where(col(LoginSession.user_id) == user_id)).rowcount

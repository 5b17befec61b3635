"""People an identity provider or the trusted proxy vouches for: their account here, made at
their first sign-in, and their role, recomputed from their groups at every sign-in.

A person is found by (issuer, subject), never by name: a provider's `ada` and a local `ada`
are two accounts, the newcomer named `ada-2`. A role set by hand on the admin page lasts
until their next sign-in. Every change of role (the first one included) is a revision,
under the entity `user_account`, kept out of the public history (app/queries/revisions.py):
the account list is not for everyone to read.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.accounts.external import Vouched, account_name
from app.accounts.identity import SignedIn, digest
from app.accounts.models import Role, UserAccount
from app.db import lock_writes
from app.writes.revisions import ACCOUNT_ENTITY, record
from app.writes.sessions import start_session
from app.writes.transaction import end_read, write_transaction

DISABLED = "Your account on this instance is disabled; ask one of its admins."


def _find(session: Session, issuer: str, subject: str) -> UserAccount | None:
    return session.exec(
        select(UserAccount).where(UserAccount.issuer == issuer, UserAccount.subject == subject)
    ).first()


def _signed_in(user: UserAccount, via: str, credential: str | int, method: str) -> SignedIn:
    return SignedIn(user.id or 0, user.name, Role(user.role), via, credential, method)


def current_account(session: Session, person: Vouched) -> UserAccount:
    """The person's account as it should be after this sign-in: made if new, its role
    brought to what their groups give. Runs in the caller's write transaction."""
    lock_writes(session)  # two first sign-ins of one person, or of one name, at once
    user = _find(session, person.issuer, person.subject)
    message = f"role from groups at sign-in through {person.through}"
    if user is None:
        base = account_name(person.hint, person.subject)
        taken = session.exec(
            select(UserAccount.name).where(
                (col(UserAccount.name) == base) | col(UserAccount.name).startswith(base + "-")
            )
        ).all()
        user = UserAccount(
            name=account_name(person.hint, person.subject, taken),
            role=person.role.value,
            password_hash="",
            issuer=person.issuer,
            subject=person.subject,
        )
        session.add(user)
        session.flush()
        _revision(session, user, None, message)
    elif user.role != person.role.value and not user.disabled:
        before = user.role
        user.role = person.role.value
        session.add(user)
        _revision(session, user, before, message)
    return user


def _revision(session: Session, user: UserAccount, before: str | None, message: str) -> None:
    record(
        session,
        actor=user.name,
        entity=ACCOUNT_ENTITY,
        key=user.name,
        action="create" if before is None else "update",
        before=None if before is None else {"role": before},
        after={"role": user.role, "issuer": user.issuer, "subject": user.subject},
        user_id=user.id,
        message=message,
    )


@dataclass(frozen=True)
class ExternalSignIn:
    user: SignedIn | None = None
    problem: str | None = None
    token: str = ""  # the new browser session's raw token (OIDC only)
    expires_at: datetime | None = None


def sign_in_external(
    session: Session, person: Vouched, address: str, lifetime: timedelta
) -> ExternalSignIn:
    """An OpenID Connect sign-in: the account brought up to date and a browser session
    started, in one transaction."""
    end_read(session)
    with write_transaction(session):
        user = current_account(session, person)
        if user.disabled:
            return ExternalSignIn(problem=DISABLED)
        token, expires = start_session(session, user.id or 0, address, lifetime, "oidc")
        who = _signed_in(user, "session", digest(token), "oidc")
        return ExternalSignIn(who, None, token, expires)


def proxy_person(session: Session, person: Vouched) -> SignedIn | None:
    """Who the trusted proxy says is asking (None: disabled here). Reads only, unless the
    person is new or their role changed: a write per request would queue every reader
    behind the database's one writer."""
    user = _find(session, person.issuer, person.subject)
    end_read(session)
    if user is not None and (user.disabled or user.role == person.role.value):
        return None if user.disabled else _signed_in(user, "proxy", person.subject, "proxy")
    with write_transaction(session):
        fresh = current_account(session, person)
        if fresh.disabled:
            return None
        return _signed_in(fresh, "proxy", person.subject, "proxy")

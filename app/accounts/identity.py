"""Who a user is, and the rules about names and roles: reads only.

The changes to users, tokens and browser sessions are in app/writes/accounts.py and
app/writes/sessions.py; app/accounts/users.py gathers both for the CLI and the web layer.
"""

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from app.accounts.models import ApiToken, LoginSession, Role, UserAccount, utcnow
from app.accounts.passwords import password_problem

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]{1,39}")
NAME_RULE = "2 to 40 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit"
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

    `via` says how they proved it: a browser session, an API token or the trusted proxy
    (`credential` is the session's hashed id, the token's id or the proxy's user name), and
    `method` how a browser session began ("password" or "oidc").
    """

    user_id: int
    name: str
    role: Role
    via: str
    credential: str | int
    method: str = "password"

    def how(self) -> str:
        """How this request proved who it is: password, oidc, proxy or token."""
        return self.method if self.via == "session" else self.via

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


def require_user(session: Session, name: str) -> UserAccount:
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


def session_identity(
    session: Session, token: str, now: datetime | None = None
) -> tuple[SignedIn, bool] | None:
    """Who holds the browser session `token`, and whether its last_seen_at is due a write."""
    now = now or utcnow()
    row = session.exec(
        select(LoginSession.id, LoginSession.last_seen_at, LoginSession.method, UserAccount)
        .join(UserAccount, col(UserAccount.id) == LoginSession.user_id)
        .where(LoginSession.id == digest(token), LoginSession.expires_at > now)
        .where(~col(UserAccount.disabled))
    ).first()
    if row is None:
        return None
    session_id, seen, method, user = row
    who = SignedIn(user.id or 0, user.name, Role(user.role), "session", session_id, method)
    return who, now - seen >= TOUCH_EVERY


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

"""People whom an identity provider or a trusted proxy vouches for: the role their groups
give, and the account name they get here. Pure: no database, no HTTP.

A group list may name groups (Keycloak's `/atlas-admins`, GitLab's `team`), group ids
(Entra ID sends object ids), e-mail addresses (`ada@example.com`) or whole domains
(`@example.com`): providers such as Google Workspace send no groups at all, only a verified
e-mail address.
"""

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.accounts.identity import NAME_PATTERN
from app.accounts.models import Role
from app.settings import Settings, comma_list

# The issuer recorded for people the trusted proxy vouches for.
PROXY_ISSUER = "proxy"


@dataclass(frozen=True)
class RoleRules:
    """Which groups (or addresses, or @domains) make an admin or an editor, and the role of
    everyone else (None: refused)."""

    admin: frozenset[str]
    editor: frozenset[str]
    default: Role | None

    @classmethod
    def from_settings(cls, settings: Settings) -> "RoleRules":
        default = settings.atlas_oidc_default_role
        return cls(
            admin=frozenset(_folded(comma_list(settings.atlas_oidc_admin_groups))),
            editor=frozenset(_folded(comma_list(settings.atlas_oidc_editor_groups))),
            default=None if default == "none" else Role(default),
        )

    def role_for(self, groups: Iterable[str], email: str | None = None) -> Role | None:
        """The highest role any of `groups` (or the e-mail address, or its domain) gives."""
        marks = set(_folded(groups))
        if email and "@" in email:
            marks |= {email.lower(), "@" + email.lower().rsplit("@", 1)[1]}
        if marks & self.admin:
            return Role.admin
        if marks & self.editor:
            return Role.editor
        return self.default


@dataclass(frozen=True)
class Vouched:
    """Who the provider or proxy says someone is, and the role their groups give here."""

    issuer: str
    subject: str
    hint: str  # what to call them, if they are new
    role: Role
    # Where the role came from, for the revision's message ("groups at sign-in through …").
    through: str


def _folded(items: Iterable[str]) -> list[str]:
    # Group names are matched without regard to case: an admin typing `Atlas-Admins` means
    # the group the provider spells `atlas-admins`. Ids (Entra's GUIDs) are unaffected.
    return [item.strip().lower() for item in items if item.strip()]


def claim_groups(claims: Mapping[str, object], claim: str) -> list[str]:
    """The groups in an ID token claim: a list of strings, or one space- or comma-separated
    string (some providers send that); anything else counts as no groups."""
    value = claims.get(claim)
    if isinstance(value, str):
        return [g for g in re.split(r"[,\s]+", value) if g]
    if isinstance(value, list):
        return [g for g in value if isinstance(g, str)]
    return []


def verified_email(claims: Mapping[str, object]) -> str | None:
    """The e-mail address when the provider says it has verified it; an unverified address
    could be anyone's, so it never gives a role."""
    email = claims.get("email")
    if isinstance(email, str) and claims.get("email_verified") is True:
        return email
    return None


def name_hint(claims: Mapping[str, object]) -> str:
    """What to call a person here: their user name at the provider, else the part of their
    e-mail address before the @, else their subject."""
    for key in ("preferred_username", "email", "sub"):
        value = claims.get(key)
        if isinstance(value, str) and value.strip():
            return value.split("@", 1)[0] if key == "email" else value
    return "user"


def account_name(hint: str, subject: str, taken: Iterable[str] = ()) -> str:
    """A name in this instance's pattern made from `hint`, not one of `taken`: the first free
    of `name`, `name-2`, `name-3` …; a hint with nothing usable left becomes `user-<hash of
    the subject>`."""
    base = re.sub(r"[^a-z0-9._-]+", "-", hint.strip().lower().split("@", 1)[0])
    base = base.strip("._-")[:34]
    if not NAME_PATTERN.fullmatch(base):
        base = "user-" + hashlib.sha256(subject.encode()).hexdigest()[:8]
    used = set(taken)
    if base not in used:
        return base
    for n in range(2, 1000):
        if (candidate := f"{base}-{n}") not in used:
            return candidate
    return "user-" + hashlib.sha256(subject.encode()).hexdigest()[:12]

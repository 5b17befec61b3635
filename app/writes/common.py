"""What every team write needs, whatever it changes: the errors it refuses with, the version
check, filing a change in the history, and who saved a row and when.

Call these inside `app.writes.transaction.write_transaction`, as the writes that use them do.
"""

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, cast

from sqlalchemy import func
from sqlmodel import Session, select

from app.accounts.identity import SignedIn
from app.accounts.models import UserAccount
from app.data_version.version import bump_data_version
from app.models import BenchmarkResult, Claim, TeamNote
from app.writes.documents import Versioned
from app.writes.revisions import Action, record

Doc = TypeVar("Doc", bound=Versioned)
"""A saved row's document: a team result's, claim's or note's."""


class TeamError(Exception):
    """Input that cannot be saved; `problems` maps each field to what is wrong with it, and
    `values` the field to the value that was refused, where showing it helps."""

    def __init__(self, problems: dict[str, str], values: dict[str, str] | None = None) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in problems.items()))
        self.problems = problems
        self.values = values or {}


class UnknownItemError(Exception):
    """No such system, capability, or team result."""


class StaleVersionError(Exception, Generic[Doc]):
    """The change was based on `given`, but the row is at `current` (someone saved since)."""

    def __init__(self, what: str, given: int, current: int, row: Doc) -> None:
        super().__init__(
            f"{what} is at version {current}, not {given}: someone saved it since; "
            "reload it and make the change again"
        )
        self.given, self.current, self.row = given, current, row


class VersionRequiredError(Exception, Generic[Doc]):
    """A change to an existing row must say which version it is based on."""

    def __init__(self, what: str, current: int, row: Doc) -> None:
        super().__init__(
            f"{what} already exists (version {current}); send the version your change is "
            "based on (If-Match or a 'version' field)"
        )
        self.current, self.row = current, row


@dataclass
class Saved(Generic[Doc]):
    """What a write did: the rows' documents as the API returns them."""

    items: list[Doc] = field(default_factory=list)
    created: bool = False


def check_version(what: str, current: int, given: int | None, row: Doc) -> None:
    """Refuse a change based on no version, or on one older than `current`."""
    # `row | {...}` is a Doc again; mypy reads a TypedDict merge on a TypeVar as a plain dict.
    if given is None:
        raise VersionRequiredError(what, current, cast(Doc, row | {"version": current}))
    if given != current:
        raise StaleVersionError(what, given, current, cast(Doc, row | {"version": current}))


@dataclass(frozen=True)
class Filed:
    """Where a team row's changes are filed in the history: its kind of item (`entity`), its
    key, and the system it belongs to."""

    entity: str
    key: str
    system: str


def record_change(
    session: Session,
    who: SignedIn,
    row: BenchmarkResult | Claim | TeamNote,
    filed: Filed,
    before: Mapping[str, object],
    after: Mapping[str, object] | None,
) -> bool:
    """Apply an accepted change to a team row (its version checked): `after` is the row's new
    document, None when the row is removed. The row counts the save and names `who`, the
    change gets its revision and the data a new version. A change that leaves the document
    as it was records nothing and returns False."""
    if after is None:
        session.delete(row)
    elif after == before:
        return False
    else:
        row.version += 1
        row.user_id, row.updated_at = who.user_id, now()
        session.add(row)
        session.flush()
    action: Literal["update", "delete"] = "delete" if after is None else "update"
    revise(session, who, filed.entity, filed.key, action, before, after, filed.system)
    bump_data_version(session)
    return True


def revise(
    session: Session,
    who: SignedIn,
    entity: str,
    key: str,
    action: Action,
    before: Mapping[str, object] | None,
    after: Mapping[str, object] | None,
    system: str,
) -> None:
    """Record a team change, by `who`, filed under `system` (in the caller's transaction)."""
    record(
        session,
        actor=who.name,
        user_id=who.user_id,
        entity=entity,
        key=key,
        action=action,
        before=before,
        after=after,
        system_slug=system,
    )


def by_slug(session: Session, model: Any, slugs: set[str]) -> dict[str, Any]:
    """slug -> row of `model` for each of `slugs` that has one."""
    if not slugs:
        return {}
    return {row.slug: row for row in session.exec(select(model).where(model.slug.in_(slugs)))}


def next_position(session: Session, model: Any) -> int:
    """The position after the last of `model`'s rows: a new row goes at the end."""
    return int(session.exec(select(func.coalesce(func.max(model.position), 0))).one()) + 1


def author(session: Session, row: Any) -> str | None:
    """The name of the user who saved a team row last."""
    if row.user_id is None:
        return None
    user = session.get(UserAccount, row.user_id)
    return user.name if user else None


def now() -> dt.datetime:
    """The time a save is stamped with."""
    return dt.datetime.now(dt.UTC)

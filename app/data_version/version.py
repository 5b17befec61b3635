"""The data version: read once per transaction, bumped by every write, and the per-version memo.

Read models are computed once per data version, inside the caller's own transaction.

The published data changes only when it is seeded or edited, and each change bumps the data
version. A read model built from one version is therefore valid for every request that reads
the same version; keying the memo on the version read *inside* the caller's transaction
keeps each response consistent with the rest of its own reads.

Cached values are shared between requests: callers must treat them as read-only.
"""

import secrets
from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, select

from app.data_version.memo import PerDatabase, VersionedCache
from app.models import Meta

P = ParamSpec("P")
R = TypeVar("R")


def data_version(session: Session) -> str:
    """Changes whenever the data does (unique per database); part of every cache key.

    Read once per transaction: a request reads one snapshot, so its version cannot change
    under it, and a page calls this for every memoised read model it uses. A flush (a write in
    this session) forgets it.
    """
    known = session.info.get(_VERSION_KEY)
    if known is not None and known[0] is session.get_transaction():
        return str(known[1])
    value = session.exec(select(Meta.value).where(Meta.key == "data_version")).first() or "0"
    session.info[_VERSION_KEY] = (session.get_transaction(), value)
    return value


_VERSION_KEY = "atlas.data_version"


@event.listens_for(OrmSession, "after_flush")
def _forget_version(session: OrmSession, _context: object) -> None:
    session.info.pop(_VERSION_KEY, None)


def per_version(
    max_entries: int = 256,
) -> Callable[[Callable[Concatenate[Session, P], R]], Callable[Concatenate[Session, P], R]]:
    """Memoise `f(session, *args)` by (data version, args) in a `VersionedCache` per database
    (app/data_version/memo.py: one version held at a time, at most `max_entries`)."""

    def decorate(f: Callable[Concatenate[Session, P], R]) -> Callable[Concatenate[Session, P], R]:
        memos: PerDatabase[R] = PerDatabase(lambda: VersionedCache(max_size=max_entries))

        @wraps(f)
        def cached(session: Session, /, *args: P.args, **kwargs: P.kwargs) -> R:
            key: Hashable = (args, tuple(sorted(kwargs.items())))
            version = data_version(session)
            return memos.of(session).get_or_build(version, key, lambda: f(session, *args, **kwargs))

        cached.memos = memos  # type: ignore[attr-defined]
        return cached

    return decorate


def bump_data_version(session: Session, *, seeded: bool = False) -> str:
    """Give the data a new version, in the transaction that changes it.

    Every cache (render cache, per-version read models) keys on the version, and every
    process watches it, so the change is served everywhere once this commits. Writers are
    serialised (db.lock_writes), so two never count from the same number.
    """
    current = session.exec(select(Meta).where(Meta.key == "data_version")).first()
    count = int(current.value.partition(".")[0]) + 1 if current else 1
    # The random part makes a version unique across databases, so caches shared by
    # several databases in one process (tests, a restore) never mix them up.
    version = f"{count}.{secrets.token_hex(4)}"
    now = datetime.now(UTC).isoformat(timespec="seconds")
    session.merge(Meta(key="data_version", value=version))
    session.merge(Meta(key="seeded_at" if seeded else "changed_at", value=now))
    return version

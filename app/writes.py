"""Writes on the request's own session, so a request never holds two connections.

The request's session is made for reading (app/db.py get_session): one snapshot, SQLite's
deferred BEGIN, PostgreSQL's REPEATABLE READ. A write inside such a transaction can fail
half-way when another writer committed since the snapshot was taken, so `write_transaction`
ends the read transaction first and begins a writing one on the same session: BEGIN
IMMEDIATE on SQLite (take the write lock up front, waiting up to the busy timeout for
another writer), READ COMMITTED on PostgreSQL (a concurrent update waits instead of
failing with a serialisation error).
"""

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlmodel import Session, select

from app.models import Meta
from app.version_signal import announce


@contextmanager
def write_transaction(session: Session) -> Iterator[Session]:
    """Run the block as one write transaction on `session`; commit it, or roll it back.

    Whatever was read before belongs to the ended read transaction: objects loaded then
    are expired and reload inside this one.
    """
    if session.new or session.dirty or session.deleted:
        raise RuntimeError("changes were made before write_transaction(); make them inside it")
    end_read(session)
    dialect = session.get_bind().dialect.name
    options = {"sqlite_begin": "IMMEDIATE"} if dialect == "sqlite" else {}
    if dialect == "postgresql":
        options = {"isolation_level": "READ COMMITTED"}
    session.connection(execution_options=options)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise


def end_read(session: Session) -> None:
    """Release the read snapshot (and its connection) before slow work such as hashing.

    Only reads came before, so rolling back discards nothing."""
    if session.in_transaction():
        session.rollback()


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
    announce(session, version)
    return version

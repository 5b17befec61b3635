"""Writes on the request's own session, so a request never holds two connections.

The request's session is made for reading (app/db.py get_session): one snapshot, SQLite's
deferred BEGIN, PostgreSQL's REPEATABLE READ. A write inside such a transaction can fail
half-way when another writer committed since the snapshot was taken, so `write_transaction`
ends the read transaction first and begins a writing one on the same session: BEGIN
IMMEDIATE on SQLite (take the write lock up front, waiting up to the busy timeout for
another writer), READ COMMITTED on PostgreSQL (a concurrent update waits instead of
failing with a serialisation error).
"""

from collections.abc import Iterator
from contextlib import contextmanager

from sqlmodel import Session


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

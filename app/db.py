"""Engine and session plumbing; the engine is made per app, never at import time.

Every request gets one session, opened by the route's dependency and passed down. Its
statements share one read transaction, so a page never mixes two versions of the data:
SQLite in WAL mode gives each transaction a snapshot, PostgreSQL gets REPEATABLE READ.
"""

import fcntl
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy import Connection, Engine, event, text
from sqlalchemy.engine import make_url
from sqlmodel import Session, create_engine
from starlette.concurrency import run_in_threadpool

from app import models  # noqa: F401  (registers the tables on SQLModel.metadata)
from app.accounts import models as account_models  # noqa: F401  (the account tables too)

BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite writer waits for another writer before it gives up with a clear error."""


def make_engine(url: str, pool_size: int = 5, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Engine:
    """Create an engine for `url` with `pool_size` connections (one per worker thread)."""
    if url.startswith("sqlite"):
        return _sqlite_engine(url, pool_size, busy_timeout_ms)
    engine = create_engine(url, pool_size=pool_size, max_overflow=2, pool_pre_ping=True)
    return engine


def _sqlite_engine(url: str, pool_size: int, busy_timeout_ms: int) -> Engine:
    in_memory = make_url(url).database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
    if not in_memory:
        # Threads beyond the pool would wait, so the pool matches the thread limit.
        kwargs.update(pool_size=pool_size, max_overflow=2, pool_timeout=30)
    engine = create_engine(url, **kwargs)
    event.listen(engine, "connect", partial(_sqlite_pragmas, busy_timeout_ms))
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_pragmas(busy_timeout_ms: int, dbapi_connection: Any, _record: object) -> None:
    # The driver's own transaction handling starts transactions only before writes, so each
    # SELECT would see its own snapshot; we issue BEGIN ourselves (see _sqlite_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    cursor.execute("PRAGMA foreign_keys=ON")
    # WAL lets readers go on while a seed or an edit writes; it is a property of the file.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # Writers take the write lock up front: a deferred transaction that reads and then
    # writes can fail mid-way when another writer committed in between.
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


def writer(engine: Engine) -> Engine:
    """The same engine, for sessions that will write (SQLite: BEGIN IMMEDIATE)."""
    if engine.dialect.name == "sqlite":
        return engine.execution_options(sqlite_begin="IMMEDIATE")
    return engine


def reader(engine: Engine) -> Engine:
    """The same engine, for sessions that only read: one consistent snapshot."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="REPEATABLE READ")
    return engine


WRITE_LOCK = 7746211
"""PostgreSQL advisory lock taken by every transaction that changes the data."""


def lock_writes(session: Session) -> None:
    """Serialise writers of the data for the rest of `session`'s transaction.

    SQLite already has one writer at a time (`writer()` begins IMMEDIATE). PostgreSQL lets
    writers run side by side, and two of them could both read version N and write N+1, or
    both insert the row a reseed adds; the transaction-scoped advisory lock queues them.
    Call it first in the transaction: writers run at READ COMMITTED, so every statement after
    the wait sees what the writer before committed.
    """
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK})


@contextmanager
def startup_lock(engine: Engine) -> Iterator[None]:
    """Held while one process migrates and seeds the database; the others wait for it."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            # Any constant works as long as every process of this app uses the same one.
            connection.execute(text("SELECT pg_advisory_lock(7746210)"))
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(7746210)"))
                connection.commit()
        return
    database = engine.url.database
    if engine.dialect.name != "sqlite" or database in (None, "", ":memory:"):
        yield
        return
    lock_path = Path(f"{database}.startup-lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


async def get_session(request: Request) -> AsyncIterator[Session]:
    """One session per request; it connects only when a query runs (never on a cache hit)."""
    session = Session(reader(request.app.state.engine))
    try:
        yield session
    finally:
        if session.in_transaction():
            # Ending the read transaction is database work: keep it off the event loop.
            await run_in_threadpool(session.close)
        else:
            session.close()


SessionDep = Annotated[Session, Depends(get_session)]

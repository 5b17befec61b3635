"""Throwaway databases for tests: SQLite files, or PostgreSQL databases on a test server.

Set ATLAS_TEST_DATABASE_URL to a PostgreSQL server URL (any database on it, e.g.
`postgresql+psycopg://atlas@/postgres?host=/tmp/pg`) and every database a test makes is a
fresh database on that server, dropped when the session ends; `scripts/postgres.sh` starts
such a server and sets it. Unset, they are SQLite files in the test's temporary folder.
"""

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from app.db import make_engine
from app.seeding.prepare import prepare_database

SERVER_URL = os.environ.get("ATLAS_TEST_DATABASE_URL", "")
ON_POSTGRES = SERVER_URL.startswith("postgresql")
BACKEND = "postgresql" if ON_POSTGRES else "sqlite"
_created: list[str] = []


def new_database_url(folder: Path, name: str = "atlas") -> str:
    """The URL of a new, empty database that no other test uses."""
    if not ON_POSTGRES:
        return f"sqlite:///{folder / f'{name}.db'}"
    database = f"t_{name.replace('-', '_')[:40]}_{secrets.token_hex(4)}"
    with _admin() as admin, admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{database}"'))
    _created.append(database)
    return make_url(SERVER_URL).set(database=database).render_as_string(hide_password=False)


def new_engine(folder: Path, name: str = "atlas") -> Engine:
    return make_engine(new_database_url(folder, name))


def seeded_url(folder: Path, seed_dir: Path, name: str = "atlas") -> str:
    """A new database migrated and seeded the way `inference-atlas migrate` does it."""
    url = new_database_url(folder, name)
    engine = make_engine(url)
    try:
        prepare_database(engine, seed_dir)
    finally:
        engine.dispose()
    return url


def copy_of(database_url: str, folder: Path, seed_dir: Path, name: str = "copy") -> str:
    """A private database holding what the seeded `database_url` holds.

    SQLite: the online backup of the file. PostgreSQL: a newly seeded database (CREATE
    DATABASE ... TEMPLATE would need every other connection to the original closed).
    """
    if ON_POSTGRES:
        return seeded_url(folder, seed_dir, name)
    import sqlite3

    target = folder / f"{name}.db"
    source = sqlite3.connect(database_url.removeprefix("sqlite:///"))
    copy = sqlite3.connect(target)
    with copy:
        source.backup(copy)
    source.close()
    copy.close()
    return f"sqlite:///{target}"


def drop_created() -> None:
    """Drop every database this session made (the server may outlive the tests)."""
    if not _created:
        return
    with _admin() as admin, admin.connect() as connection:
        for database in _created:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
    _created.clear()


@contextmanager
def _admin() -> Iterator[Engine]:
    """An autocommit engine on the server's own database: CREATE/DROP DATABASE need one."""
    engine = create_engine(SERVER_URL, isolation_level="AUTOCOMMIT")
    try:
        yield engine
    finally:
        engine.dispose()

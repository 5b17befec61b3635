"""Alembic owns the schema: upgrade a database to the newest revision, from Python.

The migration environment lives inside the package (app/migrations/), and its Config is
built here rather than read from an alembic.ini, so `inference-atlas migrate` works from an
installed package in any directory. Call `upgrade` under `db.startup_lock`: it is what keeps
several processes starting at once from migrating the same database together.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, MetaData, inspect, text

from app.db import writer

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent
BASELINE = "0001"
"""The revision that creates the tables as they were before Alembic took over."""

PRE_ALEMBIC_TABLES = (
    "source",
    "sourcecaveat",
    "capabilitycategory",
    "capability",
    "system",
    "systemnote",
    "systemfact",
    "claim",
    "metric",
    "benchmarkresult",
    "rule",
    "meta",
)
"""The tables `create_all` made before migrations existed; they held nothing but seed data."""

ACCOUNT_TABLES = ("user_account", "login_session", "api_token", "sign_in_failure")
"""Tables that `create_all` may also have made before migrations: they hold accounts, so a
rebuild keeps them (migration 0003 adopts them) when their columns are the expected ones."""


class SchemaError(RuntimeError):
    """The database cannot be brought up to date without losing data; nothing was changed."""


@dataclass
class Migration:
    """What `upgrade` did."""

    before: str | None  # the revision the database was at (None: no schema yet)
    after: str
    rebuilt: list[str] = field(default_factory=list)  # pre-Alembic tables dropped first

    @property
    def changed(self) -> bool:
        return self.before != self.after or bool(self.rebuilt)


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's Config for our migrations, without any file; env.py uses `connection`."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {MIGRATIONS / 'versions'}")
    return head


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> Migration:
    """Bring the database's schema to `revision` in one transaction.

    A database that has our tables but no `alembic_version` was made before migrations
    existed. Every row in it came from seed/ (there was no team data then), so its tables
    are dropped and rebuilt, once; the caller seeds the now empty database again.
    """
    with _migration_connection(engine) as connection:
        rebuilt = _drop_pre_alembic_tables(connection)
        before = None if rebuilt else current_revision(connection)
        command.upgrade(alembic_config(connection), revision)
        after = current_revision(connection)
    if after is None:
        raise RuntimeError(f"upgrade to {revision!r} left the database without a revision")
    return Migration(before=before, after=after, rebuilt=rebuilt)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the schema back to `revision` (tests and recovery; data in dropped columns goes)."""
    with _migration_connection(engine) as connection:
        command.downgrade(alembic_config(connection), revision)


@contextmanager
def _migration_connection(engine: Engine) -> Iterator[Connection]:
    """A connection in a write transaction, with SQLite's foreign keys off until it ends.

    Batch mode rebuilds a SQLite table by copying it and dropping the original, which
    enforced foreign keys would refuse (or cascade). The pragma is a no-op inside a
    transaction, so it is set before BEGIN; the keys are checked before the commit instead.
    """
    sqlite = engine.dialect.name == "sqlite"
    with writer(engine).connect() as connection:
        if sqlite:
            _sqlite_pragma(connection, "foreign_keys=OFF")
        try:
            with connection.begin():
                yield connection
                if sqlite:
                    _check_foreign_keys(connection)
        finally:
            if sqlite:
                _sqlite_pragma(connection, "foreign_keys=ON")


def _sqlite_pragma(connection: Connection, pragma: str) -> None:
    # Straight to the driver: through SQLAlchemy the statement would begin a transaction.
    connection.connection.dbapi_connection.execute(f"PRAGMA {pragma}")  # type: ignore[union-attr]


def _check_foreign_keys(connection: Connection) -> None:
    dangling = connection.execute(text("PRAGMA foreign_key_check")).fetchall()
    if dangling:
        shown = ", ".join(f"{row[0]} row {row[1]} -> {row[2]}" for row in dangling[:5])
        raise RuntimeError(
            f"the migration left {len(dangling)} rows pointing at missing rows ({shown}); "
            "nothing was changed"
        )


def _drop_pre_alembic_tables(connection: Connection) -> list[str]:
    inspector = inspect(connection)
    present = set(inspector.get_table_names())
    if "alembic_version" in present:
        return []
    legacy = [name for name in PRE_ALEMBIC_TABLES if name in present]
    if not legacy:
        return []
    _check_kept_account_tables(connection, present)
    log.warning(
        "The database was made before migrations existed and holds only seed data: "
        "dropping its tables (%s) to rebuild them and load seed/ again. This happens once.",
        ", ".join(legacy),
    )
    tables = MetaData()
    tables.reflect(connection, only=legacy)
    tables.drop_all(connection)
    return legacy


# The columns migration 0003 makes (and adopts): later migrations add to these tables, so the
# current models are not what a database from before migrations can hold.
ACCOUNT_COLUMNS_AT_0003 = {
    "user_account": {"id", "name", "role", "password_hash", "disabled", "created_at"},
    "login_session": {"id", "user_id", "created_at", "expires_at", "last_seen_at", "address"},
    "api_token": {
        "id",
        "token_hash",
        "prefix",
        "user_id",
        "label",
        "created_at",
        "expires_at",
        "revoked_at",
    },
    "sign_in_failure": {"id", "name", "address", "at"},
}


def _check_kept_account_tables(connection: Connection, present: set[str]) -> None:
    """Refuse to go on if account tables made before migrations differ from what 0003 makes:
    adopting them would leave a schema the code cannot use, and dropping them loses users."""
    inspector = inspect(connection)
    stale = [
        name
        for name in ACCOUNT_TABLES
        if name in present
        and {c["name"] for c in inspector.get_columns(name)} != ACCOUNT_COLUMNS_AT_0003[name]
    ]
    if stale:
        raise SchemaError(
            f"The tables {', '.join(stale)} were made by another version of Inference Atlas "
            "and hold accounts, which a rebuild would lose. Nothing was changed; use the "
            "version that made this database, or export the users first."
        )

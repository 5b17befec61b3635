"""Seeding entry points used by the CLI and the app's first start."""

from pathlib import Path

from sqlalchemy import Engine, UniqueConstraint, inspect
from sqlmodel import Session, SQLModel, select

from app.accounts.models import ApiToken, LoginSession, SignInFailure, UserAccount
from app.db import create_tables, startup_lock
from app.models import System
from app.seeding.apply import apply_seed
from app.seeding.load import SeedData, load_seed


def seed(engine: Engine, seed_dir: Path) -> SeedData:
    """Validate seed_dir completely, then replace the seeded data in one transaction."""
    data = load_seed(seed_dir)
    apply_seed(engine, data)
    return data


def seed_if_empty(engine: Engine, seed_dir: Path) -> bool:
    """Seed a database that has no systems yet; return whether it did."""
    with Session(engine) as session:
        if session.exec(select(System.id).limit(1)).first() is not None:
            return False
    seed(engine, seed_dir)
    return True


def prepare_database(engine: Engine, seed_dir: Path) -> bool:
    """Create the tables and seed an empty database, once, however many processes start.

    Published tables made by an older version of the models are rebuilt from seed/: every row
    in them came from seed/, so nothing is lost. Accounts (users, sessions, tokens) are never
    dropped: if their tables are out of date the start stops with a message instead. (Alembic
    migrations replace this rebuild when team data arrives.)
    """
    with startup_lock(engine):
        stale = stale_tables(engine)
        kept = sorted(set(stale) & ACCOUNT_TABLES)
        if kept:
            raise SchemaError(
                f"The tables {', '.join(kept)} were made by another version of Inference Atlas "
                "and hold accounts, which a rebuild would lose. Nothing was changed; use the "
                "version that made this database, or export the users first."
            )
        if stale:
            published = [t for t in SQLModel.metadata.sorted_tables if t.name not in ACCOUNT_TABLES]
            SQLModel.metadata.drop_all(engine, tables=published)
        create_tables(engine)
        return seed_if_empty(engine, seed_dir)


ACCOUNT_TABLES = {
    model.__tablename__  # type: ignore[attr-defined]
    for model in (UserAccount, LoginSession, ApiToken, SignInFailure)
}


class SchemaError(RuntimeError):
    """The database's tables cannot be brought up to date without losing data."""


def stale_tables(engine: Engine) -> list[str]:
    """Tables whose columns or unique keys differ from the models'."""
    inspector = inspect(engine)
    existing = set(inspector.get_table_names())
    stale = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in existing:
            continue
        columns = {c["name"] for c in inspector.get_columns(table.name)}
        uniques = {
            tuple(sorted(u["column_names"])) for u in inspector.get_unique_constraints(table.name)
        }
        wanted = {
            tuple(sorted(c.name for c in constraint.columns))
            for constraint in table.constraints
            if isinstance(constraint, UniqueConstraint)
        }
        if columns != {c.name for c in table.columns} or not wanted <= uniques:
            stale.append(table.name)
    return stale

"""Seeding entry points used by the CLI and the app's first start."""

from pathlib import Path

from sqlalchemy import Engine, UniqueConstraint, inspect
from sqlmodel import Session, SQLModel, select

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

    A database made by an older version of the tables is rebuilt from seed/: every row in it
    came from seed/ (there is no team data yet), so nothing is lost.
    """
    with startup_lock(engine):
        if stale_tables(engine):
            SQLModel.metadata.drop_all(engine)
        create_tables(engine)
        return seed_if_empty(engine, seed_dir)


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

"""Seeding entry points used by the CLI and the app's first start."""

from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session, select

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
    """Create the tables and seed an empty database, once, however many processes start."""
    with startup_lock(engine):
        create_tables(engine)
        return seed_if_empty(engine, seed_dir)

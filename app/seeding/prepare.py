"""Seeding entry points used by the CLI and the app's first start."""

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import Session, select

from app.db import startup_lock
from app.migrations import migrate
from app.migrations.migrate import SchemaError
from app.models import System
from app.seeding.load import load_seed
from app.seeding.reader import SeedData
from app.writes.seed import apply_seed
from app.writes.seed_rows import SeedReport

__all__ = ["Preparation", "SchemaError", "migrate_and_seed", "prepare_database", "seed"]


@dataclass
class Preparation:
    """What `prepare_database` did: the migration, and whether it loaded seed/."""

    migration: migrate.Migration
    seeded: bool


def seed(engine: Engine, seed_dir: Path) -> SeedData:
    """Validate seed_dir completely, then bring the published data up to it in one transaction."""
    return seed_with_report(engine, seed_dir)[0]


def seed_with_report(engine: Engine, seed_dir: Path) -> tuple[SeedData, SeedReport]:
    data = load_seed(seed_dir)
    return data, apply_seed(engine, data)


def is_empty(engine: Engine) -> bool:
    with Session(engine) as session:
        return session.exec(select(System.id).limit(1)).first() is None


def prepare_database(engine: Engine, seed_dir: Path) -> Preparation:
    """Upgrade the schema to the newest migration, then seed the database if it is empty.

    Held under the startup lock, so any number of processes can start at once: the first
    migrates and seeds, the others wait and then find nothing to do.
    """
    with startup_lock(engine):
        migration = migrate.upgrade(engine)
        seeded = is_empty(engine)
        if seeded:
            seed(engine, seed_dir)
        return Preparation(migration=migration, seeded=seeded)


def migrate_and_seed(engine: Engine, seed_dir: Path) -> tuple[SeedData, SeedReport]:
    """`inference-atlas seed`: upgrade first, then load seed/ (under the startup lock, so a
    process starting meanwhile never seeds the same empty database as well)."""
    with startup_lock(engine):
        migrate.upgrade(engine)
        return seed_with_report(engine, seed_dir)

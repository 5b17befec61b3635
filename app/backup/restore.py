"""Restore a backup into a database: the seed files, then team.json, in one transaction.

Everything that can be checked from the files (team.json's shape, the seed files, every
slug and user the team's rows name) is checked before the database is touched. Then, under
the start-up lock (so no process starting meanwhile seeds the database as well), the schema
is migrated and one write transaction replaces every row with the backup's: a problem at
any point rolls it all back.
"""

from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.exc import DataError, IntegrityError
from sqlmodel import Session

from app.backup.checks import check_against_seed
from app.backup.document import TEAM_FILE, BackupError, BackupProblem
from app.backup.read import read_team_file
from app.db import startup_lock, writer
from app.migrations import migrate
from app.seeding.layout import FOLDERS, TOP_FILES
from app.seeding.load import load_seed

# The CLI names this refusal from here, beside restore_backup, which raises it.
from app.writes.restore import NotEmptyError as NotEmptyError
from app.writes.restore import restore_rows


@dataclass
class Restored:
    """What `restore_backup` did."""

    seed_dir: Path
    migration: migrate.Migration
    counts: dict[str, int]
    replaced: dict[str, int] = field(default_factory=dict)


def seed_dir_for(directory: Path, configured: Path) -> Path:
    """The backup's own seed files when it has any (an export writes them), else `configured`."""
    names = [*TOP_FILES, *FOLDERS]
    return directory if any((directory / name).exists() for name in names) else configured


def restore_backup(
    engine: Engine, directory: Path, configured_seed_dir: Path, replace: bool = False
) -> Restored:
    """Restore DIR's backup; raise BackupError, SeedError or NotEmptyError, writing nothing."""
    if not directory.is_dir():
        raise BackupError(directory, [BackupProblem("", "no such folder")])
    team = read_team_file(directory / TEAM_FILE)
    seed_dir = seed_dir_for(directory, configured_seed_dir)
    data = load_seed(seed_dir)
    if problems := check_against_seed(team, data):
        raise BackupError(directory / TEAM_FILE, problems)
    with startup_lock(engine):
        migration = migrate.upgrade(engine)
        try:
            with Session(writer(engine)) as session, session.begin():
                held = restore_rows(session, team, data, replace)
        except (IntegrityError, DataError) as exc:
            # The checks above should catch everything; this names what they missed.
            problem = BackupProblem("", f"the database refused the data: {exc.orig}")
            raise BackupError(directory / TEAM_FILE, [problem]) from exc
    counts = {k: len(v) for k, v in team.model_dump().items() if isinstance(v, list)}
    return Restored(seed_dir=seed_dir, migration=migration, counts=counts, replaced=held)

"""Backups: export writes the database out as seed files and team.json; import restores one."""

from pathlib import Path
from typing import Annotated

import typer

from app.backup.document import TEAM_FILE, BackupError, describe_counts
from app.backup.dump import export_backup
from app.backup.restore import NotEmptyError, restore_backup
from app.cli.common import database, refuse
from app.db import make_engine
from app.seeding.errors import SeedError
from app.seeding.prepare import SchemaError
from app.settings import Settings


def export(out_dir: Path) -> None:
    """Back up the database under OUT_DIR: the published data as seed files, and the team's
    data, users and history as team.json (secret: it holds password hashes)."""
    settings = Settings()
    engine = make_engine(settings.database_url, **settings.engine_options())
    try:
        done = export_backup(engine, out_dir)
    except BackupError as exc:
        refuse(str(exc))
    finally:
        engine.dispose()
    held = describe_counts(done.counts)
    typer.echo(f"Wrote {done.seed_files} seed files and {TEAM_FILE} ({held}) to {out_dir}.")
    typer.echo(f"{TEAM_FILE} holds password and token hashes: keep it as secret as the database.")


def restore(
    directory: Annotated[Path, typer.Argument(metavar="DIR")],
    replace: Annotated[
        bool,
        typer.Option(
            "--replace", help="Replace a database that holds team data or users (all of it)."
        ),
    ] = False,
) -> None:
    """Restore a backup that `export` wrote into DIR: migrate, load DIR's seed files (the
    configured seed folder if DIR has none), then the team's data, users and history, all in
    one transaction."""
    settings = Settings()
    with database(settings) as engine:
        try:
            done = restore_backup(engine, directory, settings.seed_dir, replace=replace)
        except (BackupError, SeedError, SchemaError) as exc:
            refuse(str(exc))
        except NotEmptyError as exc:
            refuse(str(exc), "Nothing was imported.")
    step = done.migration
    if step.before != step.after:
        typer.echo(f"Migrated the database from {step.before or 'empty'} to {step.after}.")
    if done.replaced:
        typer.echo(f"Replaced what the database held ({describe_counts(done.replaced)}).")
    typer.echo(f"Loaded the published data from {done.seed_dir}.")
    typer.echo(f"Restored {describe_counts(done.counts)} from {directory / TEAM_FILE}.")
    typer.echo("Browser sign-ins are not in a backup: everyone signs in again.")

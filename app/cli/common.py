"""What the commands share: the database for one command (migrated, and seeded when new),
refusing with a word rather than a traceback, and plain tables."""

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import NoReturn

import typer
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from app.db import make_engine
from app.seeding.errors import SeedError
from app.seeding.prepare import SchemaError, prepare_database
from app.settings import Settings


def prepare(settings: Settings, say: Callable[[str], object] = typer.echo) -> None:
    with database(settings) as engine:
        prepare_engine(engine, settings, say)


def prepare_engine(
    engine: Engine, settings: Settings, say: Callable[[str], object] = typer.echo
) -> None:
    """Migrate the database and seed it if it is empty, saying what was done (`serve` and
    `migrate` do it, and so do the commands that write to a database a team may have just
    created: `import-results`, the user and token commands)."""
    try:
        done = prepare_database(engine, settings.seed_dir)
    except SeedError as exc:
        refuse(str(exc))
    except SchemaError as exc:
        refuse(str(exc), "Nothing was changed.")
    step = done.migration
    if step.rebuilt:
        say(
            f"The database predates migrations (it held only seed data): dropped and rebuilt "
            f"{len(step.rebuilt)} tables."
        )
    if step.before != step.after:
        say(f"Migrated the database from {step.before or 'empty'} to {step.after}.")
    else:
        say(f"The database is at the newest schema ({step.after}).")
    if done.seeded:
        say(f"Seeded the empty database from {settings.seed_dir}.")


def quiet_unless_changed(message: str) -> None:
    """Report a migration or seeding on stderr; stay silent when the schema was current."""
    if not message.startswith("The database is at the newest schema"):
        typer.echo(message, err=True)


@contextmanager
def database(settings: Settings) -> Iterator[Engine]:
    """The configured database for one command, closed after it; a write that waited too
    long for another writer ends the command with a word rather than a traceback."""
    engine = make_engine(settings.database_url, **settings.engine_options())
    try:
        yield engine
    except OperationalError as exc:
        locked(exc)
    finally:
        engine.dispose()


def locked(exc: OperationalError) -> NoReturn:
    """Another writer held the database past the busy timeout: say so, without a traceback."""
    if "locked" not in str(exc.orig):
        raise exc
    seconds = Settings().sqlite_busy_timeout_ms / 1000
    refuse(
        f"The database stayed locked by another writer for {seconds:g} s.",
        "Nothing was written; run the command again when the other write is done.",
    )


def refuse(message: str, unchanged: str = "Nothing was written.") -> NoReturn:
    """Say on standard error what is wrong (`message`, when there is one) and that nothing
    changed, and exit with status 1."""
    if message:
        typer.echo(message, err=True)
    typer.echo(unchanged, err=True)
    raise typer.Exit(code=1)


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def print_table(rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
